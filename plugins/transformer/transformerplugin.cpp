// The "transformer" model plugin: loads packages whose model.json says "architecture":
// "transformer" (tools/train_transformer.py, exported by tools/export_package.py).
#include "engine/package.h"
#include "engine/translation/translationmodel.h"
#include "plugins/modelplugin.h"
#include "plugins/transformer/transformerdecoder.h"

#include <QObject>

class TransformerPlugin : public QObject, public glosa::ModelPluginInterface
{
    Q_OBJECT
    Q_PLUGIN_METADATA(IID GlosaModelPluginInterface_iid FILE "transformer.json")
    Q_INTERFACES(glosa::ModelPluginInterface)

public:
    QStringList architectures() const override { return {QStringLiteral("transformer")}; }

    std::shared_ptr<glosa::engine::Model>
    load(const glosa::engine::ModelPackage &package) const override
    {
        return std::make_shared<glosa::engine::TranslationModel>(
            package, std::make_unique<glosa::transformer::TransformerDecoder>(package));
    }
};

#include "transformerplugin.moc"
