// ComparePresenter, the Compare tab without widgets, on the bundled English → Spanish Transformer
// (real plugin, real model, real worker thread): every column decoded with its own settings, the
// notes on where two columns part (naming the words, not the word pieces, of the step where
// their searches chose differently) and on a setting that changed nothing, a column decoded
// again alone when its settings change, steering from a node of the search tree, the language
// guard, a comparison shown from the history and each comparison recorded once in a real SQLite
// history. Each waits on the presenter's own signals.
#include "app/core/appcontext.h"
#include "app/core/history/entrykinds.h"
#include "app/core/history/recorder.h"
#include "app/core/history/store.h"
#include "app/core/presenters/comparepresenter.h"
#include "app/core/settings/decodingmaps.h"

#include "tests/support/appcontextutil.h"
#include "tests/support/testutil.h"
#include "tests/support/traceutil.h"

#include <QSignalSpy>
#include <QTemporaryDir>
#include <QThreadPool>
#include <QtTest>

#include <memory>

using namespace glosa;

namespace {

constexpr int kTimeoutMs = 120000;
const QString kModel = QStringLiteral("transformer-en-es");

// The white-space separated stretch of `text` around `position`: a word as a reader sees it.
QString wordAround(const QString &text, int position)
{
    int begin = position, end = position;
    while (begin > 0 && !text.at(begin - 1).isSpace())
        --begin;
    while (end < text.size() && !text.at(end).isSpace())
        ++end;
    return text.mid(begin, end - begin);
}

// Waits until every column's differing tokens are those of its current results.
bool differencesSettled(ComparePresenter &presenter, QSignalSpy &differences)
{
    while (presenter.differencesPending())
        if (!differences.wait(kTimeoutMs))
            return false;
    return true;
}

// Compares and waits until every column has its result and its differing tokens.
bool compared(ComparePresenter &presenter, const QString &text)
{
    QSignalSpy shown(&presenter, &ComparePresenter::comparisonShown);
    QSignalSpy differences(&presenter, &ComparePresenter::differencesShown);
    presenter.compare(text);
    return shown.wait(kTimeoutMs) && differencesSettled(presenter, differences);
}

// Waits until column `index` has a result of its current settings.
bool columnDecoded(ComparePresenter &presenter, int index)
{
    QSignalSpy changed(&presenter, &ComparePresenter::columnChanged);
    while (presenter.column(index).pending || !presenter.column(index).hasResult() ||
           presenter.column(index).isStale())
        if (!changed.wait(kTimeoutMs))
            return false;
    return true;
}

engine::DecodingOptions beam(int size, int noRepeat = 0)
{
    engine::DecodingOptions o;
    o.strategy = engine::SearchStrategy::Beam;
    o.beamSize = size;
    o.noRepeatNgramSize = noRepeat;
    return o;
}

// Two columns: greedy, and sampling at T = 3 (the caller sets its seed into column 1), which
// parts from greedy early and often.
engine::DecodingOptions greedyBesideSampling(ComparePresenter &presenter)
{
    presenter.setColumnCount(2);
    engine::DecodingOptions wild;
    wild.strategy = engine::SearchStrategy::Sample;
    wild.temperature = 3.0f;
    presenter.setColumnOptions(0, engine::DecodingOptions());
    return wild;
}

} // namespace

class TestComparePresenter : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_settingsDir;
    std::unique_ptr<AppContext> m_context;

private slots:
    void initTestCase()
    {
        QVERIFY(m_settingsDir.isValid());
        glosa::test::isolateAppState(m_settingsDir.path(), m_settingsDir.path(),
                                     QStringLiteral("tst_comparepresenter"));
        m_context = std::make_unique<test::BundledContext>();
        QVERIFY2(m_context->chooseModel(kModel), "the bundled transformer-en-es is missing");
    }

    void cleanupTestCase() { m_context.reset(); }

    // Greedy, beam 5 and beam 5 with a 5-gram block a short sentence never triggers.
    void columnsSayWhereTheyPartAndWhenASettingChangedNothing()
    {
        ComparePresenter presenter(*m_context);
        QVERIFY(presenter.canCompare());
        presenter.setColumnCount(3);
        presenter.setColumnOptions(0, engine::DecodingOptions());
        presenter.setColumnOptions(1, beam(5));
        presenter.setColumnOptions(2, beam(5, 5));
        QVERIFY(compared(presenter, QStringLiteral("The government announced on Tuesday that "
                                                   "it would raise the minimum wage next year.")));
        QCOMPARE(presenter.status().kind, ComparePresenter::Status::Kind::Done);
        for (int i = 0; i < 3; ++i) {
            const CompareColumnState &c = presenter.column(i);
            QVERIFY(c.hasResult() && !c.pending && !c.isStale());
            QVERIFY(!c.result.traces.isEmpty()); // the trees are asked for
            const int other = i == 0 ? 1 : i - 1;
            const TranslationHypothesis &mine = *c.result.best();
            const TranslationHypothesis &theirs = *presenter.column(other).result.best();
            QCOMPARE(c.differing,
                     ComparePresenter::differingTokens(c.result, presenter.column(other).result));
            QCOMPARE(c.divergence.token >= 0, mine.text != theirs.text);
        }
        const CompareColumnState &blocked = presenter.column(2);
        if (blocked.result.best()->text == presenter.column(1).result.best()->text)
            QCOMPARE(blocked.sameAs, 1);
        // The tree shows the first beam search until a word is picked.
        QCOMPARE(presenter.selectedColumn(), 1);
        QVERIFY(presenter.selectedTrace());
        QCOMPARE(presenter.selectedStep(), -1);
        presenter.selectToken(1, 2);
        QCOMPARE(presenter.selectedStep(), 2 - presenter.selectedTrace()->targetOffset);
    }

    // The note on where two columns part names the words of that step as the text shows them
    // ("un" against "mucho"), not the model's word pieces ("mu").
    void theNoteNamesWordsNotPieces()
    {
        ComparePresenter presenter(*m_context);
        engine::DecodingOptions wild = greedyBesideSampling(presenter);
        int insideWords = 0;
        for (quint64 seed = 1; seed <= 40 && insideWords < 2; ++seed) {
            wild.seed = seed;
            presenter.setColumnOptions(1, wild);
            QVERIFY(compared(presenter, QStringLiteral("The unbelievable musicians performed "
                                                       "extraordinarily well yesterday.")));
            const CompareDivergence &d = presenter.column(1).divergence;
            if (d.token < 0)
                continue;
            const TranslationHypothesis &mine = *presenter.column(1).result.best();
            const TranslationHypothesis &theirs = *presenter.column(0).result.best();
            const TokenSpan &token = mine.tokens[d.token];
            const QString word = wordAround(mine.text, token.begin);
            QCOMPARE(d.mine, word);
            if (d.token < theirs.tokens.size())
                QCOMPARE(d.theirs, wordAround(theirs.text, theirs.tokens[d.token].begin));
            // Where the token is only a piece of its word, the piece alone was named before.
            if (word != token.surface())
                ++insideWords;
        }
        QVERIFY2(insideWords > 0, "40 samples at T = 3 never parted inside a word");
    }

    // The tokens outside the longest common subsequence are worked out on the thread pool: a
    // comparison shown has none marked until differencesShown() brings differingTokens()'s; an
    // answer for results that were replaced before it came is dropped, not shown over the new.
    void differencesArriveBySignalAndStaleOnesAreDropped()
    {
        ComparePresenter presenter(*m_context);
        engine::DecodingOptions wild = greedyBesideSampling(presenter);
        const QString text = QStringLiteral("The unbelievable musicians performed "
                                            "extraordinarily well yesterday.");
        QList<int> expected;
        for (quint64 seed = 1; seed <= 20 && expected.isEmpty(); ++seed) {
            wild.seed = seed;
            presenter.setColumnOptions(1, wild);
            QVERIFY(compared(presenter, text));
            expected = presenter.column(0).differing;
        }
        QVERIFY2(!expected.isEmpty(), "20 samples at T = 3 all gave greedy's translation");
        const TranslationResult greedy = presenter.column(0).result;
        const TranslationResult sampled = presenter.column(1).result;
        QCOMPARE(expected, ComparePresenter::differingTokens(greedy, sampled));

        QSignalSpy differences(&presenter, &ComparePresenter::differencesShown);
        presenter.showStoredComparison(text, {greedy, sampled}, QString());
        QVERIFY(presenter.differencesPending());
        QVERIFY(presenter.column(0).differing.isEmpty());
        QVERIFY(differences.wait(kTimeoutMs));
        QVERIFY(!presenter.differencesPending());
        QCOMPARE(presenter.column(0).differing, expected);
        QCOMPARE(presenter.column(1).differing, ComparePresenter::differingTokens(sampled, greedy));

        // Another comparison shown before the first one's answer: only its own is shown, however
        // the two answers are ordered.
        differences.clear();
        presenter.showStoredComparison(text, {greedy, sampled}, QString());
        presenter.showStoredComparison(text, {greedy, greedy}, QString());
        QVERIFY(differences.wait(kTimeoutMs));
        QThreadPool::globalInstance()->waitForDone(); // both answers are posted
        QCoreApplication::sendPostedEvents(&presenter);
        QCOMPARE(differences.size(), 1);
        QVERIFY(!presenter.differencesPending());
        QCOMPARE(presenter.column(0).differing, QList<int>());
        QCOMPARE(presenter.column(1).differing, QList<int>());
    }

    // A column whose settings the user changes says so at once and is decoded again alone.
    void anEditedColumnIsDecodedAgainAlone()
    {
        ComparePresenter presenter(*m_context);
        presenter.setColumnCount(2);
        presenter.setColumnOptions(0, engine::DecodingOptions());
        presenter.setColumnOptions(1, engine::DecodingOptions());
        QVERIFY(compared(presenter, QStringLiteral("The cat sleeps on the sofa.")));
        QCOMPARE(presenter.column(1).sameAs, -1); // the same settings: nothing to say
        const double firstTime = presenter.column(0).result.elapsedMs;
        presenter.editColumnOptions(1, beam(4), QString());
        QVERIFY(presenter.column(1).isStale() || presenter.column(1).pending);
        QCOMPARE(presenter.status().kind, ComparePresenter::Status::Kind::DecodingColumn);
        QVERIFY(columnDecoded(presenter, 1));
        QCOMPARE(presenter.column(1).result.options.beamSize, 4);
        QCOMPARE(presenter.column(0).result.elapsedMs, firstTime); // not decoded again
    }

    // A node off the best path of the tree: a new column with the path to it forced in that
    // sentence, labelled with its words; the next comparison of another text drops the prefix.
    void aNodeOfTheTreeSteersANewColumn()
    {
        ComparePresenter presenter(*m_context);
        presenter.setColumnCount(2);
        presenter.setColumnOptions(0, beam(4, 2));
        QVERIFY(compared(presenter, QStringLiteral("The black cat sleeps on the old sofa. The "
                                                   "dog is very small.")));
        const TranslationResult original = presenter.column(0).result;
        QCOMPARE(original.traces.size(), 2);
        presenter.selectToken(0, original.traces[1].targetOffset);
        QCOMPARE(presenter.treeSentence(), 1);
        const SentenceTrace &trace = original.traces[1];
        const int node = test::offPathNode(trace);
        QVERIFY(node > 0);
        presenter.decodeFromNode(node);
        QCOMPARE(presenter.columnCount(), 3);
        const CompareColumnState &steered = presenter.column(2);
        QVERIFY(steered.isSteered());
        QCOMPARE(
            QList<int>(steered.options.targetPrefix.begin(), steered.options.targetPrefix.end()),
            trace.pathTokens(node));
        QCOMPARE(steered.options.targetPrefixSentence, 1);
        QCOMPARE(steered.options.beamSize, 4);
        QCOMPARE(steered.steering.words, trace.words(trace.pathTokens(node)));
        QCOMPARE(steered.steering.sentence, 1);
        QCOMPARE(steered.steering.sentences, 2);
        QVERIFY(columnDecoded(presenter, 2));
        QCOMPARE(presenter.column(2).result.forcedTokens().size(), trace.pathTokens(node).size());

        QVERIFY(compared(presenter, QStringLiteral("The dog is small.")));
        QVERIFY(!presenter.column(2).isSteered());
    }

    // Spanish given to the English → Spanish model is not compared; "Compare anyway" goes on.
    void theLanguageGuardStopsAComparisonUntilTheUserGoesOn()
    {
        ComparePresenter presenter(*m_context);
        const QString spanish = QStringLiteral("¿Dónde está la estación de tren? Quiero ir al "
                                               "centro de la ciudad.");
        QSignalSpy found(&presenter, &ComparePresenter::languageMismatchFound);
        QSignalSpy shown(&presenter, &ComparePresenter::comparisonShown);
        presenter.compare(spanish);
        QCOMPARE(found.count(), 1);
        QCOMPARE(presenter.languageMismatch().language, QStringLiteral("es"));
        QVERIFY(presenter.languageMismatch().offer.has_value()); // Spanish → English
        QCOMPARE(presenter.languageMismatch().offer->sourceLanguage, QStringLiteral("es"));
        QCOMPARE(presenter.status().kind, ComparePresenter::Status::Kind::WrongLanguage);
        QVERIFY(!presenter.isComparing());

        QSignalSpy cleared(&presenter, &ComparePresenter::languageMismatchCleared);
        presenter.compareAnyway(spanish);
        QCOMPARE(cleared.count(), 1);
        QVERIFY(presenter.isComparing());
        QVERIFY(shown.wait(kTimeoutMs));
        // Until the input changes, the user's answer holds.
        presenter.compare(spanish);
        QCOMPARE(found.count(), 1);
        QVERIFY(shown.wait(kTimeoutMs));
        presenter.inputChanged();
        presenter.compare(spanish);
        QCOMPARE(found.count(), 2);
    }

    // A comparison from the history: its columns and settings, no decoding, no trees.
    void aStoredComparisonIsShownAsRecorded()
    {
        ComparePresenter live(*m_context);
        live.setColumnCount(2);
        QVERIFY(compared(live, QStringLiteral("The house is red.")));
        QList<TranslationResult> stored = live.results();
        for (TranslationResult &r : stored)
            r.traces.clear(); // the history keeps no trees

        ComparePresenter presenter(*m_context);
        QSignalSpy shown(&presenter, &ComparePresenter::comparisonShown);
        presenter.showStoredComparison(stored.first().source, stored,
                                       QStringLiteral("From the history."));
        QCOMPARE(presenter.columnCount(), 2);
        QCOMPARE(presenter.status().kind, ComparePresenter::Status::Kind::Stored);
        QCOMPARE(presenter.status().text, QStringLiteral("From the history."));
        QCOMPARE(presenter.comparedText(), QStringLiteral("The house is red."));
        for (int i = 0; i < 2; ++i) {
            QCOMPARE(presenter.column(i).result.best()->text, stored[i].best()->text);
            QCOMPARE(presenter.column(i).preset, live.column(i).preset);
            QVERIFY(!presenter.column(i).isStale());
        }
        QVERIFY(!presenter.selectedTrace());
        QVERIFY(!presenter.isComparing());
        QCOMPARE(shown.count(), 0); // not a new comparison: nothing to record
    }

    // Each comparison shown is one entry of all its columns; comparing the same again, or a
    // comparison opened from the history, records nothing new.
    void eachComparisonIsRecordedOnce()
    {
        HistoryRecorder *history = m_context->history();
        QVERIFY2(history->open(m_settingsDir.filePath(QStringLiteral("history.sqlite"))),
                 qPrintable(history->openError()));
        ComparePresenter presenter(*m_context);
        presenter.setColumnCount(2);
        presenter.setColumnOptions(0, engine::DecodingOptions());
        presenter.setColumnOptions(1, beam(4));
        QSignalSpy recorded(&presenter, &ComparePresenter::entryRecorded);
        const QString text = QStringLiteral("The house is red.");
        QVERIFY(compared(presenter, text));
        QCOMPARE(recorded.count(), 1); // a short text's entry is made at once
        const qint64 id = recorded.last().at(0).toLongLong();
        QVERIFY(id > 0);
        const std::optional<HistoryEntry> entry = history->store()->entry(id);
        QVERIFY(entry);
        QCOMPARE(entry->kind, HistoryKind::Comparison);
        QCOMPARE(entry->inputText, text);
        QCOMPARE(historyColumnOptions(*entry).size(), 2);
        for (int i = 0; i < 2; ++i)
            QCOMPARE(entry->bestOutput(i)->text, presenter.column(i).result.best()->text);

        QVERIFY(compared(presenter, text)); // Compare pressed twice
        QCOMPARE(recorded.last().at(0).toLongLong(), id);
        QCOMPARE(history->store()->count(), 1);
        QVERIFY(compared(presenter, QStringLiteral("The door is open.")));
        QCOMPARE(history->store()->count(), 2);

        QList<TranslationResult> columns;
        for (int i = 0; i < 2; ++i)
            columns << translationResultFromHistory(*entry, i);
        presenter.historyEntryOpened(*entry);
        presenter.showStoredComparison(entry->inputText, columns,
                                       QStringLiteral("From the history."));
        QVERIFY(compared(presenter, entry->inputText));
        QCOMPARE(recorded.last().at(0).toLongLong(), id);
        QCOMPARE(history->store()->count(), 2);
        history->close();
    }
};

QTEST_MAIN(TestComparePresenter)
#include "tst_comparepresenter.moc"
