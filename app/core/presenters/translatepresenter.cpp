#include "app/core/presenters/translatepresenter.h"

#include "app/core/history/recorder.h"
#include "app/core/history/entrykinds.h"
#include "app/core/history/store.h"
#include "app/core/inference/decodingrequest.h"
#include "app/core/platform/handoff.h"
#include "app/core/platform/savefile.h"

#include <QCoreApplication>
#include <QDir>
#include <QPointer>

#include <algorithm>

namespace glosa {

TranslatePresenter::TranslatePresenter(AppContext &context, QObject *parent)
    : QObject(parent), m_context(context)
{
    m_clock.start();
    m_settle.setSingleShot(true);
    // A coarse timer may fire up to 5% early, before the policy's settling time.
    m_settle.setTimerType(Qt::PreciseTimer);
    connect(&m_settle, &QTimer::timeout, this, &TranslatePresenter::onSettleTimer);
    m_editSettle.setSingleShot(true);
    m_editSettle.setInterval(SessionPolicy::kSettleMs / 2);
    connect(&m_editSettle, &QTimer::timeout, this, &TranslatePresenter::saveEdit);
    connect(&context, &AppContext::modelChosen, this, &TranslatePresenter::useModel);
    useModel(context.choice(AppContext::kTranslation));
}

TranslatePresenter::~TranslatePresenter() = default;

void TranslatePresenter::useModel(const ModelChoice &choice)
{
    if (choice.task != AppContext::kTranslation)
        return;
    if (m_worker)
        disconnect(m_worker, nullptr, this, nullptr);
    m_choice = choice;
    clearLanguageMismatch(); // a new model: the text is checked against its language again
    m_worker = choice.isReady() ? m_context.workerFor(*choice.model) : nullptr;
    m_request.reset();
    m_alignment = isModelLoaded() ? m_worker->defaultAlignment() : AlignmentChoice();
    useWordCheck(choice.model ? choice.model->targetLanguage : QString());
    if (m_worker) {
        connect(m_worker, &InferenceWorker::busyChanged, this, &TranslatePresenter::busyChanged);
        connect(m_worker, &InferenceWorker::modelLoaded, this, &TranslatePresenter::onModelLoaded);
    }
    emit modelChanged();
    if (isModelLoaded() && !m_source.trimmed().isEmpty())
        translateAutomatically();
}

void TranslatePresenter::onModelLoaded()
{
    m_alignment = m_worker->defaultAlignment(); // a new model: its default again
    emit modelLoaded();
    if (!m_source.trimmed().isEmpty())
        translateAutomatically();
}

void TranslatePresenter::setOptionsSource(std::function<engine::DecodingOptions()> source)
{
    m_optionsSource = std::move(source);
}

engine::DecodingOptions TranslatePresenter::requestOptions() const
{
    // Without a panel (a test, a future view with none): the model's defaults and the app's
    // do-not-translate terms, as the one request builder makes them.
    engine::DecodingOptions options =
        m_optionsSource ? m_optionsSource()
        : m_worker      ? decodingRequest(m_worker->modelInfo().decodingDefaults(), {})
                        : engine::DecodingOptions();
    options.trace = false;
    return options;
}

bool TranslatePresenter::missingAttentionMaps() const
{
    const TranslationHypothesis *h = shownHypothesis();
    return m_everyAttention && h && h->attentionMaps.isEmpty();
}

void TranslatePresenter::setSource(const QString &text)
{
    m_source = text;
}

void TranslatePresenter::chooseHypothesis(int index)
{
    m_hypothesis = index;
    setResult(m_result);
}

const TranslationHypothesis *TranslatePresenter::shownHypothesis() const
{
    if (m_result.hypotheses.isEmpty())
        return nullptr;
    return &m_result.hypotheses.at(
        std::clamp<int>(m_hypothesis, 0, m_result.hypotheses.size() - 1));
}

void TranslatePresenter::setResult(const TranslationResult &result)
{
    m_result = result;
    m_stale = false;
    m_edited = false;
    m_editedText.clear();
    // Before the view renders the result, marks and all (resultChanged says they changed too).
    updateUnknownWords(false);
    emit resultChanged();
    requestTrace();
}

void TranslatePresenter::useWordCheck(const QString &language)
{
    if (language == m_wordCheckLanguage)
        return;
    m_wordCheckLanguage = language;
    m_wordCheck.reset();
    updateUnknownWords();
    if (language.isEmpty())
        return;
    // Hunspell reads the whole dictionary (about 0.2 s for Spanish): never on the GUI thread.
    // Handed back through qApp, which outlives the presenter; the guard is read there only.
    startOnPool([guard = QPointer<TranslatePresenter>(this), language] {
        std::shared_ptr<const WordCheck> check = WordCheck::forLanguage(language);
        postCall(qApp, [guard, language, check = std::move(check)] {
            if (!guard || guard->m_wordCheckLanguage != language)
                return; // another model came meanwhile
            guard->m_wordCheck = check;
            if (!guard->updateUnknownWords())
                emit guard->unknownWordsChanged(); // checksWords() changed
        });
    });
}

bool TranslatePresenter::updateUnknownWords(bool announce)
{
    const TranslationHypothesis *h = shownHypothesis();
    // An edited pane is the user's text: its words are theirs, and the tokens no longer hold.
    QList<UnknownWord> words;
    if (m_wordCheck && h && !m_edited)
        words = m_wordCheck->unknownWords(*h, m_result.source);
    const bool changed =
        words.size() != m_unknownWords.size() ||
        !std::equal(words.begin(), words.end(), m_unknownWords.begin(),
                    [](const UnknownWord &a, const UnknownWord &b) {
                        return a.begin == b.begin && a.end == b.end && a.token == b.token;
                    });
    m_unknownWords = words;
    if (changed && announce)
        emit unknownWordsChanged();
    return changed;
}

void TranslatePresenter::setTargetText(const QString &text)
{
    const TranslationHypothesis *h = shownHypothesis();
    const bool edited = text != (h ? h->text : QString());
    if (!edited && !m_edited)
        return;
    m_edited = edited;
    m_editedText = edited ? text : QString();
    updateUnknownWords();
    emit editedChanged(edited);
    m_editToSave = editedText();
    m_editSettle.start();
    emit translationEdited(editedText());
}

bool TranslatePresenter::saveTranslation(const QString &path, QString *error) const
{
    const TranslationHypothesis *h = shownHypothesis();
    // SaveFile, not QSaveFile: on a full disk QSaveFile renamed an empty file over the old one
    // and reported success (savefile.h says why).
    SaveFile file(path);
    QByteArray text = (m_edited ? m_editedText : h ? h->text : QString()).toUtf8();
    if (!text.isEmpty() && !text.endsWith('\n'))
        text += '\n';
    if (file.open(QIODevice::WriteOnly)) {
        file.write(text);
        if (file.commit())
            return true;
    }
    *error = tr("Could not save %1: %2").arg(QDir::toNativeSeparators(path), file.errorString());
    return false;
}

void TranslatePresenter::translate()
{
    if (!m_worker)
        return;
    if (m_source.trimmed().isEmpty()) {
        m_worker->cancel();
        clearLanguageMismatch();
        setResult(TranslationResult());
        return;
    }
    checkLanguage(); // asked for: translated whatever the language, but not silently
    post(m_source, requestOptions(), Request::Translation);
}

void TranslatePresenter::translateAutomatically()
{
    if (m_worker && checkLanguage()) {
        m_request.reset();
        m_worker->cancel();
        // What is shown is another model's or another text's translation: not this one.
        if (!m_edited)
            setResult(TranslationResult());
        emit notTranslated();
        return;
    }
    translate();
}

void TranslatePresenter::translateAnyway()
{
    m_languageAccepted = true;
    m_mismatch = LanguageMismatch();
    emit languageMismatchChanged();
    translate();
}

bool TranslatePresenter::checkLanguage()
{
    m_mismatch = LanguageMismatch();
    if (m_choice.model && !m_languageAccepted)
        m_mismatch = checkSourceLanguage(m_source, *m_choice.model,
                                         [this](const QString &source, const QString &target) {
                                             return m_context.modelForDirection(source, target);
                                         });
    emit languageMismatchChanged();
    return m_mismatch.found();
}

void TranslatePresenter::clearLanguageMismatch()
{
    m_languageAccepted = false;
    m_mismatch = LanguageMismatch();
    emit languageMismatchChanged();
}

void TranslatePresenter::post(const QString &text, const engine::DecodingOptions &options,
                              Request kind)
{
    m_request = m_worker->translate(text, {options}, m_alignment, m_everyAttention);
    m_countingSentences = false;
    m_requestTime.start();
    InferenceRequest *request = m_request.get();
    if (kind == Request::Translation) {
        connect(request, &InferenceRequest::progress, this, [this](int step, int max) {
            if (!m_countingSentences) // a long text: the bar counts sentences
                emit progress(step, max);
        });
        // A text of several batches: sentences done of all and the time left.
        connect(request, &InferenceRequest::sentencesDone, this, [this](int done, int total) {
            if (done >= total)
                return; // one batch, or the last: the result follows at once
            m_countingSentences = true;
            emit sentencesDone(done, total,
                               m_requestTime.elapsed() * (total - done) / std::max(1, done));
        });
    }
    connect(request, &InferenceRequest::translated, this,
            [this, kind](const QList<TranslationResult> &results) { onTranslated(results, kind); });
    connect(request, &InferenceRequest::failed, this, &TranslatePresenter::failed);
    emit requestStarted(kind);
}

void TranslatePresenter::onTranslated(const QList<TranslationResult> &results, Request kind)
{
    if (results.isEmpty())
        return;
    const bool steered = kind == Request::Steering;
    if (steered) {
        // The chart stays on the step, now with the forced candidate chosen.
        if (m_original.isEmpty())
            m_original = m_result;
        m_steering = m_nextSteering;
    } else {
        // A new translation: the word and the steering were of the old one.
        m_candidateToken = -1;
        m_original = TranslationResult();
        m_steering = Steering();
    }
    m_hypothesis = 0;
    const TranslationResult result = results.first();
    setResult(result);
    emit translated(result, steered);
    emit translationShown(result);
    holdForHistory(result);
}

void TranslatePresenter::cancel()
{
    if (m_worker)
        m_worker->cancel();
    // What is shown is still the translation of the text as it was: not of the source now.
    m_stale = !m_result.isEmpty() && m_result.source != m_source;
    emit cancelled();
}

void TranslatePresenter::showCandidates(int token)
{
    m_candidateToken = token;
    requestTrace();
    emit candidatesChanged();
}

const SentenceTrace *TranslatePresenter::candidatesTrace(int *step) const
{
    const TranslationHypothesis *h = shownHypothesis();
    // The trace follows the best hypothesis; an edited pane has no tokens to point at.
    if (m_candidateToken < 0 || !h || m_hypothesis != 0 || m_edited ||
        m_candidateToken >= h->tokens.size() || m_result.traces.isEmpty())
        return nullptr;
    const int sentence = m_result.sentenceOfToken(m_candidateToken);
    if (sentence < 0)
        return nullptr;
    const SentenceTrace &trace = m_result.traces[sentence];
    *step = m_candidateToken - trace.targetOffset;
    return &trace;
}

void TranslatePresenter::requestTrace()
{
    const TranslationHypothesis *h = shownHypothesis();
    if (m_candidateToken < 0 || !h || m_hypothesis != 0 || m_edited ||
        m_candidateToken >= h->tokens.size() || !m_result.traces.isEmpty() || m_traceRequest ||
        !m_worker)
        return;
    // The same translation again, traced: the same text, settings and seed decode the same.
    engine::DecodingOptions options = m_result.options;
    options.trace = true;
    m_traceRequest = m_worker->translate(m_result.source, {options});
    const QString text = h->text;
    connect(m_traceRequest.get(), &InferenceRequest::translated, this,
            [this, text](const QList<TranslationResult> &results) {
                m_traceRequest.release()->deleteLater();
                // Only if it is still the shown translation (and the model still says it).
                if (!results.isEmpty() && results.first().best() && m_result.best() &&
                    results.first().best()->text == text && m_result.best()->text == text &&
                    m_result.traces.isEmpty()) {
                    m_result.traces = results.first().traces;
                    emit candidatesChanged();
                }
            });
    connect(m_traceRequest.get(), &InferenceRequest::failed, this,
            [this] { m_traceRequest.release()->deleteLater(); });
    connect(m_traceRequest.get(), &InferenceRequest::cancelled, this,
            [this] { m_traceRequest.release()->deleteLater(); });
}

void TranslatePresenter::decodeWithCandidate(int token)
{
    const int sentence = m_result.sentenceOfToken(m_candidateToken);
    if (!m_worker || m_hypothesis != 0 || sentence < 0 || m_result.traces.isEmpty())
        return;
    const SentenceTrace &trace = m_result.traces[sentence];
    const QList<int> prefix = trace.prefixWith(m_candidateToken - trace.targetOffset, token);
    if (prefix.isEmpty())
        return;
    // The shown translation's settings (a steered one's prefix is replaced), the prefix added.
    engine::DecodingOptions options = m_result.options;
    options.trace = true; // its candidates can be shown and steered in turn
    options.targetPrefix.assign(prefix.begin(), prefix.end());
    options.targetPrefixSentence = sentence;
    options.maxLength = std::max(options.maxLength, int(prefix.size()));
    m_nextSteering = Steering();
    m_nextSteering.words = trace.words(prefix, &m_nextSteering.ends);
    m_nextSteering.sentence = sentence;
    m_nextSteering.sentences = int(m_result.traces.size());
    post(m_result.source, options, Request::Steering);
}

void TranslatePresenter::backToOriginal()
{
    if (m_original.isEmpty())
        return;
    m_request.reset(); // a steered translation still on its way must not come back
    const TranslationResult original = m_original;
    m_original = TranslationResult();
    m_steering = Steering();
    m_hypothesis = 0;
    setResult(original);
    // What is shown is what the history keeps: the original replaces the steered entry.
    emit translationShown(original);
    holdForHistory(original);
}

void TranslatePresenter::showStoredResult(const TranslationResult &result,
                                          const QString &editedText)
{
    m_request.reset(); // a request still running for the old text must not replace it
    m_hypothesis = 0;
    m_candidateToken = -1;
    m_original = TranslationResult();
    m_steering = Steering();
    setResult(result);
    if (!editedText.isEmpty()) {
        m_edited = editedText != (result.best() ? result.best()->text : QString());
        m_editedText = m_edited ? editedText : QString();
        updateUnknownWords(); // the user's version: no marks
    }
}

// --- The history ---------------------------------------------------------------------------

void TranslatePresenter::historyEntryOpened(const HistoryEntry &entry)
{
    // Re-translating what was opened is not a new entry, and it is never replaced.
    m_policy.opened(historyEntryKey(entry), entry.id);
    m_shownEntryId = entry.id; // edits of the reopened translation go to its entry
    m_editToSave.reset();
}

void TranslatePresenter::holdForHistory(const TranslationResult &result)
{
    if (result.isEmpty()) // the source was cleared: what was there before still settles
        return;
    if (m_policy.hold(result.source, m_clock.elapsed()))
        recordPending(); // a different text, not the next state of the one being typed
    m_pending = result;
    m_shownEntryId = 0; // a new translation replaced the recorded one
    m_editToSave.reset();
    m_settle.start(static_cast<int>(*m_policy.settlesAt() - m_clock.elapsed()));
}

void TranslatePresenter::onSettleTimer()
{
    const qint64 now = m_clock.elapsed();
    if (m_policy.takeSettled(now))
        recordPending();
    else if (const std::optional<qint64> at = m_policy.settlesAt())
        m_settle.start(static_cast<int>(std::max<qint64>(*at - now, 1)));
}

void TranslatePresenter::releaseHeld()
{
    m_settle.stop();
    if (m_policy.release())
        recordPending();
}

void TranslatePresenter::flushHistory()
{
    releaseHeld();
    saveEdit();
}

void TranslatePresenter::recordPending()
{
    if (!m_pending)
        return;
    const TranslationResult result = *m_pending;
    m_pending.reset();
    makeHistoryEntry(
        this, isSlowHistoryEntry({result}),
        [result, info = historyModelInfo(m_context.catalog(), result.modelId)] {
            return translationHistoryEntry(result, info);
        },
        [this](const HistoryEntry &entry) { recordEntry(entry); });
}

void TranslatePresenter::recordEntry(const HistoryEntry &entry)
{
    m_policy.enterSession(entry.inputText);
    const QString key = historyEntryKey(entry);
    const bool duplicate = m_policy.isDuplicate(key);
    qint64 id = m_policy.lastId(); // the same as the last one: that entry
    if (!duplicate) {
        id = m_context.history()->record(entry);
        if (id != 0) // saved, or waiting for another process's lock
            m_policy.recorded(key, id);
    }
    // The entry of the translation shown: later edits of it go there.
    if (id > 0 && !m_result.isEmpty() && entry.inputText == m_result.source &&
        entry.modelId == m_result.modelId) {
        m_shownEntryId = id;
        if (m_editToSave && !m_editSettle.isActive())
            saveEdit();
    }
    if (!duplicate && id > 0) // nothing new, or queued behind another process's lock
        replaceInSession(entry, id);
    emit entryRecorded(id);
}

void TranslatePresenter::replaceInSession(const HistoryEntry &entry, qint64 id)
{
    const qint64 previous = m_policy.replaceInSession(entry.modelId, id);
    HistoryStore *store = m_context.history()->store();
    if (previous <= 0 || !store)
        return;
    try {
        // An entry holding the user's own version of the translation is theirs: kept.
        const std::optional<HistoryEntry> old = store->entry(previous);
        if (!old || !old->editedText.isEmpty())
            return;
        if (old->starred)
            store->setStarred(id, true);
        store->removeEntry(previous);
        emit historyChanged();
    } catch (const std::exception &e) {
        // The new entry is recorded; the earlier one merely stays.
        emit historyFailed(HistoryFailure::ReplaceEarlier, QString::fromUtf8(e.what()));
    }
}

void TranslatePresenter::saveEdit()
{
    m_editSettle.stop();
    if (!m_editToSave)
        return;
    releaseHeld(); // the model's translation first
    HistoryStore *store = m_context.history()->store();
    if (m_shownEntryId <= 0 || !store)
        return; // recorded later (recordEntry() comes back here), or not recorded at all
    try {
        store->setEditedText(m_shownEntryId, *m_editToSave);
        m_editToSave.reset();
        emit historyChanged();
    } catch (const std::exception &e) {
        m_editToSave.reset();
        emit historyFailed(HistoryFailure::SaveEdit, QString::fromUtf8(e.what()));
    }
}

} // namespace glosa
