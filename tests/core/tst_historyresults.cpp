// app/core/historyresults: token positions rebuilt from pieces (table-driven), and the settings
// and outputs of each entry kind surviving the trip into a HistoryEntry and back. The end-to-end
// check against the real worker's positions is tests/gui/tst_historyview.cpp.
#include "app/core/history/export.h"
#include "app/core/history/entrykinds.h"
#include "app/core/history/store.h"
#include "app/core/models/modelcatalog.h"
#include "app/core/models/pluginregistry.h"
#include "app/core/settings/decodingmaps.h"
#include "app/core/inference/translationrunner.h"
#include "engine/translation/translationmodel.h"
#include "engine/translation/translator.h"

#include <QFile>
#include <QBuffer>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonArray>
#include <QTemporaryDir>
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
    // A document: the source, the model's and the user's versions one line per paragraph, no
    // alignments; a long one keeps its first paragraphs, so that one entry stays a few MB at most.
    void documentEntriesAreBounded()
    {
        ModelInfo model;
        model.id = QStringLiteral("transformer-en-es");
        model.version = QStringLiteral("1.0");
        const HistoryEntry small = documentHistoryEntry(
            QStringLiteral("/docs/a.html"), {QStringLiteral("One."), QStringLiteral("Two.")},
            {QStringLiteral("Uno."), QStringLiteral("Dos.")}, QStringLiteral("Uno.\nDos!"), model,
            true);
        QCOMPARE(small.kind, HistoryKind::Document);
        QCOMPARE(small.modelId, model.id);
        QCOMPARE(small.inputText, QStringLiteral("One.\nTwo."));
        QCOMPARE(small.outputs.size(), 1);
        QCOMPARE(small.outputs[0].text, QStringLiteral("Uno.\nDos."));
        QVERIFY(small.outputs[0].alignment.isEmpty());
        QCOMPARE(small.editedText, QStringLiteral("Uno.\nDos!"));
        QCOMPARE(small.settings, (QJsonObject{{"document", "/docs/a.html"}, {"quality", "best"}}));

        // 100,000 words in 10,000 paragraphs.
        QStringList sources, translations;
        for (int i = 0; i < 10000; ++i) {
            sources << QStringLiteral("the cat sat on the mat and the dog is very big %1.").arg(i);
            translations << QStringLiteral("el gato se sentó y el perro es muy grande %1.").arg(i);
        }
        const HistoryEntry big =
            documentHistoryEntry(QStringLiteral("/docs/b.txt"), sources, translations,
                                 translations.join('\n'), model, false);
        QVERIFY(big.inputText.size() <= kDocumentHistoryChars);
        QVERIFY(big.inputText.size() > kDocumentHistoryChars - 100);
        const qsizetype lines = big.inputText.count('\n') + 1;
        QCOMPARE(big.outputs[0].text.count('\n') + 1, lines); // the same paragraphs in all three
        QCOMPARE(big.editedText, big.outputs[0].text);
        QVERIFY(big.outputs[0].text.endsWith(translations[lines - 1]));
        QCOMPARE(big.settings.value(QStringLiteral("truncated")), QJsonValue(true));
        // One paragraph alone longer than the bound is cut.
        const HistoryEntry huge = documentHistoryEntry(
            QStringLiteral("/docs/c.txt"), {QString(3 * kDocumentHistoryChars, QLatin1Char('a'))},
            {QString(5 * kDocumentHistoryChars, QLatin1Char('b'))}, QString(), model, false);
        QCOMPARE(huge.inputText.size(), kDocumentHistoryChars);
        QCOMPARE(huge.outputs[0].text.size(), 2 * kDocumentHistoryChars);
        QCOMPARE(huge.settings.value(QStringLiteral("truncated")), QJsonValue(true));
    }

    // An evaluation of the two shipped en→es models: one output per model with its scores,
    // everything else in the settings; stored, it reads back the same, the full-text search finds
    // it by the test set's name and by a model id, and the exports treat it as an evaluation (no
    // translation unit in a TMX).
    void evaluationEntryKeepsTheResult()
    {
        PluginRegistry plugins;
        plugins.scan({QStringLiteral(GLOSA_BINARY_DIR "/plugins")});
        engine::TestSet set = engine::parseTsv("I like coffee.\tMe gusta el café.\n"
                                               "Where is the station?\t¿Dónde está la estación?\n"
                                               "The children are playing in the garden behind "
                                               "the old house.\tLos niños están jugando en el "
                                               "jardín detrás de la casa vieja.\n"
                                               "Tom is reading.\tTom está leyendo.\n",
                                               "kitchen-sentences.tsv");
        QList<ModelInfo> models;
        QList<engine::DecodingOptions> options;
        std::vector<engine::ModelEvaluation> evaluations;
        for (const char *id : {"transformer-en-es", "rnn-attention-en-es"}) {
            const ModelInfo info = ModelCatalog::readPackage(
                QStringLiteral(GLOSA_SOURCE_DIR "/resources/models/") + QLatin1String(id));
            QString error;
            auto model = std::dynamic_pointer_cast<engine::TranslationModel>(
                ModelCatalog::load(info, plugins, &error));
            QVERIFY2(model, qPrintable(error));
            engine::DecodingOptions o = model->defaultDecodingOptions();
            o.strategy = engine::SearchStrategy::Greedy;
            engine::Translator translator(model);
            evaluations.push_back(engine::evaluate(translator, set, o));
            models << info;
            options << o;
        }
        const HistoryEntry entry = evaluationHistoryEntry(set, models, evaluations, options, 5, 2);
        QCOMPARE(entry.kind, HistoryKind::Evaluation);
        // The entry names every model evaluated, not only the first (whose id is the entry's
        // model, for the history's model filter).
        QCOMPARE(entry.inputText,
                 QStringLiteral("kitchen-sentences.tsv · transformer-en-es, rnn-attention-en-es"));
        QCOMPARE(entry.modelId, models[0].id);
        QCOMPARE(entry.outputs.size(), 2);
        for (int m = 0; m < 2; ++m) {
            const HistoryOutput &o = entry.outputs[m];
            QCOMPARE(o.column, m);
            QCOMPARE(o.label, models[m].id);
            QCOMPARE(*o.score, evaluations[std::size_t(m)].bleu.score);
            QCOMPARE(o.text, QStringLiteral("%1  BLEU %2  chrF2 %3")
                                 .arg(models[m].id)
                                 .arg(evaluations[std::size_t(m)].bleu.score, 0, 'f', 2)
                                 .arg(evaluations[std::size_t(m)].chrf, 0, 'f', 2));
        }
        const auto expectedBuckets = engine::bleuByLength(
            set, {&evaluations[0], &evaluations[1]}, 5); // lengths 3, 4, 4, 11

        QTemporaryDir dir;
        HistoryStore store;
        store.open(dir.filePath(QStringLiteral("history.sqlite")));
        const qint64 id = store.addEntry(entry);
        const std::optional<HistoryEntry> read = store.entry(id);
        QVERIFY(read);
        QCOMPARE(read->kind, HistoryKind::Evaluation);
        QCOMPARE(read->settings, entry.settings);
        const StoredEvaluation stored = evaluationFromHistory(*read);
        QCOMPARE(stored.testSetName, QStringLiteral("kitchen-sentences.tsv"));
        QCOMPARE(stored.sentences, qint64(4));
        QCOMPARE(stored.models.size(), 2);
        for (int m = 0; m < 2; ++m) {
            QCOMPARE(stored.models[m].id, models[m].id);
            QCOMPARE(stored.models[m].version, models[m].version);
            QCOMPARE(stored.models[m].bleu, evaluations[std::size_t(m)].bleu.score);
            QCOMPARE(stored.models[m].chrf, evaluations[std::size_t(m)].chrf);
            QCOMPARE(stored.models[m].sentences, qint64(4));
            QCOMPARE(stored.models[m].decoding.strategy, engine::SearchStrategy::Greedy);
        }
        QCOMPARE(stored.buckets.size(), expectedBuckets.size());
        for (std::size_t b = 0; b < expectedBuckets.size(); ++b) {
            QCOMPARE(stored.buckets[b].firstWords, expectedBuckets[b].firstWords);
            QCOMPARE(stored.buckets[b].lastWords, expectedBuckets[b].lastWords);
            QCOMPARE(stored.buckets[b].sentences, expectedBuckets[b].sentences);
            QVERIFY(stored.buckets[b].bleu == expectedBuckets[b].bleu);
        }
        // At most 2 sentences each way, every one scored differently by the two models.
        QVERIFY(stored.differences.size() <= 4);
        for (const StoredDifference &d : stored.differences) {
            QVERIFY(d.chrfA != d.chrfB);
            QCOMPARE(d.source, QString::fromStdString(set.sources[std::size_t(d.sentence)]));
            QCOMPARE(d.hypothesisB, QString::fromStdString(
                                        evaluations[1].hypotheses[std::size_t(d.sentence)]));
        }

        QCOMPARE(store.search(QStringLiteral("kitchen")).items.size(), 1);
        QCOMPARE(store.search(QStringLiteral("rnn-attention-en-es")).items.size(), 1);
        HistoryFilter evaluationsOnly;
        evaluationsOnly.kind = HistoryKind::Evaluation;
        QCOMPARE(store.recent(evaluationsOnly).items.size(), 1);

        QBuffer jsonl, csv, tmx;
        for (QBuffer *b : {&jsonl, &csv, &tmx})
            QVERIFY(b->open(QIODevice::WriteOnly));
        QCOMPARE(exportHistory(store, HistoryExportFormat::JsonLines, jsonl).records, 1);
        const QJsonObject json = QJsonDocument::fromJson(jsonl.data()).object();
        QCOMPARE(json.value("kind").toString(), QStringLiteral("evaluation"));
        QCOMPARE(json.value("settings").toObject(), entry.settings);
        QCOMPARE(exportHistory(store, HistoryExportFormat::Csv, csv).records, 2); // a row a model
        QVERIFY(csv.data().contains("evaluation"));
        QCOMPARE(exportHistory(store, HistoryExportFormat::Tmx, tmx).records, 0);
    }

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
        // Placeholder pieces (U+E000 + k) stand for the protected spans the text holds, in any
        // order (a target sentence may swap them); one with no span left keeps its place.
        row("placeholders: e-mail and URL", "Mail ana@x.org or see https://x.org now.",
            {"▁Mail", "▁\uE001", "▁or", "▁see", "▁\uE000", "▁now", "."},
            "0-4 5-14 15-17 18-21 22-35 36-39 39-40");
        row("a placeholder with no span left", "Pay 90 now", {"▁Pay", "▁\uE000", "▁\uE000", "▁now"},
            "0-3 4-6 7-7 7-10");
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

    // 5,000 words through the real Transformer, 3 hypotheses, as the app records them: the
    // alignments (block-diagonal, one block per sentence) are stored sparse, so the entry adds
    // under 5 MB to a real database (it was ~70 MB per hypothesis), and it reopens exactly.
    void aLongTranslationStaysSmallAndReopensExactly()
    {
        PluginRegistry plugins;
        plugins.scan({QStringLiteral(GLOSA_BINARY_DIR "/plugins")});
        const ModelInfo info =
            ModelCatalog::readPackage(QStringLiteral(GLOSA_SOURCE_DIR "/resources/models/"
                                                                      "transformer-en-es"));
        QString error;
        const auto model = ModelCatalog::load(info, plugins, &error);
        QVERIFY2(model, qPrintable(error));
        QFile sample(QStringLiteral(GLOSA_SOURCE_DIR "/resources/samples/paragraph-en.txt"));
        QVERIFY(sample.open(QIODevice::ReadOnly));
        const QStringList paragraph =
            QString::fromUtf8(sample.readAll()).split(QLatin1Char(' '), Qt::SkipEmptyParts);
        QStringList words;
        while (words.size() < 5000)
            words += paragraph;
        const QString text = words.mid(0, 5000).join(QLatin1Char(' '));
        engine::DecodingOptions options = info.decodingDefaults(); // beam 4
        options.nBest = 3;
        const TranslationResult result = runTranslation(model, text, options);
        QCOMPARE(result.hypotheses.size(), 3);
        const TranslationHypothesis &best = *result.best();
        QVERIFY(best.sourceCount > 5000 && best.tokens.size() > 5000);

        HistoryEntry entry = translationHistoryEntry(result, info);
        for (const HistoryOutput &o : entry.outputs)
            QVERIFY(o.alignment.isSparse());
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("history.sqlite"));
        qint64 id = 0;
        {
            HistoryStore store;
            store.open(path);
            id = store.addEntry(entry);
        } // closed: the WAL is checkpointed into the file
        const qint64 bytes = QFileInfo(path).size();
        qInfo("a 5,000-word translation with 3 hypotheses: %.2f MB", bytes / 1048576.0);
        QVERIFY2(bytes <= 5 * 1024 * 1024, qPrintable(QString::number(bytes)));

        HistoryStore store;
        store.open(path);
        const TranslationResult back = translationResultFromHistory(*store.entry(id));
        QCOMPARE(back.hypotheses.size(), 3);
        const TranslationHypothesis &again = back.hypotheses.first();
        QCOMPARE(again.text, best.text);
        QCOMPARE(again.sourceCount, best.sourceCount);
        QCOMPARE(again.alignment.size(), best.alignment.size());
        for (qsizetype i = 0; i < best.alignment.size(); ++i) // float16: 3 significant digits
            if (std::abs(again.alignment[i] - best.alignment[i]) >
                1e-3f + 1e-3f * best.alignment[i])
                QFAIL(qPrintable(QStringLiteral("cell %1: %2, was %3")
                                     .arg(i)
                                     .arg(again.alignment[i])
                                     .arg(best.alignment[i])));
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
