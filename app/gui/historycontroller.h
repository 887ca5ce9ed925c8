// HistoryController: connects the views to the history. It records what the Translate, Compare and
// Caption views show through the HistoryRecorder, opens a recorded entry in its view again (same
// model, settings, outputs and alignment), and runs "Re-run with current settings".
//
// Which translations are recorded, and which entry a new one replaces, is SessionPolicy's
// (app/core/history/sessionpolicy.h: settling, duplicates, one entry per model and editing
// session); this class applies it: it holds the result the policy holds, records it when the
// policy says so (or when the user leaves the Translate tab or closes the window), and replaces
// a session's earlier entry (its star carried over; an entry with the user's edits in it stays).
// Comparisons, captions and translated captions are explicit requests and are recorded as soon as
// they are shown.
#pragma once

#include "app/core/history/entry.h"
#include "app/core/history/sessionpolicy.h"
#include "app/core/inference/inferenceresult.h"

#include <QElapsedTimer>
#include <QObject>
#include <QTimer>

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

    // Records the held-back translation now, if any.
    void flush();
    void openEntry(const glosa::HistoryEntry &entry);
    void rerun(const glosa::HistoryEntry &entry);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void onTranslation(const glosa::TranslationResult &result);
    void onSettleTimer();
    // Records m_pending (the result the policy released).
    void recordPending();
    void onComparison();
    void onCaption(const glosa::CaptionResult &result);
    void recordOnce(const HistoryEntry &entry);
    // recordOnce() for the Translate view's translations, within the editing session (above).
    void recordInSession(const HistoryEntry &entry);
    using Recording = void (HistoryController::*)(const HistoryEntry &);
    // Records what makeEntry() makes with `how`: at once, or for results with more alignment
    // cells than kLargeAlignmentCells made on the thread pool and recorded when done.
    void record(const QList<TranslationResult> &results, std::function<HistoryEntry()> makeEntry,
                Recording how = &HistoryController::recordOnce);
    void recordInBackground(std::function<HistoryEntry()> makeEntry,
                            Recording how = &HistoryController::recordOnce);
    // Post-editing: the user's version of the shown translation goes into its entry, once the
    // typing settles (the translation itself is recorded first when it is still held back).
    void saveEdit();
    static constexpr qsizetype kLargeAlignmentCells = 2'000'000;
    QString versionNote(const HistoryEntry &entry) const;
    InferenceWorker *captionWorker() const;
    // A re-run's result: shown next to the recorded entry, and recorded itself.
    void showRerun(const HistoryEntry &now);

    AppContext &m_context;
    Views m_views;
    QWidget *m_window;
    HistoryRecorder *m_recorder;
    HistoryView *m_view;
    SessionPolicy m_policy;
    QElapsedTimer m_clock;                 // the policy's clock
    std::optional<TranslationResult> m_pending; // the result the policy holds
    QTimer m_settle;                       // wakes the policy when the held result settles
    qint64 m_shownTranslationId = 0; // the entry of what the Translate view shows; 0: none yet
    std::optional<QString> m_editToSave;
    QTimer m_editSettle;

    // Cleared by the destructor; caption entries made on the thread pool check it.
    std::shared_ptr<bool> m_alive = std::make_shared<bool>(true);

    std::unique_ptr<InferenceRequest> m_rerun;
};

} // namespace glosa
