// What our own panel kernels (int8gemv.h, floatgemm.h) share: which calls they take
// (KernelRows) and how a call splits into row tiles and chunks of weight panels (PanelSchedule).
#pragma once

#include <oneapi/dnnl/dnnl.hpp>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <limits>
#include <mutex>

namespace glosa::engine::ops::detail {

// Up to how many rows a kernel runs: every call where the CPU has the instructions the kernel is
// compiled for and oneDNN may use `isa` (ONEDNN_MAX_CPU_ISA below it is how tests and benchmarks
// stand in for a machine without it: then oneDNN's kernels run, as there), else none; capped by a
// limit that tests and benchmarks set to send calls to oneDNN.
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

// A call of m rows against n output channels in panels of 64, each panelBytes of weights.
// Rows in tiles of at most 6 (6 × 4 accumulators + 4 weights + 1 broadcast ≤ 32 zmm), as even as
// they come (32 rows: 6, 6, 5, 5, 5, 5); one or two rows take two panels at a time (`step`), for
// more sums in flight. Every tile passes over a chunk of panels in turn, then the next chunk,
// while tiles bring the next chunk into L2. With up to 12 tiles (72 rows) a chunk is one panel:
// the next streams in from L3 while the tiles compute on this one (a decoder step's weights are
// not in L2). More tiles wrote 256 bytes per row and panel to that many rows, which cost more
// than the weights (int8, 128 × 65,001: 1.2× slower), and take chunks of up to 512 KB of
// weights, kept in L2, so that each tile writes runs of the chunk's width. At least one chunk per
// thread; OpenMP threads are worth waking from 64 K weights on.
struct PanelSchedule
{
    static constexpr std::int64_t kPanelChannels = 64;
    static constexpr std::int64_t kTileRows = 6;
    static constexpr std::int64_t kChunkBytes = std::int64_t(512) << 10;

    PanelSchedule(std::int64_t m, std::int64_t n, std::int64_t k, std::int64_t panelBytes,
                  std::int64_t threads)
        : tiles((m + kTileRows - 1) / kTileRows), rows(m / tiles), longer(m % tiles),
          panels((n + kPanelChannels - 1) / kPanelChannels), step(m <= 2 ? 2 : 1)
    {
        chunk = tiles > 12 ? std::max<std::int64_t>(1, kChunkBytes / panelBytes) : 1;
        chunk = std::min(chunk, (panels + threads - 1) / threads);
        chunk = (chunk + step - 1) / step * step;
        chunks = (panels + chunk - 1) / chunk;
        parallel = n * k >= (std::int64_t(1) << 16) && chunks > 1;
    }
    // Tile t's first row and its number of rows.
    std::int64_t firstRow(std::int64_t t) const { return t * rows + std::min(t, longer); }
    std::int64_t height(std::int64_t t) const { return rows + (t < longer ? 1 : 0); }

    std::int64_t tiles, rows, longer, panels, step;
    std::int64_t chunk = 1, chunks = 1; // panels a chunk, chunks a call
    bool parallel = false;
};

} // namespace glosa::engine::ops::detail
