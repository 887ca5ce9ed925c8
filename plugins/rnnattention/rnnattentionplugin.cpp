// The "rnnattention" model plugin: loads packages whose model.json says "architecture":
// "rnn-attention" (tools/train_rnn.py, exported by tools/export_package.py).
#include "engine/package.h"
#include "engine/translation/translationmodel.h"
#include "plugins/modelplugin.h"
#include "plugins/rnnattention/rnnattentiondecoder.h"

#include <QObject>

class RnnAttentionPlugin : public QObject, public glosa::ModelPluginInterface
{
    Q_OBJECT
    Q_PLUGIN_METADATA(IID GlosaModelPluginInterface_iid FILE "rnnattention.json")
    Q_INTERFACES(glosa::ModelPluginInterface)

public:

    std::shared_ptr<glosa::engine::Model>
    load(const glosa::engine::ModelPackage &package) const override
    {
        return std::make_shared<glosa::engine::TranslationModel>(
            package, std::make_unique<glosa::rnnattention::RnnAttentionDecoder>(package));
    }
};

#include "rnnattentionplugin.moc"
