// Safetensors header and data: engine::SafeTensorsFile (mapped from a file, as packages are).
#include "engine/packageerror.h"
#include "engine/safetensors.h"
#include "tests/fuzz/fuzzutil.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    const QString path = glosa::fuzz::writeInput(data, size, ".safetensors");
    try {
        const glosa::engine::SafeTensorsFile file(path.toStdString());
        for (const std::string &name : file.names())
            (void)file.loadFloat(name); // every tensor converted, as a plugin does at load
    } catch (const glosa::engine::PackageError &) {
    }
    return 0;
}
