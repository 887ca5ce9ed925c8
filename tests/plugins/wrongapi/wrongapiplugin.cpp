// Test plugin: a complete model plugin whose metadata claims apiVersion 999. Both markers it can
// write prove that its code ran: "wrongapi.loaded" when the library is mapped at all,
// "wrongapi.constructed" when QPluginLoader::instance() creates the plugin object.
#include "plugins/modelplugin.h"
#include "tests/plugins/testmarker.h"

#include <QObject>

#include <stdexcept>

namespace {
const glosa::test::LibraryLoadMarker loadMarker("wrongapi.loaded");
}

class WrongApiPlugin : public QObject, public glosa::ModelPluginInterface
{
    Q_OBJECT
    Q_PLUGIN_METADATA(IID GlosaModelPluginInterface_iid FILE "wrongapi.json")
    Q_INTERFACES(glosa::ModelPluginInterface)

public:
    WrongApiPlugin() { glosa::test::touchMarker("wrongapi.constructed"); }

    std::shared_ptr<glosa::engine::Model> load(const glosa::engine::ModelPackage &) const override
    {
        throw std::runtime_error("wrongapi test plugin: must never be instantiated");
    }
};

#include "wrongapiplugin.moc"
