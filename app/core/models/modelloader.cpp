#include "app/core/models/modelloader.h"

#include "app/core/models/pluginregistry.h"

namespace glosa {

ModelLoader::ModelLoader(std::shared_ptr<const PluginRegistry> plugins)
    : m_plugins(std::move(plugins))
{
}

std::shared_ptr<engine::Model>
ModelLoader::load(const ModelInfo &info, engine::ComputeType computeType, QString *error) const
{
    if (!m_plugins) {
        if (error)
            *error = QStringLiteral("no model is chosen");
        return nullptr;
    }
    return ModelCatalog::load(info, *m_plugins, error, computeType);
}

} // namespace glosa
