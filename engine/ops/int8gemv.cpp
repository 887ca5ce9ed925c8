#include "engine/ops/int8gemv.h"

#include "engine/ops/panelkernel.h"

#include <immintrin.h>
#include <omp.h>

#include <algorithm>
#include <cstring>
#include <limits>

namespace glosa::engine::ops::detail {

namespace {

constexpr std::int64_t kLanes = 16; // output channels per block (int32 lanes of a zmm)
constexpr std::int64_t kGroup = 4;  // input channels per lane (vpdpbusd)
constexpr std::int64_t kBlockBytes = kLanes * kGroup;
constexpr int kPanelBlocks = 4; // blocks per panel, interleaved in one stream
constexpr std::int64_t kPanelChannels = kLanes * kPanelBlocks;
constexpr std::int64_t kStepBytes = kBlockBytes * kPanelBlocks; // one group of a panel
static_assert(kPanelChannels == PanelSchedule::kPanelChannels);

#define GLOSA_VNNI_TARGET __attribute__((target("avx512f,avx512bw,avx512vnni")))

// What every tile of one call reads and writes.
struct Call
{
    const std::uint8_t *xu; // x + 128 as u8, [m][k4 · 4] (the padding past k is 128: x = 0)
    std::int64_t k4;
    const Int8GemvWeights *w;
    const float *scales;
    float *y; // [m][n]
    // The store's epilogue (Int8GemvEpilogue); rowMax: this thread's maxima so far, [m][16]
    // (one per lane, on 64-byte boundaries).
    const float *rowScales;
    const float *bias;
    bool relu;
    float *rowMax;
};

#define GLOSA_AVX512_TARGET __attribute__((target("avx512f")))

// v · s (+ bias) for 16 outputs of a row, as Int8GemvEpilogue spells out: `split` when they are
// the row's last 8-15, whose first 8 are multiplied and added apart.
GLOSA_AVX512_TARGET inline __m512 rescale(__m512 v, __m512 s, bool withBias, __m512 bias,
                                          bool split)
{
    if (!withBias)
        return _mm512_mul_ps(v, s);
    const __m512 fused = _mm512_fmadd_ps(v, s, bias);
    if (!split)
        return fused;
    __m512 product = _mm512_mul_ps(v, s);
    // The product rounded before the add: with the two in reach of each other GCC contracts
    // them into the fused form (-ffp-contract=fast, GNU C++'s default).
    asm("" : "+v"(product));
    return _mm512_mask_mov_ps(fused, 0x00ff, _mm512_add_ps(product, bias));
}

// The epilogue of 16 outputs of row `row` after the weight scale.
GLOSA_AVX512_TARGET inline __m512 finish(const Call &c, __m512 v, std::int64_t row, __m512 bias,
                                         bool split)
{
    if (!c.rowScales)
        return v;
    v = rescale(v, _mm512_set1_ps(c.rowScales[row]), c.bias != nullptr, bias, split);
    if (c.relu) // maxps(v, 0) gives its second operand for NaN and -0, as v > 0 ? v : 0 does
        v = _mm512_maskz_max_ps(0xffff, v, _mm512_setzero_ps());
    return v;
}

// Rows [row, row + R) against the P panels from `panel` (P · 64 output channels): each 64
// weight bytes are loaded once for the R rows, the R · 4P sums stay in registers for all of K.
// `prefetch` (or null): k4 lines of the next chunk, one an iteration, to bring into L2.
template <int R, int P>
GLOSA_VNNI_TARGET void tile(const Call &c, std::int64_t row, std::int64_t panel,
                            const std::int8_t *prefetch)
{
    constexpr int B = P * kPanelBlocks;
    __m512i acc[R][B];
#pragma GCC unroll 16
    for (int i = 0; i < R; ++i)
#pragma GCC unroll 16
        for (int b = 0; b < B; ++b)
            acc[i][b] = _mm512_setzero_si512();
    const std::int64_t k4 = c.k4, panelBytes = k4 * kStepBytes;
    const std::int8_t *wp = c.w->packed.data() + panel * panelBytes;
    const std::uint8_t *x = c.xu + row * k4 * kGroup;
    for (std::int64_t g = 0; g < k4; ++g) {
        if (prefetch)
            _mm_prefetch(reinterpret_cast<const char *>(prefetch + g * kBlockBytes), _MM_HINT_T1);
        __m512i wv[B];
#pragma GCC unroll 16
        for (int b = 0; b < B; ++b)
            wv[b] = _mm512_load_si512(wp + (b / kPanelBlocks) * panelBytes + g * kStepBytes +
                                      (b % kPanelBlocks) * kBlockBytes);
#pragma GCC unroll 16
        for (int i = 0; i < R; ++i) {
            std::int32_t four;
            std::memcpy(&four, x + (i * k4 + g) * kGroup, sizeof four);
            const __m512i xv = _mm512_set1_epi32(four);
#pragma GCC unroll 16
            for (int b = 0; b < B; ++b)
                acc[i][b] = _mm512_dpbusd_epi32(acc[i][b], xv, wv[b]);
        }
    }
    const std::int64_t n = c.w->n;
    __m512 best[R];
#pragma GCC unroll 16
    for (int i = 0; i < R; ++i)
        best[i] = _mm512_set1_ps(-std::numeric_limits<float>::infinity());
#pragma GCC unroll 16
    for (int b = 0; b < B; ++b) {
        const std::int64_t first = panel * kPanelChannels + b * kLanes;
        if (first >= n)
            break;
        const std::int64_t valid = std::min<std::int64_t>(kLanes, n - first);
        const auto mask = static_cast<__mmask16>(valid >= kLanes ? 0xffff : (1u << valid) - 1);
        const __m512i compensation = _mm512_loadu_si512(c.w->compensation.data() + first);
        const __m512 scale = _mm512_maskz_loadu_ps(mask, c.scales + first);
        const __m512 bias =
            c.bias ? _mm512_maskz_loadu_ps(mask, c.bias + first) : _mm512_setzero_ps();
        const bool split = valid >= 8 && valid < kLanes; // the row's last 8-15 outputs
#pragma GCC unroll 16
        for (int i = 0; i < R; ++i) {
            // float(exact sum) · scale: what oneDNN's int8 kernels store.
            // maskz: GCC 12's unmasked form warns of its undefined pass-through (PR 105593).
            const __m512 sum =
                _mm512_maskz_cvtepi32_ps(0xffff, _mm512_sub_epi32(acc[i][b], compensation));
            const __m512 v = finish(c, _mm512_mul_ps(sum, scale), row + i, bias, split);
            _mm512_mask_storeu_ps(c.y + (row + i) * n + first, mask, v);
            if (c.rowMax) // maxps(v, best) keeps best where v is NaN
                best[i] = _mm512_mask_max_ps(best[i], mask, v, best[i]);
        }
    }
    if (c.rowMax) // lane by lane: the 16 lanes are reduced once, at the end of the call
#pragma GCC unroll 16
        for (int i = 0; i < R; ++i) {
            float *lanes = c.rowMax + (row + i) * kLanes;
            _mm512_store_ps(lanes, _mm512_maskz_max_ps(0xffff, best[i], _mm512_load_ps(lanes)));
        }
}

using TileFunction = void (*)(const Call &, std::int64_t row, std::int64_t panel,
                              const std::int8_t *prefetch);

// The tile for `rows` rows (1..PanelSchedule::kTileRows) over `panels` panels (1, or 2 for up to
// 2 rows).
TileFunction tileFor(std::int64_t rows, std::int64_t panels)
{
    static constexpr TileFunction one[] = {nullptr,    tile<1, 1>, tile<2, 1>, tile<3, 1>,
                                           tile<4, 1>, tile<5, 1>, tile<6, 1>};
    static constexpr TileFunction two[] = {nullptr, tile<1, 2>, tile<2, 2>};
    return panels == 2 ? two[rows] : one[rows];
}

// x + 128 as unsigned bytes (the sign bit flipped), each row padded to k4 · 4 with 128.
GLOSA_VNNI_TARGET void toUnsigned(const std::int8_t *x, std::int64_t m, std::int64_t k,
                                  std::int64_t k4, std::uint8_t *xu)
{
    const __m512i flip = _mm512_set1_epi8(static_cast<char>(0x80));
    for (std::int64_t i = 0; i < m; ++i) {
        const std::int8_t *in = x + i * k;
        std::uint8_t *out = xu + i * k4 * kGroup;
        for (std::int64_t c = 0; c < k; c += 64) {
            const std::int64_t left = std::min<std::int64_t>(64, k - c);
            const __mmask64 mask = left == 64 ? ~__mmask64(0) : (__mmask64(1) << left) - 1;
            _mm512_mask_storeu_epi8(out + c, mask,
                                    _mm512_xor_si512(_mm512_maskz_loadu_epi8(mask, in + c), flip));
        }
        for (std::int64_t c = k; c < k4 * kGroup; ++c)
            out[c] = 0x80;
    }
}

} // namespace

GLOSA_AVX512_TARGET void rescaleRowAvx512(float *row, std::int64_t n, float s, const float *bias)
{
    const __m512 vs = _mm512_set1_ps(s);
    for (std::int64_t j = 0; j < n; j += kLanes) {
        const std::int64_t valid = std::min<std::int64_t>(kLanes, n - j);
        const auto mask = static_cast<__mmask16>(valid >= kLanes ? 0xffff : (1u << valid) - 1);
        const __m512 b = bias ? _mm512_maskz_loadu_ps(mask, bias + j) : _mm512_setzero_ps();
        const __m512 v = rescale(_mm512_maskz_loadu_ps(mask, row + j), vs, bias != nullptr, b,
                                 valid >= 8 && valid < kLanes);
        _mm512_mask_storeu_ps(row + j, mask, v);
    }
}

namespace {

// Only with VNNI that oneDNN may use: below it oneDNN's int8 kernels compute otherwise (7-bit
// weights without VNNI), and this kernel stands aside so that results stay oneDNN's.
bool cpuHasVnni()
{
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
           __builtin_cpu_supports("avx512vnni");
}

constinit KernelRows kernelRows(dnnl::cpu_isa::avx512_core_vnni, cpuHasVnni);

} // namespace

std::int64_t int8GemvMaxRows()
{
    return kernelRows.max();
}

void limitInt8GemvRows(std::int64_t rows)
{
    kernelRows.limit(rows);
}

Int8GemvWeights packInt8Gemv(const std::int8_t *codes, std::int64_t n, std::int64_t k)
{
    Int8GemvWeights w;
    w.n = n;
    w.k = k;
    const std::int64_t panels = (n + kPanelChannels - 1) / kPanelChannels;
    const std::int64_t k4 = (k + kGroup - 1) / kGroup;
    w.packed.assign(static_cast<std::size_t>(panels * k4 * kStepBytes), 0);
    w.compensation.assign(static_cast<std::size_t>(panels * kPanelChannels), 0);
    for (std::int64_t j = 0; j < n; ++j) {
        const std::int8_t *row = codes + j * k;
        std::int8_t *out = w.packed.data() + (j / kPanelChannels) * k4 * kStepBytes +
                           (j % kPanelChannels) * kGroup; // block (j % 64) / 16, lane j % 16
        // Four input channels at a time (a load of the whole model packs ~80M weights).
        const std::int64_t whole = k / kGroup;
        for (std::int64_t g = 0; g < whole; ++g)
            std::memcpy(out + g * kStepBytes, row + g * kGroup, kGroup);
        for (std::int64_t c = whole * kGroup; c < k; ++c)
            out[whole * kStepBytes + c % kGroup] = row[c];
        std::int32_t sum = 0;
        for (std::int64_t c = 0; c < k; ++c)
            sum += row[c];
        w.compensation[j] = 128 * sum;
    }
    return w;
}

void int8Gemv(const std::int8_t *x, std::int64_t m, const Int8GemvWeights &w, const float *scales,
              float *y, const Int8GemvEpilogue &epilogue)
{
    if (m <= 0)
        return;
    const std::int64_t k4 = (w.k + kGroup - 1) / kGroup;
    thread_local std::vector<std::uint8_t, CacheLineAllocator<std::uint8_t>> xu;
    xu.resize(static_cast<std::size_t>(m * k4 * kGroup));
    toUnsigned(x, m, w.k, k4, xu.data());
    const Call call{xu.data(),     k4,     &w, scales, y, epilogue.rowScales, epilogue.bias,
                    epilogue.relu, nullptr};
    // The first four tiles bring the next chunk into L2 (panelkernel.h).
    const std::int64_t threads = omp_get_max_threads();
    const PanelSchedule plan(m, w.n, w.k, k4 * kStepBytes, threads);
    const std::int64_t panels = plan.panels, chunk = plan.chunk, step = plan.step;
    const bool parallel = plan.parallel;
    // Each thread's row maxima apart (a pointer: in the parallel region the name would be each
    // OpenMP thread's own thread_local), then the largest of them.
    thread_local std::vector<float, CacheLineAllocator<float>> maxima;
    const std::int64_t teams = parallel ? threads : 1, lanes = m * kLanes;
    if (epilogue.rowMax)
        maxima.assign(static_cast<std::size_t>(teams * lanes),
                      -std::numeric_limits<float>::infinity());
    float *const threadMaxima = maxima.data();
#pragma omp parallel for schedule(static) if (parallel)
    for (std::int64_t part = 0; part < plan.chunks; ++part) {
        Call own = call;
        own.rowMax = epilogue.rowMax ? threadMaxima + omp_get_thread_num() * lanes : nullptr;
        const std::int64_t end = std::min(panels, (part + 1) * chunk);
        for (std::int64_t t = 0; t < plan.tiles; ++t) {
            const std::int64_t first = plan.firstRow(t), height = plan.height(t);
            // The first four tiles bring the next chunk into L2, a line an iteration.
            const std::int64_t lines = (end - part * chunk) * k4;
            const std::int8_t *next =
                t < 4 && end < panels
                    ? w.packed.data() + end * k4 * kStepBytes + t * lines * kBlockBytes
                    : nullptr;
            for (std::int64_t panel = part * chunk; panel < end; panel += step) {
                const std::int8_t *ahead =
                    next ? next + (panel - part * chunk) * k4 * kBlockBytes : nullptr;
                tileFor(height, std::min(step, end - panel))(own, first, panel, ahead);
            }
        }
    }
    if (epilogue.rowMax)
        for (std::int64_t i = 0; i < m; ++i) {
            float best = -std::numeric_limits<float>::infinity();
            for (std::int64_t t = 0; t < teams; ++t)
                for (std::int64_t l = 0; l < kLanes; ++l)
                    best = std::max(best, threadMaxima[t * lanes + i * kLanes + l]);
            epilogue.rowMax[i] = best;
        }
}

} // namespace glosa::engine::ops::detail
