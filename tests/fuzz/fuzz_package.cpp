// The model package: an arbitrary model.json next to the real weights and tokenizer of the parity
// Transformer, loaded the way the app loads any package (ModelCatalog::readPackage, then
// ModelCatalog::load through the real plugin registry and the transformer plugin).
#include "app/core/models/modelcatalog.h"
#include "app/core/models/pluginregistry.h"
#include "tests/fuzz/fuzzutil.h"

#include <QDir>
#include <QFile>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    using namespace glosa;
    fuzz::ensureApp();
    static const QString folder = [] {
        const QString dir = QStringLiteral("/tmp/glosa-fuzz-package-%1").arg(getpid());
        QDir().mkpath(dir);
        const QString source = QStringLiteral(GLOSA_TEST_DATA_DIR "/parity/transformer-tiny/");
        for (const char *name : {"model.safetensors", "spm.model"}) {
            QFile::remove(dir + '/' + name);
            QFile::copy(source + name, dir + '/' + name);
        }
        return dir;
    }();
    static PluginRegistry *plugins = [] {
        auto *registry = new PluginRegistry;
        registry->scan({QStringLiteral(GLOSA_PLUGIN_DIR)});
        return registry;
    }();
    QFile manifest(folder + QStringLiteral("/model.json"));
    if (!manifest.open(QIODevice::WriteOnly | QIODevice::Truncate))
        std::abort();
    manifest.write(reinterpret_cast<const char *>(data), qint64(size));
    manifest.close();
    const ModelInfo info = ModelCatalog::readPackage(folder);
    if (info.isValid()) {
        QString error;
        (void)ModelCatalog::load(info, *plugins, &error); // null with the error: fine
    }
    return 0;
}
