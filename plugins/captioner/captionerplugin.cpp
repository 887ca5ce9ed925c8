// The "captioner" model plugin: loads packages whose model.json says "architecture":
// "show-attend-tell" (tools/train_captioner.py train, then export).
#include "engine/package.h"
#include "plugins/captioner/captionermodel.h"
#include "plugins/modelplugin.h"

#include <QObject>

class CaptionerPlugin : public QObject, public glosa::ModelPluginInterface
{
    Q_OBJECT
    Q_PLUGIN_METADATA(IID GlosaModelPluginInterface_iid FILE "captioner.json")
    Q_INTERFACES(glosa::ModelPluginInterface)

public:

    std::shared_ptr<glosa::engine::Model>
    load(const glosa::engine::ModelPackage &package) const override
    {
        return glosa::captioner::loadCaptioner(package);
    }
};

#include "captionerplugin.moc"
