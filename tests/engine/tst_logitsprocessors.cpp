// Logits processors, each on its own (table-driven), then chained: the published formulas, the
// banned-token sets, and the cheap renormalisation agreeing with a full log-softmax.
#include "engine/decoding/decodingoptions.h"
#include "engine/decoding/logitsprocessor.h"

#include <QtTest>

#include <algorithm>
#include <cmath>
#include <numeric>

using namespace glosa::engine;
using Scores = std::vector<float>;
using Tokens = std::vector<std::int32_t>;

Q_DECLARE_METATYPE(Scores)
Q_DECLARE_METATYPE(Tokens)

namespace {

constexpr float kInf = std::numeric_limits<float>::infinity();

Scores logSoftmax(const Scores &x)
{
    const float maximum = *std::max_element(x.begin(), x.end());
    double sum = 0.0;
    for (float v : x)
        sum += std::exp(static_cast<double>(v - maximum));
    Scores out(x.size());
    for (std::size_t i = 0; i < x.size(); ++i)
        out[i] = x[i] - maximum - static_cast<float>(std::log(sum));
    return out;
}

bool close(const Scores &a, const Scores &b, float tolerance = 1e-5f)
{
    if (a.size() != b.size())
        return false;
    for (std::size_t i = 0; i < a.size(); ++i) {
        if (std::isinf(a[i]) || std::isinf(b[i])) {
            if (a[i] != b[i])
                return false;
        } else if (std::abs(a[i] - b[i]) > tolerance) {
            return false;
        }
    }
    return true;
}

QByteArray show(const Scores &s)
{
    QByteArray out = "[";
    for (float v : s)
        out += QByteArray::number(v) + ' ';
    return out + ']';
}

Scores applyOne(const LogitsProcessor &processor, Scores scores, const Tokens &history,
                int step = -1, std::int32_t endToken = 1)
{
    ProcessorContext context{step < 0 ? static_cast<std::int32_t>(history.size()) : step, history,
                             endToken};
    ScoreRow row(scores, false);
    processor.apply(context, row);
    return scores;
}

} // namespace

class TestLogitsProcessors : public QObject
{
    Q_OBJECT
private slots:
    void repetitionPenaltyFormula_data()
    {
        // Keskar et al. 2019, eq. 3: x / θ for x > 0, x × θ otherwise, for tokens in the history
        // (once per distinct token, however often it occurred).
        QTest::addColumn<Scores>("scores");
        QTest::addColumn<Tokens>("history");
        QTest::addColumn<float>("penalty");
        QTest::addColumn<Scores>("expected");
        QTest::newRow("positive divided")
            << Scores{2.0f, 1.0f, 0.5f} << Tokens{0} << 2.0f << Scores{1.0f, 1.0f, 0.5f};
        QTest::newRow("negative multiplied")
            << Scores{-1.0f, -2.0f, 0.5f} << Tokens{1} << 2.0f << Scores{-1.0f, -4.0f, 0.5f};
        QTest::newRow("mixed, repeated history")
            << Scores{3.0f, -0.5f, 0.0f, 1.5f} << Tokens{0, 1, 0, 0, 2} << 1.5f
            << Scores{2.0f, -0.75f, 0.0f, 1.5f};
        QTest::newRow("log-probabilities: p -> p^theta")
            << Scores{std::log(0.5f), std::log(0.3f), std::log(0.2f)} << Tokens{0} << 3.0f
            << Scores{3 * std::log(0.5f), std::log(0.3f), std::log(0.2f)};
        QTest::newRow("penalty below 1 rewards repeats")
            << Scores{2.0f, -2.0f} << Tokens{0, 1} << 0.5f << Scores{4.0f, -1.0f};
        QTest::newRow("penalty 1 changes nothing")
            << Scores{2.0f, -2.0f} << Tokens{0, 1} << 1.0f << Scores{2.0f, -2.0f};
        QTest::newRow("empty history")
            << Scores{2.0f, -2.0f} << Tokens{} << 2.0f << Scores{2.0f, -2.0f};
        QTest::newRow("blocked stays blocked")
            << Scores{-kInf, -2.0f} << Tokens{0, 1} << 2.0f << Scores{-kInf, -4.0f};
    }
    void repetitionPenaltyFormula()
    {
        QFETCH(Scores, scores);
        QFETCH(Tokens, history);
        QFETCH(float, penalty);
        QFETCH(Scores, expected);
        const Scores actual = applyOne(RepetitionPenalty(penalty), scores, history);
        QVERIFY2(close(actual, expected), show(actual) + " vs " + show(expected));
    }

    void noRepeatNgramBans_data()
    {
        QTest::addColumn<Tokens>("history");
        QTest::addColumn<int>("n");
        QTest::addColumn<Tokens>("banned");
        QTest::newRow("unigrams: every seen token") << Tokens{4, 2, 4, 7} << 1 << Tokens{2, 4, 7};
        QTest::newRow("bigram after 3") << Tokens{3, 5, 6, 3} << 2 << Tokens{5};
        QTest::newRow("bigram, two continuations") << Tokens{3, 5, 3, 6, 3} << 2 << Tokens{5, 6};
        QTest::newRow("bigram, nothing to ban") << Tokens{3, 5, 6} << 2 << Tokens{};
        QTest::newRow("trigram") << Tokens{1, 2, 3, 9, 1, 2} << 3 << Tokens{3};
        QTest::newRow("trigram, only a bigram matches") << Tokens{1, 2, 3, 9, 2} << 3 << Tokens{};
        QTest::newRow("overlapping repeats") << Tokens{7, 7, 7} << 2 << Tokens{7};
        QTest::newRow("history shorter than n") << Tokens{1, 2} << 3 << Tokens{};
        QTest::newRow("empty history") << Tokens{} << 2 << Tokens{};
    }
    void noRepeatNgramBans()
    {
        QFETCH(Tokens, history);
        QFETCH(int, n);
        QFETCH(Tokens, banned);
        QCOMPARE(NoRepeatNgram::bannedTokens(history, n), banned);
        // apply() blocks exactly those, marks them for the traces, and leaves the rest.
        Scores scores(10, -1.0f);
        ProcessorContext context{static_cast<std::int32_t>(history.size()), history, -1};
        ScoreRow row(scores);
        NoRepeatNgram(n).apply(context, row);
        Tokens blocked;
        for (std::int32_t t = 0; t < 10; ++t) {
            if (scores[t] == -kInf)
                blocked.push_back(t);
            else
                QCOMPARE(scores[t], -1.0f);
        }
        QCOMPARE(blocked, banned);
        Tokens marked = row.blockedByNgram();
        std::sort(marked.begin(), marked.end());
        QCOMPARE(marked, banned);
    }

    void ngramPenaltySubtractsPerOccurrence_data()
    {
        QTest::addColumn<Tokens>("history");
        QTest::addColumn<int>("n");
        QTest::addColumn<Scores>("expected");
        // Base scores 0 everywhere; λ = 0.5.
        QTest::newRow("unigram counts") << Tokens{2, 2, 3} << 1 << Scores{0, 0, -1.0f, -0.5f, 0};
        QTest::newRow("bigram continuations")
            << Tokens{1, 2, 1, 2, 1} << 2 << Scores{0, 0, -1.0f, 0, 0};
        QTest::newRow("no match") << Tokens{1, 2, 3} << 2 << Scores{0, 0, 0, 0, 0};
    }
    void ngramPenaltySubtractsPerOccurrence()
    {
        QFETCH(Tokens, history);
        QFETCH(int, n);
        QFETCH(Scores, expected);
        const Scores actual = applyOne(NgramPenalty(0.5f, n), Scores(5, 0.0f), history);
        QVERIFY2(close(actual, expected), show(actual));
    }

    void suppressForcedAndMinLength()
    {
        const Scores base = {-1.0f, -2.0f, -3.0f, -4.0f};
        Scores s = applyOne(SuppressTokens({0, 3}), base, {});
        QVERIFY(close(s, {-kInf, -2.0f, -3.0f, -kInf}));
        // Forced prefix: step 1 allows only prefix[1]; past the prefix nothing changes.
        s = applyOne(ForcedPrefix({2, 3}), base, {2}, 1);
        QVERIFY(close(s, {-kInf, -kInf, -kInf, -4.0f}));
        s = applyOne(ForcedPrefix({2, 3}), base, {2, 3}, 2);
        QVERIFY(close(s, base));
        // Min length: EOS (1) blocked while fewer than 2 tokens exist.
        s = applyOne(MinLength(2), base, {3});
        QVERIFY(close(s, {-1.0f, -kInf, -3.0f, -4.0f}));
        s = applyOne(MinLength(2), base, {3, 3});
        QVERIFY(close(s, base));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, NoRepeatNgram(0));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, RepetitionPenalty(0.0f));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, SuppressTokens({-1}));
        QVERIFY_THROWS_EXCEPTION(std::out_of_range, applyOne(SuppressTokens({9}), base, {}));
    }

    void chainRenormalizes_data()
    {
        QTest::addColumn<int>("noRepeat");
        QTest::addColumn<float>("repetition");
        QTest::addColumn<float>("ngram");
        QTest::addColumn<int>("minLength");
        QTest::addColumn<bool>("prefix");
        QTest::newRow("no-repeat") << 2 << 1.0f << 0.0f << 0 << false;
        QTest::newRow("repetition") << 0 << 1.8f << 0.0f << 0 << false;
        QTest::newRow("ngram penalty") << 0 << 1.0f << 0.7f << 0 << false;
        QTest::newRow("min length") << 0 << 1.0f << 0.0f << 9 << false;
        QTest::newRow("all") << 1 << 2.0f << 0.3f << 9 << false;
        QTest::newRow("forced prefix (full path)") << 0 << 1.0f << 0.0f << 0 << true;
    }
    void chainRenormalizes()
    {
        QFETCH(int, noRepeat);
        QFETCH(float, repetition);
        QFETCH(float, ngram);
        QFETCH(int, minLength);
        QFETCH(bool, prefix);
        DecodingOptions options;
        options.noRepeatNgramSize = noRepeat;
        options.repetitionPenalty = repetition;
        options.ngramPenalty = ngram;
        options.minLength = minLength;
        if (prefix)
            options.targetPrefix = {0, 0, 0, 0, 0, 5};
        const LogitsProcessorChain chain = LogitsProcessorChain::fromOptions(options, 1);
        QVERIFY(!chain.empty());
        // A log-softmax row; the history repeats tokens so that every processor acts.
        const Scores logits = {0.3f, 1.2f, 2.0f, -0.4f, 0.9f, 1.7f, -1.1f, 0.0f};
        const Scores row = logSoftmax(logits);
        const Tokens history = {2, 5, 2, 5, 2};
        Scores processed = row;
        chain.apply({5, history, 1}, processed);
        // The reference: same processors on a copy, then a full log-softmax.
        Scores reference = row;
        {
            ScoreRow r(reference);
            for (const auto &processor : chain.processors())
                processor->apply({5, history, 1}, r);
        }
        reference = logSoftmax(reference);
        QVERIFY2(close(processed, reference), show(processed) + " vs " + show(reference));
        double mass = 0.0;
        for (float v : processed)
            mass += std::exp(static_cast<double>(v));
        QVERIFY(std::abs(mass - 1.0) < 1e-5);
        QVERIFY(!close(processed, row)); // something did change
    }

    void chainOrderAndNames()
    {
        DecodingOptions options;
        options.suppressTokens = {3};
        options.targetPrefix = {2};
        options.minLength = 1;
        options.noRepeatNgramSize = 3;
        options.repetitionPenalty = 1.2f;
        options.ngramPenalty = 0.1f;
        const LogitsProcessorChain chain = LogitsProcessorChain::fromOptions(options, 1);
        std::vector<std::string> names;
        for (const auto &processor : chain.processors())
            names.push_back(processor->name());
        QCOMPARE(names, (std::vector<std::string>{"suppress-tokens", "min-length",
                                                  "no-repeat-ngram", "repetition-penalty",
                                                  "ngram-penalty", "forced-prefix"}));
        QVERIFY(LogitsProcessorChain::fromOptions(DecodingOptions(), 1).empty());
    }

    // A chain that only suppresses names its tokens in the order ScoreRow records them (first
    // occurrence, no repeats), and logMassAfterBlocking() from those gives what applyLazily()
    // returns on the written row, bit for bit: the greedy search renormalises from them alone.
    // Any other processor, or none, leaves the written row to decide.
    void suppressOnlyShortcut()
    {
        LogitsProcessorChain chain;
        QVERIFY(!chain.suppressedOnly());
        chain.add(std::make_shared<SuppressTokens>(Tokens{6, 2, 6}));
        chain.add(std::make_shared<SuppressTokens>(Tokens{0, 2}));
        QCOMPARE(chain.suppressedOnly(), std::optional<Tokens>(Tokens{6, 2, 0}));
        const Scores row = logSoftmax({0.3f, 1.2f, 2.0f, -0.4f, 0.9f, 1.7f, -1.1f, 0.0f});
        Scores scores = row;
        ScoreRow processed(scores);
        const float shift = chain.applyLazily({0, {}, 1}, processed, [](auto, const auto &) {});
        const Tokens suppressed = *chain.suppressedOnly();
        double blocked = 0.0;
        for (std::int32_t token : suppressed)
            blocked += std::exp(static_cast<double>(row[token]));
        const std::optional<float> mass = ScoreRow::logMassAfterBlocking(blocked);
        QVERIFY(mass.has_value());
        QVERIFY(*mass == shift); // exactly: QCOMPARE on floats is fuzzy
        QVERIFY(shift < 0.0f);
        // Too little mass left: logMass() reads the whole row, so must the search.
        QVERIFY(!ScoreRow::logMassAfterBlocking(1.0 - 1e-4));

        DecodingOptions options;
        options.suppressTokens = {3};
        options.minLength = 2;
        QVERIFY(!LogitsProcessorChain::fromOptions(options, 1).suppressedOnly());
        options.minLength = 0;
        options.noRepeatNgramSize = 2;
        QVERIFY(!LogitsProcessorChain::fromOptions(options, 1).suppressedOnly());
        options.noRepeatNgramSize = 0;
        QCOMPARE(LogitsProcessorChain::fromOptions(options, 1).suppressedOnly(),
                 std::optional<Tokens>(Tokens{3}));
    }

    // A forced token wins over every rule that would block it: the user chose it (steering
    // the search from the GUI's tree or chart). It comes out with probability 1, and the n-gram
    // rule does not report it as blocked.
    void forcedPrefixWinsOverBlocks_data()
    {
        QTest::addColumn<int>("forced");
        QTest::addColumn<int>("noRepeat");
        QTest::addColumn<Tokens>("suppress");
        QTest::addColumn<int>("minLength");
        QTest::newRow("blocked by the n-gram rule") << 2 << 1 << Tokens{} << 0;
        QTest::newRow("suppressed") << 2 << 0 << Tokens{2} << 0;
        QTest::newRow("EOS before the minimum length") << 1 << 0 << Tokens{} << 5;
        QTest::newRow("all at once") << 2 << 1 << Tokens{2, 3} << 5;
    }
    void forcedPrefixWinsOverBlocks()
    {
        QFETCH(int, forced);
        QFETCH(int, noRepeat);
        QFETCH(Tokens, suppress);
        QFETCH(int, minLength);
        DecodingOptions options;
        options.noRepeatNgramSize = noRepeat;
        options.suppressTokens = suppress;
        options.minLength = minLength;
        options.targetPrefix = {0, forced};
        const LogitsProcessorChain chain = LogitsProcessorChain::fromOptions(options, 1);
        const Tokens history = {2}; // step 1: a 1-gram rule blocks 2 again
        Scores scores = logSoftmax({0.3f, 1.2f, 2.0f, -0.4f, 0.9f});
        ScoreRow row(scores);
        for (const auto &processor : chain.processors())
            processor->apply({1, history, 1}, row);
        QVERIFY(row.renormalize());
        for (int token = 0; token < int(scores.size()); ++token)
            QCOMPARE(scores[token], token == forced ? 0.0f : -kInf);
        QVERIFY(std::find(row.blockedByNgram().begin(), row.blockedByNgram().end(), forced) ==
                row.blockedByNgram().end());
    }

    void everythingBlockedIsReported()
    {
        Scores scores = {std::log(0.5f), std::log(0.5f)};
        ScoreRow row(scores);
        row.block(0);
        row.block(1);
        QVERIFY(!row.renormalize());
        QCOMPARE(scores[0], -kInf);
    }
};

QTEST_APPLESS_MAIN(TestLogitsProcessors)
#include "tst_logitsprocessors.moc"
