// Test plugin: a word-by-word translator. At step t the next-token distribution is row
// source[t] of the package's table [vocab, vocab] (log-probabilities); once the source (EOS
// included) is consumed only EOS remains. The attention puts 0.9 on source position t.
#include "engine/package.h"
#include "engine/translation/translationmodel.h"
#include "plugins/modelplugin.h"
#include "tests/plugins/toytranslator/tablestepdecoder.h"

#include <QObject>

#include <cmath>

namespace {

using glosa::engine::Tensor;
using Tokens = std::vector<std::int32_t>;

std::unique_ptr<glosa::engine::TextStepDecoder> makeDecoder(Tensor table, std::int32_t startToken,
                                                            std::int32_t endToken)
{
    const std::int64_t vocabulary = table.dim(0);
    auto distribution = [table, vocabulary, endToken](const Tokens &source, const Tokens &history) {
        std::vector<double> p(vocabulary, 0.0);
        if (history.size() >= source.size()) {
            p[endToken] = 1.0;
            return p;
        }
        const float *row = table.data<float>() + source[history.size()] * vocabulary;
        for (std::int64_t v = 0; v < vocabulary; ++v)
            p[v] = std::exp(static_cast<double>(row[v]));
        return p;
    };
    auto attention = [](const Tokens &source, const Tokens &history) {
        const std::size_t n = source.size();
        std::vector<double> weights(n, n > 1 ? 0.1 / static_cast<double>(n - 1) : 0.0);
        weights[std::min(history.size(), n - 1)] = n > 1 ? 0.9 : 1.0;
        return weights;
    };
    return std::make_unique<glosa::toy::TableStepDecoder>(vocabulary, startToken, endToken,
                                                          distribution, attention);
}

} // namespace

class ToyTranslatorPlugin : public QObject, public glosa::ModelPluginInterface
{
    Q_OBJECT
    Q_PLUGIN_METADATA(IID GlosaModelPluginInterface_iid FILE "toytranslator.json")
    Q_INTERFACES(glosa::ModelPluginInterface)

public:

    std::shared_ptr<glosa::engine::Model>
    load(const glosa::engine::ModelPackage &package) const override
    {
        const auto vocabulary = package.hyperparameter<std::int64_t>("vocab_size");
        package.requireTensors({{"table", {vocabulary, vocabulary}}});
        const auto &target = *package.targetTokenizer();
        return std::make_shared<glosa::engine::TranslationModel>(
            package, makeDecoder(package.weight("table", {vocabulary, vocabulary}), target.bosId(),
                                 target.eosId()));
    }
};

#include "toytranslatorplugin.moc"
