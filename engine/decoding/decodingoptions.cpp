#include "engine/decoding/decodingoptions.h"

#include "engine/decoding/trace.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace glosa::engine {

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
    case LengthNormalization::Power:
        return "power";
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
    case EarlyStopping::Beam:
        return "beam";
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
        LengthNormalization::None, LengthNormalization::Gnmt, LengthNormalization::Average,
        LengthNormalization::Power};
    return fromName(name, "length normalization", values, lengthNormalizationName);
}

EarlyStopping earlyStoppingFromName(const std::string &name)
{
    static const EarlyStopping values[] = {EarlyStopping::Heuristic, EarlyStopping::Bounded,
                                           EarlyStopping::Eager, EarlyStopping::Beam};
    return fromName(name, "early stopping", values, earlyStoppingName);
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
