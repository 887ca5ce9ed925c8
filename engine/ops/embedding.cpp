#include "engine/ops/embedding.h"

#include <cstring>
#include <stdexcept>
#include <string>

namespace glosa::engine::ops {

Embedding::Embedding(const Tensor &table) : Embedding(table, 1.0f) {}

Embedding::Embedding(const Tensor &table, float scale) : m_scale(scale)
{
    if (table.rank() != 2 || table.empty())
        throw std::invalid_argument("Embedding: table must be [vocab, dim], got " +
                                    shapeToString(table.shape()));
    m_table = table.dtype() == DType::F32 ? table : table.toFloat32();
}

void Embedding::operator()(const Tensor &ids, Tensor &out) const
{
    if (m_table.empty())
        throw std::logic_error("Embedding: called on an empty (default-constructed) op");
    if (ids.dtype() != DType::I32)
        throw std::invalid_argument(std::string("Embedding: ids must be I32, got ") +
                                    dtypeName(ids.dtype()) + " " + shapeToString(ids.shape()));
    const std::int64_t vocab = m_table.dim(0), d = m_table.dim(1), n = ids.numel();
    const std::int32_t *pi = ids.data<std::int32_t>();
    // Validate everything before writing, so a bad id leaves `out` untouched.
    for (std::int64_t i = 0; i < n; ++i)
        if (pi[i] < 0 || pi[i] >= vocab)
            throw std::out_of_range("Embedding: id " + std::to_string(pi[i]) + " at position " +
                                    std::to_string(i) + " of ids " + shapeToString(ids.shape()) +
                                    " is outside [0, " + std::to_string(vocab) + ")");
    Shape shape = ids.shape();
    shape.push_back(d);
    out.resize(shape);
    const float *table = m_table.data<float>();
    float *po = out.data<float>();
    for (std::int64_t i = 0; i < n; ++i) {
        const float *row = table + static_cast<std::int64_t>(pi[i]) * d;
        if (m_scale == 1.0f) {
            std::memcpy(po + i * d, row, static_cast<std::size_t>(d) * sizeof(float));
        } else {
            for (std::int64_t k = 0; k < d; ++k)
                po[i * d + k] = row[k] * m_scale;
        }
    }
}

} // namespace glosa::engine::ops
