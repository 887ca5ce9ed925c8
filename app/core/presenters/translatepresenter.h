// TranslatePresenter: the Translate tab without its widgets. It owns what the tab shows and
// decides: the source text, the model and its worker, the translation shown (with the n-best
// choice, the search trace the candidates come from and the user's edits), steering (a
// translation again with a prefix the user forced, and "Back to the original"), the language
// guard (checkSourceLanguage, app/core/inference/languageguess.h) and what goes into the history
// (SessionPolicy: one settled entry per model and editing session; the user's edits into the
// entry of what they edited), and the words of the translation its language does not know
// (WordCheck: a made-up word, marked with its candidates). TranslateView renders this state
// and forwards input to it.
//
// Basic usage:
//     TranslatePresenter presenter(context);             // follows the context's model choice
//     presenter.setOptionsSource([panel] { return panel->options(); });
//     connect(&presenter, &TranslatePresenter::resultChanged, ...);  // then result()
//     presenter.setSource(text);
//     presenter.translate();            // asked for: translated whatever the language
//     presenter.translateAutomatically(); // typing, a model change: the guard may stop it
//     presenter.showCandidates(token);  // the trace is asked for: candidatesChanged
//     presenter.decodeWithCandidate(id);  // steered: resultChanged, isSteered()
//     presenter.backToOriginal();
//     connect(&presenter, &TranslatePresenter::unknownWordsChanged, ...);  // unknownWords()
//     presenter.flushHistory();         // the tab is left: what is held back is recorded
#pragma once

#include "app/core/appcontext.h"
#include "app/core/history/entry.h"
#include "app/core/history/sessionpolicy.h"
#include "app/core/inference/inferenceresult.h"
#include "app/core/inference/inferenceworker.h"
#include "app/core/inference/languageguess.h"
#include "app/core/inference/wordcheck.h"

#include <QElapsedTimer>
#include <QObject>
#include <QTimer>

#include <functional>
#include <memory>
#include <optional>

namespace glosa {

class TranslatePresenter : public QObject
{
    Q_OBJECT
public:
    // What a request on its way is for (the view words its status from it).
    enum class Request { Translation, Steering };
    Q_ENUM(Request)
    // A history write that failed (the view words it; the reason comes with it).
    enum class HistoryFailure { ReplaceEarlier, SaveEdit };
    Q_ENUM(HistoryFailure)
    // A steered translation's prefix as the user chose it: its words, whether it ends the
    // sentence, and which sentence of how many it is forced in.
    struct Steering
    {
        QString words;
        bool ends = false;
        int sentence = 0;
        int sentences = 1;
    };

    explicit TranslatePresenter(AppContext &context, QObject *parent = nullptr);
    ~TranslatePresenter() override;

    // --- The model -------------------------------------------------------------------------
    const ModelChoice &choice() const { return m_choice; }
    // The chosen model's worker; null when it cannot run.
    InferenceWorker *worker() const { return m_worker; }
    bool isModelLoaded() const { return m_worker && m_worker->isModelLoaded(); }

    // --- The request -----------------------------------------------------------------------
    // Where the user's decoding choices come from (the view's decoding panel, which joins the
    // model's defaults and the settings); until set, the model's defaults.
    void setOptionsSource(std::function<engine::DecodingOptions()> source);
    // The options the next translation is asked with (untraced).
    engine::DecodingOptions requestOptions() const;
    // Which layer and head the alignment is recorded from; the model's default once it loads.
    AlignmentChoice alignment() const { return m_alignment; }
    void setAlignment(const AlignmentChoice &alignment) { m_alignment = alignment; }
    // Whether translations carry every attention map (a self-attention or all heads shown).
    void setEveryAttention(bool every) { m_everyAttention = every; }
    bool everyAttention() const { return m_everyAttention; }
    // The shown translation lacks the maps that everyAttention() asks for.
    bool missingAttentionMaps() const;

    // --- The text and what is shown --------------------------------------------------------
    QString source() const { return m_source; }
    // The text to translate, as the user edits it; nothing is translated until asked.
    void setSource(const QString &text);
    const TranslationResult &result() const { return m_result; }
    // Which of the n-best is shown (clamped to the result's).
    int hypothesis() const { return m_hypothesis; }
    void chooseHypothesis(int index);
    const TranslationHypothesis *shownHypothesis() const;
    // The source still says what was translated (token positions hold).
    bool isSourceCurrent() const { return m_source == m_result.source; }
    // After a Cancel: the translation shown is of an earlier text, until the next one.
    bool isStale() const { return m_stale; }
    bool isBusy() const { return m_worker && m_worker->isBusy(); }

    // --- Post-editing ----------------------------------------------------------------------
    // The translation pane's text as the user left it: an edit when it differs from the shown
    // hypothesis (translationEdited, and the history's entry gets it).
    void setTargetText(const QString &text);
    bool isEdited() const { return m_edited; }
    // The user's version of the shown translation, empty while it is the model's own.
    QString editedText() const { return m_edited ? m_editedText : QString(); }
    // The translation as shown (the user's version when edited) into `path` as UTF-8, replaced
    // whole or not at all; false with the reason in *error.
    bool saveTranslation(const QString &path, QString *error) const;

    // --- Candidates and steering -----------------------------------------------------------
    // The best translation's token whose candidates are shown; -1: none.
    int candidatesToken() const { return m_candidateToken; }
    // The trace step of candidatesToken(), null while there is none (no token, an edited pane,
    // another hypothesis shown, or the trace still on its way: candidatesChanged follows).
    const SentenceTrace *candidatesTrace(int *step) const;
    bool isSteered() const { return !m_original.isEmpty(); }
    const Steering &steering() const { return m_steering; }

    // --- Words the target language does not know --------------------------------------------
    // The shown hypothesis's words in neither the target language's dictionary nor the source
    // (WordCheck), each with the token whose candidates explain it; none while the pane holds
    // the user's edits, or while no dictionary is loaded.
    const QList<UnknownWord> &unknownWords() const { return m_unknownWords; }
    // Whether the model's target language has a dictionary, loaded: words are checked. False
    // while it loads (unknownWordsChanged follows) and for a language without one.
    bool checksWords() const { return m_wordCheck != nullptr; }
    // The language the dictionary is asked for (the model's target language).
    QString wordCheckLanguage() const { return m_wordCheckLanguage; }

    // --- The language guard ----------------------------------------------------------------
    // The language the source looks like when it is not the model's, with the model offered for
    // it; empty language while the source passes (or the user went on anyway).
    const LanguageMismatch &languageMismatch() const { return m_mismatch; }

    // --- The history -----------------------------------------------------------------------
    // The entry of the translation shown (later edits go there); 0: none yet.
    qint64 shownEntryId() const { return m_shownEntryId; }

public slots:
    // Translates the source as it is now (the user asked): whatever its language, but the
    // guard's warning is shown.
    void translate();
    // What translates without being asked (a model change, typing, a setting): like
    // translate(), unless the source looks like another language; then nothing is translated
    // (notTranslated).
    void translateAutomatically();
    // The user goes on with the model chosen although the guard warned (until the model changes
    // or the source is cleared).
    void translateAnyway();
    void cancel();
    void showCandidates(int token);
    // Translates again with the best translation up to the candidates' step and `token` there
    // forced, in that sentence only.
    void decodeWithCandidate(int token);
    void backToOriginal();
    // A result recorded earlier (History ▸ Open) shown as if just translated, with the user's
    // version of it when they had edited it.
    void showStoredResult(const glosa::TranslationResult &result,
                          const QString &editedText = QString());
    // `entry` was opened from the history: what it shows again is not recorded again, and
    // edits go into it.
    void historyEntryOpened(const glosa::HistoryEntry &entry);
    // Records what is held back now (the tab is left, the window closes), and a pending edit.
    void flushHistory();

signals:
    // Another model was chosen (worker() and choice() changed), or the chosen one has loaded.
    void modelChanged();
    void modelLoaded();
    void busyChanged(bool busy);
    void requestStarted(glosa::TranslatePresenter::Request request);
    // Decoding steps of the current sentence batch, and, for a long text, sentences done.
    void progress(int step, int maximum);
    void sentencesDone(int done, int total, qint64 millisecondsLeft);
    // What is shown changed: result(), hypothesis(), the steering, the edits were dropped.
    void resultChanged();
    // A new translation is shown; `steered`: one with the user's choice forced.
    void translated(const glosa::TranslationResult &result, bool steered);
    // What the tab shows now, for the history: a translation, a steered one, or the original
    // again after "Back to the original".
    void translationShown(const glosa::TranslationResult &result);
    void failed(const QString &message);
    void cancelled();
    // The guard stopped an automatic translation (the shown one, if not edited, was cleared).
    void notTranslated();
    void languageMismatchChanged();
    void candidatesChanged();
    // unknownWords() or checksWords() changed (an edit, the dictionary loaded, another model);
    // with a new result resultChanged says so.
    void unknownWordsChanged();
    void editedChanged(bool edited);
    // The user's version of the shown translation; "" when they went back to the model's.
    void translationEdited(const QString &text);
    // A translation was recorded as entry `id` (> 0; HistoryRecorder::kQueued while another
    // process holds the lock; 0: not recorded), or was the entry recorded last.
    void entryRecorded(qint64 id);
    // An earlier entry was replaced, or an edit saved: the history lists changed.
    void historyChanged();
    void historyFailed(glosa::TranslatePresenter::HistoryFailure failure, const QString &reason);

private:
    void useModel(const glosa::ModelChoice &choice);
    void onModelLoaded();
    // Asks the worker for `options` on the shown source (or `text`), replacing what was asked.
    void post(const QString &text, const engine::DecodingOptions &options, Request kind);
    void onTranslated(const QList<glosa::TranslationResult> &results, Request kind);
    // Runs the guard on the source; true when it warns.
    bool checkLanguage();
    void clearLanguageMismatch();
    // Shows `result` as the new translation (n-best choice, candidates and edits start over).
    void setResult(const TranslationResult &result);
    void requestTrace();
    // Loads the dictionary of `language` on the pool (once per language for the process).
    void useWordCheck(const QString &language);
    // The marks of the shown hypothesis again; true when they changed (and then
    // unknownWordsChanged, if `announce`).
    bool updateUnknownWords(bool announce = true);

    // The history: SessionPolicy applied to the results shown.
    void holdForHistory(const TranslationResult &result);
    void onSettleTimer();
    void releaseHeld();
    void recordPending();
    void recordEntry(const HistoryEntry &entry);
    void replaceInSession(const HistoryEntry &entry, qint64 id);
    void saveEdit();

    AppContext &m_context;
    ModelChoice m_choice;
    InferenceWorker *m_worker = nullptr;
    std::function<engine::DecodingOptions()> m_optionsSource;
    AlignmentChoice m_alignment;
    bool m_everyAttention = false;

    QString m_source;
    std::unique_ptr<InferenceRequest> m_request;
    std::unique_ptr<InferenceRequest> m_traceRequest;
    QElapsedTimer m_requestTime;
    bool m_countingSentences = false; // a long text: progress counts sentences
    TranslationResult m_result;
    // While a steered result is shown: the translation it was steered from; empty otherwise.
    TranslationResult m_original;
    Steering m_steering;
    Steering m_nextSteering; // the steering of the request on its way
    int m_hypothesis = 0;
    int m_candidateToken = -1;
    bool m_edited = false;
    QString m_editedText;
    bool m_stale = false;

    QString m_wordCheckLanguage;
    std::shared_ptr<const WordCheck> m_wordCheck;
    QList<UnknownWord> m_unknownWords;

    LanguageMismatch m_mismatch;
    bool m_languageAccepted = false;

    SessionPolicy m_policy;
    QElapsedTimer m_clock; // the policy's clock
    std::optional<TranslationResult> m_pending;
    QTimer m_settle;
    qint64 m_shownEntryId = 0;
    std::optional<QString> m_editToSave;
    QTimer m_editSettle;
};

} // namespace glosa
