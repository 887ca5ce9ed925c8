// AlignmentSource: the optional interface of a step decoder whose attention can come from one of
// several layers and heads (the Transformer's cross-attention), so that the GUI can let users
// switch between them without knowing the plugin's classes:
//
//     if (AlignmentSource *source = translationModel->decoder().alignmentSource()) {
//         for (int l = 0; l < source->alignmentLayers(); ++l) ... source->alignmentHeads() ...
//         source->setAlignment(1, AlignmentSource::kAverageHeads);
//     }                                              // null for models with one attention
//
// StepDecoder::alignmentSource() hands it out, so that no caller casts across the plugin
// boundary. Call setAlignment() between translations, on the thread that owns the model.
#pragma once

namespace glosa::engine {

class AlignmentSource
{
public:
    // setAlignment()'s head value for the mean over all heads of the layer.
    static constexpr int kAverageHeads = -1;

    virtual ~AlignmentSource() = default;

    virtual int alignmentLayers() const = 0; // layers to choose from
    virtual int alignmentHeads() const = 0;  // heads per layer
    // layer in [0, alignmentLayers()), head in [0, alignmentHeads()) or kAverageHeads; throws
    // std::out_of_range. Takes effect at the next step.
    virtual void setAlignment(int layer, int head) = 0;
    virtual int alignmentLayer() const = 0;
    virtual int alignmentHead() const = 0;
};

} // namespace glosa::engine
