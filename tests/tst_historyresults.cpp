// app/core/historyresults: token positions rebuilt from pieces (table-driven), and the settings
// and outputs of each entry kind surviving the trip into a HistoryEntry and back. The end-to-end
// check against the real worker's positions is tests/gui/tst_historyview.cpp.
#include "app/core/historyresults.h"
#include "app/core/settings.h"

#include <QJsonArray>
#include <QtTest>

using namespace glosa;

namespace {
// "b-e" per token, for one-line comparisons.
QString spansText(const QList<TokenSpan> &spans)
{
    QStringList parts;
    for (const TokenSpan &s : spans)
        parts << QStringLiteral("%1-%2").arg(s.begin).arg(s.end);
    return parts.join(QLatin1Char(' '));
}

TokenSpan span(const QString &piece, int begin, int end)
{
    TokenSpan t;
    t.piece = piece;
    t.begin = begin;
    t.end = end;
    return t;
}
} // namespace

class TestHistoryResults : public QObject
{
    Q_OBJECT
private slots:
    void spansFromPieces_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QStringList>("pieces");
        QTest::addColumn<QString>("spans");
        const auto row = [](const char *name, const char *text,
                            std::initializer_list<const char *> pieces, const char *spans) {
            QStringList list;
            for (const char *p : pieces)
                list << QString::fromUtf8(p);
            QTest::newRow(name) << QString::fromUtf8(text) << list << QString::fromUtf8(spans);
        };
        row("words", "Good morning.", {"▁Good", "▁morning", "."}, "0-4 5-12 12-13");
        row("subwords", "It costs", {"▁It", "▁cost", "s"}, "0-2 3-7 7-8");
        row("end of sentence", "Hi. Yes", {"▁Hi", ".", "</s>", "▁Yes"}, "0-2 2-3 3-3 4-7");
        row("white-space piece: where the next word begins", "3  € x", {"▁3", "▁", "€", "▁x"},
            "0-1 3-3 3-4 5-6");
        // A piece not spelt as in the text (byte fallback) keeps its place; the next one is found.
        row("lost, then found again", "a ☃ b", {"▁a", "▁", "<0xE2>", "▁b"}, "0-1 2-2 2-2 4-5");
        row("no tokens", "text", {}, "");
        // Only white space may lie between two tokens: "cat" further on is not this token.
        row("not found further on", "con dog cat", {"▁con", "cat"}, "0-3 3-3");
    }
    void spansFromPieces()
    {
        QFETCH(QString, text);
        QFETCH(QStringList, pieces);
        QFETCH(QString, spans);
        const QList<TokenSpan> got = glosa::spansFromPieces(text, pieces);
        QCOMPARE(got.size(), pieces.size());
        QCOMPARE(spansText(got), spans);
        for (int i = 0; i < got.size(); ++i)
            QCOMPARE(got[i].piece, pieces[i]);
    }

    void translationRoundTrip()
    {
        TranslationResult r;
        r.modelId = QStringLiteral("m");
        r.source = QStringLiteral("Good morning.");
        r.sourceTokens = {span("▁Good", 0, 4), span("▁morning", 5, 12), span(".", 12, 13)};
        r.options.strategy = engine::SearchStrategy::Beam;
        r.options.beamSize = 3;
        r.options.nBest = 2;
        r.options.lengthPenalty = 0.6f;
        r.elapsedMs = 12.5;
        for (const QString &text : {QStringLiteral("Buenos días."), QStringLiteral("Buen día.")}) {
            TranslationHypothesis h;
            h.text = text;
            const QStringList words = text.chopped(1).split(QLatin1Char(' '));
            int at = 0;
            for (const QString &w : words) {
                h.tokens << span(QStringLiteral("▁") + w, at, at + int(w.size()));
                at += int(w.size()) + 1;
            }
            h.tokens << span(QStringLiteral("."), at - 1, at);
            h.sourceCount = 3;
            for (int i = 0; i < h.tokens.size() * 3; ++i)
                h.alignment << float(i % 3 == 0 ? 0.5 : 0.25);
            h.score = -0.5f * float(r.hypotheses.size() + 1);
            r.hypotheses << h;
        }
        ModelInfo info;
        info.id = QStringLiteral("m");
        info.version = QStringLiteral("2.0");
        info.sourceLanguage = QStringLiteral("en");
        info.targetLanguage = QStringLiteral("es");

        const HistoryEntry e = translationHistoryEntry(r, info);
        QCOMPARE(e.kind, HistoryKind::Translation);
        QCOMPARE(e.modelVersion, QStringLiteral("2.0"));
        QCOMPARE(e.targetLanguage, QStringLiteral("es"));
        QCOMPARE(e.settings.value(QStringLiteral("beam_size")).toInt(), 3);
        QCOMPARE(e.outputs.size(), 2);
        QCOMPARE(e.outputs[1].rank, 1);

        const TranslationResult back = translationResultFromHistory(e);
        QCOMPARE(back.source, r.source);
        QCOMPARE(decodingOptionsToMap(back.options), decodingOptionsToMap(r.options));
        QCOMPARE(back.elapsedMs, r.elapsedMs);
        QCOMPARE(spansText(back.sourceTokens), spansText(r.sourceTokens));
        QCOMPARE(back.hypotheses.size(), 2);
        for (int k = 0; k < 2; ++k) {
            QCOMPARE(back.hypotheses[k].text, r.hypotheses[k].text);
            QCOMPARE(back.hypotheses[k].score, r.hypotheses[k].score);
            QCOMPARE(spansText(back.hypotheses[k].tokens), spansText(r.hypotheses[k].tokens));
            QCOMPARE(back.hypotheses[k].alignment, r.hypotheses[k].alignment); // exact in fp16
            QCOMPARE(back.hypotheses[k].sourceCount, 3);
        }
    }

    void comparisonKeepsEachColumnsSettings()
    {
        QList<TranslationResult> columns;
        for (int beam : {1, 4}) {
            TranslationResult r;
            r.source = QStringLiteral("Hello.");
            r.options.strategy = beam == 1 ? engine::SearchStrategy::Greedy
                                           : engine::SearchStrategy::Beam;
            r.options.beamSize = beam;
            TranslationHypothesis h;
            h.text = QStringLiteral("Hola %1.").arg(beam);
            r.hypotheses << h;
            r.elapsedMs = 10;
            columns << r;
        }
        const HistoryEntry e = comparisonHistoryEntry(QStringLiteral("Hello."), columns, ModelInfo());
        QCOMPARE(e.kind, HistoryKind::Comparison);
        QCOMPARE(e.elapsedMs, 20.0);
        QCOMPARE(e.settings.value(QStringLiteral("columns")).toArray().size(), 2);
        QCOMPARE(e.outputs[1].column, 1);
        QCOMPARE(e.outputs[1].label, decodingSummary(columns[1].options));
        const QList<engine::DecodingOptions> options = historyColumnOptions(e);
        QCOMPARE(options.size(), 2);
        QCOMPARE(options[1].beamSize, 4);
        QCOMPARE(translationResultFromHistory(e, 1).best()->text, QStringLiteral("Hola 4."));
        QCOMPARE(translationResultFromHistory(e, 0).options.strategy, engine::SearchStrategy::Greedy);
    }

    void settingsTheEngineRejectsGiveDefaults()
    {
        const QJsonObject bad{{QStringLiteral("beam_size"), 0}, {QStringLiteral("future"), 1}};
        QCOMPARE(decodingOptionsToMap(decodingOptionsFromSettings(bad)),
                 decodingOptionsToMap(engine::DecodingOptions()));
        const QJsonObject unknownKeyOnly{{QStringLiteral("beam_size"), 7},
                                         {QStringLiteral("future"), 1}};
        QCOMPARE(decodingOptionsFromSettings(unknownKeyOnly).beamSize, 7);
    }
};

QTEST_MAIN(TestHistoryResults)
#include "tst_historyresults.moc"
