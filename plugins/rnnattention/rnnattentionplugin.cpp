// The "rnnattention" model plugin: loads packages whose model.json says "architecture":
// "rnn-attention" (tools/train_rnn.py, exported by tools/export_package.py).
#include "engine/package.h"
#include "plugins/modelplugin.h"
#include "plugins/rnnattention/rnnattentionmodel.h"

#include <QObject>

class RnnAttentionPlugin : public QObject, public glosa::ModelPluginInterface
{
    Q_OBJECT
    Q_PLUGIN_METADATA(IID GlosaModelPluginInterface_iid FILE "rnnattention.json")
    Q_INTERFACES(glosa::ModelPluginInterface)

public:
    QStringList architectures() const override { return {QStringLiteral("rnn-attention")}; }

    std::shared_ptr<glosa::engine::Model>
    load(const glosa::engine::ModelPackage &package) const override
    {
        return std::make_shared<glosa::rnnattention::RnnAttentionModel>(package);
    }
};

#include "rnnattentionplugin.moc"
