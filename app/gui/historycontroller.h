// HistoryController: the window's routes between the History tab and the other tabs. It opens a
// recorded entry in its tab again (same model, settings, outputs and alignment: the tab is made
// current and its presenter told, so that showing the entry again records nothing), hands
// "Re-run with current settings" to HistoryRerunner with the Caption and the Translate tabs'
// settings and shows what it reports, and tells the Translate tab when the user leaves it or
// closes the window (flush()).
//
// What the tabs show is recorded by their presenters: translations by TranslatePresenter (with
// SessionPolicy's settling and editing sessions), comparisons by ComparePresenter, captions and
// translated captions by CaptionPresenter, documents by DocumentsPresenter, re-runs by
// HistoryRerunner. What stays here is the window's: which tab shows an entry (a QTabWidget and
// the views), the settings of two tabs' decoding panels, and the words for what failed.
#pragma once

#include "app/core/history/entry.h"
#include "app/core/history/sessionpolicy.h"
#include "app/core/inference/inferenceresult.h"
#include "app/core/presenters/historyrerunner.h"

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

    // Opens entries in `views` and re-runs them; `window` holds them (what the Translate tab
    // holds back is recorded when it closes).
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
    void showRerunFailure(glosa::HistoryRerunner::Failure failure, const QString &detail);

    AppContext &m_context;
    Views m_views;
    QWidget *m_window;
    HistoryView *m_view;
    HistoryRerunner *m_rerunner;
};

} // namespace glosa
