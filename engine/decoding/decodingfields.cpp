#include "engine/decoding/decodingfields.h"

#include "engine/limits.h"

#include <nlohmann/json.hpp>

#include <cctype>
#include <charconv>
#include <cmath>
#include <limits>
#include <optional>
#include <stdexcept>
#include <type_traits>

namespace glosa::engine {

namespace {

using nlohmann::json;
using O = DecodingOptions;
constexpr double kUnbounded = std::numeric_limits<double>::infinity();

constexpr std::uint8_t kBeam = strategyBit(SearchStrategy::Beam);
constexpr std::uint8_t kSample = strategyBit(SearchStrategy::Sample);

const DecodingField kFields[] = {
    // --- Search
    {.name = "strategy", .member = &O::strategy},
    {.name = "beam_size",
     .member = &O::beamSize,
     .min = 1,
     .max = limits::kMaxBeamSize,
     .strategies = kBeam},
    // Greedy search gives one hypothesis.
    {.name = "n_best",
     .member = &O::nBest,
     .min = 1,
     .max = limits::kMaxBeamSize,
     .strategies = kBeam | kSample},
    {.name = "length_normalization", .member = &O::lengthNormalization},
    {.name = "length_penalty", .member = &O::lengthPenalty, .max = kUnbounded, .off = 0},
    {.name = "coverage_penalty", .member = &O::coveragePenalty, .max = kUnbounded, .off = 0},
    {.name = "early_stopping", .member = &O::earlyStopping, .strategies = kBeam},
    {.name = "max_length", .member = &O::maxLength, .min = 1, .max = limits::kMaxDecodeLength},
    {.name = "max_length_ratio", .member = &O::maxLengthRatio, .max = kUnbounded, .off = 0},
    {.name = "min_length", .member = &O::minLength, .max = limits::kMaxDecodeLength, .off = 0},
    // --- Logits processors
    {.name = "suppress_tokens", .member = &O::suppressTokens},
    {.name = "target_prefix", .member = &O::targetPrefix},
    {.name = "target_prefix_sentence",
     .member = &O::targetPrefixSentence,
     .min = -1,
     .max = limits::kMaxSentenceIndex},
    {.name = "keep_terms", .member = &O::keepTerms},
    {.name = "truecase", .member = &O::truecase},
    {.name = "no_repeat_ngram_size",
     .member = &O::noRepeatNgramSize,
     .max = limits::kMaxNgramSize,
     .formerName = "no_repeat_ngram",
     .off = 0},
    {.name = "repetition_penalty",
     .member = &O::repetitionPenalty,
     .max = kUnbounded,
     .minExclusive = true,
     .off = 1},
    {.name = "ngram_penalty", .member = &O::ngramPenalty, .max = kUnbounded, .off = 0},
    {.name = "ngram_penalty_size",
     .member = &O::ngramPenaltySize,
     .min = 1,
     .max = limits::kMaxNgramSize},
    // --- Sampling
    {.name = "temperature",
     .member = &O::temperature,
     .max = kUnbounded,
     .minExclusive = true,
     .off = 1,
     .strategies = kSample},
    {.name = "top_k", .member = &O::topK, .max = limits::kMaxTopK, .off = 0, .strategies = kSample},
    {.name = "top_p",
     .member = &O::topP,
     .max = 1,
     .minExclusive = true,
     .off = 1,
     .strategies = kSample},
    {.name = "min_p", .member = &O::minP, .max = 1, .off = 0, .strategies = kSample},
    {.name = "seed", .member = &O::seed, .strategies = kSample},
    // --- Traces
    {.name = "trace", .member = &O::trace},
    {.name = "trace_top_n", .member = &O::traceTopN, .min = 1, .max = limits::kMaxBeamSize},
};

std::string dashed(std::string name)
{
    for (char &c : name)
        if (c == '_')
            c = '-';
    return name;
}

// 0.6f as "0.6", not 0.6000000238418579: the shortest decimal that reads back as the same number
// of its type. to_chars and from_chars, unlike printf and strtof, ignore the locale (Qt sets
// LC_NUMERIC from the environment, and a Spanish one writes "0,6").
template <typename T> std::string numberText(T value)
{
    char buffer[32];
    const auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
    return std::string(buffer, result.ptr);
}

double tidy(float value)
{
    const std::string text = numberText(value);
    double shortest = 0;
    std::from_chars(text.data(), text.data() + text.size(), shortest);
    return shortest;
}

// The enum fields' names, both ways, through the functions decodingoptions.h already has.
const char *enumName(SearchStrategy v)
{
    return searchStrategyName(v);
}
const char *enumName(LengthNormalization v)
{
    return lengthNormalizationName(v);
}
const char *enumName(EarlyStopping v)
{
    return earlyStoppingName(v);
}
void enumFromName(const std::string &name, SearchStrategy &v)
{
    v = searchStrategyFromName(name);
}
void enumFromName(const std::string &name, LengthNormalization &v)
{
    v = lengthNormalizationFromName(name);
}
void enumFromName(const std::string &name, EarlyStopping &v)
{
    v = earlyStoppingFromName(name);
}

template <typename T> constexpr bool isEnum = std::is_enum_v<T>;

// "greedy, beam or sample": every name of an enum, whose values count up from 0.
template <typename T> std::string choices()
{
    std::vector<std::string> names;
    for (int v = 0; std::string(enumName(static_cast<T>(v))) != "?"; ++v)
        names.emplace_back(enumName(static_cast<T>(v)));
    std::string text;
    for (std::size_t i = 0; i < names.size(); ++i)
        text += (i == 0 ? "" : i + 1 == names.size() ? " or " : ", ") + names[i];
    return text;
}
template <typename T> constexpr bool isIds = std::is_same_v<T, std::vector<std::int32_t>>;
template <typename T> constexpr bool isTerms = std::is_same_v<T, std::vector<std::string>>;

// The member's type, for messages.
template <typename T> const char *kindName()
{
    if constexpr (std::is_same_v<T, bool>)
        return "true or false";
    else if constexpr (std::is_same_v<T, float>)
        return "a number";
    else if constexpr (std::is_same_v<T, std::uint64_t>)
        return "a non-negative integer";
    else if constexpr (std::is_integral_v<T>)
        return "an integer";
    else if constexpr (isEnum<T>)
        return "a name";
    else if constexpr (isTerms<T>)
        return "an array of strings";
    else
        return "an array of token ids";
}

[[noreturn]] void wrongType(const DecodingField &field, const std::string &value, const char *kind)
{
    throw std::invalid_argument("\"decoding." + std::string(field.name) + "\" is " + value +
                                ", expected " + kind);
}

template <typename T> bool parseNumber(std::string_view text, T &value, bool *tooLarge = nullptr)
{
    const char *end = text.data() + text.size();
    const auto [ptr, error] = std::from_chars(text.data(), end, value);
    if (tooLarge)
        *tooLarge = error == std::errc::result_out_of_range && ptr == end;
    return error == std::errc() && ptr == end;
}

void fail(const std::string &field, const std::string &value, const std::string &rule)
{
    throw std::invalid_argument("decoding option " + field + " = " + value + ": " + rule);
}

} // namespace

std::string DecodingField::optionName() const
{
    return dashed(name);
}

std::string DecodingField::formerOptionName() const
{
    return formerName ? dashed(formerName) : std::string();
}

bool DecodingField::isOff(const DecodingOptions &options) const
{
    return std::visit(
        [&](auto member) {
            using T = std::remove_cvref_t<decltype(options.*member)>;
            if constexpr (std::is_arithmetic_v<T>)
                return static_cast<double>(options.*member) == off;
            else
                return false;
        },
        member);
}

std::span<const DecodingField> decodingFields()
{
    return kFields;
}

const DecodingField *findDecodingField(std::string_view name)
{
    std::string snake(name);
    for (char &c : snake)
        if (c == '-')
            c = '_';
    for (const DecodingField &field : kFields)
        if (snake == field.name || (field.formerName && snake == field.formerName))
            return &field;
    return nullptr;
}

json decodingFieldToJson(const DecodingOptions &options, const DecodingField &field)
{
    return std::visit(
        [&](auto member) -> json {
            using T = std::remove_cvref_t<decltype(options.*member)>;
            const T &value = options.*member;
            if constexpr (std::is_same_v<T, float>)
                return tidy(value);
            else if constexpr (isEnum<T>)
                return enumName(value);
            else
                return value;
        },
        field.member);
}

void decodingFieldFromJson(DecodingOptions &options, const DecodingField &field, const json &value)
{
    std::visit(
        [&](auto member) {
            using T = std::remove_cvref_t<decltype(options.*member)>;
            T &target = options.*member;
            if constexpr (std::is_same_v<T, bool>) {
                if (!value.is_boolean())
                    wrongType(field, value.dump(), kindName<T>());
                target = value.get<bool>();
            } else if constexpr (std::is_same_v<T, float>) {
                if (!value.is_number())
                    wrongType(field, value.dump(), kindName<T>());
                target = value.get<float>();
            } else if constexpr (std::is_same_v<T, std::uint64_t>) {
                if (!value.is_number_unsigned())
                    wrongType(field, value.dump(), kindName<T>());
                target = value.get<std::uint64_t>();
            } else if constexpr (std::is_integral_v<T>) {
                if (!value.is_number_integer() ||
                    value.get<std::int64_t>() < std::numeric_limits<T>::min() ||
                    value.get<std::int64_t>() > std::numeric_limits<T>::max())
                    wrongType(field, value.dump(), kindName<T>());
                target = value.get<T>();
            } else if constexpr (isEnum<T>) {
                if (!value.is_string())
                    wrongType(field, value.dump(), kindName<T>());
                enumFromName(value.get<std::string>(), target);
            } else if constexpr (isTerms<T>) {
                T terms;
                if (value.is_array())
                    for (const json &term : value)
                        if (term.is_string())
                            terms.push_back(term.get<std::string>());
                if (!value.is_array() || terms.size() != value.size())
                    wrongType(field, value.dump(), kindName<T>());
                target = std::move(terms);
            } else {
                static_assert(isIds<T>);
                T ids;
                if (value.is_array())
                    for (const json &id : value)
                        if (id.is_number_integer() && id.get<std::int64_t>() >= 0 &&
                            id.get<std::int64_t>() <= std::numeric_limits<std::int32_t>::max())
                            ids.push_back(id.get<std::int32_t>());
                if (!value.is_array() || ids.size() != value.size())
                    wrongType(field, value.dump(), kindName<T>());
                target = std::move(ids);
            }
        },
        field.member);
}

std::string decodingFieldToText(const DecodingOptions &options, const DecodingField &field)
{
    return std::visit(
        [&](auto member) -> std::string {
            using T = std::remove_cvref_t<decltype(options.*member)>;
            const T &value = options.*member;
            if constexpr (std::is_same_v<T, bool>)
                return value ? "true" : "false";
            else if constexpr (std::is_same_v<T, float>)
                return numberText(value);
            else if constexpr (std::is_integral_v<T>)
                return std::to_string(value);
            else if constexpr (isEnum<T>)
                return enumName(value);
            else if constexpr (isTerms<T>) {
                std::string text;
                for (const std::string &term : value)
                    text += (text.empty() ? "" : "\n") + term;
                return text;
            } else {
                std::string text;
                for (std::int32_t id : value) {
                    if (!text.empty())
                        text += ',';
                    text += std::to_string(id);
                }
                return text;
            }
        },
        field.member);
}

namespace {

// Terms one a line, trimmed; blank lines are not terms.
template <typename T> T termsFromLines(std::string_view text)
{
    T terms;
    std::size_t start = 0;
    while (start <= text.size()) {
        std::size_t end = text.find('\n', start);
        if (end == std::string_view::npos)
            end = text.size();
        std::string_view term = text.substr(start, end - start);
        while (!term.empty() && std::isspace(static_cast<unsigned char>(term.front())))
            term.remove_prefix(1);
        while (!term.empty() && std::isspace(static_cast<unsigned char>(term.back())))
            term.remove_suffix(1);
        if (!term.empty())
            terms.emplace_back(term);
        start = end + 1;
    }
    return terms;
}

// Token ids separated by commas; nullopt where one is not a number of 0 or more.
template <typename T> std::optional<T> idsFromText(std::string_view text)
{
    T ids;
    std::size_t start = 0;
    while (start < text.size()) {
        std::size_t comma = text.find(',', start);
        if (comma == std::string_view::npos)
            comma = text.size();
        std::int32_t id = 0;
        if (!parseNumber(text.substr(start, comma - start), id) || id < 0)
            return std::nullopt;
        ids.push_back(id);
        start = comma + 1;
    }
    return ids;
}

} // namespace

void decodingFieldFromText(DecodingOptions &options, const DecodingField &field,
                           std::string_view text)
{
    // Appended piece by piece: GCC 12 warns (-Wrestrict, a false positive) on "'" + string.
    std::string quoted(1, '\'');
    quoted.append(text).push_back('\'');
    // The message leaves the field's name to the caller, which knows how the user spelled it
    // ("--beam-size 'x' is not an integer").
    auto notA = [&](const std::string &kind) {
        throw std::invalid_argument(quoted + " is not " + kind);
    };
    std::visit(
        [&](auto member) {
            using T = std::remove_cvref_t<decltype(options.*member)>;
            T &target = options.*member;
            if constexpr (std::is_same_v<T, bool>) {
                if (text == "true" || text == "1")
                    target = true;
                else if (text == "false" || text == "0")
                    target = false;
                else
                    notA(kindName<T>());
            } else if constexpr (std::is_same_v<T, float>) {
                T value{};
                bool outOfRange = false;
                if (!parseNumber(text, value, &outOfRange) || !std::isfinite(value)) {
                    // "1e308" is a number, just not one a float holds: say so.
                    if (outOfRange)
                        throw std::invalid_argument(
                            quoted + " is out of range (a number here is at most about 3.4e38 "
                                     "in size)");
                    notA(kindName<T>());
                }
                target = value;
            } else if constexpr (std::is_integral_v<T>) {
                T value{};
                bool outOfRange = false;
                if (!parseNumber(text, value, &outOfRange)) {
                    if (outOfRange)
                        throw std::invalid_argument(
                            quoted + " is " + (text.front() == '-' ? "too small" : "too large") +
                            " (the limits are " + std::to_string(std::numeric_limits<T>::min()) +
                            " and " + std::to_string(std::numeric_limits<T>::max()) + ")");
                    notA(kindName<T>());
                }
                target = value;
            } else if constexpr (isEnum<T>) {
                try {
                    enumFromName(std::string(text), target);
                } catch (const std::invalid_argument &) {
                    notA(choices<T>());
                }
            } else if constexpr (isTerms<T>) {
                target = termsFromLines<T>(text);
            } else {
                std::optional<T> ids = idsFromText<T>(text);
                if (!ids)
                    notA(kindName<T>());
                target = std::move(*ids);
            }
        },
        field.member);
}

DecodingOptions decodingOptionsFromJson(const json &decoding, const DecodingOptions &base)
{
    DecodingOptions o = base;
    if (decoding.is_null())
        return o;
    if (!decoding.is_object())
        throw std::invalid_argument("\"decoding\" is " + decoding.dump() + ", expected an object");
    for (const DecodingField &field : kFields) {
        auto it = decoding.find(field.name);
        if (it == decoding.end() && field.formerName)
            it = decoding.find(field.formerName);
        if (it != decoding.end())
            decodingFieldFromJson(o, field, *it);
    }
    o.validate();
    return o;
}

json decodingOptionsToJson(const DecodingOptions &o)
{
    json j = json::object();
    for (const DecodingField &field : kFields)
        j[field.name] = decodingFieldToJson(o, field);
    return j;
}

void validateDecodingField(const DecodingOptions &options, const DecodingField &field)
{
    std::visit(
        [&](auto member) {
            using T = std::remove_cvref_t<decltype(options.*member)>;
            if constexpr (std::is_same_v<T, float> ||
                          (std::is_integral_v<T> && !std::is_same_v<T, bool> &&
                           !std::is_same_v<T, std::uint64_t>)) {
                const double value = static_cast<double>(options.*member);
                const bool low = field.minExclusive ? !(value > field.min) : value < field.min;
                if (!std::isfinite(value) || low || value > field.max) {
                    std::string rule;
                    if (std::is_same_v<T, float> && field.max != kUnbounded)
                        rule = "must be in " + std::string(field.minExclusive ? "(" : "[") +
                               numberText(field.min) + ", " + numberText(field.max) + "]";
                    else if (std::is_same_v<T, float>)
                        rule = "must be finite and " +
                               std::string(field.minExclusive ? "> " : ">= ") +
                               numberText(field.min);
                    else if (low)
                        rule = "must be at least " + numberText(field.min);
                    else
                        rule = "is more than the limit of " + numberText(field.max);
                    fail(field.name, decodingFieldToText(options, field), rule);
                }
            }
        },
        field.member);
}

void DecodingOptions::validate(std::int64_t vocabularySize) const
{
    // Every number against its row's range, upper bounds included: a beam of a million, or a
    // million tokens of output, would allocate gigabytes before any other check could matter
    // (docs/robustness.md).
    for (const DecodingField &field : kFields)
        validateDecodingField(*this, field);
    // Rules between fields.
    if (strategy == SearchStrategy::Greedy && nBest != 1)
        fail("n_best", std::to_string(nBest),
             "greedy search gives one hypothesis; use beam search or sampling for n-best");
    if (strategy == SearchStrategy::Beam && nBest > beamSize)
        fail("n_best", std::to_string(nBest),
             "must not exceed beam_size (" + std::to_string(beamSize) + ")");
    if (minLength >= maxLength)
        fail("min_length", std::to_string(minLength),
             "must be below max_length (" + std::to_string(maxLength) + ")");
    if (static_cast<int>(targetPrefix.size()) > maxLength)
        fail("target_prefix", std::to_string(targetPrefix.size()) + " tokens",
             "longer than max_length (" + std::to_string(maxLength) + ")");
    if (keepTerms.size() > limits::kMaxKeptTerms)
        fail("keep_terms", std::to_string(keepTerms.size()) + " terms",
             "more than the limit of " + std::to_string(limits::kMaxKeptTerms));
    for (const std::string &term : keepTerms)
        if (term.empty() || term.size() > limits::kMaxKeptTermBytes)
            fail("keep_terms", "'" + term.substr(0, 40) + "'",
                 "a term must have 1 to " + std::to_string(limits::kMaxKeptTermBytes) + " bytes");
    if (vocabularySize > 0) {
        auto checkIds = [&](const std::vector<std::int32_t> &ids, const char *field) {
            for (std::int32_t id : ids)
                if (id < 0 || id >= vocabularySize)
                    fail(field, "[.., " + std::to_string(id) + ", ..]",
                         "token id outside the vocabulary [0, " + std::to_string(vocabularySize) +
                             ")");
        };
        checkIds(suppressTokens, "suppress_tokens");
        checkIds(targetPrefix, "target_prefix");
    }
}

} // namespace glosa::engine
