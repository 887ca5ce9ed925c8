#include "app/core/settings.h"

#include "engine/decoding/decodingfields.h"

#include <QCoreApplication>
#include <QSettings>
#include <QStringList>

namespace glosa {

HistoryRetention historyRetentionFromSettings()
{
    const QSettings settings;
    HistoryRetention retention;
    retention.maxEntries =
        settings.value(QLatin1String(settingsKeys::kHistoryMaxEntries), 0).toLongLong();
    retention.maxAgeDays =
        settings.value(QLatin1String(settingsKeys::kHistoryMaxAgeDays), 0).toInt();
    retention.maxBytes =
        settings
            .value(QLatin1String(settingsKeys::kHistoryMaxMegabytes), kDefaultHistoryMaxMegabytes)
            .toLongLong() *
        1024 * 1024;
    return retention;
}

engine::ComputeType computeTypeFromSettings()
{
    const QString name = QSettings().value(QLatin1String(settingsKeys::kComputeType)).toString();
    try {
        return name.isEmpty() ? engine::ComputeType::Auto
                              : engine::parseComputeType(name.toStdString());
    } catch (const std::invalid_argument &) {
        return engine::ComputeType::Auto; // a hand-edited settings file must not stop the app
    }
}

std::vector<std::string> keptTermsFromSettings()
{
    std::vector<std::string> terms;
    for (const QString &term :
         QSettings().value(QLatin1String(settingsKeys::kKeepTerms)).toStringList())
        if (!term.trimmed().isEmpty())
            terms.push_back(term.trimmed().toStdString());
    return terms;
}

} // namespace glosa
