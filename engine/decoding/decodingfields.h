// The one table of DecodingOptions' fields: name, member, range, off value and strategies of each.
// model.json's "decoding" object, the history's settings JSON, the GUI's saved settings and
// presets, the CLI's options and DecodingOptions::validate()'s range checks are all generated from
// it (as llama.cpp's common/arg.cpp and KDE's KConfigXT generate theirs), so a field cannot be
// spelled two ways or be left out of one of them.
//
// Adding a decoding option: a member in DecodingOptions, a row in decodingfields.cpp, the
// option's logic (a logits processor, the search) and, for a setting, its row in the app's
// app/core/settings/decodingfieldinfo.cpp. Cross-field rules stay in validate().
#pragma once

#include "engine/decoding/decodingoptions.h"

#include <nlohmann/json_fwd.hpp>

#include <cstdint>
#include <limits>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace glosa::engine {

// A pointer to one member of DecodingOptions; its type is the field's kind.
using DecodingMember =
    std::variant<int DecodingOptions::*, float DecodingOptions::*, std::uint64_t DecodingOptions::*,
                 bool DecodingOptions::*, SearchStrategy DecodingOptions::*,
                 LengthNormalization DecodingOptions::*, EarlyStopping DecodingOptions::*,
                 std::vector<std::int32_t> DecodingOptions::*,
                 std::vector<std::string> DecodingOptions::*>;

// A set of search strategies, one bit each (strategyBit()).
constexpr std::uint8_t strategyBit(SearchStrategy strategy)
{
    return static_cast<std::uint8_t>(1u << static_cast<unsigned>(strategy));
}
constexpr std::uint8_t kEveryStrategy = strategyBit(SearchStrategy::Greedy) |
                                        strategyBit(SearchStrategy::Beam) |
                                        strategyBit(SearchStrategy::Sample);

// What decoding needs of a field, and nothing an interface shows: labels, tooltips, groups, steps,
// the CLI's help and the summary's words are the app's (app/core/settings/decodingfieldinfo.cpp),
// as CTranslate2's options have names, ranges and defaults but no labels.
struct DecodingField
{
    // The key in model.json, the history and the settings, in snake_case; the CLI option is the
    // same name with '-' for '_' (no_repeat_ngram_size → --no-repeat-ngram-size).
    const char *name;
    DecodingMember member;
    // Accepted values of a number, checked by DecodingOptions::validate(). A float must also be
    // finite. minExclusive: the value must be above `min` (temperature, top_p).
    double min = 0;
    double max = 0;
    bool minExclusive = false;
    // An older spelling that is still read: settings saved and CLI scripts written before the
    // table existed keep working.
    const char *formerName = nullptr;
    // The value that turns the option off: a trace leaves out the sampling stages that are off
    // (sampler.h), and a summary the options. NaN: the option is never off.
    double off = std::numeric_limits<double>::quiet_NaN();
    // The strategies (strategyBit()s) whose search reads the field: beam_size only beam search's,
    // temperature only sampling's. An interface shows a field's control only in these.
    std::uint8_t strategies = kEveryStrategy;

    // "--no-repeat-ngram-size" without the dashes.
    std::string optionName() const;
    std::string formerOptionName() const;
    // Whether `options` hold this field's `off` value (false for a field that is never off).
    bool isOff(const DecodingOptions &options) const;
    bool appliesTo(SearchStrategy strategy) const { return strategies & strategyBit(strategy); }
};

std::span<const DecodingField> decodingFields();
// By name or former name, in either spelling ('_' or '-'); nullptr if there is none.
const DecodingField *findDecodingField(std::string_view name);

// Checks one number field against its row's range (what DecodingOptions::validate() does for
// every row); throws std::invalid_argument naming the field and the rule.
void validateDecodingField(const DecodingOptions &options, const DecodingField &field);

// One field as JSON, and back. fromJson throws std::invalid_argument naming the field when the
// JSON has the wrong type or an unknown enum name; ranges are left to validate().
nlohmann::json decodingFieldToJson(const DecodingOptions &options, const DecodingField &field);
void decodingFieldFromJson(DecodingOptions &options, const DecodingField &field,
                           const nlohmann::json &value);
// One field as text (CLI values, settings written as strings), and back: numbers in C locale,
// enums by name, booleans true/false, token ids separated by commas, terms one a line. fromText
// throws std::invalid_argument naming the field and the text.
std::string decodingFieldToText(const DecodingOptions &options, const DecodingField &field);
void decodingFieldFromText(DecodingOptions &options, const DecodingField &field,
                           std::string_view text);

// Reads a "decoding" object (model.json, docs/model-package.md; history settings) over `base`:
// every key of decodingFields(), former names too. Unknown keys are ignored; a known key with a
// wrong type or value throws std::invalid_argument naming it. The result is validated.
DecodingOptions decodingOptionsFromJson(const nlohmann::json &decoding,
                                        const DecodingOptions &base = {});
// Every field of `options` under its name (what the CLI's --json reports as "strategy").
nlohmann::json decodingOptionsToJson(const DecodingOptions &options);

} // namespace glosa::engine
