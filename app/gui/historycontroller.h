// HistoryController: connects the views to the history. It records what the Compare and Caption
// views show through the HistoryRecorder, opens a recorded entry in its view again (same model,
// settings, outputs and alignment), and runs "Re-run with current settings".
//
// The Translate tab's translations are recorded by its presenter (TranslatePresenter, with
// SessionPolicy's settling and editing sessions); this class tells it when the user leaves the
// tab or closes the window (flush()) and shows what it reports. Comparisons, captions and
// translated captions are explicit requests and are recorded as soon as they are shown.
#pragma once

#include "app/core/history/entry.h"
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
class HistoryRecorder;
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

    // Records what `views` show through the context's recorder; `window` holds them (what is
    // held back is recorded when it closes).
    HistoryController(AppContext &context, const Views &views, QWidget *window);
    ~HistoryController() override;

    // Records the Translate tab's held-back translation and edit now, if any.
    void flush();
    void openEntry(const glosa::HistoryEntry &entry);
    void rerun(const glosa::HistoryEntry &entry);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void onComparison();
    void onCaption(const glosa::CaptionResult &result);
    // Records `entry` unless it repeats the last one recorded or opened.
    void recordOnce(const HistoryEntry &entry);
    QString versionNote(const HistoryEntry &entry) const;
    InferenceWorker *captionWorker() const;
    // A re-run's result: shown next to the recorded entry, and recorded itself.
    void showRerun(const HistoryEntry &now);

    AppContext &m_context;
    Views m_views;
    QWidget *m_window;
    HistoryRecorder *m_recorder;
    HistoryView *m_view;
    SessionPolicy m_policy; // duplicates of comparisons, captions and re-runs
    std::unique_ptr<InferenceRequest> m_rerun;
};

} // namespace glosa
