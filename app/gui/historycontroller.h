// HistoryController: the window's routes between the History tab and the other tabs. It opens a
// recorded entry in its tab again (same model, settings, outputs and alignment: the tab is made
// current and its presenter told, so that showing the entry again records nothing), runs
// "Re-run with current settings" with the Translate or Caption tab's settings and records its
// result, and tells the Translate tab when the user leaves it or closes the window (flush()).
//
// What the tabs show is recorded by their presenters: translations by TranslatePresenter (with
// SessionPolicy's settling and editing sessions), comparisons by ComparePresenter, captions and
// translated captions by CaptionPresenter, documents by DocumentsPresenter. What stays here is
// the window's: which tab shows an entry, and the settings of two tabs' decoding panels.
#pragma once

#include "app/core/history/entry.h"
#include "app/core/history/explicitrecorder.h"
#include "app/core/history/sessionpolicy.h"
#include "app/core/inference/inferenceresult.h"

#include <QObject>

class QTabWidget;

#include <functional>
#include <memory>
#include <optional>

namespace glosa {

class AppContext;
class CaptionView;
class CompareView;
class EvaluateDialog;
class HistoryView;
class InferenceRequest;
class InferenceWorker;
class TranslateView;

class HistoryController : public QObject
{
    Q_OBJECT
public:
    static constexpr int kSettleMs = SessionPolicy::kSettleMs;

    // The views whose results are recorded and in which recorded entries open again; `tabs`
    // holds them.
    struct Views
    {
        QTabWidget *tabs = nullptr;
        TranslateView *translate = nullptr;
        CompareView *compare = nullptr;
        CaptionView *caption = nullptr;
        HistoryView *history = nullptr;
        // Shows the Evaluate dialog (made when first needed) to open an evaluation in; null:
        // evaluations do not open.
        std::function<EvaluateDialog *()> evaluate;
    };

    // Opens entries in `views` and records re-runs through the context's recorder; `window`
    // holds them (what the Translate tab holds back is recorded when it closes).
    HistoryController(AppContext &context, const Views &views, QWidget *window);
    ~HistoryController() override;

    // Records the Translate tab's held-back translation and edit now, if any.
    void flush();
    void openEntry(const glosa::HistoryEntry &entry);
    void rerun(const glosa::HistoryEntry &entry);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    QString versionNote(const HistoryEntry &entry) const;
    InferenceWorker *captionWorker() const;
    // A re-run's result: shown next to the recorded entry, and recorded itself.
    void showRerun(const HistoryEntry &now);

    AppContext &m_context;
    Views m_views;
    QWidget *m_window;
    HistoryView *m_view;
    ExplicitRecorder m_reruns;
    std::unique_ptr<InferenceRequest> m_rerun;
};

} // namespace glosa
