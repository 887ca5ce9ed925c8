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

    std::shared_ptr<glosa::engine::Model>
    load(const glosa::engine::ModelPackage &package) const override
    {
        auto decoder = std::make_unique<glosa::transformer::TransformerDecoder>(package);
        // Sources longer than max_positions cannot be encoded: let the Translator cut them
        // into chunks that fit instead of failing the sentence.
        const auto positions = static_cast<int>(decoder->config().maxPositions);
        auto model = std::make_shared<glosa::engine::TranslationModel>(package, std::move(decoder));
        if (model->maxSourceLength() > positions)
            model->setMaxSourceLength(positions);
        return model;
    }
};

#include "transformerplugin.moc"
