#include "engine/decoding/decodingoptions.h"

#include "engine/decoding/stepdecoder.h"
#include "engine/decoding/trace.h"
#include "engine/limits.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace glosa::engine {

// Out-of-line destructors give the interfaces one typeinfo, in the engine library, so that
// dynamic_cast works across the plugins.
DecoderState::~DecoderState() = default;
StepDecoder::~StepDecoder() = default;

bool checkOrigins(const std::vector<std::int32_t> &origins, std::int64_t rows, const char *decoder)
{
    bool identity = static_cast<std::int64_t>(origins.size()) == rows;
    for (std::size_t i = 0; i < origins.size(); ++i) {
        if (origins[i] < 0 || origins[i] >= rows)
            throw std::out_of_range(std::string(decoder) + ": origin " +
                                    std::to_string(origins[i]) + " outside [0, " +
                                    std::to_string(rows) + ")");
        identity = identity && origins[i] == static_cast<std::int32_t>(i);
    }
    return identity;
}

void reorderRows(std::vector<std::int32_t> &values, const std::vector<std::int32_t> &origins)
{
    std::vector<std::int32_t> reordered(origins.size());
    for (std::size_t i = 0; i < origins.size(); ++i)
        reordered[i] = values[origins[i]];
    values = std::move(reordered);
}

const char *nodeFateName(NodeFate fate)
{
    switch (fate) {
    case NodeFate::Kept:
        return "kept";
    case NodeFate::Pruned:
        return "pruned";
    case NodeFate::Finished:
        return "finished";
    case NodeFate::BlockedByNgram:
        return "blocked";
    }
    return "?";
}

namespace {

template <typename Enum, std::size_t N>
Enum fromName(const std::string &name, const char *what, const Enum (&values)[N],
              const char *(*toName)(Enum))
{
    std::string accepted;
    for (Enum value : values) {
        if (name == toName(value))
            return value;
        accepted += accepted.empty() ? "" : ", ";
        accepted += toName(value);
    }
    throw std::invalid_argument("unknown " + std::string(what) + " '" + name +
                                "' (expected one of " + accepted + ")");
}

void fail(const std::string &field, const std::string &value, const std::string &rule)
{
    throw std::invalid_argument("decoding option " + field + " = " + value + ": " + rule);
}

std::string str(double value)
{
    std::string s = std::to_string(value);
    s.erase(s.find_last_not_of('0') + 1);
    if (!s.empty() && s.back() == '.')
        s.pop_back();
    return s;
}

} // namespace

const char *searchStrategyName(SearchStrategy strategy)
{
    switch (strategy) {
    case SearchStrategy::Greedy:
        return "greedy";
    case SearchStrategy::Beam:
        return "beam";
    case SearchStrategy::Sample:
        return "sample";
    }
    return "?";
}

const char *lengthNormalizationName(LengthNormalization normalization)
{
    switch (normalization) {
    case LengthNormalization::None:
        return "none";
    case LengthNormalization::Gnmt:
        return "gnmt";
    case LengthNormalization::Average:
        return "average";
    }
    return "?";
}

const char *earlyStoppingName(EarlyStopping stopping)
{
    switch (stopping) {
    case EarlyStopping::Heuristic:
        return "heuristic";
    case EarlyStopping::Bounded:
        return "bounded";
    case EarlyStopping::Eager:
        return "eager";
    }
    return "?";
}

SearchStrategy searchStrategyFromName(const std::string &name)
{
    static const SearchStrategy values[] = {SearchStrategy::Greedy, SearchStrategy::Beam,
                                            SearchStrategy::Sample};
    return fromName(name, "strategy", values, searchStrategyName);
}

LengthNormalization lengthNormalizationFromName(const std::string &name)
{
    static const LengthNormalization values[] = {
        LengthNormalization::None, LengthNormalization::Gnmt, LengthNormalization::Average};
    return fromName(name, "length normalization", values, lengthNormalizationName);
}

EarlyStopping earlyStoppingFromName(const std::string &name)
{
    static const EarlyStopping values[] = {EarlyStopping::Heuristic, EarlyStopping::Bounded,
                                           EarlyStopping::Eager};
    return fromName(name, "early stopping", values, earlyStoppingName);
}

void DecodingOptions::validate(std::int64_t vocabularySize) const
{
    // Upper bounds first: a beam of a million, or a million tokens of output, would allocate
    // gigabytes before any other check could matter (docs/robustness.md).
    const std::pair<const char *, std::pair<int, int>> bounded[] = {
        {"beamSize", {beamSize, limits::kMaxBeamSize}},
        {"nBest", {nBest, limits::kMaxBeamSize}},
        {"maxLength", {maxLength, limits::kMaxDecodeLength}},
        {"topK", {topK, limits::kMaxTopK}},
        {"noRepeatNgramSize", {noRepeatNgramSize, limits::kMaxNgramSize}},
        {"ngramPenaltySize", {ngramPenaltySize, limits::kMaxNgramSize}},
        {"traceTopN", {traceTopN, limits::kMaxBeamSize}}};
    for (const auto &[field, valueAndLimit] : bounded)
        if (valueAndLimit.first > valueAndLimit.second)
            fail(field, std::to_string(valueAndLimit.first),
                 "is more than the limit of " + std::to_string(valueAndLimit.second));
    if (beamSize < 1)
        fail("beamSize", std::to_string(beamSize), "must be at least 1");
    if (nBest < 1)
        fail("nBest", std::to_string(nBest), "must be at least 1");
    if (strategy == SearchStrategy::Greedy && nBest != 1)
        fail("nBest", std::to_string(nBest),
             "greedy search gives one hypothesis; use beam search or sampling for n-best");
    if (strategy == SearchStrategy::Beam && nBest > beamSize)
        fail("nBest", std::to_string(nBest),
             "must not exceed beamSize (" + std::to_string(beamSize) + ")");
    if (!std::isfinite(lengthPenalty) || lengthPenalty < 0)
        fail("lengthPenalty", str(lengthPenalty), "must be finite and >= 0");
    if (!std::isfinite(coveragePenalty) || coveragePenalty < 0)
        fail("coveragePenalty", str(coveragePenalty), "must be finite and >= 0");
    if (maxLength < 1)
        fail("maxLength", std::to_string(maxLength), "must be at least 1");
    if (!std::isfinite(maxLengthRatio) || maxLengthRatio < 0)
        fail("maxLengthRatio", str(maxLengthRatio), "must be finite and >= 0 (0 disables it)");
    if (minLength < 0)
        fail("minLength", std::to_string(minLength), "must be >= 0");
    if (minLength >= maxLength)
        fail("minLength", std::to_string(minLength),
             "must be below maxLength (" + std::to_string(maxLength) + ")");
    if (noRepeatNgramSize < 0)
        fail("noRepeatNgramSize", std::to_string(noRepeatNgramSize),
             "must be >= 0 (0 disables it)");
    if (!std::isfinite(repetitionPenalty) || repetitionPenalty <= 0)
        fail("repetitionPenalty", str(repetitionPenalty), "must be finite and > 0 (1 disables it)");
    if (!std::isfinite(ngramPenalty) || ngramPenalty < 0)
        fail("ngramPenalty", str(ngramPenalty), "must be finite and >= 0 (0 disables it)");
    if (ngramPenaltySize < 1)
        fail("ngramPenaltySize", std::to_string(ngramPenaltySize), "must be at least 1");
    if (!std::isfinite(temperature) || temperature <= 0)
        fail("temperature", str(temperature), "must be finite and > 0 (1 disables it)");
    if (topK < 0)
        fail("topK", std::to_string(topK), "must be >= 0 (0 disables it)");
    if (!(topP > 0 && topP <= 1))
        fail("topP", str(topP), "must be in (0, 1] (1 disables it)");
    if (traceTopN < 1)
        fail("traceTopN", std::to_string(traceTopN), "must be at least 1");
    if (static_cast<int>(targetPrefix.size()) > maxLength)
        fail("targetPrefix", std::to_string(targetPrefix.size()) + " tokens",
             "longer than maxLength (" + std::to_string(maxLength) + ")");
    if (vocabularySize > 0) {
        auto checkIds = [&](const std::vector<std::int32_t> &ids, const char *field) {
            for (std::int32_t id : ids)
                if (id < 0 || id >= vocabularySize)
                    fail(field, "[.., " + std::to_string(id) + ", ..]",
                         "token id outside the vocabulary [0, " + std::to_string(vocabularySize) +
                             ")");
        };
        checkIds(suppressTokens, "suppressTokens");
        checkIds(targetPrefix, "targetPrefix");
    }
}

int DecodingOptions::maxLengthFor(std::int64_t sourceLength) const
{
    int length = maxLength;
    if (maxLengthRatio > 0) {
        const double byRatio = std::ceil(static_cast<double>(maxLengthRatio) * sourceLength);
        length = static_cast<int>(std::min<double>(length, byRatio));
    }
    length = std::max(length, static_cast<int>(targetPrefix.size()));
    return std::max(length, minLength + 1);
}

} // namespace glosa::engine
