// Test plugin: correct metadata and interface, but the library cannot be loaded because it needs
// a symbol nothing provides — the situation of a plugin built against another engine version.
#include "plugins/modelplugin.h"

#include <QObject>

#include <stdexcept>
#include <string>

extern "C" int glosa_test_symbol_that_does_not_exist;

class UnresolvedPlugin : public QObject, public glosa::ModelPluginInterface
{
    Q_OBJECT
    Q_PLUGIN_METADATA(IID GlosaModelPluginInterface_iid FILE "unresolved.json")
    Q_INTERFACES(glosa::ModelPluginInterface)

public:
    std::shared_ptr<glosa::engine::Model> load(const glosa::engine::ModelPackage &) const override
    {
        throw std::runtime_error("unresolved test plugin: cannot be loaded " +
                                 std::to_string(glosa_test_symbol_that_does_not_exist));
    }
};

#include "unresolvedplugin.moc"
