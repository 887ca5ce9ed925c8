// Search strategies on a toy step-decoder driven by hand-written probability tables: greedy is the
// argmax, a wide beam is exhaustive search, beam 1 is greedy, the length penalty can change the
// winner, n-gram blocking removes repeats, lengths, batching, n-best, traces, cancellation, and
// decoding from an encoded state that reports its own lengths and sampling keys.
#include "engine/decoding/decodingfields.h"
#include "engine/decoding/search.h"
#include "engine/translation/translationmodel.h"
#include "tests/plugins/toytranslator/tablestepdecoder.h"

#include <nlohmann/json.hpp>

#include <QtTest>

#include <cmath>
#include <map>
#include <set>

using namespace glosa::engine;
using glosa::toy::TableStepDecoder;
using Tokens = std::vector<std::int32_t>;

namespace {

constexpr std::int32_t BOS = 0, EOS = 1, A = 2, B = 3, C = 4, D = 5, E = 6;
const char *const kNames = "^$abcde";

QString spell(const Tokens &tokens)
{
    QString out;
    for (std::int32_t token : tokens)
        out += QLatin1Char(token >= 0 && token < 7 ? kNames[token] : '?');
    return out;
}

// A bigram table: row = previous token (BOS at the start), probabilities over the vocabulary.
TableStepDecoder::Distribution bigram(std::vector<std::vector<double>> table)
{
    return [table](const Tokens &, const Tokens &history) {
        return table.at(history.empty() ? BOS : history.back());
    };
}

// The same hand-written bigram model used by several tests (vocabulary ^ $ a b c).
const std::vector<std::vector<double>> kBigram = {
    //  ^    $    a    b    c
    {0.0, 0.1, 0.5, 0.3, 0.1}, // after ^
    {0.0, 1.0, 0.0, 0.0, 0.0}, // after $ (never used)
    {0.0, 0.2, 0.1, 0.6, 0.1}, // after a
    {0.0, 0.3, 0.2, 0.1, 0.4}, // after b
    {0.0, 0.6, 0.2, 0.1, 0.1}, // after c
};

// A deterministic pseudo-random distribution per history (and source), so that the tables of the
// exhaustive tests depend on the whole prefix, not only on the last token.
TableStepDecoder::Distribution hashed(std::uint64_t seed, int vocabulary, double eosWeight)
{
    return [=](const Tokens &source, const Tokens &history) {
        std::uint64_t h = seed * 0x9e3779b97f4a7c15ULL + 1;
        for (std::int32_t t : source)
            h = (h ^ static_cast<std::uint64_t>(t + 7)) * 0x100000001b3ULL;
        h ^= 0xabcdefULL;
        for (std::int32_t t : history)
            h = (h ^ static_cast<std::uint64_t>(t + 1)) * 0x100000001b3ULL;
        std::mt19937_64 engine(h);
        std::vector<double> p(vocabulary, 0.0);
        for (int v = 1; v < vocabulary; ++v)
            p[v] = 0.05 + static_cast<double>(engine() >> 11) * 0x1.0p-53;
        p[EOS] *= eosWeight;
        return p;
    };
}

struct Scored
{
    Tokens tokens;
    float score;
};

// Every hypothesis of at most maxLength tokens (EOS included), scored like the search does.
void enumerate(const TableStepDecoder::Distribution &distribution, const Tokens &source,
               const DecodingOptions &options, Tokens &prefix, double logProb,
               std::vector<Scored> &out)
{
    std::vector<double> p = distribution(source, prefix);
    double sum = 0.0;
    for (double value : p)
        sum += value;
    for (std::int32_t v = 0; v < static_cast<std::int32_t>(p.size()); ++v) {
        if (p[v] <= 0)
            continue;
        const double lp = logProb + static_cast<float>(std::log(p[v] / sum));
        const int length = static_cast<int>(prefix.size()) + 1;
        if (v == EOS) {
            out.push_back({prefix, finalScore(options, static_cast<float>(lp), length)});
        } else if (length >= options.maxLength) {
            Tokens full = prefix;
            full.push_back(v);
            out.push_back({full, finalScore(options, static_cast<float>(lp), length)});
        } else {
            prefix.push_back(v);
            enumerate(distribution, source, options, prefix, lp, out);
            prefix.pop_back();
        }
    }
}

std::vector<Scored> exhaustive(const TableStepDecoder::Distribution &distribution,
                               const Tokens &source, const DecodingOptions &options)
{
    std::vector<Scored> all;
    Tokens prefix;
    enumerate(distribution, source, options, prefix, 0.0, all);
    std::stable_sort(all.begin(), all.end(),
                     [](const Scored &a, const Scored &b) { return a.score > b.score; });
    return all;
}

bool hasRepeatedNgram(const Tokens &tokens, int n)
{
    std::set<Tokens> seen;
    for (std::size_t i = 0; i + n <= tokens.size(); ++i)
        if (!seen.insert(Tokens(tokens.begin() + i, tokens.begin() + i + n)).second)
            return true;
    return false;
}

// Hugging Face's beam search with early_stopping=True, written plainly from
// transformers' generation/utils.py (_beam_search): per step, every (hypothesis, token) pair by
// cumulative log-probability; an EOS among the first `beam` finishes a hypothesis (scored
// log P / |Y|^α, |Y| counting EOS), the best `beam` others continue; stop once `beam`
// hypotheses are finished and return the best-scored of them.
Scored huggingFaceBeam(const TableStepDecoder::Distribution &distribution, const Tokens &source,
                       const DecodingOptions &options)
{
    struct Alive
    {
        Tokens tokens;
        double logProb;
    };
    std::vector<Alive> alive{{{}, 0.0}};
    std::vector<Scored> finished;
    while (!alive.empty() && static_cast<int>(finished.size()) < options.beamSize) {
        struct Candidate
        {
            std::size_t parent;
            std::int32_t token;
            double logProb;
        };
        std::vector<Candidate> candidates;
        for (std::size_t h = 0; h < alive.size(); ++h) {
            const std::vector<double> p = distribution(source, alive[h].tokens);
            double sum = 0.0;
            for (double value : p)
                sum += value;
            for (std::int32_t v = 0; v < static_cast<std::int32_t>(p.size()); ++v)
                if (p[v] > 0)
                    candidates.push_back(
                        {h, v, alive[h].logProb + static_cast<float>(std::log(p[v] / sum))});
        }
        std::stable_sort(
            candidates.begin(), candidates.end(),
            [](const Candidate &a, const Candidate &b) { return a.logProb > b.logProb; });
        std::vector<Alive> next;
        for (std::size_t rank = 0; rank < candidates.size(); ++rank) {
            const Candidate &c = candidates[rank];
            Tokens tokens = alive[c.parent].tokens;
            const int length = static_cast<int>(tokens.size()) + 1;
            if (c.token == EOS) {
                if (rank < static_cast<std::size_t>(options.beamSize))
                    finished.push_back(
                        {tokens, finalScore(options, static_cast<float>(c.logProb), length)});
                continue;
            }
            if (static_cast<int>(next.size()) == options.beamSize)
                break;
            tokens.push_back(c.token);
            if (length >= options.maxLength)
                finished.push_back(
                    {tokens, finalScore(options, static_cast<float>(c.logProb), length)});
            else
                next.push_back({tokens, c.logProb});
        }
        alive = std::move(next);
    }
    return *std::max_element(finished.begin(), finished.end(),
                             [](const Scored &a, const Scored &b) { return a.score < b.score; });
}

DecodingOptions beamOptions(int beam, LengthNormalization normalization, float alpha)
{
    DecodingOptions options;
    options.strategy = SearchStrategy::Beam;
    options.beamSize = beam;
    options.lengthNormalization = normalization;
    options.lengthPenalty = alpha;
    return options;
}

} // namespace

class TestSearch : public QObject
{
    Q_OBJECT
private slots:
    void greedyPicksTheArgmax()
    {
        TableStepDecoder decoder(5, BOS, EOS, bigram(kBigram));
        DecodingOptions options; // greedy
        const auto results = decode(decoder, {{A, B, EOS}}, options);
        QCOMPARE(results.size(), std::size_t(1));
        const Hypothesis &best = results[0].hypotheses.at(0);
        // ^ -a(.5)-> a -b(.6)-> b -c(.4)-> c -$(.6)
        QCOMPARE(spell(best.tokens), QStringLiteral("abc"));
        QVERIFY(best.endedWithEos);
        const std::vector<float> expected = {std::log(0.5f), std::log(0.6f), std::log(0.4f)};
        for (std::size_t i = 0; i < expected.size(); ++i)
            QVERIFY(std::abs(best.tokenLogProbs[i] - expected[i]) < 1e-6);
        QVERIFY(std::abs(best.eosLogProb - std::log(0.6f)) < 1e-6);
        QVERIFY(std::abs(best.logProb - std::log(0.5f * 0.6f * 0.4f * 0.6f)) < 1e-5);
        QCOMPARE(decoder.stepCalls(), 4); // one step per token, EOS included
    }

    void greedyMatchesArgmaxWalk_data()
    {
        QTest::addColumn<int>("seed");
        for (int seed = 1; seed <= 8; ++seed)
            QTest::addRow("table %d", seed) << seed;
    }
    void greedyMatchesArgmaxWalk()
    {
        QFETCH(int, seed);
        const auto distribution = hashed(seed, 6, 0.6);
        TableStepDecoder decoder(6, BOS, EOS, distribution);
        DecodingOptions options;
        options.maxLength = 12;
        const Tokens source = {A, B, C, EOS};
        const Hypothesis best = decode(decoder, {source}, options)[0].hypotheses.at(0);
        // An independent walk down the table.
        Tokens walk;
        bool ended = false;
        while (static_cast<int>(walk.size()) < options.maxLength) {
            const std::vector<double> p = distribution(source, walk);
            const auto argmax =
                static_cast<std::int32_t>(std::max_element(p.begin(), p.end()) - p.begin());
            if (argmax == EOS) {
                ended = true;
                break;
            }
            walk.push_back(argmax);
        }
        QCOMPARE(best.tokens, walk);
        QCOMPARE(best.endedWithEos, ended);
    }

    void wideBeamIsExhaustive_data()
    {
        QTest::addColumn<int>("seed");
        QTest::addColumn<int>("normalization");
        QTest::addColumn<float>("alpha");
        for (int seed = 1; seed <= 6; ++seed) {
            QTest::addRow("table %d, no normalisation", seed)
                << seed << int(LengthNormalization::None) << 0.0f;
            QTest::addRow("table %d, gnmt 0.6", seed)
                << seed << int(LengthNormalization::Gnmt) << 0.6f;
            QTest::addRow("table %d, gnmt 1.5", seed)
                << seed << int(LengthNormalization::Gnmt) << 1.5f;
            QTest::addRow("table %d, average", seed)
                << seed << int(LengthNormalization::Average) << 0.0f;
            QTest::addRow("table %d, power 0.5", seed)
                << seed << int(LengthNormalization::Power) << 0.5f;
            QTest::addRow("table %d, power 1.2", seed)
                << seed << int(LengthNormalization::Power) << 1.2f;
        }
    }
    void wideBeamIsExhaustive()
    {
        QFETCH(int, seed);
        QFETCH(int, normalization);
        QFETCH(float, alpha);
        // Vocabulary ^ $ a b: at most 2^4 hypotheses alive at length 5, 48 candidates: a beam
        // of 64 never prunes, so with the exact stopping rule it must find the true optimum.
        const auto distribution = hashed(seed, 4, 0.7);
        TableStepDecoder decoder(4, BOS, EOS, distribution);
        DecodingOptions options =
            beamOptions(64, static_cast<LengthNormalization>(normalization), alpha);
        options.maxLength = 5;
        options.nBest = 5;
        options.earlyStopping = EarlyStopping::Bounded;
        const Tokens source = {A, B, EOS};
        const std::vector<Scored> truth = exhaustive(distribution, source, options);
        const DecodingResult result = decode(decoder, {source}, options)[0];
        QCOMPARE(result.hypotheses.size(), std::size_t(5));
        for (int i = 0; i < 5; ++i) {
            QVERIFY2(std::abs(result.hypotheses[i].score - truth[i].score) < 1e-5,
                     qPrintable(QStringLiteral("rank %1: %2 (%3) vs exhaustive %4 (%5)")
                                    .arg(i)
                                    .arg(spell(result.hypotheses[i].tokens))
                                    .arg(result.hypotheses[i].score)
                                    .arg(spell(truth[i].tokens))
                                    .arg(truth[i].score)));
        }
        QCOMPARE(spell(result.hypotheses[0].tokens), spell(truth[0].tokens));
    }

    void heuristicStoppingIsExactWithoutNormalization()
    {
        for (int seed = 1; seed <= 6; ++seed) {
            const auto distribution = hashed(seed, 4, 0.7);
            TableStepDecoder decoder(4, BOS, EOS, distribution);
            DecodingOptions options = beamOptions(64, LengthNormalization::None, 0.0f);
            options.maxLength = 5;
            const std::vector<Scored> truth = exhaustive(distribution, {A, EOS}, options);
            const Hypothesis best = decode(decoder, {{A, EOS}}, options)[0].hypotheses.at(0);
            QCOMPARE(spell(best.tokens), spell(truth[0].tokens));
            // ... and it stops before the maximum length when it can prove the winner.
            QVERIFY(decoder.stepCalls() <= options.maxLength);
        }
    }

    void beamEarlyStoppingIsHuggingFaces_data()
    {
        QTest::addColumn<int>("seed");
        QTest::addColumn<int>("beam");
        QTest::addColumn<float>("alpha");
        for (int seed = 1; seed <= 8; ++seed)
            for (int beam : {2, 4})
                for (float alpha : {1.0f, 0.6f})
                    QTest::addRow("table %d, beam %d, alpha %.1f", seed, beam, alpha)
                        << seed << beam << alpha;
    }
    void beamEarlyStoppingIsHuggingFaces()
    {
        QFETCH(int, seed);
        QFETCH(int, beam);
        QFETCH(float, alpha);
        const auto distribution = hashed(seed, 6, 0.35);
        TableStepDecoder decoder(6, BOS, EOS, distribution);
        DecodingOptions options = beamOptions(beam, LengthNormalization::Power, alpha);
        options.earlyStopping = EarlyStopping::Beam;
        options.maxLength = 12;
        const Tokens source = {A, B, EOS};
        const Scored expected = huggingFaceBeam(distribution, source, options);
        const Hypothesis best = decode(decoder, {source}, options)[0].hypotheses.at(0);
        QCOMPARE(spell(best.tokens), spell(expected.tokens));
        QVERIFY(std::abs(best.score - expected.score) < 1e-5);
    }

    void beamOneIsGreedy_data()
    {
        QTest::addColumn<int>("seed");
        for (int seed = 1; seed <= 10; ++seed)
            QTest::addRow("table %d", seed) << seed;
    }
    void beamOneIsGreedy()
    {
        QFETCH(int, seed);
        const auto distribution = hashed(seed, 7, 0.4);
        TableStepDecoder greedyDecoder(7, BOS, EOS, distribution);
        TableStepDecoder beamDecoder(7, BOS, EOS, distribution);
        DecodingOptions greedy;
        greedy.maxLength = 20;
        DecodingOptions beam = beamOptions(1, LengthNormalization::None, 0.0f);
        beam.maxLength = 20;
        const std::vector<Tokens> sources = {{A, B, EOS}, {C, EOS}, {D, D, E, A, EOS}};
        const auto g = decode(greedyDecoder, sources, greedy);
        const auto b = decode(beamDecoder, sources, beam);
        for (std::size_t i = 0; i < sources.size(); ++i) {
            QCOMPARE(spell(b[i].hypotheses.at(0).tokens), spell(g[i].hypotheses.at(0).tokens));
            QCOMPARE(b[i].hypotheses[0].logProb, g[i].hypotheses[0].logProb);
            QCOMPARE(b[i].hypotheses[0].tokenLogProbs, g[i].hypotheses[0].tokenLogProbs);
        }
    }

    void lengthPenaltyChangesTheWinner_data()
    {
        QTest::addColumn<int>("normalization");
        QTest::addColumn<float>("alpha");
        QTest::addColumn<QString>("winner");
        // "a$" has the higher probability (.55 × .35 = .1925 against .45 × .7³ = .154) but the
        // lower probability per token: only a length normalisation picks "bcd$".
        QTest::newRow("none") << int(LengthNormalization::None) << 0.0f << "a";
        QTest::newRow("gnmt 0") << int(LengthNormalization::Gnmt) << 0.0f << "a";
        QTest::newRow("gnmt 1") << int(LengthNormalization::Gnmt) << 1.0f << "bcd";
        QTest::newRow("average") << int(LengthNormalization::Average) << 0.0f << "bcd";
        QTest::newRow("power 0") << int(LengthNormalization::Power) << 0.0f << "a";
        QTest::newRow("power 1") << int(LengthNormalization::Power) << 1.0f << "bcd";
    }
    void lengthPenaltyChangesTheWinner()
    {
        QFETCH(int, normalization);
        QFETCH(float, alpha);
        QFETCH(QString, winner);
        const std::map<QString, std::vector<double>> table = {
            //          ^   $    a     b     c    d    e
            {"", {0, 0, 0.55, 0.45, 0, 0, 0}},  {"a", {0, 0.35, 0, 0, 0, 0, 0.65}},
            {"b", {0, 0.3, 0, 0, 0.7, 0, 0}},   {"bc", {0, 0.3, 0, 0, 0, 0.7, 0}},
            {"bcd", {0, 0.7, 0.3, 0, 0, 0, 0}},
        };
        auto distribution = [table](const Tokens &, const Tokens &history) {
            auto it = table.find(spell(history));
            return it != table.end() ? it->second
                                     : std::vector<double>{0, 0.2, 0.2, 0.2, 0.2, 0.2, 0};
        };
        TableStepDecoder decoder(7, BOS, EOS, distribution);
        DecodingOptions options =
            beamOptions(4, static_cast<LengthNormalization>(normalization), alpha);
        options.maxLength = 8;
        const Hypothesis best = decode(decoder, {{A, EOS}}, options)[0].hypotheses.at(0);
        QCOMPARE(spell(best.tokens), winner);
        // The score is the normalised log-probability of the winner.
        QCOMPARE(best.score,
                 finalScore(options, best.logProb, static_cast<int>(best.tokens.size()) + 1));
    }

    void gnmtLengthPenaltyFormula()
    {
        DecodingOptions options;
        options.lengthNormalization = LengthNormalization::Gnmt;
        options.lengthPenalty = 0.6f;
        // lp(Y) = ((5 + |Y|) / 6)^α (Wu et al. 2016, eq. 14)
        QVERIFY(std::abs(lengthNormalizer(options, 7) - std::pow(12.0 / 6.0, 0.6)) < 1e-6);
        QVERIFY(std::abs(finalScore(options, -3.0f, 7) + 3.0 / std::pow(2.0, 0.6)) < 1e-6);
        options.lengthNormalization = LengthNormalization::Average;
        QCOMPARE(finalScore(options, -3.0f, 4), -0.75f);
        // Hugging Face's length_penalty: log P / |Y|^α
        options.lengthNormalization = LengthNormalization::Power;
        options.lengthPenalty = 0.5f;
        QCOMPARE(finalScore(options, -3.0f, 4), -1.5f);
        options.lengthNormalization = LengthNormalization::None;
        options.coveragePenalty = 0.2f;
        // cp = β Σ_j log(min(coverage_j, 1)): 0.2 × (log 0.5 + log 1 + log 1e-6 (clamped))
        const float coverage[3] = {0.5f, 1.7f, 0.0f};
        const double expected = -2.0 + 0.2 * (std::log(0.5) + std::log(1e-6));
        QVERIFY(std::abs(finalScore(options, -2.0f, 3, coverage, 3) - expected) < 1e-5);
    }

    void coveragePenaltyPrefersCoveringTheSource()
    {
        // Two ways to stop: "a$" attends only to source position 0, "ab$" covers both positions.
        // Without the penalty the short one wins; β = 1 makes the unattended position cost more
        // than the extra token.
        const std::map<QString, std::vector<double>> table = {
            {"", {0, 0, 0.9, 0.1}}, {"a", {0, 0.6, 0, 0.4}}, {"ab", {0, 1, 0, 0}}};
        auto distribution = [table](const Tokens &, const Tokens &history) {
            auto it = table.find(spell(history));
            return it != table.end() ? it->second : std::vector<double>{0, 1, 0, 0};
        };
        auto attention = [](const Tokens &, const Tokens &history) {
            return history.empty() ? std::vector<double>{1, 0} : std::vector<double>{0, 1};
        };
        for (float beta : {0.0f, 1.0f}) {
            TableStepDecoder decoder(4, BOS, EOS, distribution, attention);
            DecodingOptions options = beamOptions(3, LengthNormalization::None, 0.0f);
            options.coveragePenalty = beta;
            options.earlyStopping = EarlyStopping::Bounded;
            const Hypothesis best = decode(decoder, {{A, B}}, options)[0].hypotheses.at(0);
            QCOMPARE(spell(best.tokens), beta == 0 ? QStringLiteral("a") : QStringLiteral("ab"));
        }
    }

    void modelsWithoutAttentionWork()
    {
        // A decoder that returns no attention: hypotheses carry none, and the coverage penalty,
        // which has nothing to measure, leaves the scores alone.
        class NoAttention final : public TextStepDecoder
        {
        public:
            explicit NoAttention(TableStepDecoder &inner) : m_inner(inner) {}
            std::int64_t vocabularySize() const override { return m_inner.vocabularySize(); }
            std::int32_t startToken() const override { return m_inner.startToken(); }
            std::int32_t endToken() const override { return m_inner.endToken(); }
            std::unique_ptr<DecoderState> encode(const std::vector<Tokens> &sources) override
            {
                return m_inner.encode(sources);
            }
            void advance(DecoderState &state, const Tensor &last, Tensor &logProbs,
                         Tensor &attention) override
            {
                m_inner.step(state, last, logProbs, attention);
                attention = Tensor();
            }

        private:
            TableStepDecoder &m_inner;
        };
        TableStepDecoder table(5, BOS, EOS, bigram(kBigram));
        NoAttention decoder(table);
        for (SearchStrategy strategy : {SearchStrategy::Greedy, SearchStrategy::Beam}) {
            DecodingOptions options;
            options.strategy = strategy;
            options.minLength = 1;
            const Hypothesis plain = decode(decoder, {{A, EOS}}, options)[0].hypotheses.at(0);
            options.coveragePenalty = 1.0f;
            const Hypothesis covered = decode(decoder, {{A, EOS}}, options)[0].hypotheses.at(0);
            QVERIFY(plain.attention.empty());
            QCOMPARE(spell(covered.tokens), spell(plain.tokens));
            QCOMPARE(covered.score, plain.score);
        }
    }

    void ngramBlockingRemovesRepeats_data()
    {
        QTest::addColumn<int>("strategy");
        QTest::addColumn<int>("n");
        for (int n : {2, 3}) {
            QTest::addRow("greedy, %d-grams", n) << int(SearchStrategy::Greedy) << n;
            QTest::addRow("beam 4, %d-grams", n) << int(SearchStrategy::Beam) << n;
            QTest::addRow("sample, %d-grams", n) << int(SearchStrategy::Sample) << n;
        }
    }
    void ngramBlockingRemovesRepeats()
    {
        QFETCH(int, strategy);
        QFETCH(int, n);
        // A model that loves to repeat: "abab..." (or "abcabc...") with EOS nearly impossible.
        const std::vector<std::vector<double>> loop = {
            //   ^     $     a     b     c     d     e
            {0, 0.001, 0.9, 0.05, 0.02, 0.02, 0.009}, {0, 1, 0, 0, 0, 0, 0},
            {0, 0.001, 0.02, 0.9, 0.05, 0.02, 0.009}, {0, 0.001, 0.7, 0.02, 0.25, 0.02, 0.009},
            {0, 0.001, 0.9, 0.02, 0.02, 0.05, 0.009}, {0, 0.001, 0.3, 0.3, 0.3, 0.05, 0.049},
            {0, 0.001, 0.3, 0.3, 0.3, 0.05, 0.049},
        };
        DecodingOptions options;
        options.strategy = static_cast<SearchStrategy>(strategy);
        options.beamSize = 4;
        options.maxLength = 30;
        options.seed = 7;
        options.topK = 3;
        options.lengthNormalization = LengthNormalization::None;
        {
            TableStepDecoder decoder(7, BOS, EOS, bigram(loop));
            const Hypothesis best = decode(decoder, {{A, EOS}}, options)[0].hypotheses.at(0);
            QVERIFY2(hasRepeatedNgram(best.tokens, n), qPrintable(spell(best.tokens)));
        }
        options.noRepeatNgramSize = n;
        options.trace = true;
        TableStepDecoder decoder(7, BOS, EOS, bigram(loop));
        const DecodingResult result = decode(decoder, {{A, EOS}}, options)[0];
        const Hypothesis &best = result.hypotheses.at(0);
        QVERIFY2(!hasRepeatedNgram(best.tokens, n), qPrintable(spell(best.tokens)));
        QVERIFY(best.tokens.size() >= 4);
        // The trace shows what the rule blocked.
        int blocked = 0;
        for (const TraceNode &node : result.trace.nodes)
            blocked += node.fate == NodeFate::BlockedByNgram;
        QVERIFY(blocked > 0);
        QVERIFY(std::find(result.trace.stages.begin(), result.trace.stages.end(),
                          "no-repeat-ngram") != result.trace.stages.end());
    }

    void maxAndMinLength()
    {
        // Never wants to stop.
        const std::vector<std::vector<double>> chatty = {
            {0, 0.01, 0.99}, {0, 1, 0}, {0, 0.01, 0.99}};
        for (SearchStrategy strategy : {SearchStrategy::Greedy, SearchStrategy::Beam}) {
            TableStepDecoder decoder(3, BOS, EOS, bigram(chatty));
            DecodingOptions options;
            options.strategy = strategy;
            options.maxLength = 6;
            Hypothesis best = decode(decoder, {{A, EOS}}, options)[0].hypotheses.at(0);
            QCOMPARE(best.tokens.size(), std::size_t(6));
            QVERIFY(!best.endedWithEos);
            QCOMPARE(best.attention.dim(0), 6);
            // Ratio: ceil(1.5 × 3 source tokens) = 5 < 6.
            options.maxLengthRatio = 1.5f;
            best = decode(decoder, {{A, A, EOS}}, options)[0].hypotheses.at(0);
            QCOMPARE(best.tokens.size(), std::size_t(5));
        }
        // Wants to stop at once: min length forbids EOS for 3 tokens.
        const std::vector<std::vector<double>> shy = {{0, 0.9, 0.1}, {0, 1, 0}, {0, 0.9, 0.1}};
        for (SearchStrategy strategy : {SearchStrategy::Greedy, SearchStrategy::Beam}) {
            TableStepDecoder decoder(3, BOS, EOS, bigram(shy));
            DecodingOptions options;
            options.strategy = strategy;
            Hypothesis best = decode(decoder, {{A, EOS}}, options)[0].hypotheses.at(0);
            QCOMPARE(best.tokens.size(), std::size_t(0));
            QVERIFY(best.endedWithEos);
            options.minLength = 3;
            best = decode(decoder, {{A, EOS}}, options)[0].hypotheses.at(0);
            QCOMPARE(best.tokens.size(), std::size_t(3));
            QVERIFY(best.endedWithEos);
            // The forced tokens have probability 1 after renormalisation.
            QCOMPARE(best.tokenLogProbs[0], 0.0f);
        }
    }

    void forcedPrefixAndSuppressedTokens()
    {
        TableStepDecoder decoder(5, BOS, EOS, bigram(kBigram));
        DecodingOptions options;
        options.targetPrefix = {C, A};
        Hypothesis best = decode(decoder, {{A, EOS}}, options)[0].hypotheses.at(0);
        // Forced "ca", then the argmax: a -b-> b -c-> c -$.
        QCOMPARE(spell(best.tokens), QStringLiteral("cabc"));
        options.targetPrefix.clear();
        options.suppressTokens = {A};
        best = decode(decoder, {{A, EOS}}, options)[0].hypotheses.at(0);
        QVERIFY(std::find(best.tokens.begin(), best.tokens.end(), A) == best.tokens.end());
        QCOMPARE(spell(best.tokens), QStringLiteral("bc"));
    }

    void nBestIsSortedAndDistinct()
    {
        TableStepDecoder decoder(5, BOS, EOS, bigram(kBigram));
        DecodingOptions options = beamOptions(5, LengthNormalization::Gnmt, 0.6f);
        options.nBest = 4;
        const auto result = decode(decoder, {{A, EOS}}, options)[0];
        QCOMPARE(result.hypotheses.size(), std::size_t(4));
        std::set<Tokens> distinct;
        for (std::size_t i = 0; i < result.hypotheses.size(); ++i) {
            distinct.insert(result.hypotheses[i].tokens);
            if (i > 0)
                QVERIFY(result.hypotheses[i - 1].score >= result.hypotheses[i].score);
        }
        QCOMPARE(distinct.size(), std::size_t(4));
        options.nBest = 6;
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, decode(decoder, {{A, EOS}}, options));
    }

    void batchEqualsOneByOne_data()
    {
        QTest::addColumn<int>("strategy");
        QTest::newRow("greedy") << int(SearchStrategy::Greedy);
        QTest::newRow("beam") << int(SearchStrategy::Beam);
        QTest::newRow("sample") << int(SearchStrategy::Sample);
    }
    void batchEqualsOneByOne()
    {
        QFETCH(int, strategy);
        const auto distribution = hashed(42, 7, 0.5);
        DecodingOptions options;
        options.strategy = static_cast<SearchStrategy>(strategy);
        options.beamSize = 3;
        options.nBest = options.strategy == SearchStrategy::Greedy ? 1 : 2;
        options.maxLength = 15;
        options.maxLengthRatio = 3.0f;
        options.seed = 1234;
        options.lengthPenalty = 0.6f;
        // Different lengths, so that sentences finish at different steps and leave the batch.
        const std::vector<Tokens> sources = {
            {A, EOS}, {B, C, D, E, A, B, EOS}, {C, C, EOS}, {D, E, A, B, C, D, E, A, B, C, EOS}};
        TableStepDecoder batchDecoder(7, BOS, EOS, distribution);
        const auto batch = decode(batchDecoder, sources, options);
        QCOMPARE(batch.size(), sources.size());
        for (std::size_t i = 0; i < sources.size(); ++i) {
            TableStepDecoder single(7, BOS, EOS, distribution);
            const auto alone = decode(single, {sources[i]}, options)[0];
            QCOMPARE(batch[i].hypotheses.size(), alone.hypotheses.size());
            for (std::size_t h = 0; h < alone.hypotheses.size(); ++h) {
                QCOMPARE(spell(batch[i].hypotheses[h].tokens), spell(alone.hypotheses[h].tokens));
                QCOMPARE(batch[i].hypotheses[h].score, alone.hypotheses[h].score);
                // Attention columns are the sentence's own source positions.
                QCOMPARE(batch[i].hypotheses[h].attention.shape(),
                         alone.hypotheses[h].attention.shape());
            }
        }
    }

    void attentionRowsSumToOne()
    {
        TableStepDecoder decoder(5, BOS, EOS, bigram(kBigram));
        const Tokens source = {A, B, C, D, EOS};
        for (SearchStrategy strategy : {SearchStrategy::Greedy, SearchStrategy::Beam}) {
            DecodingOptions options;
            options.strategy = strategy;
            options.minLength = 1; // beam search would rather say nothing ("$": 0.1 > "abc$")
            const Hypothesis best = decode(decoder, {source}, options)[0].hypotheses.at(0);
            QVERIFY(!best.tokens.empty());
            QCOMPARE(best.attention.shape(),
                     (Shape{static_cast<std::int64_t>(best.tokens.size()), 5}));
            for (std::int64_t i = 0; i < best.attention.dim(0); ++i) {
                double sum = 0.0;
                for (std::int64_t j = 0; j < 5; ++j)
                    sum += best.attention.data<float>()[i * 5 + j];
                QVERIFY(std::abs(sum - 1.0) < 1e-5);
                // The toy attends 0.7 to position i: each row is the one that predicted token i.
                QVERIFY(std::abs(best.attention.data<float>()[i * 5 + i] - 0.7f) < 1e-6);
            }
        }
    }

    void beamTraceIsATree()
    {
        TableStepDecoder decoder(5, BOS, EOS, bigram(kBigram));
        DecodingOptions options = beamOptions(3, LengthNormalization::Gnmt, 0.6f);
        options.trace = true;
        options.traceTopN = 4;
        options.repetitionPenalty = 1.5f;
        const DecodingResult result = decode(decoder, {{A, EOS}}, options)[0];
        const DecodingTrace &trace = result.trace;
        QCOMPARE(trace.stages, (std::vector<std::string>{"model", "repetition-penalty"}));
        QVERIFY(trace.nodes.size() > 10);
        QCOMPARE(trace.nodes[0].parent, -1);
        std::map<NodeFate, int> fates;
        for (std::size_t i = 1; i < trace.nodes.size(); ++i) {
            const TraceNode &node = trace.nodes[i];
            QCOMPARE(node.id, static_cast<std::int32_t>(i));
            QVERIFY(node.parent >= 0 && node.parent < node.id);
            QCOMPARE(node.step, trace.nodes[node.parent].step + 1);
            QVERIFY(std::abs(node.cumulativeLogProb -
                             (trace.nodes[node.parent].cumulativeLogProb + node.logProb)) < 1e-5);
            ++fates[node.fate];
        }
        QVERIFY(fates[NodeFate::Kept] > 0);
        QVERIFY(fates[NodeFate::Pruned] > 0);
        QVERIFY(fates[NodeFate::Finished] >= 3);
        // Following the best hypothesis's node up to the root spells its tokens (then EOS).
        const Hypothesis &best = result.hypotheses.at(0);
        Tokens path;
        for (std::int32_t id = best.traceNode; id > 0; id = trace.nodes[id].parent)
            path.insert(path.begin(), trace.nodes[id].token);
        Tokens expected = best.tokens;
        expected.push_back(EOS);
        QCOMPARE(path, expected);
        QCOMPARE(trace.nodes[best.traceNode].normalizedScore, best.score);
        // One step trace per expanded hypothesis, with a probability per stage and token.
        QVERIFY(!trace.steps.empty());
        for (const StepTrace &step : trace.steps) {
            QCOMPARE(step.probabilities.size(), trace.stages.size());
            QVERIFY(step.tokens.size() >= 4);
            for (const auto &stage : step.probabilities) {
                QCOMPARE(stage.size(), step.tokens.size());
                for (float p : stage)
                    QVERIFY(p >= 0 && p <= 1);
            }
            for (std::size_t i = 1; i < step.tokens.size(); ++i)
                QVERIFY(step.probabilities.back()[i - 1] >= step.probabilities.back()[i]);
        }
        // The first step expands the root with the model's own distribution.
        const StepTrace &first = trace.steps.front();
        QCOMPARE(first.node, 0);
        QCOMPARE(first.tokens.front(), A);
        QVERIFY(std::abs(first.probabilities[0][0] - 0.5f) < 1e-6);
    }

    void cancellationStopsBetweenSteps()
    {
        const std::vector<std::vector<double>> chatty = {
            {0, 0.01, 0.99}, {0, 1, 0}, {0, 0.01, 0.99}};
        for (SearchStrategy strategy : {SearchStrategy::Greedy, SearchStrategy::Beam}) {
            TableStepDecoder decoder(3, BOS, EOS, bigram(chatty));
            DecodingOptions options;
            options.strategy = strategy;
            options.maxLength = 100;
            int steps = 0;
            DecodingControl control;
            control.cancelled = [&] { return steps >= 3; };
            control.progress = [&](int, int maxSteps) {
                ++steps;
                QCOMPARE(maxSteps, 100);
            };
            QVERIFY_THROWS_EXCEPTION(DecodingCancelled,
                                     decode(decoder, {{A, EOS}}, options, control));
            QCOMPARE(decoder.stepCalls(), 3);
        }
    }

    void optionsRoundTripThroughJson()
    {
        DecodingOptions options;
        options.strategy = SearchStrategy::Sample;
        options.beamSize = 7;
        options.nBest = 3;
        options.lengthNormalization = LengthNormalization::Average;
        options.lengthPenalty = 0.6f;
        options.coveragePenalty = 0.2f;
        options.earlyStopping = EarlyStopping::Bounded;
        options.maxLength = 99;
        options.maxLengthRatio = 1.5f;
        options.minLength = 2;
        options.suppressTokens = {3, 4};
        options.targetPrefix = {5};
        options.noRepeatNgramSize = 3;
        options.repetitionPenalty = 1.2f;
        options.ngramPenalty = 0.3f;
        options.ngramPenaltySize = 2;
        options.temperature = 0.8f;
        options.topK = 40;
        options.topP = 0.9f;
        options.seed = 123456789012345ULL;
        options.trace = true;
        options.traceTopN = 5;
        const nlohmann::json json = decodingOptionsToJson(options);
        QCOMPARE(json["length_penalty"].dump(), std::string("0.6")); // not 0.6000000238418579
        const DecodingOptions back = decodingOptionsFromJson(json);
        QCOMPARE(decodingOptionsToJson(back).dump(), json.dump());
        QCOMPARE(back.seed, options.seed);
        QCOMPARE(back.lengthPenalty, 0.6f);
        // Model defaults: only the keys present change; a mistyped key names itself.
        const DecodingOptions partial = decodingOptionsFromJson(
            nlohmann::json::parse(R"({"strategy": "beam", "beam_size": 5})"));
        QCOMPARE(partial.strategy, SearchStrategy::Beam);
        QCOMPARE(partial.beamSize, 5);
        QCOMPARE(partial.maxLength, DecodingOptions().maxLength);
        try {
            decodingOptionsFromJson(nlohmann::json::parse(R"({"beam_size": "wide"})"));
            QFAIL("accepted a string beam size");
        } catch (const std::invalid_argument &error) {
            QVERIFY2(QByteArray(error.what()).contains("decoding.beam_size"), error.what());
        }
    }

    // StepDecoder::step() checks lastTokens once for every model family, before the model's
    // advance() runs: a wrong shape, a wrong type or an id outside the vocabulary never reaches
    // it, and the message names the row and the vocabulary.
    void stepChecksTokensBeforeTheModel()
    {
        TableStepDecoder decoder(5, BOS, EOS, bigram(kBigram));
        std::unique_ptr<DecoderState> state = decoder.encode({{A, EOS}, {B, EOS}});
        Tensor logProbs, attention;
        const auto message = [&](const Tensor &last) {
            try {
                decoder.step(*state, last, logProbs, attention);
            } catch (const std::invalid_argument &error) {
                return QString::fromUtf8(error.what());
            }
            return QString();
        };
        QVERIFY(message(Tensor::fromInts({3}, {BOS, BOS, BOS})).contains("I32 [2]"));
        QVERIFY(message(Tensor::fromFloats({2}, {0, 0})).contains("I32 [2]"));
        QCOMPARE(message(Tensor::fromInts({2}, {BOS, 5})),
                 QStringLiteral("StepDecoder::step: token 5 of row 1 is outside [0, 5)"));
        QVERIFY(message(Tensor::fromInts({2}, {-1, BOS})).contains("token -1 of row 0"));
        QCOMPARE(decoder.stepCalls(), 0);
        QVERIFY(message(Tensor::fromInts({2}, {BOS, BOS})).isEmpty());
        QCOMPARE(decoder.stepCalls(), 1);
        QCOMPARE(logProbs.shape(), (Shape{2, 5}));
    }

    void badInputsThrow()
    {
        TableStepDecoder decoder(5, BOS, EOS, bigram(kBigram));
        DecodingOptions options;
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, decode(decoder, {{}}, options));
        options.suppressTokens = {9};
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, decode(decoder, {{A}}, options));
        options = DecodingOptions();
        options.topP = 0.0f;
        try {
            options.validate();
            QFAIL("validate() accepted top_p = 0");
        } catch (const std::invalid_argument &error) {
            QVERIFY2(QByteArray(error.what()).contains("top_p = 0"), error.what());
        }
        QVERIFY(decode(decoder, {}, DecodingOptions()).empty());
    }

    // The search starts from an encoded state: decode(decoder, encode(sources)) is what the text
    // convenience decode(decoder, sources) returns, for every strategy.
    void decodesFromAnEncodedState_data()
    {
        QTest::addColumn<int>("strategy");
        QTest::newRow("greedy") << int(SearchStrategy::Greedy);
        QTest::newRow("beam") << int(SearchStrategy::Beam);
        QTest::newRow("sample") << int(SearchStrategy::Sample);
    }

    void decodesFromAnEncodedState()
    {
        QFETCH(int, strategy);
        TableStepDecoder decoder(5, BOS, EOS, hashed(3, 5, 0.5));
        const std::vector<Tokens> sources = {{A, EOS}, {B, A, C, EOS}};
        DecodingOptions options;
        options.strategy = static_cast<SearchStrategy>(strategy);
        options.beamSize = 3;
        options.nBest = options.strategy == SearchStrategy::Greedy ? 1 : 2;
        options.seed = 9;
        options.maxLength = 8;
        options.coveragePenalty = 0.2f;
        const auto fromSources = decode(decoder, sources, options);
        const auto fromState = decode(decoder, decoder.encode(sources), options);
        QCOMPARE(fromState.size(), sources.size());
        for (std::size_t b = 0; b < sources.size(); ++b) {
            QCOMPARE(fromState[b].hypotheses.size(), fromSources[b].hypotheses.size());
            for (std::size_t k = 0; k < fromState[b].hypotheses.size(); ++k) {
                QCOMPARE(fromState[b].hypotheses[k].tokens, fromSources[b].hypotheses[k].tokens);
                QCOMPARE(fromState[b].hypotheses[k].score, fromSources[b].hypotheses[k].score);
            }
        }
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                                 decode(decoder, std::unique_ptr<DecoderState>(), options));
    }

    // Lengths and sampling keys come from the state, not from source ids (an image encoder's
    // state has none): maxLengthRatio follows sourceLength(), the samples follow sourceKey().
    // The state is told once, before the first step, how many steps the search may take.
    void stateGivesLengthsAndKeys()
    {
        // A state reporting its own source length and key over a TableStepDecoder's state, and
        // a decoder with no encode() of its own that steps it, as a captioner's is.
        class Reported final : public DecoderState
        {
        public:
            Reported(std::unique_ptr<DecoderState> inner, std::int64_t length, std::uint64_t key)
                : inner(std::move(inner)), m_length(length), m_key(key)
            {
            }
            std::int64_t rows() const override { return inner->rows(); }
            std::int64_t sourceLength(std::int64_t) const override { return m_length; }
            std::uint64_t sourceKey(std::int64_t) const override { return m_key; }
            void reorder(const std::vector<std::int32_t> &origins) override
            {
                inner->reorder(origins);
            }
            void expectSteps(std::int64_t steps) override
            {
                if (told)
                    told->push_back(steps);
            }
            std::unique_ptr<DecoderState> inner;
            std::vector<std::int64_t> *told = nullptr; // what expectSteps() was told

        private:
            std::int64_t m_length;
            std::uint64_t m_key;
        };
        class Stepper final : public StepDecoder
        {
        public:
            explicit Stepper(TableStepDecoder &table) : m_table(table) {}
            std::int64_t vocabularySize() const override { return m_table.vocabularySize(); }
            std::int32_t startToken() const override { return m_table.startToken(); }
            std::int32_t endToken() const override { return m_table.endToken(); }
            void advance(DecoderState &state, const Tensor &last, Tensor &logProbs,
                         Tensor &attention) override
            {
                m_table.step(*dynamic_cast<Reported &>(state).inner, last, logProbs, attention);
            }

        private:
            TableStepDecoder &m_table;
        };
        const std::vector<std::vector<double>> chatty = {
            {0, 0.01, 0.5, 0.49}, {0, 1, 0, 0}, {0, 0.01, 0.5, 0.49}, {0, 0.01, 0.49, 0.5}};
        TableStepDecoder table(4, BOS, EOS, bigram(chatty));
        Stepper decoder(table);
        const std::vector<Tokens> source = {{A, A, A, A, A, EOS}};
        auto reported = [&](std::int64_t length, std::uint64_t key) {
            return std::make_unique<Reported>(table.encode(source), length, key);
        };
        DecodingOptions options;
        options.maxLength = 20;
        options.maxLengthRatio = 1.5f; // ceil(1.5 × 2) = 3, where the ids would give 9
        for (SearchStrategy strategy : {SearchStrategy::Greedy, SearchStrategy::Beam}) {
            options.strategy = strategy;
            std::vector<std::int64_t> told;
            auto state = reported(2, 0);
            state->told = &told;
            const Hypothesis best = decode(decoder, std::move(state), options)[0].hypotheses.at(0);
            QCOMPARE(told, std::vector<std::int64_t>{3}); // ceil(1.5 × 2), once
            QCOMPARE(best.tokens.size(), std::size_t(3));
            QCOMPARE(best.attention.shape(), (Shape{3, 2}));
        }
        options.strategy = SearchStrategy::Sample;
        options.maxLengthRatio = 0;
        options.nBest = 4;
        options.seed = 17;
        auto tokens = [](const std::vector<DecodingResult> &results) {
            std::vector<Tokens> out;
            for (const Hypothesis &h : results.at(0).hypotheses)
                out.push_back(h.tokens);
            return out;
        };
        auto samples = [&](std::uint64_t key) {
            return tokens(decode(decoder, reported(6, key), options));
        };
        QCOMPARE(samples(1), samples(1));
        QVERIFY(samples(1) != samples(2));
        // A text state's key is tokenKey() of its source, so seeded text samples do not move.
        QCOMPARE(samples(tokenKey(source[0])), tokens(decode(table, source, options)));
    }
};

QTEST_APPLESS_MAIN(TestSearch)
#include "tst_search.moc"
