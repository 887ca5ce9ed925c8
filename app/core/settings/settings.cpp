#include "app/core/settings/settings.h"

namespace glosa {

SettingsNotifier &SettingsNotifier::instance()
{
    static SettingsNotifier notifier;
    return notifier;
}

std::unique_ptr<QSettings> openSettings()
{
    return std::make_unique<QSettings>();
}

const Setting<QString> &settings::lastFolderOf(FileKind kind)
{
    static const Setting<QString> documents{"files/folders/documents"};
    static const Setting<QString> images{"files/folders/images"};
    static const Setting<QString> models{"files/folders/models"};
    static const Setting<QString> exports{"files/folders/exports"};
    switch (kind) {
    case FileKind::Images:
        return images;
    case FileKind::Models:
        return models;
    case FileKind::Exports:
        return exports;
    case FileKind::Documents:
        break;
    }
    return documents;
}

Setting<QString> settings::directionModel(const QString &source, const QString &target)
{
    return Setting<QString>(QStringLiteral("models/direction/") + source + QLatin1Char('-') +
                            target);
}

engine::ComputeType computeTypeFromSettings()
{
    const QString name = settings::computeType.value();
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
    for (const QString &term : settings::keepTerms.value())
        if (!term.trimmed().isEmpty())
            terms.push_back(term.trimmed().toStdString());
    return terms;
}

} // namespace glosa
