// TranslatePresenter without its view: the bundled Transformers (real plugins, real models, real
// worker threads) and a real SQLite history in a temporary folder. Every wait is on one of the
// presenter's own signals.
#include "app/core/appcontext.h"
#include "app/core/history/recorder.h"
#include "app/core/history/entrykinds.h"
#include "app/core/history/store.h"
#include "app/core/inference/wordcheck.h"
#include "app/core/presenters/translatepresenter.h"
#include "tests/support/appcontextutil.h"
#include "tests/support/testutil.h"

#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <functional>
#include <memory>

using namespace glosa;

namespace {

constexpr int kTimeoutMs = 60000;
const QString kEnglish = QStringLiteral("The black cat sleeps on the old sofa.");

// Makes `id` the presenter's model and waits until it has loaded.
bool useModel(AppContext &context, TranslatePresenter &presenter, const QString &id)
{
    QSignalSpy loaded(&presenter, &TranslatePresenter::modelLoaded);
    if (!context.chooseModel(id) && presenter.choice().model->id != id)
        return false;
    while (!presenter.isModelLoaded())
        if (!loaded.wait(kTimeoutMs))
            return false;
    return presenter.choice().model->id == id;
}

// Asks for a translation of `text` and waits for it; false when none came.
bool translate(TranslatePresenter &presenter, const QString &text)
{
    QSignalSpy translated(&presenter, &TranslatePresenter::translated);
    presenter.setSource(text);
    presenter.translate();
    return translated.wait(kTimeoutMs);
}

// Waits until the presenter has the dictionary of its model's target language; false when none
// came (the language has none here).
bool waitForWordCheck(TranslatePresenter &presenter)
{
    QSignalSpy changed(&presenter, &TranslatePresenter::unknownWordsChanged);
    while (!presenter.checksWords())
        if (!changed.wait(kTimeoutMs))
            return false;
    return true;
}

QStringList unknownWordsOf(const TranslatePresenter &presenter)
{
    QStringList words;
    for (const UnknownWord &w : presenter.unknownWords())
        words << w.word;
    return words;
}

// Records what the presenter holds back (as leaving the tab does); the recorded entry, if any.
std::optional<HistoryEntry> flush(AppContext &context, TranslatePresenter &presenter)
{
    QSignalSpy recorded(&presenter, &TranslatePresenter::entryRecorded);
    presenter.flushHistory();
    if (recorded.isEmpty() || recorded.last().at(0).toLongLong() <= 0)
        return std::nullopt;
    return context.history()->store()->entry(recorded.last().at(0).toLongLong());
}

// The translations of `text` the history holds, newest first.
QList<HistoryEntry> entriesOf(AppContext &context, const QString &text)
{
    QList<HistoryEntry> entries;
    for (const HistorySummary &s : context.history()->store()->recent({}, 0, 100).items)
        if (const std::optional<HistoryEntry> e = context.history()->store()->entry(s.id))
            if (e->inputText == text)
                entries << *e;
    return entries;
}

// The most probable candidate of the trace's step that is not `own` and does not end the
// sentence; -1 when none.
int otherCandidate(const SentenceTrace &trace, int step, int own)
{
    const engine::StepTrace *at = trace.bestStep(step);
    if (!at)
        return -1;
    for (const std::int32_t token : at->tokens) { // best first
        bool ends = false;
        trace.words({token}, &ends);
        if (token != own && !ends)
            return token;
    }
    return -1;
}

} // namespace

class TestTranslatePresenter : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        test::isolateAppState(m_dir.path(), m_dir.path(), QStringLiteral("tst_translatepresenter"));
    }

    void init()
    {
        QString error;
        m_context = test::bundledContextWithHistory(m_dir, &error);
        QVERIFY2(m_context, qPrintable(error));
        m_presenter.reset(new TranslatePresenter(*m_context));
        QVERIFY2(useModel(*m_context, *m_presenter, QStringLiteral("transformer-en-es")),
                 "resources/models/transformer-en-es did not load");
    }

    void cleanup()
    {
        m_presenter.reset();
        m_context.reset();
    }

    void translatesTheSourceWithTheUsersOptions()
    {
        engine::DecodingOptions greedy = m_presenter->worker()->modelInfo().decodingDefaults();
        greedy.strategy = engine::SearchStrategy::Greedy;
        greedy.nBest = 1;
        m_presenter->setOptionsSource([greedy] { return greedy; });
        QVERIFY(translate(*m_presenter, kEnglish));
        const TranslationResult &r = m_presenter->result();
        QCOMPARE(r.source, kEnglish);
        QCOMPARE(r.options.strategy, engine::SearchStrategy::Greedy);
        QVERIFY(r.traces.isEmpty()); // translating does not trace; the candidates ask for it
        QVERIFY(m_presenter->shownHypothesis());
        QVERIFY(!m_presenter->shownHypothesis()->text.isEmpty());
        QVERIFY(m_presenter->isSourceCurrent());
        QVERIFY(!m_presenter->languageMismatch().found());

        // A Cancel after the text changed: what is shown is of the text before.
        m_presenter->setSource(kEnglish + QStringLiteral(" It is happy."));
        m_presenter->cancel();
        QVERIFY(m_presenter->isStale());
    }

    void aSettledTranslationIsRecordedWithTheUsersEdit()
    {
        QVERIFY(translate(*m_presenter, kEnglish));
        const QString model = m_presenter->result().best()->text;
        const std::optional<HistoryEntry> entry = flush(*m_context, *m_presenter);
        QVERIFY(entry);
        QCOMPARE(entry->inputText, kEnglish);
        QCOMPARE(entry->bestOutput()->text, model);
        QCOMPARE(m_presenter->shownEntryId(), entry->id);

        QSignalSpy edited(m_presenter.get(), &TranslatePresenter::translationEdited);
        m_presenter->setTargetText(QStringLiteral("El gato negro duerme en el sofá viejo."));
        QVERIFY(m_presenter->isEdited());
        QCOMPARE(edited.size(), 1);
        QSignalSpy changed(m_presenter.get(), &TranslatePresenter::historyChanged);
        m_presenter->flushHistory(); // as leaving the tab does
        QCOMPARE(changed.size(), 1);
        QCOMPARE(m_context->history()->store()->entry(entry->id)->editedText,
                 QStringLiteral("El gato negro duerme en el sofá viejo."));

        // Going back to the model's text is no edit.
        m_presenter->setTargetText(model);
        QVERIFY(!m_presenter->isEdited());
        QCOMPARE(edited.last().at(0).toString(), QString());
    }

    void theGuardStopsAnAutomaticTranslationOnly()
    {
        const QString spanish = QStringLiteral("¿Dónde está la estación de tren? Quiero ir a la "
                                               "playa con mis amigos mañana por la mañana.");
        QSignalSpy translated(m_presenter.get(), &TranslatePresenter::translated);
        QSignalSpy stopped(m_presenter.get(), &TranslatePresenter::notTranslated);
        m_presenter->setSource(spanish);
        m_presenter->translateAutomatically();
        QCOMPARE(stopped.size(), 1);
        QCOMPARE(m_presenter->languageMismatch().language, QStringLiteral("es"));
        QVERIFY(m_presenter->languageMismatch().offer);
        QCOMPARE(m_presenter->languageMismatch().offer->sourceLanguage, QStringLiteral("es"));
        QVERIFY(m_presenter->result().isEmpty());
        const QString offer = m_presenter->languageMismatch().offer->id;

        // Asked for: translated, and the warning stays.
        m_presenter->translate();
        QVERIFY(translated.wait(kTimeoutMs));
        QCOMPARE(m_presenter->result().source, spanish);
        QVERIFY(m_presenter->languageMismatch().found());

        // "Translate anyway": no warning for this model until it changes.
        m_presenter->translateAnyway();
        QVERIFY(!m_presenter->languageMismatch().found());
        QVERIFY(translated.wait(kTimeoutMs));
        m_presenter->translateAutomatically();
        QCOMPARE(stopped.size(), 1);
        QVERIFY(translated.wait(kTimeoutMs));

        // The offered direction: the Spanish model takes the text without a warning.
        QVERIFY(useModel(*m_context, *m_presenter, offer));
        QVERIFY(translate(*m_presenter, spanish));
        QVERIFY(!m_presenter->languageMismatch().found());
    }

    // A model change translates the text again, unless it looks like another language.
    void aModelChangeTranslatesAgainUnlessTheGuardWarns()
    {
        const QString other = QStringLiteral("transformer-general-en-es");
        QVERIFY(translate(*m_presenter, kEnglish));
        QSignalSpy translated(m_presenter.get(), &TranslatePresenter::translated);
        QSignalSpy stopped(m_presenter.get(), &TranslatePresenter::notTranslated);
        QVERIFY(useModel(*m_context, *m_presenter, other));
        while (translated.isEmpty())
            QVERIFY(translated.wait(kTimeoutMs));
        QCOMPARE(m_presenter->result().modelId, other);
        QCOMPARE(m_presenter->result().source, kEnglish);

        // Spanish text: the load checks it and translates nothing.
        m_presenter->setSource(QStringLiteral("¿Dónde está la estación de tren? Quiero ir a la "
                                              "playa con mis amigos mañana."));
        QVERIFY(useModel(*m_context, *m_presenter, QStringLiteral("transformer-en-es")));
        QCOMPARE(stopped.size(), 1);
        QVERIFY(m_presenter->languageMismatch().found());
        QVERIFY(m_presenter->result().isEmpty());
        QVERIFY(!m_presenter->isBusy());
        QCOMPARE(translated.size(), 1);
    }

    // One editing session of one text keeps one entry per model: the text typed on, a model
    // switch and back make two entries, and another text a third.
    void oneEditingSessionKeepsOneEntryPerModel()
    {
        HistoryStore *store = m_context->history()->store();
        const qint64 before = store->count();
        QSignalSpy translated(m_presenter.get(), &TranslatePresenter::translated);
        const auto step = [&](const std::function<void()> &change) {
            translated.clear();
            change();
            while (translated.isEmpty())
                if (!translated.wait(kTimeoutMs))
                    return false;
            m_presenter->flushHistory(); // as leaving the tab does
            return true;
        };
        QVERIFY(step(
            [&] { translate(*m_presenter, QStringLiteral("The government announced a plan.")); }));
        QVERIFY(step([&] {
            translate(*m_presenter,
                      QStringLiteral("The government announced a new plan on Monday."));
        }));
        QCOMPARE(store->count() - before, 1);
        QVERIFY(step([&] {
            useModel(*m_context, *m_presenter, QStringLiteral("transformer-general-en-es"));
        }));
        QVERIFY(
            step([&] { useModel(*m_context, *m_presenter, QStringLiteral("transformer-en-es")); }));
        QCOMPARE(store->count() - before, 2);
        QVERIFY(step([&] { translate(*m_presenter, QStringLiteral("Where is the station?")); }));
        QCOMPARE(store->count() - before, 3);
    }

    void aChosenCandidateIsForcedAndBackReturnsToTheOriginal()
    {
        QVERIFY(translate(*m_presenter, kEnglish));
        const TranslationResult original = m_presenter->result();
        const TranslationHypothesis &h = *original.best();
        QVERIFY(h.tokens.size() >= 3);

        // The candidates of the second word: the trace is asked for and comes back.
        const int k = 1;
        QSignalSpy candidates(m_presenter.get(), &TranslatePresenter::candidatesChanged);
        m_presenter->showCandidates(k);
        QCOMPARE(m_presenter->candidatesToken(), k);
        int step = -1;
        while (!m_presenter->candidatesTrace(&step))
            QVERIFY(candidates.wait(kTimeoutMs));
        QCOMPARE(step, k);
        QCOMPARE(m_presenter->result().best()->text, h.text); // the same, with its trace
        const SentenceTrace &trace = *m_presenter->candidatesTrace(&step);
        const int alternative = otherCandidate(trace, step, h.tokens[k].id);
        QVERIFY(alternative >= 0);

        QSignalSpy translated(m_presenter.get(), &TranslatePresenter::translated);
        m_presenter->decodeWithCandidate(alternative);
        QVERIFY(translated.wait(kTimeoutMs));
        QVERIFY(translated.last().at(1).toBool()); // steered
        const TranslationResult &steered = m_presenter->result();
        const QList<int> expected{h.tokens[0].id, alternative};
        QCOMPARE(
            QList<int>(steered.options.targetPrefix.begin(), steered.options.targetPrefix.end()),
            expected);
        QCOMPARE(steered.options.targetPrefixSentence, 0);
        QCOMPARE(steered.best()->tokens[1].id, alternative);
        QVERIFY(m_presenter->isSteered());
        QVERIFY(!m_presenter->steering().words.isEmpty());
        QCOMPARE(m_presenter->candidatesToken(), k); // still on the step
        QVERIFY(m_presenter->candidatesTrace(&step));

        m_presenter->backToOriginal();
        QVERIFY(!m_presenter->isSteered());
        QCOMPARE(m_presenter->result().best()->text, h.text);
        QVERIFY(m_presenter->result().options.targetPrefix.empty());
    }

    // "History keeps a version the user undid": after "Back to the original" the history holds
    // what is shown, not the forced version; while a forced version is kept, its entry says
    // which words were forced.
    void theHistoryKeepsWhatIsShownAfterBackToTheOriginal()
    {
        QVERIFY(translate(*m_presenter, kEnglish));
        const QString original = m_presenter->result().best()->text;
        QVERIFY(flush(*m_context, *m_presenter));

        const int k = 1;
        QSignalSpy candidates(m_presenter.get(), &TranslatePresenter::candidatesChanged);
        m_presenter->showCandidates(k);
        int step = -1;
        while (!m_presenter->candidatesTrace(&step))
            QVERIFY(candidates.wait(kTimeoutMs));
        const int alternative = otherCandidate(*m_presenter->candidatesTrace(&step), step,
                                               m_presenter->result().best()->tokens[k].id);
        QVERIFY(alternative >= 0);
        QSignalSpy translated(m_presenter.get(), &TranslatePresenter::translated);
        m_presenter->decodeWithCandidate(alternative);
        QVERIFY(translated.wait(kTimeoutMs));
        const TranslationResult steered = m_presenter->result();
        const QString forcedText = steered.best()->text;
        QVERIFY(forcedText != original);

        // The forced version, recorded: it replaces the original in the session, and says what
        // was forced.
        const std::optional<HistoryEntry> forcedEntry = flush(*m_context, *m_presenter);
        QVERIFY(forcedEntry);
        QCOMPARE(forcedEntry->bestOutput()->text, forcedText);
        const std::optional<ForcedWords> forced = historyForcedWords(*forcedEntry);
        QVERIFY(forced);
        const TokenSpan &first = steered.best()->tokens[0];
        const TokenSpan &last = steered.best()->tokens[k];
        QCOMPARE(forced->begin, first.begin);
        QCOMPARE(forced->end, last.end);
        QCOMPARE(forced->text, forcedText.mid(first.begin, last.end - first.begin).trimmed());
        const QString html = historyOutputHtml(*forcedEntry, *forcedEntry->bestOutput());
        QVERIFY2(html.contains(QStringLiteral("<u>%1</u>").arg(forced->text.toHtmlEscaped())),
                 qPrintable(html));

        // Back to the original: the history holds what is shown again, and only that.
        m_presenter->backToOriginal();
        const std::optional<HistoryEntry> back = flush(*m_context, *m_presenter);
        QVERIFY2(back, "going back to the original recorded nothing");
        QCOMPARE(back->bestOutput()->text, original);
        QVERIFY(!historyForcedWords(*back));
        const QList<HistoryEntry> entries = entriesOf(*m_context, kEnglish);
        QCOMPARE(entries.size(), 1);
        QCOMPARE(entries.first().bestOutput()->text, original);
        QVERIFY(!historyForcedWords(entries.first()));
    }

    // The default model's made-up word (issue #41: "Hello!" → "¡Holalo!") is marked, with the
    // token whose candidates explain it; a right translation of the same kind ("Hi!" →
    // "¡Hola!") is not; the user's edits are theirs.
    void aMadeUpWordIsMarkedWithItsCandidates()
    {
        if (!WordCheck::forLanguage(QStringLiteral("es")))
            QSKIP("no Spanish Hunspell dictionary (apt-get install hunspell-es)");
        QVERIFY(useModel(*m_context, *m_presenter, QStringLiteral("transformer-general-en-es")));
        QVERIFY(waitForWordCheck(*m_presenter));
        QCOMPARE(m_presenter->wordCheckLanguage(), QStringLiteral("es"));
        QVERIFY(translate(*m_presenter, QStringLiteral("Hello!")));
        const QString text = m_presenter->shownHypothesis()->text;
        QCOMPARE(unknownWordsOf(*m_presenter), QStringList{QStringLiteral("Holalo")});
        const UnknownWord word = m_presenter->unknownWords().first();
        QCOMPARE(text.mid(word.begin, word.end - word.begin), word.word);
        // Its token is one of its pieces, the one the model was least sure of.
        const TranslationHypothesis &h = *m_presenter->shownHypothesis();
        QVERIFY(word.token >= 0 && word.token < h.tokens.size());
        QVERIFY(h.tokens[word.token].begin >= word.begin && h.tokens[word.token].end <= word.end);
        for (int i = 0; i < h.tokens.size(); ++i)
            if (h.tokens[i].begin >= word.begin && h.tokens[i].end <= word.end)
                QVERIFY(h.tokenLogProbs[word.token] <= h.tokenLogProbs[i]);
        // Its candidates are the trace's step of that token.
        QSignalSpy candidates(m_presenter.get(), &TranslatePresenter::candidatesChanged);
        m_presenter->showCandidates(word.token);
        int step = -1;
        while (!m_presenter->candidatesTrace(&step))
            QVERIFY(candidates.wait(kTimeoutMs));
        QCOMPARE(step, word.token);

        // The user's version is theirs: nothing marked, and the marks are back with the model's.
        QSignalSpy changed(m_presenter.get(), &TranslatePresenter::unknownWordsChanged);
        m_presenter->setTargetText(text + QStringLiteral(" Holalo."));
        QVERIFY(m_presenter->unknownWords().isEmpty());
        QCOMPARE(changed.size(), 1);
        m_presenter->setTargetText(text);
        QCOMPARE(unknownWordsOf(*m_presenter), QStringList{QStringLiteral("Holalo")});
        // Reopened from the history with the user's version: theirs again.
        const TranslationResult shown = m_presenter->result();
        m_presenter->showStoredResult(shown, text + QStringLiteral(" Holalo."));
        QVERIFY(m_presenter->unknownWords().isEmpty());
        m_presenter->showStoredResult(shown);
        QCOMPARE(unknownWordsOf(*m_presenter), QStringList{QStringLiteral("Holalo")});

        QVERIFY(translate(*m_presenter, QStringLiteral("Hi!")));
        QCOMPARE(m_presenter->shownHypothesis()->text, QStringLiteral("¡Hola!"));
        QVERIFY2(m_presenter->unknownWords().isEmpty(),
                 qPrintable(m_presenter->shownHypothesis()->text));
    }

    // Each model's target language has its own dictionary: English → German checks German.
    void theDictionaryFollowsTheTargetLanguage()
    {
        if (!WordCheck::forLanguage(QStringLiteral("de")))
            QSKIP("no German Hunspell dictionary (apt-get install hunspell-de-de)");
        QVERIFY(useModel(*m_context, *m_presenter, QStringLiteral("transformer-en-de")));
        QCOMPARE(m_presenter->wordCheckLanguage(), QStringLiteral("de"));
        QVERIFY(waitForWordCheck(*m_presenter));
        QVERIFY(translate(*m_presenter, QStringLiteral("The house is big.")));
        QVERIFY2(m_presenter->unknownWords().isEmpty(),
                 qPrintable(m_presenter->shownHypothesis()->text));
    }

private:
    QTemporaryDir m_dir;
    std::unique_ptr<AppContext> m_context;
    std::unique_ptr<TranslatePresenter> m_presenter;
};

QTEST_MAIN(TestTranslatePresenter)
#include "tst_translatepresenter.moc"
