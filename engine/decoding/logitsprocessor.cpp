#include "engine/decoding/logitsprocessor.h"

#include "engine/decoding/decodingoptions.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace glosa::engine {

LogitsProcessor::~LogitsProcessor() = default;

void ScoreRow::set(std::int32_t token, float value)
{
    if (token < 0 || token >= size())
        throw std::out_of_range("ScoreRow: token " + std::to_string(token) +
                                " outside the vocabulary [0, " + std::to_string(size()) + ")");
    constexpr std::size_t kLinearLimit = 32;
    bool seen = false;
    if (!m_touched.empty()) {
        seen = m_touched[token] != 0;
    } else {
        for (const Change &change : m_changes)
            if (change.token == token) {
                seen = true;
                break;
            }
        if (!seen && m_changes.size() >= kLinearLimit) {
            m_touched.assign(static_cast<std::size_t>(size()), 0);
            for (const Change &change : m_changes)
                m_touched[change.token] = 1;
        }
    }
    if (!seen) {
        if (!m_touched.empty())
            m_touched[token] = 1;
        m_changes.push_back({token, m_scores[token]});
    }
    m_scores[token] = value;
}

void ScoreRow::block(std::int32_t token, bool byNgram)
{
    if (byNgram && token >= 0 && token < size() && m_scores[token] != kBlocked)
        m_blockedByNgram.push_back(token);
    set(token, kBlocked);
}

void ScoreRow::forceOnly(std::int32_t token)
{
    if (token < 0 || token >= size())
        throw std::out_of_range("ScoreRow: forced token " + std::to_string(token) +
                                " outside the vocabulary [0, " + std::to_string(size()) + ")");
    float kept = m_scores[token];
    if (kept == kBlocked) {
        for (const Change &change : m_changes)
            if (change.token == token)
                kept = change.original;
        // Renormalising makes a forced token's log-probability 0 whatever its value; it only
        // has to be finite. The model itself may have given -inf.
        if (kept == kBlocked)
            kept = 0.0f;
        std::erase(m_blockedByNgram, token);
    }
    std::fill(m_scores.begin(), m_scores.end(), kBlocked);
    m_scores[token] = kept;
    m_rewritten = true;
}

namespace {

// The row summed to 1 before the processors: only the changed entries moved mass, `before` out
// and `after` in. nullopt when too little of it is left to trust the difference.
std::optional<float> logMassFromChanges(double before, double after)
{
    const double mass = 1.0 - before + after;
    if (mass >= 1e-3 && (1.0 - before) >= 1e-3)
        return static_cast<float>(std::log(mass));
    return std::nullopt;
}

} // namespace

std::optional<float> ScoreRow::logMassAfterBlocking(double blocked)
{
    // logMass() adds exp(-inf) = 0 to `after` for each block: 0 exactly.
    return logMassFromChanges(blocked, 0.0);
}

float ScoreRow::logMass() const
{
    if (!m_rewritten && m_logProbabilities) {
        double before = 0.0, after = 0.0;
        for (const Change &change : m_changes) {
            before += std::exp(static_cast<double>(change.original));
            after += std::exp(static_cast<double>(m_scores[change.token]));
        }
        if (const std::optional<float> mass = logMassFromChanges(before, after))
            return *mass;
    }
    float maximum = kBlocked;
    for (float value : m_scores)
        maximum = std::max(maximum, value);
    if (maximum == kBlocked)
        return kBlocked;
    double sum = 0.0;
    for (float value : m_scores)
        sum += std::exp(static_cast<double>(value - maximum));
    return maximum + static_cast<float>(std::log(sum));
}

bool ScoreRow::renormalize()
{
    const float shift = logMass();
    if (shift == kBlocked)
        return false;
    if (shift != 0.0f)
        for (float &value : m_scores)
            value -= shift;
    return true;
}

void ScoreRow::clearChanges()
{
    m_touched.clear();
    m_changes.clear();
    m_blockedByNgram.clear();
    m_rewritten = false;
}

namespace {

void checkIds(const std::vector<std::int32_t> &ids, const char *what)
{
    for (std::int32_t id : ids)
        if (id < 0)
            throw std::invalid_argument(std::string(what) + ": negative token id " +
                                        std::to_string(id));
}

// Calls visit(next) for every earlier occurrence of the (n-1)-token suffix of `history`: `next`
// is the token that followed it, the one that would complete a repeated n-gram.
template <typename Visit>
void forEachNgramContinuation(std::span<const std::int32_t> history, int n, Visit &&visit)
{
    const std::size_t length = history.size();
    const std::size_t context = static_cast<std::size_t>(n) - 1;
    if (length < context + 1 && context > 0)
        return;
    if (context == 0) {
        for (std::int32_t token : history)
            visit(token);
        return;
    }
    const std::span<const std::int32_t> suffix = history.subspan(length - context);
    // Start positions i such that history[i, i + context) precedes a token inside the history.
    for (std::size_t i = 0; i + context < length; ++i) {
        if (std::equal(suffix.begin(), suffix.end(), history.begin() + i))
            visit(history[i + context]);
    }
}

} // namespace

SuppressTokens::SuppressTokens(std::vector<std::int32_t> tokens) : m_tokens(std::move(tokens))
{
    checkIds(m_tokens, "SuppressTokens");
}

void SuppressTokens::apply(const ProcessorContext &, ScoreRow &scores) const
{
    for (std::int32_t token : m_tokens)
        scores.block(token);
}

ForcedPrefix::ForcedPrefix(std::vector<std::int32_t> prefix) : m_prefix(std::move(prefix))
{
    checkIds(m_prefix, "ForcedPrefix");
}

void ForcedPrefix::apply(const ProcessorContext &context, ScoreRow &scores) const
{
    if (context.step >= 0 && static_cast<std::size_t>(context.step) < m_prefix.size())
        scores.forceOnly(m_prefix[context.step]);
}

MinLength::MinLength(int minLength) : m_minLength(minLength)
{
    if (minLength < 0)
        throw std::invalid_argument("MinLength: minimum length " + std::to_string(minLength) +
                                    " is negative");
}

void MinLength::apply(const ProcessorContext &context, ScoreRow &scores) const
{
    if (context.endToken >= 0 && static_cast<int>(context.history.size()) < m_minLength)
        scores.block(context.endToken);
}

NoRepeatNgram::NoRepeatNgram(int n) : m_n(n)
{
    if (n < 1)
        throw std::invalid_argument("NoRepeatNgram: n-gram size " + std::to_string(n) +
                                    " must be at least 1");
}

void NoRepeatNgram::apply(const ProcessorContext &context, ScoreRow &scores) const
{
    forEachNgramContinuation(context.history, m_n,
                             [&](std::int32_t token) { scores.block(token, true); });
}

std::vector<std::int32_t> NoRepeatNgram::bannedTokens(std::span<const std::int32_t> history, int n)
{
    if (n < 1)
        throw std::invalid_argument("NoRepeatNgram: n-gram size " + std::to_string(n) +
                                    " must be at least 1");
    std::vector<std::int32_t> banned;
    forEachNgramContinuation(history, n, [&](std::int32_t token) { banned.push_back(token); });
    std::sort(banned.begin(), banned.end());
    banned.erase(std::unique(banned.begin(), banned.end()), banned.end());
    return banned;
}

RepetitionPenalty::RepetitionPenalty(float penalty) : m_penalty(penalty)
{
    if (!std::isfinite(penalty) || penalty <= 0)
        throw std::invalid_argument("RepetitionPenalty: penalty " + std::to_string(penalty) +
                                    " must be finite and > 0");
}

void RepetitionPenalty::apply(const ProcessorContext &context, ScoreRow &scores) const
{
    // Once per distinct token: the history is short, a sorted copy is cheaper than a vocab mask.
    std::vector<std::int32_t> seen(context.history.begin(), context.history.end());
    std::sort(seen.begin(), seen.end());
    seen.erase(std::unique(seen.begin(), seen.end()), seen.end());
    for (std::int32_t token : seen) {
        const float score = scores[token];
        if (score == ScoreRow::kBlocked)
            continue;
        scores.set(token, score > 0 ? score / m_penalty : score * m_penalty);
    }
}

NgramPenalty::NgramPenalty(float penalty, int n) : m_penalty(penalty), m_n(n)
{
    if (!std::isfinite(penalty) || penalty < 0)
        throw std::invalid_argument("NgramPenalty: penalty " + std::to_string(penalty) +
                                    " must be finite and >= 0");
    if (n < 1)
        throw std::invalid_argument("NgramPenalty: n-gram size " + std::to_string(n) +
                                    " must be at least 1");
}

void NgramPenalty::apply(const ProcessorContext &context, ScoreRow &scores) const
{
    forEachNgramContinuation(context.history, m_n, [&](std::int32_t token) {
        const float score = scores[token];
        if (score != ScoreRow::kBlocked)
            scores.set(token, score - m_penalty);
    });
}

LogitsProcessorChain LogitsProcessorChain::fromOptions(const DecodingOptions &options,
                                                       std::int32_t endToken)
{
    LogitsProcessorChain chain;
    if (!options.suppressTokens.empty())
        chain.add(std::make_shared<SuppressTokens>(options.suppressTokens));
    if (options.minLength > 0 && endToken >= 0)
        chain.add(std::make_shared<MinLength>(options.minLength));
    if (options.noRepeatNgramSize > 0)
        chain.add(std::make_shared<NoRepeatNgram>(options.noRepeatNgramSize));
    if (options.repetitionPenalty != 1.0f)
        chain.add(std::make_shared<RepetitionPenalty>(options.repetitionPenalty));
    if (options.ngramPenalty > 0)
        chain.add(std::make_shared<NgramPenalty>(options.ngramPenalty, options.ngramPenaltySize));
    // Last: forcing overrides whatever the rules above blocked.
    if (!options.targetPrefix.empty())
        chain.add(std::make_shared<ForcedPrefix>(options.targetPrefix));
    return chain;
}

void LogitsProcessorChain::add(std::shared_ptr<const LogitsProcessor> processor)
{
    if (!processor)
        throw std::invalid_argument("LogitsProcessorChain::add: null processor");
    m_processors.push_back(std::move(processor));
}

std::optional<std::vector<std::int32_t>> LogitsProcessorChain::suppressedOnly() const
{
    if (m_processors.empty())
        return std::nullopt;
    std::vector<std::int32_t> tokens;
    for (const auto &processor : m_processors) {
        const auto *suppress = dynamic_cast<const SuppressTokens *>(processor.get());
        if (!suppress)
            return std::nullopt;
        for (std::int32_t token : suppress->tokens())
            if (std::find(tokens.begin(), tokens.end(), token) == tokens.end())
                tokens.push_back(token);
    }
    return tokens;
}

void LogitsProcessorChain::apply(const ProcessorContext &context, std::vector<float> &scores) const
{
    ScoreRow row(scores);
    apply(context, row);
}

} // namespace glosa::engine
