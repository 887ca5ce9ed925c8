// The history's settings (Settings ▸ History): whether new entries are recorded, and the retention
// the app and glosa-cli apply on every insert.
#pragma once

#include "app/core/history/entry.h"
#include "app/core/settings/settings.h"

namespace glosa {

namespace settings {
inline const Setting<bool> historyEnabled{"history/enabled", true};      // record new entries
inline const Setting<qint64> historyMaxEntries{"history/maxEntries", 0}; // 0 = no limit
inline const Setting<int> historyMaxAgeDays{"history/maxAgeDays", 0};    // 0 = no limit
// The history file is kept under this size unless the user chose another; 0 = no limit.
inline const Setting<qint64> historyMaxMegabytes{"history/maxMegabytes", 500};
} // namespace settings

// The retention the user chose in Settings ▸ History, for the app and glosa-cli.
HistoryRetention historyRetentionFromSettings();

} // namespace glosa
