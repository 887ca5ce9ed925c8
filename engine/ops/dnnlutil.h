// Internal helpers shared by the oneDNN-backed ops (not part of the public engine API).
#pragma once

#include "engine/ops/activation.h"
#include "engine/runtime.h"
#include "engine/tensor.h"

#include <oneapi/dnnl/dnnl.hpp>

#include <algorithm>
#include <cstring>

#include <map>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <vector>

namespace glosa::engine::ops::detail {

using dt = dnnl::memory::data_type;
using tag = dnnl::memory::format_tag;

inline dnnl::memory::dims toDims(const Shape &shape)
{
    return dnnl::memory::dims(shape.begin(), shape.end());
}

// Throws std::invalid_argument "<op>: <what> must be F32, got I32 [2, 3]".
void requireF32(const Tensor &t, const char *op, const char *what);
void requireRank(const Tensor &t, int rank, const char *op, const char *what);
void requireNonEmpty(const Tensor &t, const char *op, const char *what);
// A linear layer's weight [out, in] (non-empty) and bias [out] or empty.
void requireLinearWeights(const Tensor &weight, const Tensor &bias, const char *op);

// Attribute with the user scratchpad (see runtime::threadScratchpad) and an optional activation
// post-op.
dnnl::primitive_attr makeAttr(Activation activation = Activation::None);
void appendActivation(dnnl::post_ops &ops, Activation activation);
// Maps an activation onto a oneDNN eltwise algorithm and its alpha/beta.
void eltwiseParams(Activation activation, dnnl::algorithm &alg, float &alpha, float &beta);

// Wraps a tensor's storage (not copied; the tensor must outlive the call).
inline dnnl::memory wrap(const dnnl::memory::desc &md, const Tensor &t)
{
    return dnnl::memory(md, runtime::engine(), const_cast<void *>(t.raw()));
}

// Executes on the calling thread's stream with a thread-local scratchpad, and waits.
void execute(const dnnl::primitive &prim, const dnnl::primitive_desc_base &pd,
             std::unordered_map<int, dnnl::memory> args);

// A small thread-safe map from a shape key to immutable entries (primitives and their
// descriptors). Entries are handed out as shared_ptr so that clearing the map on overflow never
// pulls an entry from under a thread that is still executing it.
template <typename Entry> class ShapeCache
{
public:
    using Key = std::vector<std::int64_t>;
    explicit ShapeCache(std::size_t capacity = 256) : m_capacity(capacity) {}

    template <typename Make> std::shared_ptr<const Entry> get(const Key &key, Make &&make) const
    {
        {
            std::lock_guard lock(m_mutex);
            auto it = m_entries.find(key);
            if (it != m_entries.end())
                return it->second;
        }
        // Created outside the lock: primitive creation can take milliseconds (JIT).
        auto entry = std::make_shared<const Entry>(make());
        std::lock_guard lock(m_mutex);
        if (m_entries.size() >= m_capacity)
            m_entries.clear(); // unbounded key sets (sentence lengths) must not grow forever
        return m_entries.emplace(key, std::move(entry)).first->second;
    }

private:
    std::size_t m_capacity;
    mutable std::mutex m_mutex;
    mutable std::map<Key, std::shared_ptr<const Entry>> m_entries;
};

// Weights in every layout the primitives of an op ask for: each layout is reordered once from
// `source` (kept as the reference copy) and then shared. Thread-safe.
class PackedWeights
{
public:
    // Set once, before the first get().
    void setSource(dnnl::memory source) { m_source = std::move(source); }

    dnnl::memory get(const dnnl::memory::desc &layout) const
    {
        if (m_source.get_desc() == layout)
            return m_source;
        std::lock_guard lock(m_mutex);
        for (const dnnl::memory &m : m_packed)
            if (m.get_desc() == layout)
                return m;
        dnnl::memory source = m_source; // a handle: the execute arguments are not const
        dnnl::memory converted(layout, runtime::engine());
        dnnl::reorder(source, converted).execute(runtime::stream(), source, converted);
        runtime::stream().wait();
        m_packed.push_back(converted);
        return converted;
    }

private:
    dnnl::memory m_source;
    mutable std::mutex m_mutex;
    mutable std::vector<dnnl::memory> m_packed;
};

// fp32 copy (or the same tensor when already F32) of a weight given in any storage dtype.
Tensor floatWeights(const Tensor &t);

} // namespace glosa::engine::ops::detail
