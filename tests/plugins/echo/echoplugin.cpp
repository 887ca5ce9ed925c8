// Test plugin: the smallest valid model plugin. Its model needs one weight, "echo.scale" of shape
// [1], so that a package can fail the plugin's own tensor check (tst_modelcatalog).
#include "engine/package.h"
#include "plugins/modelplugin.h"
#include "tests/plugins/testmarker.h"

#include <QObject>

namespace {

class EchoModel : public glosa::engine::Model
{
public:
    EchoModel(std::string id, glosa::engine::Tensor scale)
        : m_id(std::move(id)), m_scale(std::move(scale))
    {
    }
    glosa::engine::Task task() const override { return glosa::engine::Task::Translation; }
    std::string id() const override { return m_id; }

private:
    std::string m_id;
    glosa::engine::Tensor m_scale; // [1]
};

} // namespace

class EchoPlugin : public QObject, public glosa::ModelPluginInterface
{
    Q_OBJECT
    Q_PLUGIN_METADATA(IID GlosaModelPluginInterface_iid FILE "echo.json")
    Q_INTERFACES(glosa::ModelPluginInterface)

public:
    EchoPlugin() { glosa::test::touchMarker("echo.constructed"); }

    std::shared_ptr<glosa::engine::Model>
    load(const glosa::engine::ModelPackage &package) const override
    {
        package.requireTensors({{"echo.scale", {1}}});
        return std::make_shared<EchoModel>(package.id(), package.weight("echo.scale", {1}));
    }
};

#include "echoplugin.moc"
