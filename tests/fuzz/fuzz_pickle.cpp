// pytorch_model.bin: the whitelisted pickle machine on data.pkl's bytes
// (engine::readStateDictPickle), and the whole checkpoint (zip directory, pickle, storages,
// strided gathers) through engine::TorchCheckpoint when the input is a zip archive. Seeds:
// corpus/fuzz_pickle (the fixture's data.pkl, the hostile checkpoints of
// tests/data/hostile/marian).
#include "engine/import/torchcheckpoint.h"
#include "engine/packageerror.h"
#include "tests/fuzz/fuzzutil.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    const std::string_view bytes(reinterpret_cast<const char *>(data), size);
    try {
        (void)glosa::engine::readStateDictPickle(bytes, "data.pkl");
    } catch (const glosa::engine::PackageError &) {
    }
    if (size >= 2 && bytes.substr(0, 2) == "PK") {
        const QString path = glosa::fuzz::writeInput(data, size, ".bin");
        try {
            const glosa::engine::TorchCheckpoint checkpoint(path.toStdString());
            for (const std::string &name : checkpoint.names())
                (void)checkpoint.loadFloat(name);
        } catch (const glosa::engine::PackageError &) {
        }
    }
    return 0;
}
