// Test plugin: the right IID and interface, but no "apiVersion" in its metadata.
#include "plugins/modelplugin.h"
#include "tests/plugins/testmarker.h"

#include <QObject>

#include <stdexcept>

namespace {
const glosa::test::LibraryLoadMarker loadMarker("noapi.loaded");
}

class NoApiPlugin : public QObject, public glosa::ModelPluginInterface
{
    Q_OBJECT
    Q_PLUGIN_METADATA(IID GlosaModelPluginInterface_iid FILE "noapi.json")
    Q_INTERFACES(glosa::ModelPluginInterface)

public:
    std::shared_ptr<glosa::engine::Model> load(const glosa::engine::ModelPackage &) const override
    {
        throw std::runtime_error("noapi test plugin: must never be instantiated");
    }
};

#include "noapiplugin.moc"
