// Attention building blocks the model families share (engine/layers: above the ops, below the
// plugins). Each plugin computes its own scores — the Transformer's and Luong's scaled dot
// product, Bahdanau's additive score, Show-Attend-and-Tell's ReLU MLP — and the normalisation and
// the weighted sum are common:
//
//     float scores[n];
//     layers::dotScores(q, keys, keyStride, n, dh, 1 / sqrt(dh), scores);
//     layers::softmaxWeightedSum(scores, n, values, valueStride, dh, out); // scores become p
//
// Positions past `n` (padding of a shorter sentence, the future in masked self-attention) are
// never visited, which equals masking them with -inf. All arithmetic is fp32, the max is
// subtracted before exp (PyTorch's softmax), and each dot product is summed in one fixed order
// (four lanes, attention.cpp) whichever path computes it, so that the scores never depend on how
// many keys a call has.
#pragma once

#include <cstdint>

namespace glosa::engine::layers {

// scores[j] = scale · (q · k[j]) for j < n; k[j] at k + j * kStride, `dim` floats each.
void dotScores(const float *q, const float *k, std::int64_t kStride, std::int64_t n,
               std::int64_t dim, float scale, float *scores);

// scores[j] = v · tanh(q + k[j]) for j < n (Bahdanau et al. 2015, eq. 6 with the projections
// already applied to q and k); k[j] at k + j * kStride, `dim` floats each.
void additiveScores(const float *v, const float *q, const float *k, std::int64_t kStride,
                    std::int64_t n, std::int64_t dim, float *scores);

// p = softmax(scores[0, n)) written over scores, then out = Σ_j p_j · values[j] (values[j] at
// values + j * valueStride, `width` floats). n ≥ 1.
void softmaxWeightedSum(float *scores, std::int64_t n, const float *values,
                        std::int64_t valueStride, std::int64_t width, float *out);

} // namespace glosa::engine::layers
