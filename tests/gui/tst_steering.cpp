// Steering the search by hand, on the bundled Transformer (real plugin, real model, real worker
// thread): clicking an off-path node of the Compare view's beam tree adds a column decoded with
// the path to that node forced in that sentence only, and with six columns the rightmost steered
// one is decoded again instead; clicking a candidate in the Translate view's chart translates
// again with the translation up to that word and the candidate forced, and "Back to the
// original" returns to the first translation.
#include "app/core/appcontext.h"
#include "app/core/inference/inferenceworker.h"
#include "app/gui/widgets/beamtreewidget.h"
#include "app/gui/views/compareview.h"
#include "app/gui/widgets/probabilitychart.h"
#include "app/gui/views/translateview.h"
#include "tests/support/appcontextutil.h"
#include "tests/support/traceutil.h"

#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTest>
#include <QTextEdit>

using namespace glosa;
using glosa::test::offPathNode;

namespace {

constexpr int kTimeoutMs = 60000;

AppContext *makeContext()
{
    return new test::BundledContext;
}

// Chooses the bundled English → Spanish Transformer and waits until its worker has loaded it.
bool loadTransformer(AppContext &context)
{
    const auto info = context.catalog().find(QStringLiteral("transformer-en-es"));
    if (!info || !info->isValid() || !context.chooseModel(info->id))
        return false;
    return QTest::qWaitFor([&] { return context.workerFor(*info)->isModelLoaded(); }, kTimeoutMs);
}

QList<int> tokenIds(const TranslationHypothesis &h, int from, int count)
{
    QList<int> ids;
    for (int i = from; i < from + count && i < h.tokens.size(); ++i)
        ids << h.tokens[i].id;
    return ids;
}

// The extra selections of `selections` that mark forced tokens (`property` set).
int forcedSelections(const QList<QTextEdit::ExtraSelection> &selections, int property)
{
    int count = 0;
    for (const QTextEdit::ExtraSelection &s : selections)
        count += s.format.property(property).toBool() ? 1 : 0;
    return count;
}

} // namespace

class TestSteering : public QObject
{
    Q_OBJECT
private slots:
    void clickingAnOffPathNodeAddsAColumnWithThatPrefix()
    {
        std::unique_ptr<AppContext> context(makeContext());
        CompareView view(*context);
        view.resize(1280, 800);
        view.show();
        QVERIFY2(loadTransformer(*context), "resources/models/transformer-en-es did not load");

        view.setColumnCount(2);
        engine::DecodingOptions beam = view.column(0)->options();
        beam.strategy = engine::SearchStrategy::Beam;
        beam.beamSize = 4;
        beam.noRepeatNgramSize = 2;
        view.column(0)->setOptions(beam);
        view.input()->setPlainText(
            QStringLiteral("The black cat sleeps on the old sofa. The dog is very small."));
        QSignalSpy shown(&view, &CompareView::comparisonShown);
        view.compare();
        QVERIFY(shown.wait(kTimeoutMs));

        // The tree of the second sentence of column 1.
        const TranslationResult original = view.column(0)->result();
        QCOMPARE(original.traces.size(), 2);
        view.selectToken(0, original.traces[1].targetOffset);
        const SentenceTrace &trace = original.traces[1];
        QCOMPARE(view.tree()->nodeCount(), int(trace.trace.nodes.size()));
        const int node = offPathNode(trace);
        QVERIFY2(node > 0, "beam 4 left no node off the best path");
        const QList<int> prefix = trace.pathTokens(node);
        QCOMPARE(prefix.size(), trace.trace.nodes[node].step + 1);

        QTest::mouseClick(view.tree(), Qt::LeftButton, {}, view.tree()->nodePosition(node));
        QCOMPARE(view.columnCount(), 3);
        CompareColumn *steered = view.column(2);
        QVERIFY(steered->isSteered());
        const engine::DecodingOptions options = steered->options();
        QCOMPARE(QList<int>(options.targetPrefix.begin(), options.targetPrefix.end()), prefix);
        QCOMPARE(options.targetPrefixSentence, 1);
        // The column's other settings are those that made the tree.
        QCOMPARE(options.strategy, engine::SearchStrategy::Beam);
        QCOMPARE(options.beamSize, 4);
        QCOMPARE(options.noRepeatNgramSize, 2);
        const QString words = trace.words(prefix);
        QVERIFY(!words.isEmpty());
        QCOMPARE(steered->steeringText(),
                 QStringLiteral("sentence 2 · prefix: «%1»").arg(words));

        QTRY_VERIFY_WITH_TIMEOUT(steered->hasResult(), kTimeoutMs);
        const TranslationResult result = steered->result();
        QCOMPARE(result.traces.size(), 2);
        const TranslationHypothesis &h = *result.best();
        // The second sentence starts with the clicked path; the first is decoded as before.
        QCOMPARE(tokenIds(h, result.traces[1].targetOffset, int(prefix.size())), prefix);
        QCOMPARE(tokenIds(h, 0, result.traces[0].tokenCount),
                 tokenIds(*original.best(), 0, original.traces[0].tokenCount));
        QVERIFY(tokenIds(h, result.traces[1].targetOffset, result.traces[1].tokenCount)
                != tokenIds(*original.best(), original.traces[1].targetOffset,
                            original.traces[1].tokenCount));
        // Exactly the forced tokens are marked as forced.
        QCOMPARE(forcedSelections(steered->output()->extraSelections(),
                                  CompareColumn::kForcedProperty),
                 int(prefix.size()));

        // Six columns: the next decode from the tree takes the rightmost steered column's place.
        view.setColumnCount(6);
        view.selectToken(0, original.traces[1].targetOffset);
        const int other = offPathNode(trace, {node});
        QVERIFY(other > 0);
        QTest::mouseClick(view.tree(), Qt::LeftButton, {}, view.tree()->nodePosition(other));
        QCOMPARE(view.columnCount(), 6);
        const engine::DecodingOptions again = view.column(2)->options();
        QCOMPARE(QList<int>(again.targetPrefix.begin(), again.targetPrefix.end()),
                 trace.pathTokens(other));
        for (int i = 3; i < 6; ++i)
            QVERIFY(!view.column(i)->isSteered());
        QTRY_VERIFY_WITH_TIMEOUT(view.column(2)->hasResult()
                                     && view.column(2)->result().options.targetPrefix
                                            == again.targetPrefix,
                                 kTimeoutMs);
    }

    void choosingACandidateTranslatesAgainWithItForced()
    {
        std::unique_ptr<AppContext> context(makeContext());
        TranslateView view(*context);
        view.setLiveTranslate(false);
        view.resize(1280, 800);
        view.show();
        QVERIFY2(loadTransformer(*context), "resources/models/transformer-en-es did not load");

        QSignalSpy shown(&view, &TranslateView::translationShown);
        view.setSourceText(QStringLiteral("The black cat sleeps on the old sofa."));
        view.translateNow();
        QVERIFY(shown.wait(kTimeoutMs));
        const TranslationResult original = view.result();
        QVERIFY(original.traces.isEmpty()); // translating does not trace; the chart asks for it
        const TranslationHypothesis &h = *original.best();
        QVERIFY(h.tokens.size() >= 3);

        // Click the second word of the translation: the chart shows the candidates of its step.
        const int k = 1;
        QPlainTextEdit *target = view.targetEditor();
        QTextCursor cursor(target->document());
        cursor.setPosition((h.tokens[k].begin + h.tokens[k].end) / 2);
        QTest::mouseClick(target->viewport(), Qt::LeftButton, {}, target->cursorRect(cursor).center());
        QCOMPARE(view.candidatesToken(), k);
        ProbabilityChart *chart = view.candidatesChart();
        QTRY_VERIFY_WITH_TIMEOUT(chart->barCount() > 1, kTimeoutMs);
        QCOMPARE(view.result().traces.size(), 1);
        QCOMPARE(view.result().best()->text, h.text); // the same translation, with its trace

        // Choose the most probable candidate that is not the translation's own word.
        int bar = -1;
        for (int i = 0; i < chart->barCount() && bar < 0; ++i) {
            bool ends = false;
            view.result().traces[0].words({chart->barToken(i)}, &ends);
            if (chart->barToken(i) != h.tokens[k].id && !ends)
                bar = i;
        }
        QVERIFY(bar >= 0);
        const int alternative = chart->barToken(bar);
        QTest::mouseClick(chart, Qt::LeftButton, {}, chart->barPosition(bar));
        QVERIFY(shown.wait(kTimeoutMs));

        QList<int> expected = tokenIds(h, 0, k);
        expected << alternative;
        const TranslationResult steered = view.result();
        QCOMPARE(QList<int>(steered.options.targetPrefix.begin(),
                            steered.options.targetPrefix.end()),
                 expected);
        QCOMPARE(steered.options.targetPrefixSentence, 0);
        QCOMPARE(steered.options.strategy, original.options.strategy);
        QCOMPARE(steered.options.beamSize, original.options.beamSize);
        QCOMPARE(tokenIds(*steered.best(), 0, k + 1), expected);
        QCOMPARE(target->toPlainText(), steered.best()->text);
        QVERIFY(view.isSteered());
        QVERIFY(view.backToOriginalButton()->isVisible());
        QVERIFY2(view.steeringText().startsWith(QStringLiteral("prefix: «")),
                 qPrintable(view.steeringText()));
        QCOMPARE(forcedSelections(target->extraSelections(), TranslateView::kForcedProperty),
                 k + 1);
        // The chart stays on the step, now with the forced candidate chosen.
        QTRY_VERIFY(chart->barCount() > 0);

        QTest::mouseClick(view.backToOriginalButton(), Qt::LeftButton);
        QVERIFY(!view.isSteered());
        QCOMPARE(target->toPlainText(), h.text);
        QVERIFY(view.result().options.targetPrefix.empty());
        QCOMPARE(forcedSelections(target->extraSelections(), TranslateView::kForcedProperty), 0);
    }
};

QTEST_MAIN(TestSteering)
#include "tst_steering.moc"
