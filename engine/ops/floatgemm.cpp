#include "engine/ops/floatgemm.h"

#include "engine/ops/panelkernel.h"

#include <immintrin.h>
#include <omp.h>

#include <algorithm>

namespace glosa::engine::ops::detail {

namespace {

constexpr std::int64_t kLanes = 16; // output channels per zmm
constexpr int kPanelBlocks = 4;     // zmm per k step of a panel
constexpr std::int64_t kPanelChannels = kLanes * kPanelBlocks;
constexpr std::int64_t kLineFloats = 16; // one cache line
static_assert(kPanelChannels == PanelSchedule::kPanelChannels);

#define GLOSA_GEMM_TARGET __attribute__((target("avx512f")))

// What every tile of one call reads and writes.
struct Call
{
    const float *x; // [m][k]
    const FloatGemmWeights *w;
    const float *bias; // [n] or null
    bool relu;
    float *y; // [m][n]
    // How many tiles share the prefetching of the next chunk (each 4 / sharers lines a k step).
    std::int64_t sharers;
};

// Bias and ReLU on the R rows' sums of the 16 channels from `first`, stored to y.
template <int R>
GLOSA_GEMM_TARGET inline void store(const Call &c, std::int64_t row, std::int64_t first,
                                    const __m512 (&acc)[R])
{
    const std::int64_t n = c.w->n;
    const std::int64_t valid = std::min<std::int64_t>(kLanes, n - first);
    const auto mask = static_cast<__mmask16>(valid >= kLanes ? 0xffff : (1u << valid) - 1);
    const __m512 bias = c.bias ? _mm512_maskz_loadu_ps(mask, c.bias + first) : _mm512_setzero_ps();
#pragma GCC unroll 8
    for (int i = 0; i < R; ++i) {
        __m512 v = c.bias ? _mm512_add_ps(acc[i], bias) : acc[i];
        if (c.relu) // maskz: GCC 12's unmasked form warns of its undefined pass-through (PR 105593)
            v = _mm512_maskz_max_ps(0xffff, v, _mm512_setzero_ps());
        _mm512_mask_storeu_ps(c.y + (row + i) * n + first, mask, v);
    }
}

// Rows [row, row + R) against the P panels from `panel` (P · 64 output channels): each 64
// weights are loaded once for the R rows, the R · 4P sums stay in registers for all of K.
// `prefetch` (or null): 4Pk / c.sharers lines of the next chunk (a panel's k steps are 4k
// lines), spread evenly over the k steps, to bring into L2.
template <int R, int P>
GLOSA_GEMM_TARGET void tile(const Call &c, std::int64_t row, std::int64_t panel,
                            const float *prefetch)
{
    constexpr int B = P * kPanelBlocks;
    __m512 acc[B][R];
#pragma GCC unroll 16
    for (int b = 0; b < B; ++b)
#pragma GCC unroll 16
        for (int i = 0; i < R; ++i)
            acc[b][i] = _mm512_setzero_ps();
    const std::int64_t k = c.w->k, panelFloats = k * kPanelChannels;
    const float *wp = c.w->packed.data() + panel * panelFloats;
    const float *x = c.x + row * k;
    std::int64_t credit = 0;
    for (std::int64_t s = 0; s < k; ++s) {
        if (prefetch)
            for (credit += B; credit >= c.sharers; credit -= c.sharers) {
                _mm_prefetch(reinterpret_cast<const char *>(prefetch), _MM_HINT_T1);
                prefetch += kLineFloats;
            }
        __m512 wv[B];
#pragma GCC unroll 16
        for (int b = 0; b < B; ++b)
            wv[b] = _mm512_load_ps(wp + (b / kPanelBlocks) * panelFloats + s * kPanelChannels +
                                   (b % kPanelBlocks) * kLanes);
#pragma GCC unroll 16
        for (int i = 0; i < R; ++i) {
            const __m512 xv = _mm512_set1_ps(x[i * k + s]);
#pragma GCC unroll 16
            for (int b = 0; b < B; ++b)
                acc[b][i] = _mm512_fmadd_ps(xv, wv[b], acc[b][i]);
        }
    }
#pragma GCC unroll 16
    for (int b = 0; b < B; ++b) {
        const std::int64_t first = panel * kPanelChannels + b * kLanes;
        if (first >= c.w->n)
            break;
        store<R>(c, row, first, acc[b]);
    }
}

using TileFunction = void (*)(const Call &, std::int64_t row, std::int64_t panel,
                              const float *prefetch);

// The tile for `rows` rows (1..PanelSchedule::kTileRows) over `panels` panels (1, or 2 for up to
// 2 rows).
TileFunction tileFor(std::int64_t rows, std::int64_t panels)
{
    static constexpr TileFunction one[] = {nullptr,    tile<1, 1>, tile<2, 1>, tile<3, 1>,
                                           tile<4, 1>, tile<5, 1>, tile<6, 1>};
    static constexpr TileFunction two[] = {nullptr, tile<1, 2>, tile<2, 2>};
    return panels == 2 ? two[rows] : one[rows];
}

bool cpuHasAvx512()
{
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx512f");
}

constinit KernelRows kernelRows(dnnl::cpu_isa::avx512_core, cpuHasAvx512);

} // namespace

std::int64_t floatGemmMaxRows()
{
    return kernelRows.max();
}

void limitFloatGemmRows(std::int64_t rows)
{
    kernelRows.limit(rows);
}

FloatGemmWeights packFloatGemm(const float *w, std::int64_t n, std::int64_t k)
{
    FloatGemmWeights packed;
    packed.n = n;
    packed.k = k;
    const std::int64_t panels = (n + kPanelChannels - 1) / kPanelChannels;
    packed.packed.assign(static_cast<std::size_t>(panels * k * kPanelChannels), 0.0f);
    float *out = packed.packed.data();
    // Panel by panel, a k step of its 64 channels at a time: the writes run in sequence and the
    // reads stay in the 64 rows' current cache lines (against a channel at a time, whose writes
    // leap 256 bytes: 200 ms instead of 155 for the 65,001 × 512 output layer, one thread).
#pragma omp parallel for schedule(static) if (n * k >= (std::int64_t(1) << 20))
    for (std::int64_t p = 0; p < panels; ++p) {
        float *panel = out + p * k * kPanelChannels;
        const float *rows = w + p * kPanelChannels * k;
        const std::int64_t channels = std::min(kPanelChannels, n - p * kPanelChannels);
        for (std::int64_t s = 0; s < k; ++s)
            for (std::int64_t j = 0; j < channels; ++j)
                panel[s * kPanelChannels + j] = rows[j * k + s];
    }
    return packed;
}

void unpackFloatGemm(const FloatGemmWeights &w, float *out)
{
    for (std::int64_t j = 0; j < w.n; ++j) {
        const float *panel = w.packed.data() + (j / kPanelChannels) * w.k * kPanelChannels;
        for (std::int64_t s = 0; s < w.k; ++s)
            out[j * w.k + s] = panel[s * kPanelChannels + j % kPanelChannels];
    }
}

void floatGemm(const float *x, std::int64_t m, const FloatGemmWeights &w, const float *bias,
               bool relu, float *y)
{
    if (m <= 0)
        return;
    // Tiles and chunks as int8Gemv's (panelkernel.h). Every tile brings its share of the next
    // chunk into L2 while it computes: with the first four tiles only, as int8Gemv does,
    // 32 × 512 × 65,001 ran 1.2× oneDNN instead of 1.25–1.5×, 128 rows 1.0× instead of
    // 1.15–1.2×; one tile (up to 6 rows) prefetching a quarter of the
    // next panel instead of all of it, 4 rows 1.0× oneDNN instead of 1.1–1.25×
    // (`bench_linear --float --cold`). Not with one or two rows (two panels at a time, bound by
    // the bytes they stream): there the hardware's prefetcher keeps up, and ours competed with the
    // streams, 1 × 512 × 65,001 0.87–0.93× oneDNN and floatGemv against 1.0× without.
    const std::int64_t panelFloats = w.k * kPanelChannels;
    const PanelSchedule plan(m, w.n, w.k, panelFloats * std::int64_t(sizeof(float)),
                             omp_get_max_threads());
    const Call call{x, &w, bias, relu, y, plan.tiles};
    const std::int64_t panels = plan.panels, chunk = plan.chunk, step = plan.step;
    const bool parallel = plan.parallel;
#pragma omp parallel for schedule(static) if (parallel)
    for (std::int64_t part = 0; part < plan.chunks; ++part) {
        const std::int64_t begin = part * chunk, end = std::min(panels, begin + chunk);
        for (std::int64_t t = 0; t < plan.tiles; ++t) {
            const std::int64_t first = plan.firstRow(t), height = plan.height(t);
            // Tile t's share of the next chunk's lines: [t, t + 1) · lines / sharers.
            const std::int64_t lines = (end - begin) * w.k * kPanelBlocks;
            const float *next =
                end < panels && step == 1
                    ? w.packed.data() + end * panelFloats + t * lines / call.sharers * kLineFloats
                    : nullptr;
            for (std::int64_t panel = begin; panel < end; panel += step) {
                const std::int64_t done = (panel - begin) * w.k * kPanelBlocks / call.sharers;
                const float *ahead = next ? next + done * kLineFloats : nullptr;
                tileFor(height, std::min(step, end - panel))(call, first, panel, ahead);
            }
        }
    }
}

} // namespace glosa::engine::ops::detail
