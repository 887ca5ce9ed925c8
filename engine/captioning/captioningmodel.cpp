#include "engine/captioning/captioningmodel.h"

#include "engine/decoding/decodingfields.h"
#include "engine/package.h"
#include "engine/runtime.h"
#include "engine/vision/imageprep.h"

#include <stdexcept>
#include <utility>

namespace glosa::engine {

// Out of line, as StepDecoder's: one typeinfo, in the engine library, for dynamic_cast across the
// plugins.
ImageEncoder::~ImageEncoder() = default;

CaptioningModel::CaptioningModel(const ModelPackage &package, std::unique_ptr<ImageEncoder> encoder,
                                 std::unique_ptr<StepDecoder> decoder)
    : m_id(package.id()), m_tokenizer(package.targetTokenizer()), m_encoder(std::move(encoder)),
      m_decoder(std::move(decoder)), m_defaults(decodingOptionsFromJson(package.decoding()))
{
    if (!m_encoder || !m_decoder)
        throw std::invalid_argument("CaptioningModel " + m_id +
                                    ": a captioning model needs an image encoder and a decoder");
    if (!m_tokenizer)
        throw std::invalid_argument("CaptioningModel " + m_id + ": the package has no tokenizer");
    m_defaults.validate(m_decoder->vocabularySize());
}

CaptioningModel::~CaptioningModel() = default;

ImageCaption CaptioningModel::caption(const std::uint8_t *rgb, int width, int height,
                                      const DecodingOptions &options,
                                      const DecodingControl &control)
{
    if (control.cancelled && control.cancelled())
        throw DecodingCancelled();
    const runtime::WorkThreads threads; // the cores idle now, where the user chose none
    const Tensor input =
        vision::prepareRgb(rgb, width, height, m_encoder->inputWidth(), m_encoder->inputHeight());
    std::vector<DecodingResult> results =
        decode(*m_decoder, m_encoder->encode(input), options, control);
    ImageCaption caption;
    caption.result = std::move(results.at(0));
    caption.gridRows = m_encoder->gridRows();
    caption.gridCols = m_encoder->gridCols();
    return caption;
}

} // namespace glosa::engine
