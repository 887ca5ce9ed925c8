// KernelRows: up to how many rows one of our own kernels (int8gemv.h, floatgemm.h) runs. Every
// call where the CPU has the instructions the kernel is compiled for and oneDNN may use `isa`
// (ONEDNN_MAX_CPU_ISA below it is how tests and benchmarks stand in for a machine without it:
// then oneDNN's kernels run, as there), else none; capped by a limit that tests and benchmarks
// set to send calls to oneDNN.
#pragma once

#include <oneapi/dnnl/dnnl.hpp>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <limits>
#include <mutex>

namespace glosa::engine::ops::detail {

class KernelRows
{
public:
    // cpuHas: whether the CPU has the kernel's instructions (asked once, at the first max()).
    constexpr KernelRows(dnnl::cpu_isa isa, bool (*cpuHas)()) : m_isa(isa), m_cpuHas(cpuHas) {}

    std::int64_t max() const
    {
        std::call_once(m_once, [this] {
            const auto allowed = static_cast<unsigned>(dnnl::get_effective_cpu_isa());
            const auto needed = static_cast<unsigned>(m_isa);
            m_cpu = m_cpuHas() && (allowed & needed) == needed
                        ? std::numeric_limits<std::int64_t>::max()
                        : 0;
        });
        const std::int64_t limit = m_limit.load(std::memory_order_relaxed);
        return limit < 0 ? m_cpu : std::min(limit, m_cpu);
    }
    // At most `rows` from now on (0: every call takes oneDNN), or what the CPU allows again with
    // -1. Not to be changed while calls run.
    void limit(std::int64_t rows) { m_limit.store(rows, std::memory_order_relaxed); }

private:
    dnnl::cpu_isa m_isa;
    bool (*m_cpuHas)();
    mutable std::once_flag m_once;
    mutable std::int64_t m_cpu = 0;
    std::atomic<std::int64_t> m_limit{-1};
};

} // namespace glosa::engine::ops::detail
