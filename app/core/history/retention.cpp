#include "app/core/history/retention.h"

namespace glosa {

HistoryRetention historyRetentionFromSettings()
{
    HistoryRetention retention;
    retention.maxEntries = settings::historyMaxEntries.value();
    retention.maxAgeDays = settings::historyMaxAgeDays.value();
    retention.maxBytes = settings::historyMaxMegabytes.value() * 1024 * 1024;
    return retention;
}

} // namespace glosa
