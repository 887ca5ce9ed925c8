// Linear (oneDNN matmul or 1×1 convolution, prepacked weights) against its plain-loop reference.
#include "engine/ops/linear.h"
#include "engine/runtime.h"

#include "tst_ops_common.h"

#include <QtTest>

#include <thread>
#include <vector>

using namespace glosa::engine;
using namespace glosa::engine::ops;
using glosa::test::randomTensor;

Q_DECLARE_METATYPE(glosa::engine::ops::Activation)
Q_DECLARE_METATYPE(glosa::engine::ops::Linear::Kernel)

namespace {
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
                         {"sigmoid", 33, 33, true, Activation::Sigmoid}};
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
