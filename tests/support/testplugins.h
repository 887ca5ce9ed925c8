// Loading a model package through the real plugin built into build/plugins, as the app does
// (QPluginLoader via PluginRegistry), for the tests that check a plugin end to end.
#pragma once

#include "app/core/models/pluginregistry.h"
#include "engine/package.h"
#include "engine/translation/translationmodel.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QString>

#include <exception>
#include <memory>
#include <string>
#include <vector>

namespace glosa::test {

// The model in package folder `dir` loaded by the build tree's plugin for `architecture`, as a T
// (engine::TranslationModel, engine::CaptioningModel). Null, with *error saying why, when the
// plugin is missing, refuses the package or gives another kind of model.
template <typename T>
std::shared_ptr<T> loadWithBuiltPlugin(const QString &architecture, const std::string &dir,
                                       QString *error,
                                       engine::ComputeType computeType = engine::ComputeType::Auto)
{
    PluginRegistry registry;
    registry.scan({QStringLiteral(GLOSA_BINARY_DIR "/plugins")});
    const ModelPluginInterface *plugin = registry.pluginForArchitecture(architecture);
    if (!plugin) {
        *error =
            QStringLiteral("no plugin for %1 in " GLOSA_BINARY_DIR "/plugins").arg(architecture);
        return nullptr;
    }
    try {
        auto model = std::dynamic_pointer_cast<T>(
            plugin->load(engine::ModelPackage::load(dir, computeType)));
        if (!model)
            *error = QStringLiteral("the %1 plugin gave another kind of model").arg(architecture);
        return model;
    } catch (const std::exception &e) {
        *error = QString::fromUtf8(e.what());
        return nullptr;
    }
}

struct BundledModel
{
    QString id;
    QString sourceLanguage;
    std::shared_ptr<engine::TranslationModel> model;
};

// The bundled translation models trained with placeholders (resources/models/*/model.json with
// hyperparameters.placeholders > 0: the general-domain ones), in id order, each loaded through
// its plugin. Empty, with *error saying why, when a manifest cannot be read or a model not loaded.
inline std::vector<BundledModel> bundledPlaceholderModels(QString *error)
{
    const QDir models(QStringLiteral(GLOSA_SOURCE_DIR "/resources/models"));
    std::vector<BundledModel> out;
    for (const QString &id : models.entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name)) {
        QFile manifest(models.filePath(id + "/model.json"));
        if (!manifest.open(QIODevice::ReadOnly)) {
            *error = manifest.fileName() + QStringLiteral(": ") + manifest.errorString();
            return {};
        }
        const QJsonObject json = QJsonDocument::fromJson(manifest.readAll()).object();
        if (json.value("task").toString() != "translation" ||
            json.value("hyperparameters").toObject().value("placeholders").toInt() == 0)
            continue;
        auto model = loadWithBuiltPlugin<engine::TranslationModel>(
            json.value("architecture").toString(), models.filePath(id).toStdString(), error);
        if (!model)
            return {};
        out.push_back({id, json.value("languages").toObject().value("source").toString(),
                       std::move(model)});
    }
    return out;
}

} // namespace glosa::test
