// Settings: the keys the app stores its choices under (window layout, last model, UI language,
// decoding, history retention) and reading the ones the core needs.
#pragma once

#include "app/core/history/entry.h"
#include "engine/decoding/decodingoptions.h"
#include "engine/package.h"

#include <QList>
#include <QString>
#include <QVariantMap>

namespace glosa {

namespace settingsKeys {
inline constexpr char kGeometry[] = "window/geometry";
inline constexpr char kWindowState[] = "window/state";
inline constexpr char kCurrentTab[] = "window/tab";
inline constexpr char kTranslateSplitter[] = "translate/splitter";
inline constexpr char kTranslateEditors[] = "translate/editors";
inline constexpr char kTranslateVertical[] = "translate/vertical";   // editors over attention
inline constexpr char kTranslateAttention[] = "translate/attention"; // attention over candidates
inline constexpr char kLastModel[] = "models/last";
// + "<source>-<target>": the model the user last picked for that direction (AppContext).
inline constexpr char kDirectionModelPrefix[] = "models/direction/";
inline constexpr char kDecoding[] = "decoding/current";
inline constexpr char kDecodingPreset[] = "decoding/preset"; // "" when the settings are custom
inline constexpr char kPresets[] = "decoding/presets";       // user presets: name → options map
inline constexpr char kCompareColumns[] = "compare/columns";
inline constexpr char kLastFolder[] = "files/lastFolder"; // where the next file dialog starts
inline constexpr char kRecentFiles[] = "files/recent";    // "kind|path", newest first
inline constexpr char kLanguage[] = "ui/language";        // "" follows the system locale
inline constexpr char kAppearance[] = "ui/appearance";    // "system", "light" or "dark"
// engine::computeTypeName(): "auto" (int8 where a package stores it), "float32" or "int8".
inline constexpr char kComputeType[] = "inference/computeType";
inline constexpr char kConfidence[] = "translate/confidence";
inline constexpr char kLiveTranslate[] = "translate/live";
// The do-not-translate list (Settings ▸ Do not translate; DecodingOptions::keepTerms).
inline constexpr char kKeepTerms[] = "translate/keepTerms";
inline constexpr char kHistoryEnabled[] = "history/enabled"; // record new entries (default on)
inline constexpr char kHistoryMaxEntries[] = "history/maxEntries";     // 0 = no limit
inline constexpr char kHistoryMaxAgeDays[] = "history/maxAgeDays";     // 0 = no limit
inline constexpr char kHistoryMaxMegabytes[] = "history/maxMegabytes"; // 0 = no limit
} // namespace settingsKeys

// The history file is kept under this size unless the user chose another (Settings ▸ History).
inline constexpr int kDefaultHistoryMaxMegabytes = 500;
// The retention the user chose in Settings ▸ History (QSettings), for the app and glosa-cli.
HistoryRetention historyRetentionFromSettings();
// The arithmetic models are loaded with (Settings ▸ Arithmetic; glosa-cli's --compute-type). A
// value that is not one of the names is auto.
engine::ComputeType computeTypeFromSettings();

// The do-not-translate list the user keeps in Settings, for every translation the app makes.
std::vector<std::string> keptTermsFromSettings();

} // namespace glosa
