#include "plugins/captioner/captionermodel.h"

#include "plugins/captioner/captionerdecoder.h"
#include "plugins/captioner/captionerencoder.h"

namespace glosa::captioner {

std::unique_ptr<engine::CaptioningModel> loadCaptioner(const engine::ModelPackage &package)
{
    const CaptionerConfig config = CaptionerConfig::fromPackage(package);
    auto encoder = std::make_unique<CaptionerEncoder>(package, config);
    auto decoder = std::make_unique<CaptionerDecoder>(package, config);
    return std::make_unique<engine::CaptioningModel>(package, std::move(encoder),
                                                     std::move(decoder));
}

} // namespace glosa::captioner
