// The one place a request's decoding options are put together: the model package's defaults,
// under what the person chose (a panel, a preset, the command line), with the do-not-translate
// terms, made consistent. The decoding panel, the Documents worker, glosa-cli and the tabs'
// presenters all call decodingRequest(), so a rule added here (a setting, a cross-field rule)
// holds everywhere at once.
//
//     DecodingChoices choices = everySetting(panelValues);   // or choose fields one by one
//     choices.maxHypotheses = 1;                              // a document keeps one translation
//     choices.values.targetPrefix = forcedIds;                // steering: a field the panel
//     choices.fields << QStringLiteral("target_prefix");     // has no control for, named
//     engine::DecodingOptions options = decodingRequest(model.decodingDefaults(), choices);
//
// A view's own additions that are not choices (traces for the beam tree) are set on the result.
#pragma once

#include "engine/decoding/decodingoptions.h"

#include <QStringList>

#include <optional>
#include <string>
#include <vector>

namespace glosa {

struct DecodingChoices
{
    // The chosen values: a panel's controls, a preset, the command line's options.
    engine::DecodingOptions values;
    // Which fields of `values` were chosen, by their engine names ("beam_size", "truecase");
    // every other field keeps the model's default (its suppressed tokens, target prefix, tuned
    // beam size and α). everySetting() names every setting, as a panel or a preset shows them all.
    QStringList fields;
    // The do-not-translate terms, replacing the model's. nullopt: the app's list (Settings ▸ Do
    // not translate); glosa-cli gives its --keep terms, or the model's own, and reads no settings.
    std::optional<std::vector<std::string>> keepTerms;
    // The most hypotheses per sentence the caller uses (0: as chosen): a document keeps one.
    int maxHypotheses = 0;
    // Whether the values are a whole form of settings (a panel, a preset), some of them hidden
    // for the strategy: then the hypothesis count is fitted to it (greedy search gives one, beam
    // search no more than its beam). glosa-cli's options are taken as given, and
    // DecodingOptions::validate() names a contradiction ("n_best = 2: greedy search gives one").
    bool fitToStrategy = false;
};

// `values` with every setting (isDecodingSetting(), app/core/settings/decodingfieldinfo.h) chosen,
// fitted to the strategy.
DecodingChoices everySetting(const engine::DecodingOptions &values);

// modelDefaults, with the chosen fields of `choices` over them and the terms, fitted to the
// strategy where asked, and never more than maxHypotheses hypotheses. Throws
// std::invalid_argument for a field name the engine does not know (a caller's mistake); ranges are
// left to DecodingOptions::validate(), which the engine runs.
engine::DecodingOptions decodingRequest(const engine::DecodingOptions &modelDefaults,
                                        const DecodingChoices &choices);

} // namespace glosa
