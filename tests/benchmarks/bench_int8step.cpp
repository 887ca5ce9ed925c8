// bench_int8step: how close an int8 decoder step at batch 1 comes to the core's streaming read.
// At one row a step reads every weight once (55 MB on the OPUS-MT shape: 6 decoder layers of
// q/k/v 512×1536, out 512×512, cross query and out 512×512, fc1 512×2048, fc2 2048×512, then the
// 65,001-wide output layer), so its floor is the time one core takes to read those bytes. This
// runs ops::QuantizedLinear on those layers in a step's order (each with its bias, the output
// layer with its normalisers, one row, one thread) against two plain AVX-512 reads of the same
// number of bytes: one buffer, and one buffer per layer in the step's order (what starting a new
// stream 37 times costs a read). The three alternate within each round (kRepeats runs each);
// times are the thread's CPU time (what others take of the core is left out), medians over the
// rounds, and the ratios medians of the per-round ratios (docs/benchmarks.md, "Fifth round").
// Usage: bench_int8step [--rounds N] [--layers L] [--d D] [--ffn F] [--vocab V]
#include "engine/ops/int8gemv.h"
#include "engine/ops/quantizedlinear.h"
#include "engine/runtime.h"

#include <immintrin.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <random>
#include <string>
#include <vector>

using namespace glosa::engine;

namespace {

Tensor randomTensor(const Shape &shape, unsigned seed, float range)
{
    Tensor t(shape);
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> dist(-range, range);
    for (std::int64_t i = 0; i < t.numel(); ++i)
        t.data<float>()[i] = dist(rng);
    return t;
}

double threadSeconds()
{
    timespec now;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
    return now.tv_sec + 1e-9 * now.tv_nsec;
}

double median(std::vector<double> v)
{
    std::nth_element(v.begin(), v.begin() + v.size() / 2, v.end());
    return v[v.size() / 2];
}

// Every byte of [p, p + bytes) loaded once, four cache lines an iteration; bytes a multiple of
// 256, p on a 64-byte boundary.
__attribute__((target("avx512f"))) long streamRead(const std::int8_t *p, std::int64_t bytes)
{
    __m512i a = _mm512_setzero_si512(), b = a, c = a, d = a;
    for (std::int64_t i = 0; i < bytes; i += 256) {
        a = _mm512_xor_si512(a, _mm512_load_si512(p + i));
        b = _mm512_xor_si512(b, _mm512_load_si512(p + i + 64));
        c = _mm512_xor_si512(c, _mm512_load_si512(p + i + 128));
        d = _mm512_xor_si512(d, _mm512_load_si512(p + i + 192));
    }
    alignas(64) long lanes[8];
    _mm512_store_si512(lanes, _mm512_xor_si512(_mm512_xor_si512(a, b), _mm512_xor_si512(c, d)));
    return lanes[0];
}

using Buffer = std::vector<std::int8_t, ops::detail::CacheLineAllocator<std::int8_t>>;

struct Layer
{
    std::int64_t in, out;
};

std::int64_t argument(int argc, char **argv, const std::string &name, std::int64_t fallback)
{
    for (int i = 1; i + 1 < argc; ++i)
        if (argv[i] == name)
            return std::max<std::int64_t>(1, std::atoll(argv[i + 1]));
    return fallback;
}

// Each side runs this many times in a row a round, after one run that is not timed: the three
// sides' bytes together (166 MB) would otherwise push each other out to memory, where the
// decoder's weights, read once a step, are not on this machine (L3 260 MB).
constexpr int kRepeats = 4;

} // namespace

int main(int argc, char **argv)
{
    if (ops::detail::int8GemvMaxRows() == 0) {
        std::printf("bench_int8step: no AVX-512 VNNI here (the int8 kernel does not run)\n");
        return 0;
    }
    runtime::setNumThreads(1);
    const int rounds = static_cast<int>(argument(argc, argv, "--rounds", 21));
    const std::int64_t layers = argument(argc, argv, "--layers", 6);
    const std::int64_t d = argument(argc, argv, "--d", 512),
                       ffn = argument(argc, argv, "--ffn", 2048);
    const std::int64_t vocab = argument(argc, argv, "--vocab", 65001);
    std::vector<Layer> shapes;
    for (std::int64_t l = 0; l < layers; ++l)
        for (const Layer s :
             {Layer{d, 3 * d}, Layer{d, d}, Layer{d, d}, Layer{d, d}, Layer{d, ffn}, Layer{ffn, d}})
            shapes.push_back(s);
    shapes.push_back({d, vocab});
    std::vector<ops::QuantizedLinear> ops;
    std::vector<Tensor> inputs;
    std::vector<Buffer> parts;
    std::int64_t bytes = 0;
    for (std::size_t i = 0; i < shapes.size(); ++i) {
        const auto [in, out] = shapes[i];
        ops.emplace_back(randomTensor({out, in}, 1 + i, 0.1f), randomTensor({out}, 1000 + i, 1.0f));
        inputs.push_back(randomTensor({1, in}, 2000 + i, 1.0f));
        parts.emplace_back(static_cast<std::size_t>((out * in + 255) / 256 * 256), 1);
        bytes += out * in;
    }
    Buffer whole(static_cast<std::size_t>((bytes + 255) / 256 * 256), 1);
    Tensor y;
    ops::RowNormalizer normalizer;
    auto step = [&] {
        for (std::size_t i = 0; i + 1 < ops.size(); ++i)
            ops[i](inputs[i], y);
        ops.back()(inputs.back(), y, &normalizer);
    };
    long sink = 0;
    auto readWhole = [&] { sink ^= streamRead(whole.data(), std::int64_t(whole.size())); };
    auto readParts = [&] {
        for (const Buffer &part : parts)
            sink ^= streamRead(part.data(), std::int64_t(part.size()));
    };
    std::vector<double> tStep, tWhole, tParts, stepOverWhole, partsOverWhole;
    for (int r = 0; r < rounds; ++r) {
        double t[3];
        for (int k = 0; k < 3; ++k) { // the order rotates every round
            const int which = (r + k) % 3;
            auto run = [&] { which == 0 ? step() : which == 1 ? readWhole() : readParts(); };
            run(); // its bytes back where a step finds its weights: in L3, 55 MB ago
            const double start = threadSeconds();
            for (int i = 0; i < kRepeats; ++i)
                run();
            t[which] = (threadSeconds() - start) / kRepeats;
        }
        tStep.push_back(t[0]);
        tWhole.push_back(t[1]);
        tParts.push_back(t[2]);
        stepOverWhole.push_back(t[0] / t[1]);
        partsOverWhole.push_back(t[2] / t[1]);
    }
    std::printf("%zu layers, %.1f MB of int8 weights, one row, one thread, %d rounds\n",
                shapes.size(), bytes * 1e-6, rounds);
    std::printf("step (QuantizedLinear)    %8.1f us  %5.1f GB/s\n", median(tStep) * 1e6,
                bytes / median(tStep) * 1e-9);
    std::printf("read, one buffer          %8.1f us  %5.1f GB/s\n", median(tWhole) * 1e6,
                bytes / median(tWhole) * 1e-9);
    std::printf("read, a buffer per layer  %8.1f us  %5.1f GB/s\n", median(tParts) * 1e6,
                bytes / median(tParts) * 1e-9);
    std::printf("step / one buffer, per round: %.3f; a buffer per layer / one buffer: %.3f%s\n",
                median(stepOverWhole), median(partsOverWhole), sink == 42 ? " " : "");
    return 0;
}
