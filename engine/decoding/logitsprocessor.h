// Logits processors: chainable rules that change one hypothesis's next-token scores before the
// search or the sampler looks at them (CTranslate2's LogitsProcessor, llama.cpp's sampler chain).
// Each one is independent of the search and testable on its own.
//
// Basic usage:
//     LogitsProcessorChain chain = LogitsProcessorChain::fromOptions(options, endToken);
//     std::vector<float> row = ...;                   // [vocab] log-probabilities of one row
//     ProcessorContext context{step, history, endToken};
//     chain.apply(context, row);                      // processed and renormalised in place
//     // (the searches use applyLazily(), which returns the normaliser instead of applying it)
//
// What the scores are: the searches pass log-probabilities (the model's log-softmax). Processors
// only change a few entries, and each change is recorded in a ScoreRow so that renormalising
// afterwards (log-softmax again, so that the search and the traces keep true log-probabilities)
// costs O(changes) instead of O(vocab). Because log-softmax is shift-invariant, processing
// log-probabilities and renormalising equals processing logits and normalising (CTranslate2), for
// every processor here except the repetition penalty, whose sign rule is stated on its own.
//
// Processors are stateless: they read the hypothesis's history from the context instead of
// keeping per-row state (llama.cpp's accept()), because beam search reorders and duplicates
// rows at every step and the history is already there.
#pragma once

#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace glosa::engine {

struct DecodingOptions;

struct ProcessorContext
{
    std::int32_t step = 0;                 // index of the token being chosen (0: the first one)
    std::span<const std::int32_t> history; // tokens chosen so far (no start token)
    std::int32_t endToken = -1;
};

// One row of scores [vocab] plus the record of what the processors changed.
class ScoreRow
{
public:
    static constexpr float kBlocked = -std::numeric_limits<float>::infinity();

    // `logProbabilities`: the scores are a log-softmax output (their exponentials sum to 1),
    // which lets renormalize() work from the changes alone.
    explicit ScoreRow(std::span<float> scores, bool logProbabilities = true)
        : m_scores(scores), m_logProbabilities(logProbabilities)
    {
    }

    std::int64_t size() const { return static_cast<std::int64_t>(m_scores.size()); }
    float operator[](std::int32_t token) const { return m_scores[token]; }
    std::span<const float> values() const { return m_scores; }

    // Changes one score, remembering the value it had before the first change.
    void set(std::int32_t token, float value);
    // set(token, -inf); `byNgram` marks it for the traces (NodeFate::BlockedByNgram).
    void block(std::int32_t token, bool byNgram = false);
    // Sets every score except `token` to -inf (a forced token): O(vocab). A token an earlier
    // processor blocked gets its value from before the block back, so that forcing wins
    // (it is also no longer reported as blocked by n-gram).
    void forceOnly(std::int32_t token);

    struct Change
    {
        std::int32_t token;
        float original; // value before the first change
    };
    const std::vector<Change> &changes() const { return m_changes; }
    const std::vector<std::int32_t> &blockedByNgram() const { return m_blockedByNgram; }
    bool changed() const { return !m_changes.empty() || m_rewritten; }

    // log Σ exp(scores): what renormalising subtracts from every score. Works from the changed
    // entries alone (O(changes)) when the row held log-probabilities and keeps at least 1e-3 of
    // its mass; otherwise over the whole row. -inf when every score is -inf.
    float logMass() const;
    // What logMass() gives for a row of log-probabilities whose only changes were blocks (set to
    // -inf) of entries whose probabilities, exp(double(original)) summed in the order of the
    // changes, are `blocked`; nullopt where logMass() would read the whole row instead. Lets a
    // search that only suppresses tokens renormalise without writing the row.
    static std::optional<float> logMassAfterBlocking(double blocked);
    // Log-softmax again after the processors (scores -= logMass()). Returns false when every
    // score is -inf (the row cannot be renormalised; left as is).
    bool renormalize();
    // Forgets the record (the scores stay as they are).
    void clearChanges();

private:
    std::span<float> m_scores;
    std::vector<Change> m_changes;
    std::vector<std::int32_t> m_blockedByNgram;
    // Marks the entries in m_changes (index = token) once there are many of them; a few are
    // found by a linear search, which spares a vocabulary-sized buffer per row and step.
    std::vector<std::uint8_t> m_touched;
    bool m_logProbabilities = true;
    bool m_rewritten = false; // forceOnly() touched the whole row
};

class LogitsProcessor
{
public:
    virtual ~LogitsProcessor();
    virtual std::string name() const = 0; // shown as a trace stage
    virtual void apply(const ProcessorContext &context, ScoreRow &scores) const = 0;
};

// Sets the listed tokens to -inf at every step.
class SuppressTokens final : public LogitsProcessor
{
public:
    explicit SuppressTokens(std::vector<std::int32_t> tokens);
    std::string name() const override { return "suppress-tokens"; }
    void apply(const ProcessorContext &context, ScoreRow &scores) const override;
    const std::vector<std::int32_t> &tokens() const { return m_tokens; }

private:
    std::vector<std::int32_t> m_tokens;
};

// At step i < prefix size, only prefix[i] is allowed, whatever earlier processors did to it.
class ForcedPrefix final : public LogitsProcessor
{
public:
    explicit ForcedPrefix(std::vector<std::int32_t> prefix);
    std::string name() const override { return "forced-prefix"; }
    void apply(const ProcessorContext &context, ScoreRow &scores) const override;

private:
    std::vector<std::int32_t> m_prefix;
};

// EOS is set to -inf while fewer than minLength tokens have been generated.
class MinLength final : public LogitsProcessor
{
public:
    explicit MinLength(int minLength);
    std::string name() const override { return "min-length"; }
    void apply(const ProcessorContext &context, ScoreRow &scores) const override;

private:
    int m_minLength;
};

// Blocks every token that would complete an n-gram of size n already in the history (Paulus et
// al. 2017). With n = 1, no token may occur twice.
class NoRepeatNgram final : public LogitsProcessor
{
public:
    explicit NoRepeatNgram(int n);
    std::string name() const override { return "no-repeat-ngram"; }
    void apply(const ProcessorContext &context, ScoreRow &scores) const override;
    // The tokens apply() would block after `history` (sorted, unique); for tests and traces.
    static std::vector<std::int32_t> bannedTokens(std::span<const std::int32_t> history, int n);

private:
    int m_n;
};

// Keskar et al. 2019 (CTRL), eq. 3: for each distinct token in the history, score / θ when the
// score is > 0, score × θ otherwise. Applied to log-probabilities (all ≤ 0) it multiplies them
// by θ, i.e. p → p^θ before renormalisation.
class RepetitionPenalty final : public LogitsProcessor
{
public:
    explicit RepetitionPenalty(float penalty);
    std::string name() const override { return "repetition-penalty"; }
    void apply(const ProcessorContext &context, ScoreRow &scores) const override;

private:
    float m_penalty;
};

// Subtracts λ from a token's score once for every earlier occurrence of the n-gram it would
// complete (n = 1: once per earlier occurrence of the token itself).
class NgramPenalty final : public LogitsProcessor
{
public:
    NgramPenalty(float penalty, int n);
    std::string name() const override { return "ngram-penalty"; }
    void apply(const ProcessorContext &context, ScoreRow &scores) const override;

private:
    float m_penalty;
    int m_n;
};

// Processors applied in order, then one renormalisation.
class LogitsProcessorChain
{
public:
    LogitsProcessorChain() = default;
    // The processors DecodingOptions asks for: suppress-tokens, min-length, no-repeat-ngram,
    // repetition-penalty, ngram-penalty, then forced-prefix last, so that a forced token wins
    // over every rule that would block it (the prefix is the caller's explicit choice).
    static LogitsProcessorChain fromOptions(const DecodingOptions &options, std::int32_t endToken);

    void add(std::shared_ptr<const LogitsProcessor> processor);
    // When every processor is SuppressTokens (and there is one): the tokens they block, in the
    // order ScoreRow records their changes (first occurrence, no repeats). A greedy search then
    // takes the argmax without them straight from the logits. nullopt otherwise.
    std::optional<std::vector<std::int32_t>> suppressedOnly() const;
    bool empty() const { return m_processors.empty(); }
    const std::vector<std::shared_ptr<const LogitsProcessor>> &processors() const
    {
        return m_processors;
    }

    // Applies every processor to the row and returns the normaliser to subtract from each score
    // read afterwards (0 when nothing changed). The row itself is not shifted: the searches fold
    // the normaliser into their scores, which saves an O(vocab) pass per row and step.
    // `afterEach` is called after each processor with its index and the row (for the traces).
    template <typename Callback>
    float applyLazily(const ProcessorContext &context, ScoreRow &row, Callback &&afterEach) const
    {
        for (std::size_t i = 0; i < m_processors.size(); ++i) {
            m_processors[i]->apply(context, row);
            afterEach(i, row);
        }
        if (!row.changed())
            return 0.0f;
        const float mass = row.logMass();
        return mass == ScoreRow::kBlocked ? 0.0f : mass;
    }
    // Applies every processor and renormalises the row in place when something changed.
    void apply(const ProcessorContext &context, ScoreRow &row) const
    {
        for (const auto &processor : m_processors)
            processor->apply(context, row);
        if (row.changed())
            row.renormalize();
    }
    // Convenience for tests: processes a plain vector in place.
    void apply(const ProcessorContext &context, std::vector<float> &scores) const;

private:
    std::vector<std::shared_ptr<const LogitsProcessor>> m_processors;
};

} // namespace glosa::engine
