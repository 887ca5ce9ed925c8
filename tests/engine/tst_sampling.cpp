// Samplers: top-k and top-p keep exactly the expected token sets (table-driven, like llama.cpp's
// test-sampling), temperature follows its formula, seeded sampling is reproducible, and 10,000
// draws match the truncated renormalised distribution (chi-square, fixed seed).
#include "engine/decoding/decodingfields.h"
#include "engine/decoding/sampler.h"
#include "engine/decoding/search.h"
#include "tests/plugins/toytranslator/tablestepdecoder.h"

#include <QtTest>

#include <cmath>
#include <map>
#include <set>

using namespace glosa::engine;
using Probabilities = std::vector<double>;
using Tokens = std::vector<std::int32_t>;

Q_DECLARE_METATYPE(Probabilities)
Q_DECLARE_METATYPE(Tokens)

namespace {

std::vector<TokenProbability> distributionOf(const Probabilities &p)
{
    std::vector<TokenProbability> out;
    for (std::size_t i = 0; i < p.size(); ++i)
        out.push_back({static_cast<std::int32_t>(i), p[i]});
    return out;
}

// The options RandomSampler reads: its chain's four fields.
DecodingOptions sampling(float temperature, int topK, float topP, float minP = 0.0f)
{
    DecodingOptions options;
    options.strategy = SearchStrategy::Sample;
    options.temperature = temperature;
    options.topK = topK;
    options.topP = topP;
    options.minP = minP;
    return options;
}

std::vector<float> logsOf(const Probabilities &p)
{
    std::vector<float> out;
    for (double v : p)
        out.push_back(v > 0 ? static_cast<float>(std::log(v))
                            : -std::numeric_limits<float>::infinity());
    return out;
}

void compareKept(const std::vector<TokenProbability> &kept, const Tokens &tokens,
                 const Probabilities &probabilities)
{
    QCOMPARE(kept.size(), tokens.size());
    for (std::size_t i = 0; i < kept.size(); ++i) {
        QCOMPARE(kept[i].token, tokens[i]);
        QVERIFY2(std::abs(kept[i].probability - probabilities[i]) < 1e-3,
                 qPrintable(QString::number(kept[i].probability)));
    }
}

} // namespace

class TestSampling : public QObject
{
    Q_OBJECT
private slots:
    void topK_data()
    {
        QTest::addColumn<Probabilities>("input");
        QTest::addColumn<int>("k");
        QTest::addColumn<Tokens>("tokens");
        QTest::addColumn<Probabilities>("expected");
        QTest::newRow("k=1") << Probabilities{0.1, 0.2, 0.3, 0.4} << 1 << Tokens{3}
                             << Probabilities{1.0};
        QTest::newRow("k=3") << Probabilities{0.1, 0.2, 0.3, 0.4} << 3 << Tokens{3, 2, 1}
                             << Probabilities{0.444, 0.333, 0.222};
        QTest::newRow("k=4") << Probabilities{0.1, 0.2, 0.3, 0.4} << 4 << Tokens{3, 2, 1, 0}
                             << Probabilities{0.4, 0.3, 0.2, 0.1};
        QTest::newRow("k=0 disables") << Probabilities{0.1, 0.2, 0.3, 0.4} << 0
                                      << Tokens{3, 2, 1, 0} << Probabilities{0.4, 0.3, 0.2, 0.1};
        QTest::newRow("k above size")
            << Probabilities{0.5, 0.5} << 7 << Tokens{0, 1} << Probabilities{0.5, 0.5};
        QTest::newRow("ties: smaller id first") << Probabilities{0.25, 0.25, 0.25, 0.25} << 2
                                                << Tokens{0, 1} << Probabilities{0.5, 0.5};
        QTest::newRow("unsorted input") << Probabilities{0.3, 0.05, 0.4, 0.05, 0.2} << 2
                                        << Tokens{2, 0} << Probabilities{0.571, 0.429};
    }
    void topK()
    {
        QFETCH(Probabilities, input);
        QFETCH(int, k);
        QFETCH(Tokens, tokens);
        QFETCH(Probabilities, expected);
        compareKept(keepTopK(distributionOf(input), k), tokens, expected);
    }

    void topP_data()
    {
        QTest::addColumn<Probabilities>("input");
        QTest::addColumn<double>("p");
        QTest::addColumn<Tokens>("tokens");
        QTest::addColumn<Probabilities>("expected");
        // The smallest set of most probable tokens whose mass reaches p.
        QTest::newRow("p=0.05: the top token")
            << Probabilities{0.1, 0.2, 0.3, 0.4} << 0.05 << Tokens{3} << Probabilities{1.0};
        QTest::newRow("p=0.4: reached exactly")
            << Probabilities{0.1, 0.2, 0.3, 0.4} << 0.4 << Tokens{3} << Probabilities{1.0};
        QTest::newRow("p=0.5") << Probabilities{0.1, 0.2, 0.3, 0.4} << 0.5 << Tokens{3, 2}
                               << Probabilities{0.571, 0.429};
        QTest::newRow("p=0.7: reached exactly") << Probabilities{0.1, 0.2, 0.3, 0.4} << 0.7
                                                << Tokens{3, 2} << Probabilities{0.571, 0.429};
        QTest::newRow("p=0.71") << Probabilities{0.1, 0.2, 0.3, 0.4} << 0.71 << Tokens{3, 2, 1}
                                << Probabilities{0.444, 0.333, 0.222};
        QTest::newRow("p=0.95") << Probabilities{0.1, 0.2, 0.3, 0.4} << 0.95 << Tokens{3, 2, 1, 0}
                                << Probabilities{0.4, 0.3, 0.2, 0.1};
        QTest::newRow("p=1 disables") << Probabilities{0.1, 0.2, 0.3, 0.4} << 1.0
                                      << Tokens{3, 2, 1, 0} << Probabilities{0.4, 0.3, 0.2, 0.1};
        QTest::newRow("ties") << Probabilities{0.3, 0.3, 0.3, 0.1} << 0.5 << Tokens{0, 1}
                              << Probabilities{0.5, 0.5};
    }
    void topP()
    {
        QFETCH(Probabilities, input);
        QFETCH(double, p);
        QFETCH(Tokens, tokens);
        QFETCH(Probabilities, expected);
        compareKept(keepTopP(distributionOf(input), p), tokens, expected);
    }

    void minP_data()
    {
        QTest::addColumn<Probabilities>("input");
        QTest::addColumn<double>("minP");
        QTest::addColumn<Tokens>("tokens");
        QTest::addColumn<Probabilities>("expected");
        // Tokens with probability >= minP × the best, in input order, renormalised.
        QTest::newRow("0 disables") << Probabilities{0.1, 0.2, 0.3, 0.4} << 0.0
                                    << Tokens{0, 1, 2, 3} << Probabilities{0.1, 0.2, 0.3, 0.4};
        QTest::newRow("0.5: >= 0.2") << Probabilities{0.1, 0.2, 0.3, 0.4} << 0.5 << Tokens{1, 2, 3}
                                     << Probabilities{0.222, 0.333, 0.444};
        QTest::newRow("1: the best only (ties kept)")
            << Probabilities{0.4, 0.1, 0.1, 0.4} << 1.0 << Tokens{0, 3} << Probabilities{0.5, 0.5};
        // A confident model keeps one token where a flat one keeps many: the point of min-p.
        QTest::newRow("0.1, confident")
            << Probabilities{0.9, 0.05, 0.03, 0.02} << 0.1 << Tokens{0} << Probabilities{1.0};
        QTest::newRow("0.1, flat") << Probabilities{0.3, 0.25, 0.25, 0.2} << 0.1
                                   << Tokens{0, 1, 2, 3} << Probabilities{0.3, 0.25, 0.25, 0.2};
    }
    void minP()
    {
        QFETCH(Probabilities, input);
        QFETCH(double, minP);
        QFETCH(Tokens, tokens);
        QFETCH(Probabilities, expected);
        compareKept(keepMinP(distributionOf(input), minP), tokens, expected);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, keepMinP(distributionOf(input), 1.5));
    }

    void temperatureFollowsItsFormula()
    {
        const Probabilities p = {0.1, 0.2, 0.3, 0.4};
        // T = 0.5: p_i^2 / Σ p_j^2; T = 2: sqrt(p_i) / Σ sqrt(p_j).
        for (double t : {0.5, 1.0, 2.0}) {
            const auto kept = temperatureSoftmax(logsOf(p), t);
            double z = 0.0;
            for (double v : p)
                z += std::pow(v, 1.0 / t);
            QCOMPARE(kept.size(), std::size_t(4));
            for (const TokenProbability &entry : kept)
                QVERIFY(std::abs(entry.probability - std::pow(p[entry.token], 1.0 / t) / z) < 1e-6);
        }
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, temperatureSoftmax(logsOf(p), 0.0));
    }

    void samplerCombinesTheSteps()
    {
        // temperature 0.5 → p² ∝ {1, 4, 9, 16, 25, 45}/100 ... then top-k 4, then top-p 0.8.
        const Probabilities p = {0.05, 0.1, 0.15, 0.2, 0.25, 0.25};
        const RandomSampler sampler(sampling(0.5f, 4, 0.8f));
        std::vector<std::vector<TokenProbability>> stages;
        const auto kept = sampler.distribution(logsOf(p), &stages);
        QCOMPARE(stages.size(), std::size_t(3));
        QCOMPARE(stages[0].size(), std::size_t(6));
        QCOMPARE(stages[1].size(), std::size_t(4)); // tokens 4, 5, 3, 2
        // After top-k: {.0625, .0625, .04, .0225} / .1875 → {.333, .333, .213, .12}: top-p 0.8
        // needs three tokens (.333 + .333 = .667 < .8).
        compareKept(kept, Tokens{4, 5, 3}, Probabilities{0.3788, 0.3788, 0.2424});
        QCOMPARE(BestSampler::sample(logsOf(p)), 4); // tie between 4 and 5: smaller id

        // Min-p 0.7 after that: 0.2424 < 0.7 × 0.3788, so token 3 goes; a fourth stage.
        stages.clear();
        const auto withMinP =
            RandomSampler(sampling(0.5f, 4, 0.8f, 0.7f)).distribution(logsOf(p), &stages);
        QCOMPARE(stages.size(), std::size_t(4));
        compareKept(withMinP, Tokens{4, 5}, Probabilities{0.5, 0.5});
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                                 RandomSampler(sampling(1.0f, 0, 1.0f, -0.1f)));
    }

    void fastPathsMatchTheDefinitions_data()
    {
        QTest::addColumn<float>("temperature");
        QTest::addColumn<int>("k");
        QTest::addColumn<float>("p");
        QTest::addColumn<float>("minP");
        QTest::newRow("top-k 40") << 1.0f << 40 << 1.0f << 0.0f;
        QTest::newRow("top-k 40, T 0.7, top-p 0.8") << 0.7f << 40 << 0.8f << 0.0f;
        QTest::newRow("top-p 0.9 (nucleus of hundreds)") << 1.0f << 0 << 0.9f << 0.0f;
        QTest::newRow("top-p 0.5, T 2") << 2.0f << 0 << 0.5f << 0.0f;
        QTest::newRow("no truncation") << 1.3f << 0 << 1.0f << 0.0f;
        QTest::newRow("min-p 0.2 alone (unsorted path)") << 1.0f << 0 << 1.0f << 0.2f;
        QTest::newRow("top-k 40, min-p 0.5") << 1.0f << 40 << 1.0f << 0.5f;
    }
    void fastPathsMatchTheDefinitions()
    {
        // sample() skips the full sort where it can; the kept set and its probabilities must be
        // those of the plain definitions (the `stages` path).
        QFETCH(float, temperature);
        QFETCH(int, k);
        QFETCH(float, p);
        QFETCH(float, minP);
        std::mt19937_64 engine(99);
        std::vector<float> logits(3000);
        for (float &value : logits)
            value = static_cast<float>(engine() >> 40) / (1 << 24) * 3.0f;
        logits[17] = -std::numeric_limits<float>::infinity();
        const RandomSampler sampler(sampling(temperature, k, p, minP));
        std::vector<std::vector<TokenProbability>> stages;
        auto reference = sampler.distribution(logits, &stages);
        auto fast = sampler.distribution(logits);
        auto byToken = [](std::vector<TokenProbability> d) {
            std::sort(d.begin(), d.end(), [](auto a, auto b) { return a.token < b.token; });
            return d;
        };
        reference = byToken(reference);
        fast = byToken(fast);
        QCOMPARE(fast.size(), reference.size());
        QVERIFY(fast.size() > 1);
        for (std::size_t i = 0; i < fast.size(); ++i) {
            QCOMPARE(fast[i].token, reference[i].token);
            QVERIFY(std::abs(fast[i].probability - reference[i].probability) < 1e-9);
        }
    }

    void rngIsTheStandardEngine()
    {
        // [rand.predef]: the 10000th invocation of a default-constructed std::mt19937_64 (seed
        // 5489) produces 9981545732273789042 — on every standard library.
        Rng rng(5489);
        std::uint64_t value = 0;
        for (int i = 0; i < 10000; ++i)
            value = rng.next();
        QCOMPARE(value, 9981545732273789042ULL);
        Rng uniform(1);
        double sum = 0.0;
        for (int i = 0; i < 100000; ++i) {
            const double u = uniform.uniform();
            QVERIFY(u >= 0.0 && u < 1.0);
            sum += u;
        }
        QVERIFY(std::abs(sum / 100000 - 0.5) < 0.01);
        QVERIFY(Rng::derive(1, 2, 3) != Rng::derive(1, 2, 4));
        QVERIFY(Rng::derive(1, 2, 3) != Rng::derive(1, 3, 3));
        QCOMPARE(Rng::derive(1, 2, 3), Rng::derive(1, 2, 3));
    }

    void traceNamesTheChainsStages()
    {
        // The chain's stages are decoding table rows, named as the CLI spells them; a trace of
        // sampling names them after the model's row, min-p only while it is on.
        QStringList names;
        for (const SamplingStage &stage : samplingChain()) {
            const std::string name = stage.name();
            QVERIFY2(findDecodingField(name), name.c_str());
            names << QString::fromStdString(name);
        }
        QCOMPARE(names, (QStringList{"temperature", "top-k", "top-p", "min-p"}));

        using glosa::toy::TableStepDecoder;
        auto distribution = [](const Tokens &, const Tokens &history) {
            return history.size() < 3 ? Probabilities{0, 0.1, 0.3, 0.3, 0.3}
                                      : Probabilities{0, 1, 0, 0, 0};
        };
        DecodingOptions options = sampling(0.8f, 3, 0.9f);
        options.trace = true;
        auto stages = [&] {
            TableStepDecoder decoder(5, 0, 1, distribution);
            const std::vector<DecodingResult> results = decode(decoder, {{2, 1}}, options);
            const DecodingTrace &trace = results.at(0).trace;
            for (const StepTrace &step : trace.steps)
                if (step.probabilities.size() != trace.stages.size())
                    return std::vector<std::string>{"a step without every stage"};
            return trace.stages;
        };
        QCOMPARE(stages(), (std::vector<std::string>{"model", "temperature", "top-k", "top-p"}));
        options.minP = 0.1f;
        QCOMPARE(stages(),
                 (std::vector<std::string>{"model", "temperature", "top-k", "top-p", "min-p"}));
    }

    void seededSamplingIsReproducible()
    {
        const Probabilities p = {0.05, 0.1, 0.15, 0.2, 0.25, 0.25};
        const RandomSampler sampler(sampling(0.9f, 5, 0.95f));
        auto draws = [&](std::uint64_t seed) {
            Rng rng(seed);
            Tokens out;
            for (int i = 0; i < 1000; ++i)
                out.push_back(sampler.sample(logsOf(p), rng));
            return out;
        };
        QCOMPARE(draws(42), draws(42));
        QVERIFY(draws(42) != draws(43));
        // Through the search: same seed → same samples; the samples differ from one another.
        using glosa::toy::TableStepDecoder;
        auto distribution = [](const Tokens &, const Tokens &history) {
            return history.size() < 6 ? Probabilities{0, 0.1, 0.3, 0.3, 0.3}
                                      : Probabilities{0, 1, 0, 0, 0};
        };
        DecodingOptions options;
        options.strategy = SearchStrategy::Sample;
        options.nBest = 5;
        options.seed = 2024;
        auto run = [&] {
            TableStepDecoder decoder(5, 0, 1, distribution);
            std::vector<Tokens> out;
            const std::vector<DecodingResult> results = decode(decoder, {{2, 1}}, options);
            for (const Hypothesis &h : results[0].hypotheses)
                out.push_back(h.tokens);
            return out;
        };
        const std::vector<Tokens> first = run();
        QCOMPARE(first.size(), std::size_t(5));
        QCOMPARE(run(), first);
        QVERIFY(std::set<Tokens>(first.begin(), first.end()).size() > 1);
        options.seed = 2025;
        QVERIFY(run() != first);
    }

    void drawsMatchTheTruncatedDistribution_data()
    {
        QTest::addColumn<Probabilities>("input");
        QTest::addColumn<float>("temperature");
        QTest::addColumn<int>("k");
        QTest::addColumn<float>("p");
        const Probabilities row = {0.02, 0.2, 0.08, 0.15, 0.3, 0.05, 0.12, 0.08};
        QTest::newRow("plain") << row << 1.0f << 0 << 1.0f;
        QTest::newRow("top-k 4") << row << 1.0f << 4 << 1.0f;
        QTest::newRow("top-p 0.8") << row << 1.0f << 0 << 0.8f;
        QTest::newRow("T 0.7, top-k 5, top-p 0.9") << row << 0.7f << 5 << 0.9f;
        QTest::newRow("T 1.5") << row << 1.5f << 0 << 1.0f;
    }
    void drawsMatchTheTruncatedDistribution()
    {
        QFETCH(Probabilities, input);
        QFETCH(float, temperature);
        QFETCH(int, k);
        QFETCH(float, p);
        // The expected distribution, computed here from the definitions, not by the library.
        std::vector<std::pair<double, int>> sorted;
        double z = 0.0;
        for (std::size_t i = 0; i < input.size(); ++i)
            z += std::pow(input[i], 1.0 / temperature);
        for (std::size_t i = 0; i < input.size(); ++i)
            sorted.push_back({std::pow(input[i], 1.0 / temperature) / z, static_cast<int>(i)});
        std::sort(sorted.begin(), sorted.end(), [](auto a, auto b) { return a.first > b.first; });
        if (k > 0)
            sorted.resize(std::min<std::size_t>(k, sorted.size()));
        double kept = 0.0;
        for (auto &entry : sorted)
            kept += entry.first;
        for (auto &entry : sorted)
            entry.first /= kept;
        if (p < 1) {
            double mass = 0.0;
            std::size_t n = 0;
            while (n < sorted.size() && mass < p)
                mass += sorted[n++].first;
            sorted.resize(n);
            for (auto &entry : sorted)
                entry.first /= mass;
        }
        std::map<int, double> expected;
        for (auto [probability, token] : sorted)
            expected[token] = probability;

        const RandomSampler sampler(sampling(temperature, k, p));
        Rng rng(20261122);
        const int draws = 10000;
        std::map<int, int> counts;
        const std::vector<float> logs = logsOf(input);
        for (int i = 0; i < draws; ++i) {
            const int token = sampler.sample(logs, rng);
            QVERIFY2(expected.count(token), qPrintable(QStringLiteral("drew %1, outside the kept "
                                                                      "set")
                                                           .arg(token)));
            ++counts[token];
        }
        double chiSquare = 0.0;
        for (auto [token, probability] : expected) {
            const double e = draws * probability;
            const double o = counts[token];
            chiSquare += (o - e) * (o - e) / e;
        }
        // Critical values of χ² at α = 0.001 for df = 1..7 (the seed is fixed: a pass is stable,
        // and a biased sampler fails by orders of magnitude).
        const double critical[] = {0, 10.83, 13.82, 16.27, 18.47, 20.52, 22.46, 24.32};
        const std::size_t df = expected.size() - 1;
        QVERIFY(df >= 1 && df <= 7);
        QVERIFY2(
            chiSquare < critical[df],
            qPrintable(
                QStringLiteral("chi-square %1 with %2 degrees of freedom").arg(chiSquare).arg(df)));
    }
};

QTEST_APPLESS_MAIN(TestSampling)
#include "tst_sampling.moc"
