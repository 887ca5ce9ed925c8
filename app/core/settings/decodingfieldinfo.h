// What the app shows of each field of the engine's decoding table
// (engine/decoding/decodingfields.h): the decoding panel's label, tooltip, group, step and choices, glosa-cli's value name and help,
// and the field's words in a one-line summary. The engine keeps only what decoding needs (name,
// member, range, off value, strategies); every word a person reads is here, keyed by the field's
// name, one row per engine field (tests/core/tst_decodingfieldinfo.cpp checks both ways).
//
// The panel's texts are translated in the context of the class that shows them,
// "glosa::DecodingPanel" (so a translator sees where they appear, and the GUI tests find them
// translated where they are shown), the summary's in "glosa::DecodingSummary" (marked for lupdate
// in decodingfieldinfo.cpp); the CLI's help is English.
#pragma once

#include "engine/decoding/decodingfields.h"

#include <QString>

#include <cstdint>
#include <span>

namespace glosa {

// Where the decoding panel puts a setting's control: in "Search", always in view, or in
// "Advanced", folded until the user opens it (the jargon a new user need not meet).
enum class DecodingGroup : std::uint8_t { Search, Advanced };

struct DecodingFieldInfo
{
    // The engine field's name (engine::DecodingField::name).
    const char *name;
    // The CLI's value placeholder ("N", "A"); nullptr for the fields that are not settings
    // (isSetting()): token-id lists, terms and traces, set by model packages and views.
    const char *valueName = nullptr;
    // One line for --help (and the field's documentation); it says which value turns it off.
    const char *help = "";

    // The panel's control for a setting (app/gui/widgets/decodingpanel.cpp builds one per row).
    // The label, with '&' before its keyboard shortcut.
    const char *label = nullptr;
    // One sentence on what the option does to the output, and which value turns it off.
    const char *tip = nullptr;
    DecodingGroup group = DecodingGroup::Advanced;
    // A number's spin box steps by `step`; where the field's max is unbounded, the box ends at
    // `controlMax` (the largest value worth picking by hand; a larger one from model.json still
    // shows).
    double step = 1;
    double controlMax = 0;
    // An enum's values as the panel names them, in the enum's order (empty for other kinds).
    std::span<const char *const> choices = {};

    // The field's part of the summary a Compare column, a history entry and `glosa-cli models`
    // show (decodingSummary(), decodingmaps.h): "%1" stands for its value ("top-k %1"); an enum's
    // parts are `summaryChoices`, one per value (nullptr: none). A field with neither is not in
    // the summary, nor is one that is off or does not apply to the strategy.
    const char *summary = nullptr;
    std::span<const char *const> summaryChoices = {};
    // Where the summary names the field more narrowly than the strategies it applies to: length
    // penalty α only reorders the n samples of sampling, so the summary names it for beam search
    // only. 0: the field's own strategies.
    std::uint8_t summaryStrategies = 0;

    // The engine's row of this name (every row has one: the test checks it).
    const engine::DecodingField &field() const;
    bool isSetting() const { return valueName != nullptr; }
    // The control's range end: the field's max, or `controlMax` for an unbounded one.
    double controlMaximum() const;
    // The strategies the summary names the field in.
    std::uint8_t summaryStrategySet() const;

    // In the interface's language.
    QString translatedLabel() const;
    QString translatedTip() const;
    QString translatedChoice(std::size_t index) const;
};

// One row per engine::decodingFields() row, in the same order.
std::span<const DecodingFieldInfo> decodingFieldInfos();
// The row of an engine field; nullptr only for a field added to the engine without its row here.
const DecodingFieldInfo *findDecodingFieldInfo(const engine::DecodingField &field);
// A field a person sets: a control in the panel, a command-line option and part of a preset.
bool isDecodingSetting(const engine::DecodingField &field);

} // namespace glosa
