// engine/evaluation/evaluation: reading test sets (and refusing bad ones with the file and line),
// translating a set in multi-line batches with the shipped models (the hypotheses must equal
// translating each line alone), the scores, the length buckets and the differences between two
// models; plus the bundled sample as app/core/evaluation/testsets.h serves it.
#include "app/core/evaluation/testsets.h"
#include "engine/evaluation/evaluation.h"
#include "engine/runtime.h"
#include "engine/translation/translationmodel.h"
#include "engine/translation/translator.h"
#include "tests/support/testplugins.h"

#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <functional>
#include <stdexcept>

using namespace glosa;
using namespace glosa::engine;

namespace {

std::shared_ptr<TranslationModel> shippedModel(const char *id, const char *architecture)
{
    QString error;
    auto model = glosa::test::loadWithBuiltPlugin<TranslationModel>(
        QString::fromLatin1(architecture), std::string(GLOSA_SOURCE_DIR "/resources/models/") + id,
        &error);
    if (!model)
        qFatal("cannot load %s: %s", id, qPrintable(error));
    return model;
}

// The first `count` sources of the bundled sample, with their references.
TestSet firstOfSample(std::size_t count)
{
    QString error;
    std::optional<TestSet> set = bundledTestSet(QStringLiteral("en"), QStringLiteral("es"), &error);
    if (!set)
        qFatal("%s", qPrintable(error));
    // Every 10th, so that short and long sentences are both in (the file is sorted by length).
    TestSet out;
    out.name = set->name;
    for (std::size_t i = 0; i < set->size() && out.size() < count; i += 10) {
        out.sources.push_back(set->sources[i]);
        out.references.push_back(set->references[i]);
    }
    return out;
}

QString errorOf(const std::function<void()> &call)
{
    try {
        call();
    } catch (const std::invalid_argument &e) {
        return QString::fromUtf8(e.what());
    }
    return QStringLiteral("(no error)");
}

} // namespace

class TestEvaluation : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase() { runtime::setNumThreads(1); }

    void parsesTsv()
    {
        const std::string text = "# columns: en es\n"
                                 "Hello.\tHola.\n"
                                 "\n"
                                 "Hi.\tHola.\r\n"
                                 "Hello.\t¡Hola!\n"
                                 " Bye. \tAdiós.";
        const TestSet set = parseTsv(text, "t.tsv");
        // "Hello." twice: one source with two references.
        QCOMPARE(set.sources, (std::vector<std::string>{"Hello.", "Hi.", "Bye."}));
        QCOMPARE(set.references[0], (std::vector<std::string>{"Hola.", "¡Hola!"}));
        QCOMPARE(tsvColumnLanguages(text), (std::vector<std::string>{"en", "es"}));
        const TestSet reversed = parseTsv(text, "t.tsv", 1);
        QCOMPARE(reversed.sources.front(), std::string("Hola."));
        QCOMPARE(reversed.references.front(), (std::vector<std::string>{"Hello.", "Hi."}));
        QVERIFY(tsvColumnLanguages("a\tb\n").empty());
    }

    void refusesBadTsv_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QString>("message");
        QTest::newRow("one column") << QByteArray("a\tb\nc\n") << "t.tsv:2: expected two columns";
        QTest::newRow("three columns") << QByteArray("a\tb\tc\n") << "t.tsv:1: expected two";
        QTest::newRow("empty side") << QByteArray("a\t \n") << "t.tsv:1: a column is empty";
        QTest::newRow("not UTF-8") << QByteArray("a\tb\nc\xff\td\n") << "t.tsv:2: not valid UTF-8";
        QTest::newRow("nothing") << QByteArray("# only a comment\n") << "no sentence pairs";
        QTest::newRow("long line") << QByteArray(40000, 'a') + "\tb\n"
                                   << "t.tsv:1: longer than the limit of 32768";
    }
    void refusesBadTsv()
    {
        QFETCH(QByteArray, text);
        QFETCH(QString, message);
        const QString error = errorOf([&] { parseTsv(text.toStdString(), "t.tsv"); });
        QVERIFY2(error.contains(message), qPrintable(error));
    }

    void parsesAlignedFiles()
    {
        const TestSet set = parseAligned("a\nb\n\n", "x\ny\n\n", "src.txt");
        QCOMPARE(set.size(), std::size_t(2));
        QCOMPARE(set.references[1], std::vector<std::string>{"y"});
        QVERIFY(errorOf([] { parseAligned("a\nb\n", "x\n", "src.txt"); })
                    .contains("2 source lines but 1 reference lines"));
        QVERIFY(errorOf([] { parseAligned("a\n\n", "x\ny\n", "src.txt"); })
                    .contains("src.txt:2: one side is empty"));
    }

    void readsFilesWithinBounds()
    {
        QTemporaryDir dir;
        QString error;
        QVERIFY(!readTsvTestSet(dir.filePath("missing.tsv"), "en", &error));
        QVERIFY2(error.contains("cannot open"), qPrintable(error));
        QFile file(dir.filePath("t.tsv"));
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("# columns: es en\nHola.\tHello.\n");
        file.close();
        // The comment names the columns: for an en→es model the second is the source.
        const std::optional<TestSet> set = readTsvTestSet(file.fileName(), "en", &error);
        QVERIFY2(set, qPrintable(error));
        QCOMPARE(set->sources.front(), std::string("Hello."));
        QVERIFY(!bundledTestSet("de", "en", &error));
        QVERIFY2(error.contains("en-es"), qPrintable(error));
        const std::optional<TestSet> sample = bundledTestSet("es", "en", &error);
        QVERIFY2(sample && sample->size() > 400, qPrintable(error));
        QCOMPARE(sample->sources.front(), std::string("Corred.")); // the Spanish column
    }

    // Multi-line batches give what translating each line alone gives, and the scores are the
    // metrics of those hypotheses.
    void evaluatesLikeOneLineAtATime()
    {
        const auto model = shippedModel("transformer-en-es", "transformer");
        Translator translator(model);
        translator.setBatchSize(4); // several translate() calls of 16 lines, batches of 4
        const TestSet set = firstOfSample(40);
        DecodingOptions options = model->defaultDecodingOptions();
        options.strategy = SearchStrategy::Greedy;
        std::vector<std::size_t> progress;
        const ModelEvaluation e = evaluate(translator, set, options, [&](std::size_t done, std::size_t total) {
            QCOMPARE(total, set.size());
            progress.push_back(done);
        });
        QCOMPARE(progress, (std::vector<std::size_t>{16, 32, 40}));
        QCOMPARE(e.hypotheses.size(), set.size());
        for (std::size_t i = 0; i < set.size(); ++i)
            QCOMPARE(e.hypotheses[i], translator.translate(set.sources[i], options).text);
        const metrics::BleuScore bleu = metrics::corpusBleu(e.hypotheses, set.references);
        QCOMPARE(e.bleu.score, bleu.score);
        QCOMPARE(e.chrf, metrics::corpusChrf(e.hypotheses, set.references));
        QVERIFY2(e.bleu.score > 20.0, qPrintable(QString::number(e.bleu.score))); // a translator
    }

    void bucketsAndDifferences()
    {
        const TestSet set = firstOfSample(40);
        Translator transformer(shippedModel("transformer-en-es", "transformer"));
        Translator rnn(shippedModel("rnn-attention-en-es", "rnn-attention"));
        DecodingOptions options;
        options.strategy = SearchStrategy::Greedy;
        const ModelEvaluation a = evaluate(transformer, set, options);
        const ModelEvaluation b = evaluate(rnn, set, options);
        const std::vector<LengthBucket> buckets = bleuByLength(set, {&a, &b}, 5, 3);
        std::size_t sentences = 0;
        for (const LengthBucket &bucket : buckets) {
            QCOMPARE(bucket.bleu.size(), std::size_t(2));
            sentences += bucket.sentences;
            // Each bucket's BLEU is the corpus BLEU of exactly its sentences.
            std::vector<std::string> hyps;
            std::vector<std::vector<std::string>> refs;
            for (std::size_t i = 0; i < set.size(); ++i) {
                const int words = sourceWords(set.sources[i]);
                if (words >= bucket.firstWords && (bucket.lastWords < 0 || words <= bucket.lastWords)) {
                    hyps.push_back(a.hypotheses[i]);
                    refs.push_back(set.references[i]);
                }
            }
            QCOMPARE(hyps.size(), bucket.sentences);
            QCOMPARE(bucket.bleu[0], metrics::corpusBleu(hyps, refs).score);
        }
        QCOMPARE(sentences, set.size());
        for (const LengthBucket &bucket : buckets) // 1-5, 6-10, then open from 11 words
            QCOMPARE(bucket.lastWords == -1, bucket.firstWords == 11);
        QVERIFY(buckets.size() >= 2);
        QCOMPARE(sourceWords("  one two\tthree "), 3);

        const std::vector<SentenceDifference> diffs = differences(a, b);
        QCOMPARE(diffs.size(), set.size());
        for (std::size_t k = 1; k < diffs.size(); ++k)
            QVERIFY(diffs[k - 1].chrfA - diffs[k - 1].chrfB >= diffs[k].chrfA - diffs[k].chrfB);
        QVERIFY(errorOf([&] { bleuByLength(firstOfSample(3), {&a}); }).contains("not of this"));
    }
};

QTEST_GUILESS_MAIN(TestEvaluation)
#include "tst_evaluation.moc"
