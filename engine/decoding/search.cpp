#include "engine/decoding/search.h"

#include "engine/decoding/logitsprocessor.h"
#include "engine/decoding/sampler.h"
#include "engine/layers/stepdecoder.h"
#include "engine/ops/rowsoftmax.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <queue>
#include <string>

namespace glosa::engine {

namespace {

constexpr float kNegInf = -std::numeric_limits<float>::infinity();
constexpr double kCoverageFloor = 1e-6;

// ---------------------------------------------------------------------------------------------
// Paths: hypotheses share their prefixes through back-pointers (Marian's Hypothesis), so a step
// costs O(beam) bookkeeping however long the hypotheses and sources are.

struct PathNode
{
    std::int32_t parent; // index in Sentence::path; -1: the start
    std::int32_t token;
    float logProb;
    std::int64_t attentionRow; // offset in Sentence::attention; -1 when none
};

struct Alive
{
    std::vector<std::int32_t> tokens; // the history the processors read
    float cumulative = 0.0f;
    std::int32_t pathNode = -1;
    std::int32_t traceNode = 0;
    std::vector<float> coverage; // [source length]; only with a coverage penalty
    std::uint32_t sample = 0;    // sampling: which of the nBest samples
};

// ---------------------------------------------------------------------------------------------
// Traces

class Tracer
{
public:
    Tracer(const DecodingOptions &options, const LogitsProcessorChain &chain, bool sampling)
        : m_enabled(options.trace), m_topN(options.traceTopN)
    {
        if (!m_enabled)
            return;
        trace.stages.push_back("model");
        for (const auto &processor : chain.processors())
            trace.stages.push_back(processor->name());
        if (sampling)
            for (const SamplingStage &stage : samplingChain())
                if (stage.traced(options))
                    trace.stages.push_back(stage.name());
        trace.nodes.push_back(TraceNode{}); // the root
    }

    bool enabled() const { return m_enabled; }

    std::int32_t addNode(std::int32_t parent, std::int32_t step, std::int32_t token, float logProb,
                         float cumulative, float normalized, NodeFate fate)
    {
        if (!m_enabled)
            return -1;
        const auto id = static_cast<std::int32_t>(trace.nodes.size());
        trace.nodes.push_back({id, parent, step, token, logProb, cumulative, normalized, fate});
        return id;
    }

    // Row snapshots, in order: the model's row, then one per processor (log-domain, full rows).
    void snapshot(std::span<const float> row)
    {
        if (m_enabled)
            m_rows.emplace_back(row.begin(), row.end());
    }
    void samplerStages(std::vector<std::vector<TokenProbability>> stages)
    {
        if (m_enabled)
            m_samplerStages = std::move(stages);
    }

    void endRow(std::int32_t step, std::int32_t node, std::int32_t chosen)
    {
        if (!m_enabled)
            return;
        // Per stage: probabilities of the whole row (softmax of the snapshot) or the sampler's
        // truncated distribution, then the union of each stage's top-N.
        std::vector<std::vector<double>> dense; // per full-row stage: probabilities [vocab]
        std::vector<std::int32_t> tokens;
        for (const std::vector<float> &row : m_rows) {
            std::vector<double> probabilities(row.size(), 0.0);
            float maximum = kNegInf;
            for (float value : row)
                maximum = std::max(maximum, value);
            if (maximum != kNegInf) {
                double sum = 0.0;
                for (std::size_t i = 0; i < row.size(); ++i)
                    sum += probabilities[i] = std::exp(static_cast<double>(row[i] - maximum));
                for (double &p : probabilities)
                    p /= sum;
            }
            std::vector<std::int32_t> order(row.size());
            for (std::size_t i = 0; i < order.size(); ++i)
                order[i] = static_cast<std::int32_t>(i);
            const std::size_t n = std::min<std::size_t>(m_topN, order.size());
            std::partial_sort(order.begin(), order.begin() + n, order.end(),
                              [&](std::int32_t a, std::int32_t b) {
                                  return probabilities[a] > probabilities[b] ||
                                         (probabilities[a] == probabilities[b] && a < b);
                              });
            for (std::size_t i = 0; i < n; ++i)
                if (probabilities[order[i]] > 0)
                    tokens.push_back(order[i]);
            dense.push_back(std::move(probabilities));
        }
        for (const auto &stage : m_samplerStages)
            for (std::size_t i = 0; i < std::min<std::size_t>(m_topN, stage.size()); ++i)
                tokens.push_back(stage[i].token);
        std::sort(tokens.begin(), tokens.end());
        tokens.erase(std::unique(tokens.begin(), tokens.end()), tokens.end());

        StepTrace stepTrace;
        stepTrace.step = step;
        stepTrace.node = node;
        stepTrace.chosen = chosen;
        for (const auto &probabilities : dense) {
            std::vector<float> values;
            for (std::int32_t token : tokens)
                values.push_back(static_cast<float>(probabilities[token]));
            stepTrace.probabilities.push_back(std::move(values));
        }
        for (const auto &stage : m_samplerStages) {
            std::vector<float> values(tokens.size(), 0.0f);
            for (const TokenProbability &entry : stage) {
                auto it = std::lower_bound(tokens.begin(), tokens.end(), entry.token);
                if (it != tokens.end() && *it == entry.token)
                    values[it - tokens.begin()] = static_cast<float>(entry.probability);
            }
            stepTrace.probabilities.push_back(std::move(values));
        }
        // Best first by the last stage.
        std::vector<std::size_t> order(tokens.size());
        for (std::size_t i = 0; i < order.size(); ++i)
            order[i] = i;
        const std::vector<float> &last = stepTrace.probabilities.back();
        std::stable_sort(order.begin(), order.end(),
                         [&](std::size_t a, std::size_t b) { return last[a] > last[b]; });
        for (std::size_t i = 0; i < order.size(); ++i)
            stepTrace.tokens.push_back(tokens[order[i]]);
        for (auto &values : stepTrace.probabilities) {
            std::vector<float> sorted;
            for (std::size_t i : order)
                sorted.push_back(values[i]);
            values = std::move(sorted);
        }
        trace.steps.push_back(std::move(stepTrace));
        m_rows.clear();
        m_samplerStages.clear();
    }

    DecodingTrace trace;

private:
    bool m_enabled;
    int m_topN;
    std::vector<std::vector<float>> m_rows;
    std::vector<std::vector<TokenProbability>> m_samplerStages;
};

// ---------------------------------------------------------------------------------------------

struct Sentence
{
    std::int64_t sourceLength = 0;
    int maxLength = 0;
    std::vector<Alive> alive;
    std::vector<Hypothesis> finished;
    std::vector<PathNode> path;
    std::vector<float> attention; // rows of [sourceLength], referenced by PathNode
    bool done = false;
    Tracer tracer;

    Sentence(const DecodingOptions &options, const LogitsProcessorChain &chain, bool sampling)
        : tracer(options, chain, sampling)
    {
    }
};

// `logProbs` may be StepDecoder::stepLogits' logits, of the same shape.
void checkStepOutputs(const Tensor *logProbs, const Tensor &attention, std::int64_t rows,
                      std::int64_t vocabulary, std::int64_t maxSourceLength)
{
    if (logProbs &&
        (logProbs->rank() != 2 || logProbs->dim(0) != rows || logProbs->dim(1) != vocabulary))
        throw std::runtime_error("StepDecoder::step returned log-probabilities of shape " +
                                 shapeToString(logProbs->shape()) + ", expected [" +
                                 std::to_string(rows) + ", " + std::to_string(vocabulary) + "]");
    if (!attention.empty() &&
        (attention.rank() != 2 || attention.dim(0) != rows || attention.dim(1) < maxSourceLength))
        throw std::runtime_error("StepDecoder::step returned attention of shape " +
                                 shapeToString(attention.shape()) + ", expected [" +
                                 std::to_string(rows) + ", >= " + std::to_string(maxSourceLength) +
                                 "]");
}

// The search's side of an encoded state's row: its source length (checked: the search sizes
// coverage and attention rows by it) and length limit.
Sentence &startSentence(std::vector<Sentence> &sentences, const StepDecoder &decoder,
                        const DecoderState &state, std::int64_t row, const DecodingOptions &options,
                        const LogitsProcessorChain &chain, bool sampling)
{
    Sentence &sentence = sentences.emplace_back(options, chain, sampling);
    sentence.sourceLength = state.sourceLength(row);
    if (sentence.sourceLength < 0)
        throw std::runtime_error("DecoderState::sourceLength(" + std::to_string(row) +
                                 ") is negative");
    sentence.maxLength = static_cast<int>(std::min<std::int64_t>(
        options.maxLengthFor(sentence.sourceLength), decoder.maxTargetLength()));
    return sentence;
}

// What every search checks before it starts; returns the number of inputs the state holds.
std::int64_t startChecks(const StepDecoder &decoder, const DecoderState *state,
                         const DecodingOptions &options)
{
    options.validate(decoder.vocabularySize());
    if (!state)
        throw std::invalid_argument("decode: no encoded state (the encoder returned null)");
    return state->rows();
}

void checkCancelled(const DecodingControl &control)
{
    if (control.cancelled && control.cancelled())
        throw DecodingCancelled();
}

// Appends one token to a copy of `parent`: path node, attention row, coverage.
Alive extend(Sentence &sentence, const Alive &parent, std::int32_t token, float logProb,
             const float *attentionRow, bool withCoverage)
{
    Alive child;
    child.tokens.reserve(parent.tokens.size() + 1);
    child.tokens = parent.tokens;
    child.tokens.push_back(token);
    child.cumulative = parent.cumulative + logProb;
    child.sample = parent.sample;
    std::int64_t offset = -1;
    if (attentionRow) {
        offset = static_cast<std::int64_t>(sentence.attention.size());
        sentence.attention.insert(sentence.attention.end(), attentionRow,
                                  attentionRow + sentence.sourceLength);
    }
    child.pathNode = static_cast<std::int32_t>(sentence.path.size());
    sentence.path.push_back({parent.pathNode, token, logProb, offset});
    // Without attention there is no coverage to measure: the penalty is then left out rather
    // than charging every hypothesis for "unattended" source words.
    if (withCoverage && attentionRow && !parent.coverage.empty()) {
        child.coverage = parent.coverage;
        for (std::int64_t j = 0; j < sentence.sourceLength; ++j)
            child.coverage[j] += attentionRow[j];
    }
    return child;
}

// Turns an alive hypothesis into a result, with or without a final EOS.
Hypothesis finalize(const DecodingOptions &options, const Sentence &sentence, const Alive &alive,
                    bool withEos, float eosLogProb)
{
    Hypothesis hypothesis;
    hypothesis.tokens = alive.tokens;
    const std::size_t length = alive.tokens.size();
    hypothesis.tokenLogProbs.assign(length, 0.0f);
    bool hasAttention = false;
    std::vector<std::int64_t> rows(length, -1);
    std::int32_t node = alive.pathNode;
    for (std::size_t i = length; i-- > 0;) {
        const PathNode &pathNode = sentence.path.at(node);
        hypothesis.tokenLogProbs[i] = pathNode.logProb;
        rows[i] = pathNode.attentionRow;
        hasAttention = hasAttention || pathNode.attentionRow >= 0;
        node = pathNode.parent;
    }
    if (hasAttention && length > 0) {
        hypothesis.attention = Tensor({static_cast<std::int64_t>(length), sentence.sourceLength});
        float *out = hypothesis.attention.data<float>();
        for (std::size_t i = 0; i < length; ++i)
            if (rows[i] >= 0)
                std::copy_n(sentence.attention.data() + rows[i], sentence.sourceLength,
                            out + i * sentence.sourceLength);
    }
    hypothesis.endedWithEos = withEos;
    hypothesis.eosLogProb = withEos ? eosLogProb : 0.0f;
    hypothesis.logProb = alive.cumulative + hypothesis.eosLogProb;
    const int scoredLength = static_cast<int>(length) + (withEos ? 1 : 0);
    hypothesis.score =
        finalScore(options, hypothesis.logProb, scoredLength,
                   alive.coverage.empty() ? nullptr : alive.coverage.data(), sentence.sourceLength);
    hypothesis.traceNode = alive.traceNode;
    return hypothesis;
}

std::vector<DecodingResult> collectResults(std::vector<Sentence> &sentences, int nBest)
{
    std::vector<DecodingResult> results(sentences.size());
    for (std::size_t b = 0; b < sentences.size(); ++b) {
        std::vector<Hypothesis> &finished = sentences[b].finished;
        std::stable_sort(
            finished.begin(), finished.end(),
            [](const Hypothesis &a, const Hypothesis &c) { return a.score > c.score; });
        if (static_cast<int>(finished.size()) > nBest)
            finished.resize(nBest);
        results[b].hypotheses = std::move(finished);
        results[b].trace = std::move(sentences[b].tracer.trace);
    }
    return results;
}

// Applies the processor chain to one row, feeding the tracer, and records n-gram blocks.
// Returns the normaliser to subtract from the row's scores (LogitsProcessorChain::applyLazily).
float processRow(const LogitsProcessorChain &chain, const ProcessorContext &context,
                 std::span<float> scores, Sentence &sentence, const Alive &hypothesis,
                 std::int32_t step, const DecodingOptions &options)
{
    Tracer &tracer = sentence.tracer;
    tracer.snapshot(scores);
    if (chain.empty())
        return 0.0f;
    ScoreRow row(scores);
    const float shift = chain.applyLazily(
        context, row, [&](std::size_t, const ScoreRow &r) { tracer.snapshot(r.values()); });
    if (tracer.enabled()) {
        for (std::int32_t token : row.blockedByNgram()) {
            float original = 0.0f;
            for (const ScoreRow::Change &change : row.changes())
                if (change.token == token)
                    original = change.original;
            const float cumulative = hypothesis.cumulative + original;
            tracer.addNode(
                hypothesis.traceNode, step, token, original, cumulative,
                finalScore(options, cumulative, static_cast<int>(hypothesis.tokens.size()) + 1),
                NodeFate::BlockedByNgram);
        }
    }
    return shift;
}

struct Candidate
{
    float score;             // cumulative log-probability
    std::int32_t hypothesis; // index in Sentence::alive
    std::int32_t token;
    float logProb; // the token's log-probability (after the processors, renormalised)
};

// Total order: higher score first, then earlier hypothesis, then smaller token.
bool candidateBefore(const Candidate &a, const Candidate &b)
{
    if (a.score != b.score)
        return a.score > b.score;
    if (a.hypothesis != b.hypothesis)
        return a.hypothesis < b.hypothesis;
    return a.token < b.token;
}

// The best `wanted` candidates of a sentence's step: a min-heap (its front the worst kept) and
// the score a candidate must reach to enter once it is full.
struct CandidateHeap
{
    std::vector<Candidate> items;
    std::size_t wanted = 0;
    float threshold = kNegInf;

    void reset(std::size_t size)
    {
        items.clear();
        wanted = size;
        threshold = kNegInf;
    }
    void offer(const Candidate &candidate)
    {
        if (items.size() == wanted) {
            if (!candidateBefore(candidate, items.front()))
                return;
            std::pop_heap(items.begin(), items.end(), candidateBefore);
            items.back() = candidate;
        } else {
            items.push_back(candidate);
        }
        std::push_heap(items.begin(), items.end(), candidateBefore);
        if (items.size() == wanted)
            threshold = items.front().score;
    }
};

// Offers every token of hypothesis `h` to the heap: total = base + score(v), log-probability
// score(v) - shift. Blocks of 64 tokens are first tested with one vector comparison against the
// threshold (which only rises), and only a block holding a candidate that could enter is walked
// one token at a time, as the heap needs; the result is that of walking every token (NaN totals
// included: they pass the test as they pass the walk's). `score` is the row's log-probabilities,
// written or computed from the logits on the fly (StepRows).
template <class Score>
void offerRow(CandidateHeap &heap, std::int32_t h, std::int64_t vocabulary, float base, float shift,
              Score score)
{
    constexpr std::int64_t kBlock = 64;
    for (std::int64_t begin = 0; begin < vocabulary; begin += kBlock) {
        const std::int64_t end = std::min(vocabulary, begin + kBlock);
        const float threshold = heap.threshold;
        int any = 0;
#pragma omp simd reduction(| : any)
        for (std::int64_t v = begin; v < end; ++v)
            any |= !(base + score(v) < threshold);
        if (!any)
            continue;
        for (std::int64_t v = begin; v < end; ++v) {
            const float value = score(v);
            const float total = base + value;
            if (total < heap.threshold || total == kNegInf)
                continue;
            heap.offer({total, h, static_cast<std::int32_t>(v), value - shift});
        }
    }
}

// How many rows the alive hypotheses of the sentences still decoding hold, and the longest
// length limit among them (for DecodingControl::progress).
std::pair<std::int64_t, int> aliveRows(const std::vector<Sentence> &sentences)
{
    std::int64_t rows = 0;
    int maxSteps = 0;
    for (const Sentence &sentence : sentences) {
        if (sentence.done || sentence.alive.empty())
            continue;
        rows += static_cast<std::int64_t>(sentence.alive.size());
        maxSteps = std::max(maxSteps, sentence.maxLength);
    }
    return {rows, maxSteps};
}

// One step's rows, one per alive hypothesis: step()'s log-probabilities, or with `lazy`
// (StepDecoder::stepLogits: a search without sampling or traces) the logits and each row's
// normaliser, a row's log-probabilities being computed only where something reads them.
struct StepRows
{
    bool lazy = false;
    Tensor logProbs;          // [rows, vocab], without lazy
    Tensor logits;            // [rows, vocab], with lazy
    Tensor normalizers;       // [rows, 2]: max, log Σ exp
    std::vector<float> ready; // one row's log-probabilities, for the processors
    // With `argmaxes` (greedy, lazy, reading a row only for its argmax): each row's best token
    // outside `excluded` and its log-probability, taken as the decoder finished the row
    // (stepLogits' rowReady: the row still in cache, not read back from memory afterwards).
    bool argmaxes = false;
    std::span<const std::int32_t> excluded;
    std::vector<std::int32_t> bestTokens; // [rows]
    std::vector<float> bestLogProbs;      // [rows]

    ops::RowNormalizer normalizer(std::int64_t r) const
    {
        const float *n = normalizers.data<float>() + 2 * r;
        return {n[0], n[1]};
    }
    const float *logitsRow(std::int64_t r) const
    {
        return logits.data<float>() + r * logits.dim(1);
    }
    // ops::bestOfRow of row r without `excluded`; -1 (and *logProb untouched) when nothing is
    // left.
    std::int32_t findArgmax(std::int64_t r, float *logProb) const
    {
        return ops::bestOfRow(logitsRow(r), logits.dim(1), normalizer(r), logProb, excluded);
    }
    void storeArgmax(std::int64_t r)
    {
        float logProb = 0.0f;
        bestTokens[r] = findArgmax(r, &logProb);
        bestLogProbs[r] = logProb;
    }
    // Row r's argmax as findArgmax gives it, from the step's own pass when it ran.
    std::int32_t argmax(std::int64_t r, float *logProb) const
    {
        if (bestTokens.empty())
            return findArgmax(r, logProb);
        if (bestTokens[r] >= 0)
            *logProb = bestLogProbs[r];
        return bestTokens[r];
    }
    // Row r as step() wrote it (lazy: computed, bit for bit; ops/rowsoftmax.h), for the
    // processors to edit in place; valid until the next call.
    std::span<float> row(std::int64_t r)
    {
        if (!lazy) {
            const std::int64_t vocabulary = logProbs.dim(1);
            return {logProbs.data<float>() + r * vocabulary, static_cast<std::size_t>(vocabulary)};
        }
        const std::int64_t vocabulary = logits.dim(1);
        ready.resize(static_cast<std::size_t>(vocabulary));
        ops::logSoftmaxRow(logitsRow(r), vocabulary, normalizer(r), ready.data());
        return {ready.data(), ready.size()};
    }
};

// One decoder step for every alive hypothesis (its last token, the start token first). Rows of
// `out` and attention follow the sentences' alive hypotheses in order, finished sentences left
// out.
void stepAlive(StepDecoder &decoder, DecoderState &state, std::vector<Sentence> &sentences,
               std::int64_t rows, std::int64_t maxSourceLength, bool withCoverage,
               Tensor &lastTokens, StepRows &out, Tensor &attention)
{
    lastTokens.resize({rows}, DType::I32);
    std::int32_t *last = lastTokens.data<std::int32_t>();
    for (const Sentence &sentence : sentences)
        if (!sentence.done)
            for (const Alive &alive : sentence.alive)
                *last++ = alive.tokens.empty() ? decoder.startToken() : alive.tokens.back();
    if (out.lazy) {
        out.bestTokens.assign(out.argmaxes ? static_cast<std::size_t>(rows) : 0, -1);
        out.bestLogProbs.resize(out.bestTokens.size());
        const StepDecoder::RowReady rowReady = [&out](std::int64_t r) { out.storeArgmax(r); };
        decoder.stepLogits(state, lastTokens, out.logits, out.normalizers, attention,
                           out.argmaxes ? &rowReady : nullptr);
        if (out.normalizers.shape() != Shape{rows, 2})
            throw std::runtime_error("StepDecoder::stepLogits returned normalisers of shape " +
                                     shapeToString(out.normalizers.shape()) + ", expected [" +
                                     std::to_string(rows) + ", 2]");
    } else {
        decoder.step(state, lastTokens, out.logProbs, attention);
    }
    checkStepOutputs(out.lazy ? &out.logits : &out.logProbs, attention, rows,
                     decoder.vocabularySize(), maxSourceLength);
    if (withCoverage && attention.empty()) // no attention: no coverage penalty (see extend())
        for (Sentence &sentence : sentences)
            for (Alive &alive : sentence.alive)
                alive.coverage.clear();
}

// What one beam-search step works with for one sentence.
struct BeamStep
{
    const DecodingOptions &options;
    const LogitsProcessorChain &chain;
    std::int32_t step;
    std::int32_t endToken;
    std::int64_t vocabulary;
    bool withCoverage;
    StepRows &rows; // the processors edit its rows in place (this step's scratch)
    const Tensor &attention;
    std::int32_t firstRow; // the sentence's first row in `rows` and attention
};

// Beam search, part 1: processes each of the sentence's rows and keeps the 2×beam best
// (hypothesis, token) pairs (CandidateHeap, offerRow); `heap` ends sorted best first. Without
// processors a lazy row is read straight from the logits: (x - max) - logSum, as step() writes
// it.
void bestCandidates(const BeamStep &at, Sentence &sentence, CandidateHeap &heap)
{
    heap.reset(2 * static_cast<std::size_t>(at.options.beamSize));
    const auto aliveCount = static_cast<std::int32_t>(sentence.alive.size());
    for (std::int32_t h = 0; h < aliveCount; ++h) {
        const Alive &alive = sentence.alive[h];
        const std::int32_t row = at.firstRow + h;
        if (at.rows.lazy && at.chain.empty()) {
            const float *x = at.rows.logitsRow(row);
            const ops::RowNormalizer norm = at.rows.normalizer(row);
            offerRow(heap, h, at.vocabulary, alive.cumulative, 0.0f,
                     [x, norm](std::int64_t v) { return (x[v] - norm.max) - norm.logSum; });
            continue;
        }
        const std::span<float> scores = at.rows.row(row);
        ProcessorContext context{at.step, alive.tokens, at.endToken};
        const float shift =
            processRow(at.chain, context, scores, sentence, alive, at.step, at.options);
        sentence.tracer.endRow(at.step, alive.traceNode, -1);
        const float *values = scores.data();
        offerRow(heap, h, at.vocabulary, alive.cumulative - shift, shift,
                 [values](std::int64_t v) { return values[v]; });
    }
    std::sort(heap.items.begin(), heap.items.end(), candidateBefore);
}

// Beam search, part 2: walks the candidates best first. EOS among the first `beam` finishes a
// hypothesis, other tokens fill the beam, the rest is pruned. Returns the hypotheses kept and
// appends their rows to `origins`.
std::vector<Alive> fillBeam(const BeamStep &at, Sentence &sentence,
                            const std::vector<Candidate> &candidates,
                            std::vector<std::int32_t> &origins)
{
    const int beam = at.options.beamSize;
    const DecodingOptions &options = at.options;
    std::vector<Alive> next;
    std::vector<std::int32_t> nextOrigins;
    for (std::size_t rank = 0; rank < candidates.size(); ++rank) {
        const Candidate &candidate = candidates[rank];
        const Alive &parent = sentence.alive[candidate.hypothesis];
        const std::int32_t row = at.firstRow + candidate.hypothesis;
        const float logProb = candidate.logProb;
        const float *attentionRow =
            at.attention.empty() ? nullptr : at.attention.data<float>() + row * at.attention.dim(1);
        const auto length = static_cast<int>(parent.tokens.size()) + 1;
        if (candidate.token == at.endToken) {
            if (rank < static_cast<std::size_t>(beam)) {
                Hypothesis hypothesis = finalize(options, sentence, parent, true, logProb);
                hypothesis.traceNode = sentence.tracer.addNode(
                    parent.traceNode, at.step, candidate.token, logProb, hypothesis.logProb,
                    hypothesis.score, NodeFate::Finished);
                sentence.finished.push_back(std::move(hypothesis));
            } else if (sentence.tracer.enabled()) {
                sentence.tracer.addNode(
                    parent.traceNode, at.step, candidate.token, logProb, candidate.score,
                    finalScore(options, candidate.score, length), NodeFate::Pruned);
            }
            continue;
        }
        if (static_cast<int>(next.size()) >= beam) {
            if (sentence.tracer.enabled())
                sentence.tracer.addNode(
                    parent.traceNode, at.step, candidate.token, logProb, candidate.score,
                    finalScore(options, candidate.score, length), NodeFate::Pruned);
            continue;
        }
        Alive child =
            extend(sentence, parent, candidate.token, logProb, attentionRow, at.withCoverage);
        const bool full = length >= sentence.maxLength;
        child.traceNode = sentence.tracer.addNode(
            parent.traceNode, at.step, candidate.token, logProb, child.cumulative,
            finalScore(options, child.cumulative, length,
                       child.coverage.empty() ? nullptr : child.coverage.data(),
                       sentence.sourceLength),
            full ? NodeFate::Finished : NodeFate::Kept);
        if (full) {
            sentence.finished.push_back(finalize(options, sentence, child, false, 0));
            // Counts against the beam like a kept hypothesis, so that exactly `beam`
            // hypotheses end at the maximum length.
            next.emplace_back();
            nextOrigins.push_back(-1);
            continue;
        }
        next.push_back(std::move(child));
        nextOrigins.push_back(row);
    }
    // Placeholders of hypotheses finished at the maximum length leave the beam.
    std::vector<Alive> kept;
    for (std::size_t i = 0; i < next.size(); ++i)
        if (nextOrigins[i] >= 0) {
            kept.push_back(std::move(next[i]));
            origins.push_back(nextOrigins[i]);
        }
    if (candidates.empty() && sentence.finished.empty()) {
        // Every continuation was blocked: what we have is the best there is.
        for (const Alive &alive : sentence.alive)
            sentence.finished.push_back(finalize(options, sentence, alive, false, 0));
    }
    return kept;
}

// Beam search, part 3: whether the sentence is done, by the stopping rule (decodingoptions.h,
// EarlyStopping), once `sentence.alive` holds the new beam.
bool beamDone(const Sentence &sentence, const DecodingOptions &options)
{
    if (sentence.alive.empty())
        return true;
    const int finished = static_cast<int>(sentence.finished.size());
    if (options.earlyStopping == EarlyStopping::Beam)
        return finished >= options.beamSize;
    if (finished < options.nBest)
        return false;
    std::vector<float> scores;
    for (const Hypothesis &hypothesis : sentence.finished)
        scores.push_back(hypothesis.score);
    std::nth_element(scores.begin(), scores.begin() + (options.nBest - 1), scores.end(),
                     std::greater<float>());
    const float worstKept = scores[options.nBest - 1];
    const Alive &best = sentence.alive.front(); // the highest cumulative log-prob
    switch (options.earlyStopping) {
    case EarlyStopping::Eager:
    case EarlyStopping::Beam: // handled above
        return true;
    case EarlyStopping::Heuristic:
        return finalScore(options, best.cumulative, static_cast<int>(best.tokens.size()) + 1,
                          best.coverage.empty() ? nullptr : best.coverage.data(),
                          sentence.sourceLength) <= worstKept;
    case EarlyStopping::Bounded:
        return static_cast<float>(best.cumulative /
                                  lengthNormalizer(options, sentence.maxLength)) <= worstKept;
    }
    return true;
}

// Greedy search and sampling, part 1: one alive hypothesis per input and sample, with the
// sampling generators per (input, sample), so that the same input samples the same in any batch
// (read before the first reorder, while row b is input b); the state's rows are repeated for
// the samples.
struct GreedyStart
{
    std::vector<Sentence> sentences;
    std::int64_t maxSourceLength = 0;
    std::vector<std::vector<Rng>> generators; // [input][sample]; empty without sampling
};

GreedyStart startGreedy(const StepDecoder &decoder, DecoderState &state,
                        const DecodingOptions &options, const LogitsProcessorChain &chain,
                        std::int64_t inputs)
{
    const bool sampling = options.strategy == SearchStrategy::Sample;
    const int samples = sampling ? options.nBest : 1;
    GreedyStart start;
    start.generators.resize(static_cast<std::size_t>(inputs));
    std::vector<std::int32_t> origins;
    for (std::int64_t b = 0; b < inputs; ++b) {
        Sentence &sentence =
            startSentence(start.sentences, decoder, state, b, options, chain, sampling);
        start.maxSourceLength = std::max(start.maxSourceLength, sentence.sourceLength);
        for (int k = 0; k < samples; ++k) {
            if (sampling)
                start.generators[b].emplace_back(Rng::derive(options.seed, state.sourceKey(b), k));
            Alive alive;
            alive.sample = static_cast<std::uint32_t>(k);
            if (options.coveragePenalty > 0)
                alive.coverage.assign(sentence.sourceLength, 0.0f);
            sentence.alive.push_back(std::move(alive));
            origins.push_back(static_cast<std::int32_t>(b));
        }
    }
    if (samples > 1)
        state.reorder(origins);
    return start;
}

// The tokens a suppress-only chain blocks: in the order of its changes (what the renormaliser
// sums) and sorted (what ops::bestOfRow skips).
struct SuppressedTokens
{
    std::vector<std::int32_t> inOrder;
    std::vector<std::int32_t> sorted;
};

// What one greedy (or sampling) step works with.
struct GreedyStep
{
    const DecodingOptions &options;
    const LogitsProcessorChain &chain;
    const RandomSampler &sampler;
    std::int32_t step;
    std::int32_t endToken;
    std::int64_t vocabulary;
    bool sampling;
    bool withCoverage;
    StepRows &rows;
    const Tensor &attention;
    const SuppressedTokens *suppressed; // lazy rows whose processors only suppress; else null
};

// Greedy search with processors that only suppress tokens: the row's argmax without them and its
// log-probability, renormalised as LogitsProcessorChain::applyLazily does on the written row (bit
// for bit), without writing it; -1 where the written row must decide (nothing left to choose, or
// too little mass left for ScoreRow's shortcut).
std::int32_t bestUnsuppressed(const GreedyStep &at, std::int32_t row, float *logProb)
{
    const float *x = at.rows.logitsRow(row);
    const ops::RowNormalizer norm = at.rows.normalizer(row);
    float best = 0.0f;
    const std::int32_t token = at.rows.argmax(row, &best); // without the suppressed ids
    if (token < 0)
        return -1;
    double blocked = 0.0; // in the order ScoreRow records the blocks
    for (const std::int32_t id : at.suppressed->inOrder)
        blocked += std::exp(static_cast<double>((x[id] - norm.max) - norm.logSum));
    const std::optional<float> shift = ScoreRow::logMassAfterBlocking(blocked);
    if (!shift)
        return -1;
    *logProb = best - *shift;
    return token;
}

// Greedy search, part 2: the token row `row` (hypothesis `alive`) continues with, and its
// log-probability in *logProb; -1 when every token is blocked. Without processors a lazy row
// gives its argmax straight from the logits (ops::bestOfRow), and so does one whose processors
// only suppress tokens (bestUnsuppressed).
std::int32_t chooseToken(const GreedyStep &at, Sentence &sentence, const Alive &alive,
                         std::int32_t row, std::vector<Rng> &generators, float *logProb)
{
    if (at.rows.lazy && at.chain.empty())
        return at.rows.argmax(row, logProb);
    if (at.suppressed) {
        const std::int32_t token = bestUnsuppressed(at, row, logProb);
        if (token >= 0)
            return token;
    }
    const std::span<float> scores = at.rows.row(row);
    ProcessorContext context{at.step, alive.tokens, at.endToken};
    const float shift = processRow(at.chain, context, scores, sentence, alive, at.step, at.options);
    std::int32_t token = -1;
    if (at.sampling) {
        std::vector<std::vector<TokenProbability>> stages;
        const auto distribution =
            at.sampler.distribution(scores, sentence.tracer.enabled() ? &stages : nullptr);
        sentence.tracer.samplerStages(std::move(stages));
        token = RandomSampler::draw(distribution, generators[alive.sample]);
    } else {
        token = BestSampler::sample(scores);
    }
    sentence.tracer.endRow(at.step, alive.traceNode, token);
    if (token >= 0)
        *logProb = scores[token] - shift;
    return token;
}

// Greedy search, part 3: continues `alive` with `token`. A blocked row (-1), an EOS or a
// hypothesis reaching its maximum length finishes; otherwise the child is appended to `next`
// and its row to `origins`.
void continueWith(const GreedyStep &at, Sentence &sentence, const Alive &alive, std::int32_t row,
                  std::int32_t token, float logProb, std::vector<Alive> &next,
                  std::vector<std::int32_t> &origins)
{
    const DecodingOptions &options = at.options;
    if (token < 0) { // every token blocked: stop here, without EOS
        sentence.finished.push_back(finalize(options, sentence, alive, false, 0));
        return;
    }
    if (token == at.endToken) {
        Hypothesis hypothesis = finalize(options, sentence, alive, true, logProb);
        hypothesis.traceNode =
            sentence.tracer.addNode(alive.traceNode, at.step, token, logProb, hypothesis.logProb,
                                    hypothesis.score, NodeFate::Finished);
        sentence.finished.push_back(std::move(hypothesis));
        return;
    }
    const float *attentionRow =
        at.attention.empty() ? nullptr : at.attention.data<float>() + row * at.attention.dim(1);
    Alive child = extend(sentence, alive, token, logProb, attentionRow, at.withCoverage);
    const bool full = static_cast<int>(child.tokens.size()) >= sentence.maxLength;
    child.traceNode = sentence.tracer.addNode(
        alive.traceNode, at.step, token, logProb, child.cumulative,
        finalScore(options, child.cumulative, static_cast<int>(child.tokens.size()),
                   child.coverage.empty() ? nullptr : child.coverage.data(), sentence.sourceLength),
        full ? NodeFate::Finished : NodeFate::Kept);
    if (full) {
        sentence.finished.push_back(finalize(options, sentence, child, false, 0));
        return;
    }
    origins.push_back(row);
    next.push_back(std::move(child));
}

// Greedy search: parts 2 and 3 for every alive row, in row order; `origins` receives the rows
// that go on.
void greedyStep(const GreedyStep &at, GreedyStart &start, std::vector<std::int32_t> &origins)
{
    std::int32_t row = 0;
    for (std::size_t b = 0; b < start.sentences.size(); ++b) {
        Sentence &sentence = start.sentences[b];
        std::vector<Alive> next;
        for (const Alive &alive : sentence.alive) {
            const std::int32_t thisRow = row++;
            float logProb = 0.0f;
            const std::int32_t token =
                chooseToken(at, sentence, alive, thisRow, start.generators[b], &logProb);
            continueWith(at, sentence, alive, thisRow, token, logProb, next, origins);
        }
        sentence.alive = std::move(next);
    }
}

} // namespace

double lengthNormalizer(const DecodingOptions &options, int length)
{
    switch (options.lengthNormalization) {
    case LengthNormalization::None:
        return 1.0;
    case LengthNormalization::Gnmt:
        if (options.lengthPenalty == 0.0f)
            return 1.0;
        return std::pow((5.0 + length) / 6.0, static_cast<double>(options.lengthPenalty));
    case LengthNormalization::Average:
        return std::max(length, 1);
    case LengthNormalization::Power:
        return std::pow(static_cast<double>(std::max(length, 1)),
                        static_cast<double>(options.lengthPenalty));
    }
    return 1.0;
}

float finalScore(const DecodingOptions &options, float logProb, int length, const float *coverage,
                 std::int64_t sourceLength)
{
    double score = logProb / lengthNormalizer(options, length);
    if (options.coveragePenalty > 0 && coverage) {
        double penalty = 0.0;
        for (std::int64_t j = 0; j < sourceLength; ++j)
            penalty += std::log(std::clamp(static_cast<double>(coverage[j]), kCoverageFloor, 1.0));
        score += options.coveragePenalty * penalty;
    }
    return static_cast<float>(score);
}

// ---------------------------------------------------------------------------------------------

std::vector<DecodingResult> GreedySearch::operator()(StepDecoder &decoder,
                                                     std::unique_ptr<DecoderState> state,
                                                     const DecodingOptions &options,
                                                     const DecodingControl &control) const
{
    const std::int64_t inputs = startChecks(decoder, state.get(), options);
    if (inputs == 0)
        return {};
    const bool sampling = options.strategy == SearchStrategy::Sample;
    const std::int32_t endToken = decoder.endToken();
    const LogitsProcessorChain chain = LogitsProcessorChain::fromOptions(options, endToken);
    const RandomSampler sampler(options);
    const bool withCoverage = options.coveragePenalty > 0;
    GreedyStart start = startGreedy(decoder, *state, options, chain, inputs);

    // Greedy without traces reads one row at a time, and without processors (or with only
    // suppressed tokens) only its argmax: the model need not write the [rows, vocab] distribution.
    StepRows rows;
    rows.lazy = !sampling && !options.trace && decoder.hasStepLogits();
    std::optional<SuppressedTokens> suppressed;
    if (rows.lazy)
        if (std::optional<std::vector<std::int32_t>> tokens = chain.suppressedOnly()) {
            suppressed = SuppressedTokens{*tokens, *tokens};
            std::sort(suppressed->sorted.begin(), suppressed->sorted.end());
        }
    // Rows read only for their argmax (without the suppressed ids): taken as each row is made.
    rows.argmaxes = rows.lazy && (chain.empty() || suppressed);
    if (suppressed)
        rows.excluded = suppressed->sorted;
    Tensor lastTokens, attention;
    std::vector<std::int32_t> origins;
    for (std::int32_t step = 0;; ++step) {
        const auto [alive, maxSteps] = aliveRows(start.sentences);
        if (alive == 0)
            break;
        if (step == 0)
            state->expectSteps(maxSteps);
        checkCancelled(control);
        stepAlive(decoder, *state, start.sentences, alive, start.maxSourceLength, withCoverage,
                  lastTokens, rows, attention);
        const GreedyStep at{
            options,  chain,        sampler, step,     endToken, decoder.vocabularySize(),
            sampling, withCoverage, rows,    attention, suppressed ? &*suppressed : nullptr};
        origins.clear();
        greedyStep(at, start, origins);
        if (control.progress)
            control.progress(step, maxSteps);
        state->reorder(origins);
    }
    return collectResults(start.sentences, sampling ? options.nBest : 1);
}

// ---------------------------------------------------------------------------------------------

std::vector<DecodingResult> BeamSearch::operator()(StepDecoder &decoder,
                                                   std::unique_ptr<DecoderState> state,
                                                   const DecodingOptions &options,
                                                   const DecodingControl &control) const
{
    const std::int64_t vocabulary = decoder.vocabularySize();
    const std::int64_t inputs = startChecks(decoder, state.get(), options);
    if (inputs == 0)
        return {};
    const std::int32_t endToken = decoder.endToken();
    const LogitsProcessorChain chain = LogitsProcessorChain::fromOptions(options, endToken);
    const bool withCoverage = options.coveragePenalty > 0;

    std::vector<Sentence> sentences;
    std::int64_t maxSourceLength = 0;
    for (std::int64_t b = 0; b < inputs; ++b) {
        Sentence &sentence = startSentence(sentences, decoder, *state, b, options, chain, false);
        maxSourceLength = std::max(maxSourceLength, sentence.sourceLength);
        Alive start;
        if (withCoverage)
            start.coverage.assign(sentence.sourceLength, 0.0f);
        sentence.alive.push_back(std::move(start));
    }

    // Without traces the candidates are chosen from the logits (bestCandidates): the model need
    // not write the [rows, vocab] distribution.
    StepRows stepRows;
    stepRows.lazy = !options.trace && decoder.hasStepLogits();
    Tensor lastTokens, attention;
    std::vector<std::int32_t> origins, beamOrigins;
    CandidateHeap candidates;
    for (std::int32_t step = 0;; ++step) {
        const auto [rows, maxSteps] = aliveRows(sentences);
        if (rows == 0)
            break;
        if (step == 0)
            state->expectSteps(maxSteps);
        checkCancelled(control);
        stepAlive(decoder, *state, sentences, rows, maxSourceLength, withCoverage, lastTokens,
                  stepRows, attention);

        origins.clear();
        std::int32_t firstRow = 0;
        for (Sentence &sentence : sentences) {
            if (sentence.done)
                continue;
            const BeamStep at{options,      chain,    step,      endToken, vocabulary,
                              withCoverage, stepRows, attention, firstRow};
            bestCandidates(at, sentence, candidates);
            beamOrigins.clear();
            std::vector<Alive> kept = fillBeam(at, sentence, candidates.items, beamOrigins);
            firstRow += static_cast<std::int32_t>(sentence.alive.size());
            sentence.alive = std::move(kept);
            if (beamDone(sentence, options)) {
                sentence.done = true;
                sentence.alive.clear();
            } else {
                origins.insert(origins.end(), beamOrigins.begin(), beamOrigins.end());
            }
        }
        if (control.progress)
            control.progress(step, maxSteps);
        state->reorder(origins);
    }
    return collectResults(sentences, options.nBest);
}

std::vector<DecodingResult> decode(StepDecoder &decoder, std::unique_ptr<DecoderState> encoded,
                                   const DecodingOptions &options, const DecodingControl &control)
{
    if (options.strategy == SearchStrategy::Beam)
        return BeamSearch()(decoder, std::move(encoded), options, control);
    return GreedySearch()(decoder, std::move(encoded), options, control);
}

std::vector<DecodingResult> decode(TextStepDecoder &decoder,
                                   const std::vector<std::vector<std::int32_t>> &sources,
                                   const DecodingOptions &options, const DecodingControl &control)
{
    // Bad options and sources fail before the encoder runs, not after.
    options.validate(decoder.vocabularySize());
    for (std::size_t b = 0; b < sources.size(); ++b)
        if (sources[b].empty())
            throw std::invalid_argument("decode: source sentence " + std::to_string(b) +
                                        " is empty (it needs at least an EOS token)");
    if (sources.empty())
        return {};
    std::unique_ptr<DecoderState> state = decoder.encode(sources);
    if (state && state->rows() != static_cast<std::int64_t>(sources.size()))
        throw std::runtime_error("TextStepDecoder::encode returned " +
                                 std::to_string(state->rows()) + " rows for " +
                                 std::to_string(sources.size()) + " sentences");
    return decode(decoder, std::move(state), options, control);
}

} // namespace glosa::engine
