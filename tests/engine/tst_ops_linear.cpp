// Linear (oneDNN matmul or 1×1 convolution, prepacked weights) against its plain-loop reference.
#include "engine/ops/linear.h"
#include "engine/runtime.h"
#include "tests/reference/opsreference.h"

#include "tests/engine/tst_ops_common.h"

#include <QtTest>

#include <algorithm>
#include <cmath>
#include <thread>
#include <vector>

using namespace glosa::engine;
using namespace glosa::engine::ops;
using glosa::test::randomTensor;

Q_DECLARE_METATYPE(glosa::engine::ops::Activation)
Q_DECLARE_METATYPE(glosa::engine::ops::Linear::Kernel)

namespace {
// The fp16 storage of t's values (rounded to nearest even).
Tensor toHalf(const Tensor &t)
{
    Tensor half(t.shape(), DType::F16);
    for (std::int64_t i = 0; i < t.numel(); ++i)
        half.data<std::uint16_t>()[i] = floatToHalf(t.data<float>()[i]);
    return half;
}

const char *kernelName(Linear::Kernel kernel)
{
    switch (kernel) {
    case Linear::Kernel::Auto:
        return "auto";
    case Linear::Kernel::Matmul:
        return "matmul";
    case Linear::Kernel::Convolution:
        return "conv";
    }
    return "?";
}
} // namespace

class TestOpsLinear : public QObject
{
    Q_OBJECT
private slots:
    void matchesReference_data()
    {
        QTest::addColumn<int>("in");
        QTest::addColumn<int>("out");
        QTest::addColumn<bool>("withBias");
        QTest::addColumn<Activation>("activation");
        QTest::addColumn<Linear::Kernel>("kernel");
        // Every case on both primitives, whichever one Auto picks on this machine.
        for (Linear::Kernel kernel : {Linear::Kernel::Matmul, Linear::Kernel::Convolution}) {
            const char *k = kernelName(kernel);
            const int sizes[] = {1, 3, 7, 33, 100};
            for (int in : sizes)
                for (int out : sizes)
                    QTest::addRow("%s in%d out%d", k, in, out)
                        << in << out << bool((in + out) % 2) << Activation::None << kernel;
            const struct
            {
                const char *name;
                int in, out;
                bool bias;
                Activation activation;
            } cases[] = {{"512x512 bias", 512, 512, true, Activation::None},
                         {"relu", 33, 7, true, Activation::Relu},
                         {"relu6", 7, 33, true, Activation::Relu6},
                         {"gelu", 100, 3, false, Activation::Gelu},
                         {"tanh", 3, 100, true, Activation::Tanh},
                         {"sigmoid", 33, 33, true, Activation::Sigmoid},
                         {"swish", 48, 20, true, Activation::Swish}};
            for (const auto &c : cases)
                QTest::addRow("%s %s", k, c.name)
                    << c.in << c.out << c.bias << c.activation << kernel;
        }
    }
    void matchesReference()
    {
        QFETCH(int, in);
        QFETCH(int, out);
        QFETCH(bool, withBias);
        QFETCH(Activation, activation);
        QFETCH(Linear::Kernel, kernel);
        const Tensor w = randomTensor({out, in}, 1);
        const Tensor b = withBias ? randomTensor({out}, 2) : Tensor();
        const Linear linear(w, b, activation, kernel);
        QCOMPARE(linear.inFeatures(), in);
        QCOMPARE(linear.outFeatures(), out);
        QCOMPARE(linear.kernel(), kernel);
        // One op over several M exercises the per-M primitive cache and the shared packing.
        for (int m : {1, 3, 7, 33, 100, 1}) {
            const Tensor x = randomTensor({m, in}, 3 + m, -2.0f, 2.0f);
            Tensor y, expected;
            linear(x, y);
            reference::linear(x, w, b, activation, expected);
            GLOSA_COMPARE_TENSORS(y, expected);
        }
    }
    void autoPicksAPrimitive()
    {
        const Linear linear(randomTensor({8, 4}, 5));
        QVERIFY(linear.kernel() != Linear::Kernel::Auto);
        qInfo("Linear::Kernel::Auto uses the %s primitive on this machine",
              kernelName(linear.kernel()));
    }
    void flattensLeadingDimensions()
    {
        const Tensor w = randomTensor({5, 4}, 7);
        const Linear linear(w);
        const Tensor x = randomTensor({2, 3, 4}, 8);
        Tensor y, expected;
        linear(x, y);
        QCOMPARE(y.shape(), (Shape{2, 3, 5}));
        reference::linear(x, w, Tensor(), Activation::None, expected);
        GLOSA_COMPARE_TENSORS(y, expected);
    }
    void halfWeightsAreConverted()
    {
        const Tensor w = randomTensor({6, 5}, 9);
        Tensor half({6, 5}, DType::F16);
        for (int i = 0; i < 30; ++i)
            half.data<std::uint16_t>()[i] = floatToHalf(w.data<float>()[i]);
        const Linear linear(half);
        const Tensor x = randomTensor({3, 5}, 10);
        Tensor y, expected;
        linear(x, y);
        reference::linear(x, half.toFloat32(), Tensor(), Activation::None, expected);
        GLOSA_COMPARE_TENSORS(y, expected);
    }
    // F16 weights at M <= Linear::halfWeightsMaxRows() (4) take Linear's fp16 kernel
    // (halfgemv.h) where the CPU has AVX2/FMA/F16C (its 256-bit variant under
    // ONEDNN_MAX_CPU_ISA=AVX2), larger M the oneDNN fp32 path. Both sides of the threshold, K and
    // N not multiples of 8 or 16 (the vector widths: the tail loops), each activation.
    void halfWeightsMatchReference_data()
    {
        QTest::addColumn<int>("in");
        QTest::addColumn<int>("out");
        QTest::addColumn<bool>("withBias");
        QTest::addColumn<Activation>("activation");
        const struct
        {
            int in, out;
        } shapes[] = {{37, 19}, {8, 8}, {256, 300}, {1024, 67}, {5, 3}};
        for (const auto &s : shapes)
            for (bool bias : {false, true})
                QTest::addRow("%dx%d%s", s.in, s.out, bias ? " bias" : "")
                    << s.in << s.out << bias << Activation::None;
        for (Activation a : {Activation::Relu, Activation::Relu6, Activation::Gelu,
                             Activation::Tanh, Activation::Sigmoid, Activation::Swish})
            for (bool bias : {false, true})
                QTest::addRow("37x19 %s%s", activationName(a), bias ? " bias" : "")
                    << 37 << 19 << bias << a;
    }
    void halfWeightsMatchReference()
    {
        QFETCH(int, in);
        QFETCH(int, out);
        QFETCH(bool, withBias);
        QFETCH(Activation, activation);
        const Tensor w = toHalf(randomTensor({out, in}, 41));
        const Tensor w32 = w.toFloat32(); // the same (fp16-exact) values, for the fp32 path
        const Tensor b = withBias ? randomTensor({out}, 42) : Tensor();
        const Linear half(w, b, activation);
        const Linear full(w32, b, activation);
        QVERIFY(!full.halfWeights());
        if (!half.halfWeights())
            qInfo("no AVX2/FMA/F16C here: F16 weights take the fp32 path");
        for (int m : {1, 2, 4, 5, 8, 9, 3, 1}) {
            const Tensor x = randomTensor({m, in}, 43 + m, -2.0f, 2.0f);
            Tensor y, yFull, expected;
            half(x, y);
            full(x, yFull);
            reference::linear(x, w, b, activation, expected);
            QCOMPARE(y.shape(), (Shape{m, out}));
            // Against the double-accumulated reference: the fp32 sum of K + 1 terms (bias
            // included) in any order is within γ = (K+1)·u·Σ|term| of the exact sum (u = 2^-24,
            // Higham, "Accuracy and Stability of Numerical Algorithms", 4.2); the activations
            // here have slopes <= 1.13 (GELU's largest), plus a few ulps of the activation
            // itself. Against the fp32 oneDNN path on the same weights: both are within that of
            // the exact sum, and oneDNN's GELU/tanh/sigmoid are approximations of ~1e-6, so
            // 1e-5 relative to the terms' magnitude.
            const float *px = x.data<float>(), *pw = w32.data<float>();
            for (int r = 0; r < m; ++r)
                for (int o = 0; o < out; ++o) {
                    double magnitude = withBias ? std::fabs(b.data<float>()[o]) : 0.0;
                    for (int k = 0; k < in; ++k)
                        magnitude += std::fabs(double(px[r * in + k]) * pw[o * in + k]);
                    const double got = y.data<float>()[r * out + o];
                    const double want = expected.data<float>()[r * out + o];
                    const double bound = 1.2 * (in + 1) * std::ldexp(magnitude, -24) +
                                         4 * std::ldexp(std::max(1.0, std::fabs(want)), -24);
                    QVERIFY2(std::fabs(got - want) <= bound,
                             qPrintable(QStringLiteral("m %1 [%2, %3]: %4 vs reference %5 (%6)")
                                            .arg(m)
                                            .arg(r)
                                            .arg(o)
                                            .arg(got, 0, 'g', 9)
                                            .arg(want, 0, 'g', 9)
                                            .arg(bound)));
                    const double fp32 = yFull.data<float>()[r * out + o];
                    QVERIFY2(std::fabs(got - fp32) <= 1e-5 * std::max(1.0, magnitude),
                             qPrintable(QStringLiteral("m %1 [%2, %3]: %4 vs fp32 path %5")
                                            .arg(m)
                                            .arg(r)
                                            .arg(o)
                                            .arg(got, 0, 'g', 9)
                                            .arg(fp32, 0, 'g', 9)));
                }
        }
    }
    void halfWeightsKernelIsUsed()
    {
        // Where the CPU can, F16 weights keep their fp16 copy; F32 weights never do.
        const Tensor w = randomTensor({16, 16}, 51);
        QVERIFY(!Linear(w).halfWeights());
        if (!Linear(toHalf(w)).halfWeights())
            QSKIP("no AVX2/FMA/F16C on this CPU");
        QVERIFY(Linear::halfWeightsMaxRows() >= 2);
        qInfo("F16 weights: fp16 kernel up to %lld rows here",
              static_cast<long long>(Linear::halfWeightsMaxRows()));
        // Leading dimensions flatten into M (here 2, within the kernel's rows) as on the fp32
        // path; M = 0 gives an empty result.
        const Linear linear(toHalf(w), randomTensor({16}, 52));
        const Tensor x = randomTensor({1, 2, 16}, 53);
        Tensor y, expected;
        linear(x, y);
        reference::linear(x, toHalf(w), randomTensor({16}, 52), Activation::None, expected);
        QCOMPARE(y.shape(), (Shape{1, 2, 16}));
        GLOSA_COMPARE_TENSORS(y, expected);
        linear(Tensor({0, 16}), y);
        QCOMPARE(y.shape(), (Shape{0, 16}));
    }
    void halfWeightsSingleAndManyThreads()
    {
        // Large enough (the tied output projection's 256 inputs) for the kernel's OpenMP split
        // into blocks of 64 outputs; 8003 leaves a partial block and a partial row group.
        const Tensor w = toHalf(randomTensor({8003, 256}, 61));
        const Linear linear(w);
        const Tensor x = randomTensor({2, 256}, 62);
        Tensor expected;
        reference::linear(x, w, Tensor(), Activation::None, expected);
        Tensor many, one;
        linear(x, many);
        runtime::setNumThreads(1);
        linear(x, one);
        runtime::setNumThreads(0);
        GLOSA_COMPARE_TENSORS(many, expected);
        GLOSA_COMPARE_TENSORS(one, expected);
    }
    // F32 weights at small M: the fp32 kernel's panels with AVX-512 (floatgemm.h), else a plain
    // copy for floatGemv where the CPU has AVX2/FMA: one row to past floatGemv's threshold, K odd
    // (the tail loops), N past one OpenMP block of 64 with a partial row group, and an activation
    // left to oneDNN's eltwise.
    void floatWeightsMatchReference_data()
    {
        QTest::addColumn<int>("in");
        QTest::addColumn<int>("out");
        QTest::addColumn<Activation>("activation");
        QTest::addRow("37x8003") << 37 << 8003 << Activation::None;
        QTest::addRow("512x67 relu") << 512 << 67 << Activation::Relu;
        QTest::addRow("17x300 swish") << 17 << 300 << Activation::Swish;
        QTest::addRow("1x5 gelu") << 1 << 5 << Activation::Gelu;
    }
    void floatWeightsMatchReference()
    {
        QFETCH(int, in);
        QFETCH(int, out);
        QFETCH(Activation, activation);
        const Tensor w = randomTensor({out, in}, 71), b = randomTensor({out}, 72);
        const Linear linear(w, b, activation);
        QVERIFY(!linear.halfWeights());
        qInfo("F32 weights at one row: %s", linear.implementation(1).c_str());
        for (int m : {1, 2, 3, 4, 5, 1}) {
            const Tensor x = randomTensor({m, in}, 73 + m, -2.0f, 2.0f);
            Tensor y, expected, one;
            linear(x, y);
            reference::linear(x, w, b, activation, expected);
            GLOSA_COMPARE_TENSORS(y, expected);
            runtime::setNumThreads(1);
            linear(x, one);
            runtime::setNumThreads(0);
            GLOSA_COMPARE_TENSORS(one, expected);
        }
    }
    void singleThreadMatches()
    {
        const Tensor w = randomTensor({64, 48}, 11);
        const Linear linear(w);
        const Tensor x = randomTensor({33, 48}, 12);
        Tensor expected;
        reference::linear(x, w, Tensor(), Activation::None, expected);
        runtime::setNumThreads(1);
        QCOMPARE(runtime::numThreads(), 1);
        Tensor y;
        linear(x, y);
        runtime::setNumThreads(0);
        GLOSA_COMPARE_TENSORS(y, expected);
    }
    void concurrentCallsFromWorkerThreads()
    {
        // Each model runs in its own worker thread; two threads sharing one op (and the
        // per-thread streams and scratchpads behind it) must not disturb each other.
        const Tensor w = randomTensor({300, 200}, 21), b = randomTensor({300}, 22);
        const Linear linear(w, b, Activation::Gelu);
        std::vector<Tensor> inputs, expected(4);
        for (int t = 0; t < 4; ++t) {
            inputs.push_back(randomTensor({1 + 16 * t, 200}, 30 + t));
            reference::linear(inputs[t], w, b, Activation::Gelu, expected[t]);
        }
        std::vector<double> worst(4, 0.0);
        std::vector<std::thread> threads;
        for (int t = 0; t < 4; ++t)
            threads.emplace_back([&, t] {
                Tensor y;
                for (int i = 0; i < 50; ++i) {
                    linear(inputs[t], y);
                    worst[t] = std::max(worst[t], glosa::test::maxAbsDiff(y, expected[t]));
                }
            });
        for (auto &thread : threads)
            thread.join();
        for (int t = 0; t < 4; ++t)
            QVERIFY2(worst[t] <= glosa::test::kOpTolerance, qPrintable(QString::number(worst[t])));
    }
    void rejectsMismatchedShapes()
    {
        const Linear linear(randomTensor({4, 3}, 1), randomTensor({4}, 2));
        Tensor y;
        GLOSA_VERIFY_THROWS_WITH(std::invalid_argument, linear(Tensor({2, 5}), y),
                                 "input [2, 5] does not end in in_features 3");
        GLOSA_VERIFY_THROWS_WITH(std::invalid_argument, linear(Tensor({2, 3}, DType::I32), y),
                                 "must be F32");
        GLOSA_VERIFY_THROWS_WITH(std::invalid_argument,
                                 Linear(randomTensor({4, 3}, 1), randomTensor({3}, 2)),
                                 "bias [3] does not match weight [4, 3]");
        GLOSA_VERIFY_THROWS_WITH(std::invalid_argument, Linear(randomTensor({4}, 1)), "rank 2");
        GLOSA_VERIFY_THROWS_WITH(std::logic_error, Linear()(Tensor({1, 3}), y), "empty");
    }
};

QTEST_APPLESS_MAIN(TestOpsLinear)
#include "tst_ops_linear.moc"
