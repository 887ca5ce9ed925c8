#include "engine/decoding/decodingfields.h"

#include "engine/limits.h"

#include <nlohmann/json.hpp>

#include <charconv>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <type_traits>

namespace glosa::engine {

namespace {

using nlohmann::json;
using O = DecodingOptions;
constexpr double kUnbounded = std::numeric_limits<double>::infinity();

// clang-format off
const DecodingField kFields[] = {
    // --- Search
    {"strategy", &O::strategy, 0, 0, false, "NAME", "greedy, beam or sample."},
    {"beam_size", &O::beamSize, 1, limits::kMaxBeamSize, false, "N", "Beam size."},
    {"n_best", &O::nBest, 1, limits::kMaxBeamSize, false, "N",
     "Hypotheses per sentence (beam or sample)."},
    {"length_normalization", &O::lengthNormalization, 0, 0, false, "NAME",
     "gnmt, average, power (Hugging Face's) or none."},
    {"length_penalty", &O::lengthPenalty, 0, kUnbounded, false, "A",
     "Length penalty alpha of gnmt or power (0: off)."},
    {"coverage_penalty", &O::coveragePenalty, 0, kUnbounded, false, "B",
     "GNMT coverage penalty beta (0: off)."},
    {"early_stopping", &O::earlyStopping, 0, 0, false, "NAME",
     "heuristic, bounded, eager or beam (Hugging Face's early_stopping=True)."},
    {"max_length", &O::maxLength, 1, limits::kMaxDecodeLength, false, "N",
     "Maximum target tokens."},
    {"max_length_ratio", &O::maxLengthRatio, 0, kUnbounded, false, "F",
     "Also cap at ratio x source tokens (0: off)."},
    {"min_length", &O::minLength, 0, limits::kMaxDecodeLength, false, "N",
     "Minimum target tokens before EOS."},
    // --- Logits processors
    {"suppress_tokens", &O::suppressTokens, 0, 0, false, nullptr,
     "Token ids never generated (model packages set <unk>, <pad>)."},
    {"target_prefix", &O::targetPrefix, 0, 0, false, nullptr,
     "Token ids forced at the first steps."},
    {"target_prefix_sentence", &O::targetPrefixSentence, -1, limits::kMaxSentenceIndex, false,
     nullptr, "Sentence (from 0) target_prefix is forced in (-1: every sentence)."},
    {"no_repeat_ngram_size", &O::noRepeatNgramSize, 0, limits::kMaxNgramSize, false, "N",
     "Block repeated n-grams of this size (0: off).", "no_repeat_ngram"},
    {"repetition_penalty", &O::repetitionPenalty, 0, kUnbounded, true, "R",
     "CTRL repetition penalty (1: off)."},
    {"ngram_penalty", &O::ngramPenalty, 0, kUnbounded, false, "L",
     "Subtract L per earlier occurrence of the n-gram a token completes (0: off)."},
    {"ngram_penalty_size", &O::ngramPenaltySize, 1, limits::kMaxNgramSize, false, "N",
     "N-gram size of --ngram-penalty (1: repeated tokens)."},
    // --- Sampling
    {"temperature", &O::temperature, 0, kUnbounded, true, "T", "Sampling temperature (1: off)."},
    {"top_k", &O::topK, 0, limits::kMaxTopK, false, "K", "Sample among the k best (0: off)."},
    {"top_p", &O::topP, 0, 1, true, "P", "Nucleus sampling mass (1: off)."},
    {"min_p", &O::minP, 0, 1, false, "M",
     "Keep tokens with at least M x the best one's probability (0: off)."},
    {"seed", &O::seed, 0, 0, false, "S", "Sampling seed."},
    // --- Traces
    {"trace", &O::trace, 0, 0, false, nullptr, "Record the search tree and per-step candidates."},
    {"trace_top_n", &O::traceTopN, 1, limits::kMaxBeamSize, false, nullptr,
     "Candidates recorded per step and stage."},
};
// clang-format on

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
            else {
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
            } else {
                T ids;
                std::size_t start = 0;
                while (start < text.size()) {
                    std::size_t comma = text.find(',', start);
                    if (comma == std::string_view::npos)
                        comma = text.size();
                    std::int32_t id = 0;
                    if (!parseNumber(text.substr(start, comma - start), id) || id < 0)
                        notA(kindName<T>());
                    ids.push_back(id);
                    start = comma + 1;
                }
                target = std::move(ids);
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

void DecodingOptions::validate(std::int64_t vocabularySize) const
{
    // Every number against its row's range, upper bounds included: a beam of a million, or a
    // million tokens of output, would allocate gigabytes before any other check could matter
    // (docs/robustness.md).
    for (const DecodingField &field : kFields) {
        std::visit(
            [&](auto member) {
                using T = std::remove_cvref_t<decltype(this->*member)>;
                if constexpr (std::is_same_v<T, float> ||
                              (std::is_integral_v<T> && !std::is_same_v<T, bool> &&
                               !std::is_same_v<T, std::uint64_t>)) {
                    const double value = static_cast<double>(this->*member);
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
                        fail(field.name, decodingFieldToText(*this, field), rule);
                    }
                }
            },
            field.member);
    }
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
