// Loading a model package through the real plugin built into build/plugins, as the app does
// (QPluginLoader via PluginRegistry), for the tests that check a plugin end to end.
#pragma once

#include "app/core/pluginregistry.h"
#include "engine/package.h"

#include <QString>

#include <exception>
#include <memory>
#include <string>

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

} // namespace glosa::test
