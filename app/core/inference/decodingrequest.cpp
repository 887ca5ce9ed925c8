#include "app/core/inference/decodingrequest.h"

#include "app/core/settings/decodingfieldinfo.h"
#include "app/core/settings/settings.h"
#include "engine/decoding/decodingfields.h"

#include <algorithm>
#include <stdexcept>

namespace glosa {

namespace {

// One field of `from` into `to`, whatever its type.
void copyField(const engine::DecodingField &field, const engine::DecodingOptions &from,
               engine::DecodingOptions &to)
{
    std::visit([&](auto member) { to.*member = from.*member; }, field.member);
}

} // namespace

DecodingChoices everySetting(const engine::DecodingOptions &values)
{
    DecodingChoices choices{values, {}, std::nullopt, 0, true};
    for (const engine::DecodingField &field : engine::decodingFields())
        if (isDecodingSetting(field))
            choices.fields << QLatin1String(field.name);
    return choices;
}

engine::DecodingOptions decodingRequest(const engine::DecodingOptions &modelDefaults,
                                        const DecodingChoices &choices)
{
    engine::DecodingOptions options = modelDefaults;
    for (const QString &name : choices.fields) {
        const engine::DecodingField *field = engine::findDecodingField(name.toStdString());
        if (!field)
            throw std::invalid_argument("no decoding field is named " + name.toStdString());
        copyField(*field, choices.values, options);
    }
    options.keepTerms = choices.keepTerms ? *choices.keepTerms : keptTermsFromSettings();
    if (choices.fitToStrategy && options.strategy == engine::SearchStrategy::Greedy)
        options.nBest = 1;
    else if (choices.fitToStrategy && options.strategy == engine::SearchStrategy::Beam)
        options.nBest = std::min(options.nBest, options.beamSize);
    if (choices.maxHypotheses > 0)
        options.nBest = std::min(options.nBest, choices.maxHypotheses);
    return options;
}

} // namespace glosa
