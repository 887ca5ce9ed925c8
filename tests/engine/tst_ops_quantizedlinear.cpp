// QuantizedLinear (int8 weights per output channel, int8 inputs per row, oneDNN's int8 1×1
// convolution) against two plain references:
//   - reference::quantizedLinear, the same int8 arithmetic with exact integer sums. The only
//     allowed difference is oneDNN's: on AVX2 without VNNI it halves the weights in its s8s8
//     reorder (7-bit weights, so vpmaddubsw cannot saturate), which moves each weight by at most
//     one step s_w[n]. With inputs uniform in [-1, 1) that bounds the error at
//     Σ_k |x| · s_w ≈ K/2 · max|W|/127 per output; the test asks for a relative RMS error under
//     2% of the output's RMS. Measured: 0 with VNNI (brgconv_1x1:avx512_core_vnni, exact), 0.3–1.1%
//     with ONEDNN_MAX_CPU_ISA=AVX2 (jit_uni_int8_1x1:avx2).
//   - reference::linear in fp32: int8 is an approximation, and the test states how good: the
//     relative RMS error stays under 3% (measured 0.1–0.9% with VNNI, 0.3–1.5% on AVX2; every
//     case prints its numbers).
// Where the CPU has AVX-512 VNNI every call runs int8gemv.h's kernel, whose results must equal
// oneDNN's for the same rows bit for bit (kernelEqualsOneDnn).
#include "engine/ops/int8gemv.h"
#include "engine/ops/linear.h"
#include "engine/ops/quantizedlinear.h"
#include "engine/runtime.h"
#include "tests/reference/opsreference.h"

#include "tests/engine/tst_ops_common.h"

#include <QtTest>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstring>
#include <functional>
#include <random>
#include <thread>
#include <vector>

using namespace glosa::engine;
using namespace glosa::engine::ops;
using glosa::test::randomTensor;

Q_DECLARE_METATYPE(glosa::engine::ops::Activation)

namespace {

// ||a - b|| / ||b|| over all elements.
double relativeRms(const Tensor &a, const Tensor &b)
{
    if (a.shape() != b.shape())
        return INFINITY;
    double num = 0.0, den = 0.0;
    for (std::int64_t i = 0; i < a.numel(); ++i) {
        const double d = static_cast<double>(a.data<float>()[i]) - b.data<float>()[i];
        num += d * d;
        den += static_cast<double>(b.data<float>()[i]) * b.data<float>()[i];
    }
    return den > 0.0 ? std::sqrt(num / den) : std::sqrt(num);
}

} // namespace

class TestOpsQuantizedLinear : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase() { runtime::setNumThreads(1); }

    void matchesReferences_data()
    {
        QTest::addColumn<int>("rows");
        QTest::addColumn<int>("in");
        QTest::addColumn<int>("out");
        QTest::addColumn<bool>("withBias");
        QTest::addColumn<Activation>("activation");
        // The shapes of the models' layers (attention, FFN, output projection) and odd ones.
        const struct
        {
            int in, out;
        } shapes[] = {{256, 256},  {256, 1024}, {1024, 256}, {256, 8000},
                      {384, 1536}, {37, 19},    {64, 3},     {3, 64}};
        for (const auto &s : shapes)
            for (int rows : {1, 3, 32})
                QTest::addRow("%dx%d rows %d", s.in, s.out, rows)
                    << rows << s.in << s.out << bool((rows + s.out) % 2) << Activation::None;
        QTest::addRow("relu") << 5 << 256 << 1024 << true << Activation::Relu;
        QTest::addRow("gelu") << 5 << 64 << 48 << true << Activation::Gelu;
        QTest::addRow("swish") << 5 << 64 << 48 << true << Activation::Swish;
    }
    void matchesReferences()
    {
        QFETCH(int, rows);
        QFETCH(int, in);
        QFETCH(int, out);
        QFETCH(bool, withBias);
        QFETCH(Activation, activation);
        const unsigned seed = static_cast<unsigned>(rows * 7919 + in * 31 + out);
        const Tensor x = randomTensor({rows, in}, seed);
        // Weights with per-channel ranges that differ by up to 8x, as trained layers' do.
        Tensor w = randomTensor({out, in}, seed + 1, -0.1f, 0.1f);
        for (std::int64_t n = 0; n < out; ++n)
            for (std::int64_t k = 0; k < in; ++k)
                w.data<float>()[n * in + k] *= 1.0f + static_cast<float>(n % 8);
        const Tensor b = withBias ? randomTensor({out}, seed + 2) : Tensor();

        const QuantizedLinear op(w, b, activation);
        QCOMPARE(op.inFeatures(), std::int64_t(in));
        QCOMPARE(op.outFeatures(), std::int64_t(out));
        Tensor y;
        op(x, y);

        Tensor int8Reference, fp32Reference;
        reference::quantizedLinear(x, w, b, activation, int8Reference);
        reference::linear(x, w, b, activation, fp32Reference);
        const double vsInt8 = relativeRms(y, int8Reference);
        const double vsFp32 = relativeRms(y, fp32Reference);
        QVERIFY2(vsInt8 < 0.02,
                 qPrintable(QString("vs int8 reference %1 (%2)")
                                .arg(vsInt8)
                                .arg(QString::fromStdString(op.implementation(rows)))));
        QVERIFY2(vsFp32 < 0.03, qPrintable(QString("vs fp32 reference %1").arg(vsFp32)));
        qInfo("relative RMS error: %.4f vs the int8 reference, %.4f vs fp32 (%s)", vsInt8, vsFp32,
              op.implementation(rows).c_str());
    }

    // With AVX-512 VNNI every call runs int8gemv.h's kernel, which must give oneDNN's numbers
    // for the same rows bit for bit (the int32 sums are exact, the scales applied alike): here
    // oneDNN's side is the same op with the kernel's row limit at 0. Every row count up to 40
    // (each tile height of 1-6 rows and their mixes, the two-panel path of 1-2 rows) and a few
    // beyond (beam 4 at batch 32 is 128 rows, an encoder's batch hundreds). Odd sizes: a
    // partial panel of 64 output channels (blocks wholly past n), k not a multiple of 4,
    // K = 2,048; one thread and all of them. Also against the plain int8 reference (in double,
    // hence within float rounding).
    void kernelEqualsOneDnn_data()
    {
        QTest::addColumn<int>("in");
        QTest::addColumn<int>("out");
        QTest::addColumn<bool>("withBias");
        QTest::addRow("37x19") << 37 << 19 << true;
        QTest::addRow("3x64") << 3 << 64 << false;
        QTest::addRow("64x3") << 64 << 3 << true;
        QTest::addRow("515x1001") << 515 << 1001 << false;
        QTest::addRow("2048x130") << 2048 << 130 << true;
        QTest::addRow("512x8003") << 512 << 8003 << false;
    }
    void kernelEqualsOneDnn()
    {
        QFETCH(int, in);
        QFETCH(int, out);
        QFETCH(bool, withBias);
        if (ops::detail::int8GemvMaxRows() == 0)
            qInfo("no AVX-512 VNNI here: every call takes oneDNN (the comparison still runs)");
        else // the kernel takes a decoder step at beam 4 and batch 32, and an encoder's batch
            QVERIFY(ops::detail::int8GemvMaxRows() >= 513);
        const unsigned seed = static_cast<unsigned>(in * 31 + out);
        const Tensor x = randomTensor({513, in}, seed, -2.0f, 2.0f);
        const Tensor w = randomTensor({out, in}, seed + 1, -0.3f, 0.3f);
        const Tensor b = withBias ? randomTensor({out}, seed + 2) : Tensor();
        const QuantizedLinear op(w, b);
        Tensor forty, int8Reference;
        op(x.slice(0, 40), forty);
        reference::quantizedLinear(x.slice(0, 40), w, b, Activation::None, int8Reference);
        // Exact sums with VNNI; 7-bit weights without (the file's header).
        const double bound = ops::detail::int8GemvMaxRows() > 0 ? 1e-6 : 0.02;
        QVERIFY2(relativeRms(forty, int8Reference) < bound,
                 qPrintable(QString::number(relativeRms(forty, int8Reference))));
        std::vector<std::int64_t> rowCounts;
        for (std::int64_t m = 1; m <= 40; ++m)
            rowCounts.push_back(m);
        rowCounts.insert(rowCounts.end(), {47, 64, 128, 203, 513});
        for (int threads : {1, 0}) {
            runtime::setNumThreads(threads);
            for (const std::int64_t m : rowCounts) {
                const Tensor rows = x.slice(0, m);
                Tensor y, dnnl;
                op(rows, y);
                ops::detail::limitInt8GemvRows(0);
                op(rows, dnnl);
                ops::detail::limitInt8GemvRows(-1);
                QCOMPARE(y.shape(), (Shape{m, out}));
                QVERIFY2(std::equal(y.data<float>(), y.data<float>() + m * out, dnnl.data<float>()),
                         qPrintable(QString("%1 rows, %2 threads (oneDNN: %3)")
                                        .arg(m)
                                        .arg(threads)
                                        .arg(QString::fromStdString(op.implementation(m)))));
            }
        }
        runtime::setNumThreads(1);
    }

    // The kernel's store applies the row scale, the bias, ReLU and each row's max (for the
    // output layer's normalisers) as it writes y; the oneDNN side still makes a second pass
    // (rescaleRow, rescaleRowsWithNormalizers). The two must agree bit for bit, which pins the
    // store's fp32 operations: the fused multiply-add of the bias except for the 8 outputs from
    // n - n % 16 when n % 16 >= 8, which rescaleRow's AVX-512 clone multiplies and adds apart
    // (widths 1,001, 2,047, 1,032 and 12 have them, 19 does not); ReLU's zeros; a row whose max
    // is zero (its normaliser from the row read again). Row counts of every tile height, one
    // and two panels at a time, one thread and all of them.
    void storeEqualsRescalePass_data()
    {
        QTest::addColumn<int>("in");
        QTest::addColumn<int>("out");
        QTest::addColumn<bool>("withBias");
        QTest::addColumn<Activation>("activation");
        QTest::addColumn<bool>("withNormalizers");
        QTest::addRow("515x1001 bias") << 515 << 1001 << true << Activation::None << false;
        QTest::addRow("256x2047 bias") << 256 << 2047 << true << Activation::None << false;
        QTest::addRow("64x1032 bias") << 64 << 1032 << true << Activation::None << false;
        QTest::addRow("37x12 bias") << 37 << 12 << true << Activation::None << false;
        QTest::addRow("37x19 bias") << 37 << 19 << true << Activation::None << false;
        QTest::addRow("512x1001 no bias") << 512 << 1001 << false << Activation::None << false;
        QTest::addRow("515x1001 relu") << 515 << 1001 << true << Activation::Relu << false;
        QTest::addRow("64x1001 swish") << 64 << 1001 << true << Activation::Swish << false;
        QTest::addRow("512x8011 normalizers") << 512 << 8011 << true << Activation::None << true;
        QTest::addRow("64x1001 normalizers, no bias")
            << 64 << 1001 << false << Activation::None << true;
    }
    void storeEqualsRescalePass()
    {
        QFETCH(int, in);
        QFETCH(int, out);
        QFETCH(bool, withBias);
        QFETCH(Activation, activation);
        QFETCH(bool, withNormalizers);
        if (ops::detail::int8GemvMaxRows() == 0)
            QSKIP("no AVX-512 VNNI here: every call takes oneDNN and the rescale pass");
        const unsigned seed = static_cast<unsigned>(in * 37 + out);
        Tensor x = randomTensor({128, in}, seed, -2.0f, 2.0f);
        const Tensor w = randomTensor({out, in}, seed + 1, -0.3f, 0.3f);
        Tensor b = withBias ? randomTensor({out}, seed + 2) : Tensor();
        if (withBias) { // row 3 all zeros: its outputs are the bias, whose largest is 0
            std::fill(x.data<float>() + 3 * in, x.data<float>() + 4 * in, 0.0f);
            for (std::int64_t j = 0; j < out; ++j)
                b.data<float>()[j] = -std::fabs(b.data<float>()[j]);
            b.data<float>()[out / 2] = 0.0f;
        }
        const QuantizedLinear op(w, b, activation);
        auto call = [&](const Tensor &rows, Tensor &y, std::vector<RowNormalizer> &norms) {
            norms.assign(static_cast<std::size_t>(rows.dim(0)), RowNormalizer{-1.0f, -1.0f});
            std::vector<std::atomic<int>> done(norms.size());
            const std::function<void(std::int64_t)> rowDone = [&](std::int64_t r) { ++done[r]; };
            op(rows, y, withNormalizers ? norms.data() : nullptr, &rowDone);
            for (const std::atomic<int> &d : done) // each row reported once, if at all
                QVERIFY(d.load() == (withNormalizers ? 1 : 0));
        };
        for (int threads : {1, 0}) {
            runtime::setNumThreads(threads);
            for (const std::int64_t m : {1, 2, 3, 4, 5, 6, 7, 11, 13, 32, 40, 128}) {
                const Tensor rows = x.slice(0, m);
                Tensor y, dnnl;
                std::vector<RowNormalizer> norms, dnnlNorms;
                call(rows, y, norms);
                ops::detail::limitInt8GemvRows(0);
                call(rows, dnnl, dnnlNorms);
                ops::detail::limitInt8GemvRows(-1);
                const QString where = QString("%1 rows, %2 threads").arg(m).arg(threads);
                QVERIFY2(std::memcmp(y.data<float>(), dnnl.data<float>(), m * out * 4) == 0,
                         qPrintable(where));
                QVERIFY2(std::memcmp(norms.data(), dnnlNorms.data(),
                                     norms.size() * sizeof(RowNormalizer)) == 0,
                         qPrintable(where + " (normalisers)"));
            }
        }
        runtime::setNumThreads(1);
    }

    // The store's roundings written out in scalar code (int8gemv.h, Int8GemvEpilogue), against
    // the kernel itself, so that the two paths above cannot drift together: t = the kernel's
    // output without an epilogue; then fma(t, s, b), or t · s rounded and + b for the 8 outputs
    // from n - n % 16 when n % 16 >= 8; ReLU; each row's max. rescaleRowAvx512 (oneDNN's path)
    // likewise on t.
    void storeRoundsAsSpecified_data()
    {
        QTest::addColumn<int>("in");
        QTest::addColumn<int>("out");
        for (const int out : {12, 19, 64, 1001, 1032, 2047})
            QTest::addRow("64x%d", out) << 64 << out;
    }
    void storeRoundsAsSpecified()
    {
        QFETCH(int, in);
        QFETCH(int, out);
        if (ops::detail::int8GemvMaxRows() == 0)
            QSKIP("no AVX-512 VNNI here: no kernel");
        const std::int64_t m = 7;
        std::vector<std::int8_t> codes(static_cast<std::size_t>(out * in)), x(m * in);
        std::mt19937 rng(static_cast<unsigned>(out));
        for (auto *v : {&codes, &x})
            for (std::int8_t &c : *v)
                c = static_cast<std::int8_t>(static_cast<int>(rng() % 255) - 127);
        std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
        std::vector<float> scales(out), bias(out), rowScales(m);
        for (float &v : scales)
            v = 1e-3f * (1.0f + dist(rng));
        for (float &v : bias)
            v = dist(rng);
        for (float &v : rowScales)
            v = 1e-2f * (1.5f + dist(rng));
        const auto w = ops::detail::packInt8Gemv(codes.data(), out, in);
        std::vector<float> t(m * out), y(m * out), maxima(m), rescaled;
        ops::detail::int8Gemv(x.data(), m, w, scales.data(), t.data());
        const std::int64_t split = out - out % 16;
        for (const bool relu : {false, true}) {
            ops::detail::Int8GemvEpilogue epilogue;
            epilogue.rowScales = rowScales.data();
            epilogue.bias = bias.data();
            epilogue.relu = relu;
            epilogue.rowMax = maxima.data();
            ops::detail::int8Gemv(x.data(), m, w, scales.data(), y.data(), epilogue);
            rescaled = t;
            for (std::int64_t i = 0; i < m; ++i) {
                ops::detail::rescaleRowAvx512(rescaled.data() + i * out, out, rowScales[i],
                                              bias.data());
                float best = -INFINITY;
                for (std::int64_t j = 0; j < out; ++j) {
                    const float v = t[i * out + j];
                    volatile float product = v * rowScales[i]; // rounded on its own
                    float expected = out % 16 >= 8 && j >= split && j < split + 8
                                         ? product + bias[j]
                                         : std::fma(v, rowScales[i], bias[j]);
                    QVERIFY2(
                        rescaled[i * out + j] == expected,
                        qPrintable(QString("rescaleRowAvx512, row %1, output %2").arg(i).arg(j)));
                    if (relu)
                        expected = expected > 0.0f ? expected : 0.0f;
                    QVERIFY2(std::memcmp(&y[i * out + j], &expected, 4) == 0,
                             qPrintable(QString("row %1, output %2: %3, expected %4")
                                            .arg(i)
                                            .arg(j)
                                            .arg(y[i * out + j])
                                            .arg(expected)));
                    best = std::max(best, expected);
                }
                QCOMPARE(maxima[i], best);
            }
        }
    }

    // Every row count up to 40 (and a few beyond) against the plain int8 reference, on shapes
    // with K >= 512: oneDNN 2.6's kernel for AVX-512 without VNNI got 5 rows wrong there
    // (quantizedlinear.cpp, widthFiveBroken), which this test shows under
    // ONEDNN_MAX_CPU_ISA=AVX512_CORE.
    void rowCountsMatchReference_data()
    {
        QTest::addColumn<int>("in");
        QTest::addColumn<int>("out");
        QTest::addRow("515x1001") << 515 << 1001;
        QTest::addRow("2048x130") << 2048 << 130;
    }
    void rowCountsMatchReference()
    {
        QFETCH(int, in);
        QFETCH(int, out);
        const Tensor w = randomTensor({out, in}, 91, -0.3f, 0.3f);
        const Tensor b = randomTensor({out}, 92);
        const QuantizedLinear op(w, b);
        for (int rows = 1; rows <= 64; rows += rows < 40 ? 1 : 8) {
            const Tensor x = randomTensor({rows, in}, 93 + rows);
            Tensor y, expected;
            op(x, y);
            reference::quantizedLinear(x, w, b, Activation::None, expected);
            QVERIFY2(relativeRms(y, expected) < 0.02,
                     qPrintable(QString("%1 rows: %2 (%3)")
                                    .arg(rows)
                                    .arg(relativeRms(y, expected))
                                    .arg(QString::fromStdString(op.implementation(rows)))));
        }
    }

    // Rows are quantized independently: a row of large values next to one of small ones does
    // not wash the small one out (a per-call scale would).
    void rowsHaveTheirOwnScale()
    {
        Tensor x = randomTensor({2, 128}, 5);
        for (int k = 0; k < 128; ++k)
            x.data<float>()[k] *= 1000.0f;
        const Tensor w = randomTensor({16, 128}, 6);
        const QuantizedLinear op(w);
        Tensor y, ref;
        op(x, y);
        reference::linear(x, w, Tensor(), Activation::None, ref);
        double num = 0, den = 0;
        for (int n = 0; n < 16; ++n) {
            const double d = y.data<float>()[16 + n] - ref.data<float>()[16 + n];
            num += d * d;
            den += ref.data<float>()[16 + n] * ref.data<float>()[16 + n];
        }
        QVERIFY2(std::sqrt(num / den) < 0.03, qPrintable(QString::number(std::sqrt(num / den))));
    }

    void zeroInputGivesBias()
    {
        const Tensor w = randomTensor({8, 16}, 3);
        const Tensor b = randomTensor({8}, 4);
        Tensor x({2, 16});
        for (std::int64_t i = 0; i < x.numel(); ++i)
            x.data<float>()[i] = 0.0f;
        Tensor y;
        QuantizedLinear(w, b)(x, y);
        for (int r = 0; r < 2; ++r)
            for (int n = 0; n < 8; ++n)
                QCOMPARE(y.data<float>()[r * 8 + n], b.data<float>()[n]);
    }

    void concurrentCalls()
    {
        const Tensor w = randomTensor({64, 32}, 8);
        const QuantizedLinear op(w);
        const Tensor x1 = randomTensor({3, 32}, 9), x2 = randomTensor({5, 32}, 10);
        Tensor expected1, expected2;
        op(x1, expected1);
        op(x2, expected2);
        std::vector<std::thread> threads;
        std::atomic<int> mismatches{0};
        for (int t = 0; t < 4; ++t)
            threads.emplace_back([&, t] {
                for (int i = 0; i < 50; ++i) {
                    Tensor y;
                    op(t % 2 ? x1 : x2, y);
                    if (glosa::test::maxAbsDiff(y, t % 2 ? expected1 : expected2) != 0.0)
                        ++mismatches;
                }
            });
        for (std::thread &thread : threads)
            thread.join();
        QCOMPARE(mismatches.load(), 0);
    }

    // What the plugins build: Linear::withPrecision(true, ...) is that op, and says so (a plugin
    // that asked empty() of an int8 layer once skipped it: the RNN's key projection).
    void linearWithPrecision()
    {
        const Tensor w = randomTensor({24, 40}, 11), b = randomTensor({24}, 12);
        const Tensor x = randomTensor({3, 40}, 13);
        const Linear int8 = Linear::withPrecision(true, w, b, Activation::Tanh);
        QVERIFY(!int8.empty());
        QVERIFY(int8.int8());
        QCOMPARE(int8.inFeatures(), std::int64_t(40));
        QCOMPARE(int8.outFeatures(), std::int64_t(24));
        QVERIFY(int8.activation() == Activation::Tanh);
        Tensor y, expected;
        int8(x, y);
        QuantizedLinear(w, b, Activation::Tanh)(x, expected);
        QCOMPARE(glosa::test::maxAbsDiff(y, expected), 0.0);
        const Linear fp32 = Linear::withPrecision(false, w, b);
        QVERIFY(!fp32.empty());
        QVERIFY(!fp32.int8());
    }

    void rejectsBadArguments()
    {
        const Tensor w = randomTensor({8, 16}, 1);
        GLOSA_VERIFY_THROWS_WITH(std::invalid_argument, QuantizedLinear(w, randomTensor({7}, 2)),
                                 "bias");
        GLOSA_VERIFY_THROWS_WITH(std::invalid_argument, QuantizedLinear(randomTensor({8}, 2)),
                                 "weight");
        Tensor y;
        const QuantizedLinear op(w), empty;
        GLOSA_VERIFY_THROWS_WITH(std::invalid_argument, op(randomTensor({2, 15}, 3), y),
                                 "in_features");
        GLOSA_VERIFY_THROWS_WITH(std::logic_error, empty(randomTensor({2, 16}, 3), y), "empty");
    }
};

QTEST_GUILESS_MAIN(TestOpsQuantizedLinear)
#include "tst_ops_quantizedlinear.moc"
