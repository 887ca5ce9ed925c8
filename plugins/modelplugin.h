// The model-plugin interface: one Qt plugin per model family (plugins/<family>/).
//
// A plugin's JSON metadata (Q_PLUGIN_METADATA FILE) must contain
//     { "apiVersion": 2, "name": "transformer", "architectures": ["transformer"],
//       "tasks": ["translation"] }
// The registry (app/core/models/pluginregistry.h) reads it with QPluginLoader::metaData() and rejects a
// plugin whose apiVersion differs from GLOSA_MODEL_PLUGIN_API_VERSION before calling instance(),
// so an outdated plugin never runs code in our process. "architectures" is the one list of the
// model.json "architecture" values the plugin loads: the registry looks plugins up by it, and the
// code does not repeat it. (Version 2: version 1 also had an architectures() method.)
#pragma once

#include "engine/model.h"

#include <QStringList>
#include <QtPlugin>

#include <memory>

namespace glosa::engine {
class ModelPackage;
}

#define GLOSA_MODEL_PLUGIN_API_VERSION 2
#define GlosaModelPluginInterface_iid "org.glosa.ModelPluginInterface/2.0"

namespace glosa {

class ModelPluginInterface
{
public:
    virtual ~ModelPluginInterface() = default;

    // Builds a model from a package the engine has already parsed and validated at the file
    // level. The plugin checks its own tensors (names, shapes) through the package and throws
    // std::exception subclasses whose message names the file and the tensor; it never aborts.
    virtual std::shared_ptr<engine::Model> load(const engine::ModelPackage &package) const = 0;
};

} // namespace glosa

Q_DECLARE_INTERFACE(glosa::ModelPluginInterface, GlosaModelPluginInterface_iid)
