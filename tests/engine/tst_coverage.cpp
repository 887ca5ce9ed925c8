// Coverage (engine/decoding/coverage.h) on hand-made attention matrices: the per-token masses,
// how pieces group into words (a word of two pieces sums them; punctuation and EOS belong to no
// word), the threshold's edge, a model without attention, and the errors.
#include "engine/decoding/coverage.h"

#include <QtTest>

#include <stdexcept>

using namespace glosa::engine;

namespace {

// Tokens of `text` from (piece, begin, end) triples, the ranges in bytes.
std::vector<Token> tokens(std::initializer_list<std::tuple<const char *, int, int>> pieces)
{
    std::vector<Token> result;
    int id = 4;
    for (const auto &[piece, begin, end] : pieces)
        result.push_back({id++, piece, {std::size_t(begin), std::size_t(end)}, {}, {}});
    return result;
}

QStringList wordTexts(const Coverage &coverage, const std::string &text, bool flaggedOnly)
{
    QStringList list;
    for (const CoveredWord &w : coverage.words)
        if (!flaggedOnly || w.flagged)
            list << QString::fromStdString(text.substr(w.bytes.begin, w.bytes.size()));
    return list;
}

} // namespace

class TestCoverage : public QObject
{
    Q_OBJECT
private slots:
    void masses()
    {
        const std::string text = "The black cat sleeps.";
        const std::vector<Token> source = tokens({{"\u2581The", 0, 3},
                                                  {"\u2581bl", 4, 6},
                                                  {"ack", 6, 9},
                                                  {"\u2581cat", 10, 13},
                                                  {"\u2581sleeps", 14, 20},
                                                  {".", 20, 21},
                                                  {"</s>", 21, 21}});
        // [4 target tokens, 7 source tokens], rows sum to 1: "El gato duerme ." — "black" is
        // left out and gets only 0.05 + 0.05 in all.
        const Tensor attention =
            Tensor::fromFloats({4, 7}, {0.80f, 0.00f, 0.00f, 0.10f, 0.05f, 0.05f, 0.00f, //
                                        0.05f, 0.05f, 0.00f, 0.85f, 0.05f, 0.00f, 0.00f, //
                                        0.00f, 0.00f, 0.00f, 0.05f, 0.90f, 0.05f, 0.00f, //
                                        0.00f, 0.00f, 0.05f, 0.00f, 0.05f, 0.60f, 0.30f});
        const Coverage c = computeCoverage(attention, source, text, CoverageOptions{0.2f});
        QVERIFY(c.available);
        QCOMPARE(c.threshold, 0.2f);
        const std::vector<float> expected = {0.85f, 0.05f, 0.05f, 1.0f, 1.05f, 0.7f, 0.3f};
        QCOMPARE(c.tokenMass.size(), expected.size());
        for (std::size_t j = 0; j < expected.size(); ++j)
            QVERIFY2(qAbs(c.tokenMass[j] - expected[j]) < 1e-5,
                     qPrintable(QString("token %1: %2").arg(j).arg(c.tokenMass[j])));
        // "." and EOS are in no word; "bl" + "ack" is one word with the sum of both.
        QCOMPARE(wordTexts(c, text, false), (QStringList{"The", "black", "cat", "sleeps"}));
        QCOMPARE(c.words[1].firstToken, std::size_t(1));
        QCOMPARE(c.words[1].endToken, std::size_t(3));
        QVERIFY(qAbs(c.words[1].mass - 0.10f) < 1e-5);
        QCOMPARE(wordTexts(c, text, true), QStringList{"black"});
        QCOMPARE(c.flaggedCount(), std::size_t(1));

        // The threshold is strict: a mass equal to it is covered; 0 disables the warnings.
        QCOMPARE(computeCoverage(attention, source, text, CoverageOptions{0.1f}).flaggedCount(),
                 std::size_t(0));
        QCOMPARE(
            wordTexts(computeCoverage(attention, source, text, CoverageOptions{0.9f}), text, true),
            (QStringList{"The", "black"}));
        QCOMPARE(computeCoverage(attention, source, text, CoverageOptions{0.0f}).flaggedCount(),
                 std::size_t(0));
    }

    // Pieces split by punctuation inside a word stay one word; white space or "▁" starts a new
    // one, also after punctuation that opens a word ("¿").
    void wordBoundaries()
    {
        const std::string text = "¿Don't go?"; // "¿" is two bytes
        const std::vector<Token> source = tokens({{"\u2581\u00bf", 0, 2},
                                                  {"Don", 2, 5},
                                                  {"'", 5, 6},
                                                  {"t", 6, 7},
                                                  {"\u2581go", 8, 10},
                                                  {"?", 10, 11}});
        const Tensor attention = Tensor::fromFloats({2, 6}, {0.1f, 0.3f, 0.1f, 0.3f, 0.1f, 0.1f, //
                                                             0.0f, 0.0f, 0.0f, 0.0f, 1.0f, 0.0f});
        const Coverage c = computeCoverage(attention, source, text, CoverageOptions{0.5f});
        QCOMPARE(wordTexts(c, text, false), (QStringList{"Don't", "go"}));
        QVERIFY(qAbs(c.words[0].mass - 0.6f) < 1e-5); // "'" adds nothing
        QCOMPARE(c.flaggedCount(), std::size_t(0));
    }

    void withoutAttention()
    {
        const std::string text = "Hello";
        const Coverage c =
            computeCoverage(Tensor(), tokens({{"\u2581Hello", 0, 5}}), text, CoverageOptions{});
        QVERIFY(!c.available);
        QVERIFY(c.words.empty());
        QVERIFY(c.tokenMass.empty());
    }

    void errors()
    {
        const std::string text = "Hi there";
        const std::vector<Token> source = tokens({{"\u2581Hi", 0, 2}, {"\u2581there", 3, 8}});
        const Tensor threeColumns = Tensor::fromFloats({1, 3}, {0.2f, 0.3f, 0.5f});
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                                 computeCoverage(threeColumns, source, text, CoverageOptions{}));
        const Tensor twoColumns = Tensor::fromFloats({1, 2}, {0.5f, 0.5f});
        QVERIFY_THROWS_EXCEPTION(
            std::invalid_argument,
            computeCoverage(twoColumns, tokens({{"\u2581Hi", 0, 2}, {"\u2581there", 3, 9}}), text,
                            CoverageOptions{}));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                                 computeCoverage(twoColumns, source, text, CoverageOptions{-1.0f}));
    }
};

QTEST_APPLESS_MAIN(TestCoverage)
#include "tst_coverage.moc"
