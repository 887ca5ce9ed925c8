// Shared by tst_parity_transformer and tst_parity_rnn: the golden outputs written by
// tools/make_parity_fixtures.py next to each tiny package in tests/data/parity/<name>/, and the
// checks that compare a TextStepDecoder with them.
#pragma once

#include "engine/decoding/search.h"
#include "engine/layers/stepdecoder.h"
#include "engine/safetensors.h"
#include "engine/tensor.h"
#include "engine/translation/translationmodel.h"
#include "engine/translation/translator.h"
#include "tests/support/testplugins.h"
#include "tests/support/testutil.h"

#include <nlohmann/json.hpp>

#include <QFile>
#include <QtTest>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace glosa::test::parity {

inline constexpr float kTolerance = 1e-4f;

inline std::string packageDir(const QString &name)
{
    return (testDataDir() + QStringLiteral("/parity/") + name).toStdString();
}

// A copy of the package in `dir`, written into `into`, with the hyperparameters in `changes`
// replaced: for the tests that check a plugin refuses a package that does not match its weights.
inline std::string copyWithHyperparameters(const std::string &dir, const QString &into,
                                           const nlohmann::json &changes)
{
    const std::filesystem::path source = dir;
    const std::filesystem::path copy = into.toStdString();
    for (const char *file : {"model.safetensors", "spm.model"})
        std::filesystem::copy_file(source / file, copy / file);
    std::ifstream in(source / "model.json");
    nlohmann::json manifest = nlohmann::json::parse(in);
    manifest["hyperparameters"].update(changes);
    std::ofstream(copy / "model.json") << manifest.dump(2);
    return copy.string();
}

struct Golden
{
    nlohmann::json json;
    engine::Tensor logProbs;  // [B, T, V]
    // transformer [B, T, layers, heads, S]; rnn [B, T, S]; empty for a model without attention
    engine::Tensor attention;
    std::vector<std::vector<std::int32_t>> sources;
    std::vector<std::vector<std::int32_t>> prefixes; // each starts with BOS
    bool searchesOnly = false; // loadSearches(): no golden tensors, attention not recorded

    static Golden load(const std::string &dir)
    {
        Golden g;
        std::ifstream in(dir + "/golden.json");
        if (!in)
            throw std::runtime_error("cannot open " + dir + "/golden.json");
        g.json = nlohmann::json::parse(in);
        const engine::SafeTensorsFile file(dir + "/golden.safetensors");
        g.logProbs = file.loadFloat("logprobs");
        if (file.contains("attention"))
            g.attention = file.loadFloat("attention");
        g.sources = g.json.at("sources").get<std::vector<std::vector<std::int32_t>>>();
        g.prefixes = g.json.at("target_prefixes").get<std::vector<std::vector<std::int32_t>>>();
        return g;
    }

    // A golden with searches only (no golden.safetensors): the shipped packages'
    // (tools/make_parity_fixtures.py shipped ID).
    static Golden loadSearches(const std::string &path)
    {
        Golden g;
        std::ifstream in(path);
        if (!in)
            throw std::runtime_error("cannot open " + path);
        g.json = nlohmann::json::parse(in);
        g.sources = g.json.at("sources").get<std::vector<std::vector<std::int32_t>>>();
        g.searchesOnly = true;
        return g;
    }

    engine::DecodingOptions greedyOptions() const
    {
        engine::DecodingOptions o;
        const nlohmann::json &s = json.at("search");
        o.strategy = engine::SearchStrategy::Greedy;
        o.maxLength = s.at("max_length").get<int>();
        o.suppressTokens = s.at("suppress_tokens").get<std::vector<std::int32_t>>();
        return o;
    }

    engine::DecodingOptions beamOptions() const
    {
        engine::DecodingOptions o = greedyOptions();
        const nlohmann::json &s = json.at("search");
        o.strategy = engine::SearchStrategy::Beam;
        o.beamSize = s.at("beam_size").get<int>();
        o.nBest = s.at("n_best").get<int>();
        o.lengthNormalization = engine::LengthNormalization::Gnmt;
        o.lengthPenalty = s.at("length_penalty").get<float>();
        o.earlyStopping = engine::earlyStoppingFromName(s.at("early_stopping").get<std::string>());
        return o;
    }
};

inline float maxAbsDiff(const float *a, const float *b, std::int64_t n)
{
    float worst = 0.0f;
    for (std::int64_t i = 0; i < n; ++i) {
        if (std::isinf(a[i]) && std::isinf(b[i]) && (a[i] > 0) == (b[i] > 0))
            continue;
        worst = std::max(worst, std::abs(a[i] - b[i]));
        if (std::isnan(a[i]) || std::isnan(b[i]))
            return INFINITY;
    }
    return worst;
}

// Feeds the golden target prefixes (teacher forcing) to all sentences at once and compares the
// log-probabilities of every step. `expectedAttention(b, t, j)` gives the golden attention of
// sentence b at step t over source position j. Returns the largest differences seen.
template <typename AttentionFn>
std::pair<float, float> compareTeacherForced(engine::TextStepDecoder &decoder, const Golden &g,
                                             AttentionFn expectedAttention)
{
    const auto batch = static_cast<std::int64_t>(g.sources.size());
    const std::int64_t steps = g.logProbs.dim(1);
    const std::int64_t vocab = g.logProbs.dim(2);
    std::int64_t maxSource = 0;
    for (const auto &s : g.sources)
        maxSource = std::max<std::int64_t>(maxSource, s.size());
    std::unique_ptr<engine::DecoderState> state = decoder.encode(g.sources);
    engine::Tensor logProbs, attention, last({batch}, engine::DType::I32);
    float worstLogProb = 0.0f, worstAttention = 0.0f;
    for (std::int64_t t = 0; t < steps; ++t) {
        for (std::int64_t b = 0; b < batch; ++b)
            last.data<std::int32_t>()[b] = g.prefixes[b][t];
        decoder.step(*state, last, logProbs, attention);
        if (logProbs.shape() != engine::Shape{batch, vocab})
            throw std::runtime_error("logProbs shape " + engine::shapeToString(logProbs.shape()));
        // A model without attention (golden has none) returns none.
        const engine::Shape wantShape =
            g.attention.empty() ? engine::Shape{} : engine::Shape{batch, maxSource};
        if (attention.shape() != wantShape)
            throw std::runtime_error("attention shape " + engine::shapeToString(attention.shape()));
        for (std::int64_t b = 0; b < batch; ++b) {
            worstLogProb =
                std::max(worstLogProb,
                         maxAbsDiff(logProbs.data<float>() + b * vocab,
                                    g.logProbs.data<float>() + (b * steps + t) * vocab, vocab));
            const auto length = static_cast<std::int64_t>(g.sources[b].size());
            for (std::int64_t j = 0; j < maxSource && !g.attention.empty(); ++j) {
                const float got = attention.data<float>()[b * maxSource + j];
                const float want = j < length ? expectedAttention(b, t, j) : 0.0f;
                worstAttention = std::max(worstAttention, std::abs(got - want));
            }
        }
    }
    return {worstLogProb, worstAttention};
}

inline void checkGreedy(engine::TextStepDecoder &decoder, const Golden &g)
{
    const auto expected = g.json.at("greedy").get<std::vector<std::vector<std::int32_t>>>();
    const engine::DecodingOptions options = g.greedyOptions();
    // The whole batch at once (rows drop out as they finish) and each sentence alone.
    const auto batch = engine::decode(decoder, g.sources, options);
    QCOMPARE(batch.size(), g.sources.size());
    for (std::size_t b = 0; b < g.sources.size(); ++b) {
        QCOMPARE(batch[b].hypotheses.at(0).tokens, expected[b]);
        const auto alone = engine::decode(decoder, {g.sources[b]}, options);
        QCOMPARE(alone.at(0).hypotheses.at(0).tokens, expected[b]);
    }
}

inline void checkBeam(engine::TextStepDecoder &decoder, const Golden &g, bool batched)
{
    const engine::DecodingOptions options = g.beamOptions();
    std::vector<engine::DecodingResult> results;
    if (batched) {
        results = engine::decode(decoder, g.sources, options);
    } else {
        for (const auto &source : g.sources)
            results.push_back(engine::decode(decoder, {source}, options).at(0));
    }
    QCOMPARE(results.size(), g.sources.size());
    for (std::size_t b = 0; b < g.sources.size(); ++b) {
        const nlohmann::json &want = g.json.at("beam").at(b);
        const auto &got = results[b].hypotheses;
        QCOMPARE(got.size(), want.size());
        for (std::size_t k = 0; k < got.size(); ++k) {
            const auto tokens = want.at(k).at("tokens").get<std::vector<std::int32_t>>();
            QCOMPARE(got[k].tokens, tokens);
            QCOMPARE(got[k].endedWithEos, want.at(k).at("ended_with_eos").get<bool>());
            // Cumulative over up to max_length steps: each step is within kTolerance.
            const float bound = kTolerance * static_cast<float>(tokens.size() + 1);
            const float wantLogProb = want.at(k).at("log_prob").get<float>();
            const float wantScore = want.at(k).at("score").get<float>();
            QVERIFY2(std::abs(got[k].logProb - wantLogProb) < bound,
                     qPrintable(QStringLiteral("sentence %1 hypothesis %2: log-prob %3 vs %4")
                                    .arg(b)
                                    .arg(k)
                                    .arg(got[k].logProb)
                                    .arg(wantLogProb)));
            QVERIFY2(std::abs(got[k].score - wantScore) < bound,
                     qPrintable(QStringLiteral("sentence %1 hypothesis %2: score %3 vs %4")
                                    .arg(b)
                                    .arg(k)
                                    .arg(got[k].score)
                                    .arg(wantScore)));
            // One attention row per generated token over this sentence's source, summing to 1.
            const auto length = static_cast<std::int64_t>(g.sources[b].size());
            if (g.attention.empty() && !g.searchesOnly) {
                QVERIFY(got[k].attention.empty()); // nothing is invented for a model without it
            } else if (!tokens.empty()) {
                QCOMPARE(got[k].attention.shape(),
                         (engine::Shape{static_cast<std::int64_t>(tokens.size()), length}));
                for (std::size_t i = 0; i < tokens.size(); ++i) {
                    double sum = 0.0;
                    for (std::int64_t j = 0; j < length; ++j)
                        sum += got[k].attention.data<float>()[i * length + j];
                    QVERIFY(std::abs(sum - 1.0) < 1e-4);
                }
            }
        }
    }
}

// int8 against fp32 on a shipped model (resources/models/<package>), loaded through the built
// plugin with each ComputeType: greedy output equal on most sentences, and where it is equal, the
// log-probability of every chosen token close to fp32's. int8 moves a logit by about 1% of its
// size (tst_ops_quantizedlinear), so a token chosen by a clear margin stays chosen while a
// near-tie may flip, after which the two outputs go their own ways: the share of equal outputs is
// high on Tatoeba, where the models are sure, and lower on the 60 sentences full of numbers and
// URLs (tests/data/protected-spans/en.txt) that they never saw the like of. The bounds are the
// measured values (printed) with margin. Rows: int8AgreementRows(); checks: checkInt8Agreement().
inline void int8AgreementRows(double minEqualOwnSentences, double minEqualTatoeba)
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<double>("minEqual");
    QTest::addRow("protected-spans sentences")
        << testDataDir() + "/protected-spans/en.txt" << minEqualOwnSentences;
    QTest::addRow("tatoeba test") << QStringLiteral("tatoeba-en-es/test.tsv") << minEqualTatoeba;
}

inline void checkInt8Agreement(const QString &architecture, const char *package)
{
    QFETCH(QString, file);
    QFETCH(double, minEqual);
    QStringList sentences;
    if (file.endsWith(".tsv")) {
        GLOSA_REQUIRE_SHARED_DATA(file);
        QFile tsv(sharedDataDir() + "/" + file);
        QVERIFY(tsv.open(QIODevice::ReadOnly));
        while (!tsv.atEnd() && sentences.size() < 300) {
            const QString source = QString::fromUtf8(tsv.readLine()).section('\t', 0, 0);
            if (!sentences.contains(source))
                sentences << source;
        }
    } else {
        QFile text(file);
        QVERIFY(text.open(QIODevice::ReadOnly));
        while (!text.atEnd())
            sentences << QString::fromUtf8(text.readLine()).trimmed();
    }
    const std::string dir = std::string(GLOSA_SOURCE_DIR "/resources/models/") + package;
    QString error;
    const auto fp32 = loadWithBuiltPlugin<engine::TranslationModel>(architecture, dir, &error,
                                                                    engine::ComputeType::Float32);
    QVERIFY2(fp32, qPrintable(error));
    const auto int8 = loadWithBuiltPlugin<engine::TranslationModel>(architecture, dir, &error,
                                                                    engine::ComputeType::Int8);
    QVERIFY2(int8, qPrintable(error));
    engine::Translator a(fp32), b(int8);
    engine::DecodingOptions options = fp32->defaultDecodingOptions();
    options.strategy = engine::SearchStrategy::Greedy;
    int equal = 0, tokens = 0;
    double sumDiff = 0.0, maxDiff = 0.0;
    for (const QString &sentence : sentences) {
        const std::string text = sentence.toStdString();
        const engine::TranslationResult x = a.translate(text, options);
        const engine::TranslationResult y = b.translate(text, options);
        // Equal: the same pieces (the same text can come from other pieces).
        bool same = x.segments.size() == y.segments.size();
        for (std::size_t s = 0; same && s < x.segments.size(); ++s)
            same =
                x.segments[s].hypotheses.front().tokens == y.segments[s].hypotheses.front().tokens;
        if (!same)
            continue;
        ++equal;
        for (std::size_t s = 0; s < x.segments.size(); ++s) {
            const auto &px = x.segments[s].hypotheses.front().tokenLogProbs;
            const auto &py = y.segments[s].hypotheses.front().tokenLogProbs;
            for (std::size_t i = 0; i < px.size(); ++i) {
                const double d = std::fabs(double(px[i]) - py[i]);
                sumDiff += d;
                maxDiff = std::max(maxDiff, d);
                ++tokens;
            }
        }
    }
    const QString measured = QString("equal %1/%2, token log-prob |diff| mean %3 max %4")
                                 .arg(equal)
                                 .arg(sentences.size())
                                 .arg(sumDiff / std::max(tokens, 1))
                                 .arg(maxDiff);
    qInfo("%s", qPrintable(measured));
    QVERIFY2(equal >= minEqual * sentences.size(), qPrintable(measured));
    QVERIFY2(sumDiff / std::max(tokens, 1) < 0.05, qPrintable(measured));
    QVERIFY2(maxDiff < 0.5, qPrintable(measured));
}

// Rows duplicated, swapped and dropped by reorder() must continue exactly like a fresh decode of
// the same history: a state's tensors move with their row. Decodes `sources` 0 and 1 with the
// histories a and b (5 tokens each): three steps, reorder to rows (b, a, b) — not increasing, so
// gathered — one step, reorder to (a, b) — increasing, so compacted in place — one step. Returns
// each row's max |log-prob difference| from a fresh decode of its sentence.
inline std::pair<float, float>
reorderedVersusFresh(engine::TextStepDecoder &model,
                     const std::vector<std::vector<std::int32_t>> &sources,
                     const std::vector<std::int32_t> &a, const std::vector<std::int32_t> &b)
{
    auto fresh = [&](int sentence, const std::vector<std::int32_t> &history) {
        auto state = model.encode({sources[sentence]});
        engine::Tensor last({1}, engine::DType::I32), lp, att;
        for (std::int32_t token : history) {
            last.data<std::int32_t>()[0] = token;
            model.step(*state, last, lp, att);
        }
        return lp;
    };
    auto state = model.encode({sources[0], sources[1]});
    engine::Tensor last({2}, engine::DType::I32), last3({3}, engine::DType::I32), lp, att;
    auto feed = [&](engine::Tensor &tokens, std::initializer_list<std::int32_t> ids) {
        std::copy(ids.begin(), ids.end(), tokens.data<std::int32_t>());
        model.step(*state, tokens, lp, att);
    };
    for (int t = 0; t < 3; ++t)
        feed(last, {a[t], b[t]});
    state->reorder({1, 0, 1});
    feed(last3, {b[3], a[3], b[3]});
    state->reorder({1, 2});
    feed(last, {a[4], b[4]});
    const engine::Tensor wantA = fresh(0, a), wantB = fresh(1, b);
    const std::int64_t V = model.vocabularySize();
    return {maxAbsDiff(lp.data<float>(), wantA.data<float>(), V),
            maxAbsDiff(lp.data<float>() + V, wantB.data<float>(), V)};
}

} // namespace glosa::test::parity
