#include "engine/layers/stategather.h"

#include <algorithm>
#include <cstring>
#include <functional>
#include <stdexcept>
#include <string>

namespace glosa::engine::layers {

void gatherStateRows(Tensor &rows, const std::vector<std::int32_t> &origins, Tensor &spare,
                     std::int64_t used)
{
    if (rows.rank() == 0)
        throw std::invalid_argument("gatherStateRows: the state is a scalar");
    const std::int64_t count = rows.dim(0);
    const std::int64_t width = count ? rows.numel() / count : 0;
    const std::int64_t copied = used < 0 ? width : std::min(used, width);
    for (std::int32_t origin : origins)
        if (origin < 0 || origin >= count)
            throw std::out_of_range("gatherStateRows: origin " + std::to_string(origin) +
                                    " outside [0, " + std::to_string(count) + ")");
    if (std::is_sorted(origins.begin(), origins.end(), std::less_equal<>())) {
        // origins[i] >= i: no row is overwritten before it is read. The first rows, as a view,
        // keep the buffer (a later resize() that fits reuses it).
        float *base = rows.data<float>();
        for (std::size_t i = 0; i < origins.size(); ++i)
            if (origins[i] != static_cast<std::int32_t>(i))
                std::memcpy(base + i * width, base + origins[i] * width, copied * sizeof(float));
        rows = rows.slice(0, static_cast<std::int64_t>(origins.size()));
        return;
    }
    Shape shape = rows.shape();
    shape[0] = static_cast<std::int64_t>(origins.size());
    spare.resize(shape);
    const float *src = rows.data<float>();
    float *dst = spare.data<float>();
    for (std::size_t i = 0; i < origins.size(); ++i)
        std::memcpy(dst + i * width, src + origins[i] * width, copied * sizeof(float));
    std::swap(rows, spare);
}

void RowTensors::add(Tensor &tensor, std::function<std::int64_t()> usedFloats)
{
    m_entries.push_back({&tensor, std::move(usedFloats)});
}

void RowTensors::gather(const std::vector<std::int32_t> &origins)
{
    for (const Entry &entry : m_entries)
        if (!entry.tensor->empty())
            gatherStateRows(*entry.tensor, origins, m_spare,
                            entry.usedFloats ? entry.usedFloats() : -1);
}

} // namespace glosa::engine::layers
