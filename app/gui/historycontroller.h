// HistoryController: connects the views to the history. It records what the Translate, Compare and
// Caption views show through the HistoryRecorder, opens a recorded entry in its view again (same
// model, settings, outputs and alignment), and runs "Re-run with current settings".
//
// When a translation is recorded: translate-as-you-type produces a result for every pause in
// typing, and recording each one would fill the history with "Good", "Good mor", "Good morning".
// So the latest translation is held back and recorded once no newer one has come for kSettleMs
// (the user stopped typing and is reading it), or at once when the user leaves the Translate tab
// or closes the window. A result for a different text (one that does not share at least half its
// beginning or end with the held one: another sentence pasted, not the same one typed further)
// records the held one first. A result identical to the last recorded entry (same model, input and
// settings: pressing Translate twice, or the view re-translating an entry just opened from the
// history) is not recorded again. One editing session of one text (the text typed, corrected,
// re-translated with other settings or another model, for as long as each result is the same text
// edited) keeps one entry per model: a later translation by the same model replaces that model's
// entry of the session (its star carried over), so the history holds what the text became, not
// every stage of it; an entry with the user's edits in it stays. Comparisons, captions and
// translated captions are explicit requests and are recorded as soon as they are shown.
#pragma once

#include "app/core/history/entry.h"
#include "app/core/inferenceresult.h"

#include <QHash>
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
    static constexpr int kSettleMs = 2000;

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
    std::optional<TranslationResult> m_pending;
    QTimer m_settle;
    QString m_lastKey; // kind, model, input and settings of the last recorded or opened entry
    qint64 m_lastId = 0;             // its id (HistoryRecorder::kQueued while it waits)
    qint64 m_shownTranslationId = 0; // the entry of what the Translate view shows; 0: none yet
    std::optional<QString> m_editToSave;
    // The editing session: the text as last recorded, and the entry of each model for it.
    QString m_sessionText;
    QHash<QString, qint64> m_sessionEntries; // model id → entry id
    QTimer m_editSettle;

    // Cleared by the destructor; caption entries made on the thread pool check it.
    std::shared_ptr<bool> m_alive = std::make_shared<bool>(true);

    std::unique_ptr<InferenceRequest> m_rerun;
};

} // namespace glosa
