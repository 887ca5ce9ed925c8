// engine/evaluation/metrics against the cases tools/tests/test_metrics.py checks the Python metrics
// with (hand-computed, and values published by sacrebleu and its metric cards), and against
// tools/glosa/eval/metrics.py itself on 72 Spanish segments with numbers, punctuation and non-ASCII
// text (tests/data/metrics: expected.json was written by the Python code from the two text files),
// so that the training scripts and the app report the same scores.
#include "engine/evaluation/metrics.h"
#include "tests/support/testutil.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include <cmath>
#include <stdexcept>

using namespace glosa::engine::metrics;

namespace {

std::vector<std::string> readLines(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        qFatal("cannot open %s", qPrintable(path));
    std::vector<std::string> lines;
    for (const QByteArray &line : file.readAll().split('\n'))
        lines.push_back(line.toStdString());
    if (!lines.empty() && lines.back().empty())
        lines.pop_back();
    return lines;
}

std::vector<std::vector<std::string>> single(const std::vector<std::string> &references)
{
    std::vector<std::vector<std::string>> out;
    for (const std::string &r : references)
        out.push_back({r});
    return out;
}

} // namespace

class TestMetrics : public QObject
{
    Q_OBJECT
private slots:
    void tokenizer13a_data()
    {
        QTest::addColumn<QString>("raw");
        QTest::addColumn<QString>("tokenized");
        QTest::newRow("punctuation") << "Hello, world!"
                                     << "Hello , world !";
        // Commas and periods between digits stay; a dash after a digit splits.
        QTest::newRow("numbers") << "It costs $3.50 (or 4,000-5)."
                                 << "It costs $ 3.50 ( or 4,000 - 5 ) .";
        QTest::newRow("entities") << "&quot;a&quot; &amp; b"
                                  << "\" a \" & b";
        QTest::newRow("non-ASCII punctuation stays") << "¿Qué tal?"
                                                     << "¿Qué tal ?";
        QTest::newRow("apostrophe stays") << "Tom's"
                                          << "Tom's";
        QTest::newRow("white space") << "  many   spaces "
                                     << "many spaces";
        // Python's str.split() also splits on no-break space (Zs) and U+001F (bidi S).
        QTest::newRow("unicode white space") << QString::fromUtf8("10\u00a0000 a\x1f"
                                                                  "b")
                                             << "10 000 a b";
    }
    void tokenizer13a()
    {
        QFETCH(QString, raw);
        QFETCH(QString, tokenized);
        QCOMPARE(QString::fromStdString(tokenize13a(raw.toStdString())), tokenized);
    }

    void bleuIdentical()
    {
        QCOMPARE(corpusBleu({"this is a test"}, {{"this is a test"}}).score, 100.0);
    }

    void bleuHandComputed()
    {
        // 1-grams 5/6, 2-grams 3/5, 3-grams 1/4, 4-grams 0/3 -> exp smoothing 100 / (2 * 3).
        const BleuScore b = corpusBleu({"the cat sat on the mat"}, {{"the cat is on the mat"}});
        const double expected = 100 * std::exp((std::log(5.0 / 6) + std::log(3.0 / 5) +
                                                std::log(1.0 / 4) + std::log(1.0 / 6)) /
                                               4);
        QVERIFY(std::abs(b.score - expected) < 1e-9);
        QCOMPARE(b.brevityPenalty, 1.0);
    }

    void bleuClippingAndReferences()
    {
        const BleuStatistics s = bleuStatistics("the the the", {"the cat", "the the dog"});
        QCOMPARE(s.correct[0], 2);
        QCOMPARE(s.total[0], 3);
        // Closest reference length, ties to the shorter.
        QCOMPARE(bleu(bleuStatistics("a b c d", {"a b c", "a b c d e"})).referenceLength, 3);
        const BleuScore b = bleu(bleuStatistics("a b c d", {"a b c d e", "a b c d e f g"}));
        QCOMPARE(b.referenceLength, 5);
        QVERIFY(std::abs(b.brevityPenalty - std::exp(1 - 5.0 / 4)) < 1e-12);
    }

    void bleuSacrebleuExample()
    {
        // sacrebleu's test_bleu.py: 48.530827.
        const std::vector<std::vector<std::string>> refs{
            {"The dog bit the man.", "The dog had bit the man."},
            {"It was not unexpected.", "No one was surprised."},
            {"The man bit him first.", "The man had bitten the dog."}};
        const BleuScore b = corpusBleu(
            {"The dog bit the man.", "It wasn't surprising.", "The man had just bitten him."},
            refs);
        QVERIFY2(std::abs(b.score - 48.530827) < 1e-5, qPrintable(QString::number(b.score)));
        QCOMPARE(corpusBleu({"", "", ""}, refs).score, 0.0);
        // No 3- or 4-grams at all: 0 (no effective-order smoothing at corpus level).
        QCOMPARE(corpusBleu({"the cat"}, {{"the cat sat"}}).score, 0.0);
    }

    void badInput()
    {
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, corpusBleu({"a"}, {}));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, bleuStatistics("a", {""}));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, chrfStatistics("a", {}));
        // Ill-formed UTF-8 is scored, byte by byte, not rejected.
        QVERIFY(corpusChrf({"caf\xc3"}, {{"caf\xc3"}}) == 100.0);
    }

    void chrfMetricCard()
    {
        QVERIFY(std::abs(corpusChrf(
                             {"The relationship between Obama and Netanyahu is not exactly "
                              "friendly."},
                             {{"The ties between Obama and Netanyahu are not particularly "
                               "friendly."}}) -
                         61.576379378113785) < 1e-9);
        QVERIFY(std::abs(corpusChrf({"The relationship between cats and dogs is not exactly "
                                     "friendly.",
                                     "a good bookshop is just a genteel black hole that knows "
                                     "how to read."},
                                    {{"The relationship between dogs and cats is not exactly "
                                      "friendly."},
                                     {"A good bookshop is just a genteel Black Hole that knows "
                                      "how to read."}}) -
                         84.64214891738334) < 1e-9);
    }

    void chrfHandComputed()
    {
        // "ab" vs "abc": order 1 P 2/2 R 2/3, order 2 P 1/1 R 1/2, higher orders absent.
        const double P = 1.0, R = (2.0 / 3 + 1.0 / 2) / 2;
        QVERIFY(std::abs(corpusChrf({"a b"}, {{"abc"}}) - 100 * 5 * P * R / (4 * P + R)) < 1e-9);
        QCOMPARE(corpusChrf({"hola"}, {{"adiós", "hola"}}), 100.0); // the best reference
        QCOMPARE(corpusChrf({""}, {{"hola"}}), 0.0);
    }

    // The same numbers as tools/glosa/eval/metrics.py on real Spanish text.
    void agreesWithThePythonMetrics()
    {
        const QString dir = glosa::test::testDataDir() + QStringLiteral("/metrics/");
        const std::vector<std::string> hypotheses = readLines(dir + "hypotheses.txt");
        const auto references = single(readLines(dir + "references.txt"));
        QFile file(dir + "expected.json");
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QJsonObject expected = QJsonDocument::fromJson(file.readAll()).object();
        QCOMPARE(qsizetype(hypotheses.size()), expected["segment_chrf"].toArray().size());

        const QJsonArray tokenized = expected["tokenized"].toArray();
        for (qsizetype i = 0; i < tokenized.size(); ++i)
            QCOMPARE(QString::fromStdString(tokenize13a(hypotheses[i])), tokenized[i].toString());
        const BleuScore b = corpusBleu(hypotheses, references);
        for (int n = 0; n < kBleuOrder; ++n) {
            BleuStatistics s;
            for (std::size_t i = 0; i < hypotheses.size(); ++i)
                s += bleuStatistics(hypotheses[i], references[i]);
            QCOMPARE(s.correct[n], expected["counts"].toArray()[n].toInteger());
            QCOMPARE(s.total[n], expected["totals"].toArray()[n].toInteger());
        }
        QCOMPARE(b.hypothesisLength, expected["sys_len"].toInteger());
        QCOMPARE(b.referenceLength, expected["ref_len"].toInteger());
        QVERIFY(std::abs(b.score - expected["corpus_bleu"].toDouble()) < 1e-9);
        QVERIFY(std::abs(corpusChrf(hypotheses, references) - expected["corpus_chrf"].toDouble()) <
                1e-9);
        const QJsonArray segments = expected["segment_chrf"].toArray();
        for (std::size_t i = 0; i < hypotheses.size(); ++i)
            QVERIFY2(std::abs(chrf(chrfStatistics(hypotheses[i], references[i])) -
                              segments[qsizetype(i)].toDouble()) < 1e-9,
                     hypotheses[i].c_str());
    }
};

QTEST_APPLESS_MAIN(TestMetrics)
#include "tst_metrics.moc"
