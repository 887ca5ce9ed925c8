// The one table of DecodingOptions' fields: name, member, range and help of each. model.json's
// "decoding" object, the history's settings JSON, the GUI's saved settings and presets, the CLI's
// options and DecodingOptions::validate()'s range checks are all generated from it (as llama.cpp's
// common/arg.cpp and KDE's KConfigXT generate theirs), so a field cannot be spelled two ways or be
// left out of one of them.
//
// Adding a decoding option: a member in DecodingOptions, a row in decodingfields.cpp, and the
// option's logic (a logits processor, the search). Cross-field rules stay in validate().
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

// Where the GUI's decoding panel puts a setting's control: in "Search", always in view, or in
// "Advanced", folded until the user opens it (the jargon a new user need not meet).
enum class DecodingGroup : std::uint8_t { Search, Advanced };

// A set of search strategies, one bit each (strategyBit()).
constexpr std::uint8_t strategyBit(SearchStrategy strategy)
{
    return static_cast<std::uint8_t>(1u << static_cast<unsigned>(strategy));
}
constexpr std::uint8_t kEveryStrategy = strategyBit(SearchStrategy::Greedy) |
                                        strategyBit(SearchStrategy::Beam) |
                                        strategyBit(SearchStrategy::Sample);

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
    // The CLI's value placeholder ("N", "A"); nullptr for the fields that are not settings
    // (isSetting()).
    const char *valueName = nullptr;
    // One line for --help; it says which value turns the option off.
    const char *help = "";
    // The panel's tooltip: one sentence on what the option does to the output, and which value
    // turns it off. English here; the panel translates it (context "glosa::DecodingPanel", marked
    // for lupdate in decodingfields.cpp), as it does `label` and `choices`.
    const char *tip = nullptr;
    // An older spelling that is still read: settings saved and CLI scripts written before the
    // table existed keep working.
    const char *formerName = nullptr;

    // The panel's control for a setting (app/gui/widgets/decodingpanel.cpp builds one per row from these).
    // The label, with '&' before its keyboard shortcut.
    const char *label = nullptr;
    DecodingGroup group = DecodingGroup::Advanced;
    // A number's spin box steps by `step`; where `max` is unbounded, the box ends at `controlMax`
    // (the largest value worth picking by hand; a larger one from model.json still shows).
    double step = 1;
    double controlMax = 0;
    // An enum's values as the panel names them, in the enum's order (empty for other kinds).
    std::span<const char *const> choices = {};

    // The short summary a Compare column, a history entry and `glosa-cli models` show
    // (decodingSummaryParts()). `summary` is the option's part, "%1" standing for its value
    // ("top-k %1"); an enum's parts are `summaryChoices`, one per value in the enum's order
    // (nullptr: none). English; the app translates the parts marked for lupdate in context
    // "glosa::DecodingSummary". An option with neither is not in the summary.
    const char *summary = nullptr;
    std::span<const char *const> summaryChoices = {};
    // The value that turns the option off (the "(0: off)" of `help`): the summary leaves the
    // option out while it has it, and so does a trace for the sampling stages that are traced
    // only while on (sampler.h). NaN: the option is never off.
    double off = std::numeric_limits<double>::quiet_NaN();
    // The strategies (strategyBit()s) in which the summary names the option: those in which it
    // changes which translation comes out (length penalty α only reorders the n samples of
    // sampling and cannot change greedy search's, so the summary names it for beam search only).
    std::uint8_t summaryStrategies = kEveryStrategy;

    // A field a person sets: a command-line option and part of a preset. The others (token-id
    // lists, traces) are set by model packages and views.
    bool isSetting() const { return valueName != nullptr; }
    // "--no-repeat-ngram-size" without the dashes.
    std::string optionName() const;
    std::string formerOptionName() const;
    // The control's range: [min, max], with `controlMax` for an unbounded max. An exclusive min
    // is left to validate(): the control starts one step of its precision above it.
    double controlMaximum() const;
    // Whether `options` hold this field's `off` value (false for a field that is never off).
    bool isOff(const DecodingOptions &options) const;
};

std::span<const DecodingField> decodingFields();
// By name or former name, in either spelling ('_' or '-'); nullptr if there is none.
const DecodingField *findDecodingField(std::string_view name);

// One part of a decoding summary: `format` is a row's `summary` or `summaryChoices` entry (English,
// for the app to translate), `value` the field's value as text for its "%1" (empty when `format`
// has none).
struct DecodingSummaryPart
{
    const char *format;
    std::string value;
};
// The summary's parts, from the rows with a summary: first the strategy and the options that act
// only in it, then the options that act in every strategy, each in table order, leaving out the
// options that are off or not named in the strategy (summaryStrategies) ("beam 5 · α 0.6 ·
// no-repeat 3", "sample · T 0.7 · top-k 40").
std::vector<DecodingSummaryPart> decodingSummaryParts(const DecodingOptions &options);

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
