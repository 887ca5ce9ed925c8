// Decoding options as QVariantMaps (the settings file, presets), their one-line summary and the
// built-in presets. Qt types over engine::decodingFields(): no keys here (app/core/settings/settings.h).
#pragma once

#include "engine/decoding/decodingoptions.h"

#include <QList>
#include <QString>
#include <QVariantMap>

namespace glosa {

// Every DecodingOptions field under its engine::decodingFields() name ("beam_size", "top_p",
// ...), as text. Fields left out of a map keep their defaults and former names are read, so old
// settings files and presets still load.
QVariantMap decodingOptionsToMap(const engine::DecodingOptions &options);
engine::DecodingOptions decodingOptionsFromMap(const QVariantMap &map);
// The map of only the fields a person sets (isDecodingSetting(), decodingfieldinfo.h): equal keys
// are the same preset, whatever the model (suppressed tokens) or the view (traces) added.
QVariantMap decodingPresetKey(const engine::DecodingOptions &options);

// One line for column headers and tooltips, from the rows of decodingfieldinfo.cpp:
// "beam 5 · no-repeat 3", "sample · T 0.8 · top-k 40".
QString decodingSummary(const engine::DecodingOptions &options);

struct DecodingPreset
{
    QString name; // untranslated key for built-ins; the user's name otherwise
    engine::DecodingOptions options;
    bool builtIn = false;
};

// Greedy; beam 5; beam 5 + no-repeat 3-gram; top-k 40 at T 0.8; top-p 0.9 — the Compare view's
// default columns, in that order.
QList<DecodingPreset> builtInPresets();

} // namespace glosa
