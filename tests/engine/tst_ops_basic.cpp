// Element-wise ops, softmax / log-softmax (with masks), layer norm and embedding against their
// plain-loop references.
#include "engine/ops/elementwise.h"
#include "engine/ops/embedding.h"
#include "engine/ops/layernorm.h"
#include "engine/ops/softmax.h"
#include "tests/reference/opsreference.h"

#include "tests/engine/tst_ops_common.h"

#include <QtTest>

#include <cmath>

using namespace glosa::engine;
using namespace glosa::engine::ops;
using glosa::test::randomTensor;

Q_DECLARE_METATYPE(glosa::engine::ops::Activation)
Q_DECLARE_METATYPE(glosa::engine::Shape)

namespace {
const int kSizes[] = {1, 3, 7, 33, 100};
}

class TestOpsBasic : public QObject
{
    Q_OBJECT
private slots:
    void elementwise_data()
    {
        QTest::addColumn<Activation>("activation");
        QTest::newRow("relu") << Activation::Relu;
        QTest::newRow("relu6") << Activation::Relu6;
        QTest::newRow("gelu") << Activation::Gelu;
        QTest::newRow("tanh") << Activation::Tanh;
        QTest::newRow("sigmoid") << Activation::Sigmoid;
        QTest::newRow("swish") << Activation::Swish;
        QTest::newRow("none") << Activation::None;
    }
    void elementwise()
    {
        QFETCH(Activation, activation);
        const Elementwise op(activation);
        for (int rows : kSizes)
            for (int cols : {1, 7, 100}) {
                const Tensor x = randomTensor({rows, cols}, rows * 100 + cols, -8.0f, 8.0f);
                Tensor y, expected;
                op(x, y);
                reference::elementwise(activation, x, expected);
                GLOSA_COMPARE_TENSORS(y, expected);
                Tensor inPlace = x.clone();
                op(inPlace, inPlace);
                GLOSA_COMPARE_TENSORS(inPlace, expected);
            }
    }
    void binary_data()
    {
        QTest::addColumn<Shape>("a");
        QTest::addColumn<Shape>("b");
        for (int n : kSizes) {
            QTest::addRow("row bias %d", n) << Shape{5, n} << Shape{n};
            QTest::addRow("same %d", n) << Shape{n, 3} << Shape{n, 3};
            QTest::addRow("column %d", n) << Shape{n, 7} << Shape{n, 1};
        }
        QTest::newRow("key mask") << Shape{2, 4, 3, 33} << Shape{2, 1, 1, 33};
        QTest::newRow("scalar") << Shape{3, 7} << Shape{1};
        QTest::newRow("rank 1") << Shape{100} << Shape{100};
    }
    void binary()
    {
        QFETCH(Shape, a);
        QFETCH(Shape, b);
        const Tensor ta = randomTensor(a, 1), tb = randomTensor(b, 2);
        for (BinaryKind kind : {BinaryKind::Add, BinaryKind::Mul}) {
            Tensor out, expected;
            Binary{kind}(ta, tb, out);
            reference::binary(kind, ta, tb, expected);
            GLOSA_COMPARE_TENSORS(out, expected);
        }
        Tensor inPlace = ta.clone(), expected;
        Add()(inPlace, tb, inPlace);
        reference::binary(BinaryKind::Add, ta, tb, expected);
        GLOSA_COMPARE_TENSORS(inPlace, expected);
    }
    void binaryRejectsNonBroadcastable()
    {
        Tensor out;
        GLOSA_VERIFY_THROWS_WITH(std::invalid_argument, Add()(Tensor({3, 4}), Tensor({3}), out),
                                 "Add: shape [3] does not broadcast to [3, 4]");
        GLOSA_VERIFY_THROWS_WITH(std::invalid_argument, Mul()(Tensor({4}), Tensor({2, 4}), out),
                                 "Mul: shape [2, 4] does not broadcast to [4]");
    }
    void softmax_data()
    {
        QTest::addColumn<bool>("log");
        QTest::newRow("softmax") << false;
        QTest::newRow("log-softmax") << true;
    }
    void softmax()
    {
        QFETCH(bool, log);
        const Softmax op(log);
        for (int rows : kSizes)
            for (int n : kSizes) {
                const Tensor x = randomTensor({rows, n}, rows * 7 + n, -10.0f, 10.0f);
                Tensor y, expected;
                op(x, y);
                reference::softmax(x, Tensor(), log, expected);
                GLOSA_COMPARE_TENSORS(y, expected);
            }
        // Higher rank with a broadcast additive mask (attention over padded keys).
        const Tensor scores = randomTensor({2, 3, 5, 7}, 5, -4.0f, 4.0f);
        Tensor additive({2, 1, 1, 7});
        additive.data<float>()[6] = -INFINITY;
        additive.data<float>()[7 + 5] = -1e9f;
        Tensor y, expected;
        op(scores, additive, y);
        reference::softmax(scores, additive, log, expected);
        if (!log) // -inf stays -inf in log space: compare the finite part only via softmax
            GLOSA_COMPARE_TENSORS(y, expected);
        // Boolean mask: dropped positions get probability 0.
        Tensor keep = Tensor::fromInts({1, 7}, {1, 1, 0, 1, 0, 1, 1});
        const Tensor x = randomTensor({4, 7}, 9);
        op(x, keep, y);
        reference::softmax(x, keep, log, expected);
        GLOSA_COMPARE_TENSORS(y, expected);
        if (!log)
            QCOMPARE(y.data<float>()[2], 0.0f);
    }
    void softmaxRowsSumToOne()
    {
        Tensor y;
        Softmax()(randomTensor({3, 1001}, 4, -20.0f, 20.0f), y);
        for (int r = 0; r < 3; ++r) {
            double sum = 0;
            for (int i = 0; i < 1001; ++i)
                sum += y.data<float>()[r * 1001 + i];
            QVERIFY(std::fabs(sum - 1.0) < 1e-5);
        }
    }
    void softmaxRejectsBadMask()
    {
        Tensor y;
        GLOSA_VERIFY_THROWS_WITH(std::invalid_argument,
                                 Softmax()(Tensor({2, 5}), Tensor({2, 4}), y),
                                 "shape [2, 4] does not broadcast to [2, 5]");
        GLOSA_VERIFY_THROWS_WITH(std::invalid_argument,
                                 Softmax()(Tensor({2, 5}), Tensor({5}, DType::F16), y),
                                 "mask must be F32 (additive) or I32");
    }
    void layerNorm()
    {
        for (int rows : kSizes)
            for (int d : kSizes) {
                const Tensor gamma = randomTensor({d}, 1, 0.5f, 1.5f);
                const Tensor beta = randomTensor({d}, 2);
                const LayerNorm op(gamma, beta, 1e-5f);
                const Tensor x = randomTensor({rows, d}, rows + d, -3.0f, 5.0f);
                Tensor y, expected;
                op(x, y);
                reference::layerNorm(x, gamma, beta, 1e-5f, expected);
                GLOSA_COMPARE_TENSORS(y, expected);
            }
        const Tensor x = randomTensor({2, 3, 16}, 3);
        Tensor y, expected;
        LayerNorm(Tensor(), Tensor::fromFloats({16}, std::vector<float>(16, 0.5f)), 1e-6f)(x, y);
        reference::layerNorm(x, Tensor(), Tensor::fromFloats({16}, std::vector<float>(16, 0.5f)),
                             1e-6f, expected);
        GLOSA_COMPARE_TENSORS(y, expected);
    }
    void layerNormRejectsMismatch()
    {
        Tensor y;
        const LayerNorm op(randomTensor({8}, 1), randomTensor({8}, 2));
        GLOSA_VERIFY_THROWS_WITH(std::invalid_argument, op(Tensor({2, 7}), y),
                                 "input [2, 7] does not end in normalised size 8");
        GLOSA_VERIFY_THROWS_WITH(std::invalid_argument,
                                 LayerNorm(randomTensor({8}, 1), randomTensor({7}, 2)),
                                 "gamma [8] and beta [7] differ");
    }
    void embedding()
    {
        const Tensor table = randomTensor({33, 7}, 1);
        for (float scale : {1.0f, 2.5f}) {
            const Embedding op(table, scale);
            const Tensor ids = Tensor::fromInts({2, 3}, {0, 32, 5, 5, 1, 17});
            Tensor out, expected;
            op(ids, out);
            QCOMPARE(out.shape(), (Shape{2, 3, 7}));
            reference::embedding(table, ids, scale, expected);
            GLOSA_COMPARE_TENSORS(out, expected);
        }
    }
    void embeddingRejectsOutOfRange()
    {
        const Embedding op(randomTensor({10, 4}, 1));
        Tensor out;
        GLOSA_VERIFY_THROWS_WITH(std::out_of_range, op(Tensor::fromInts({3}, {1, 10, 2}), out),
                                 "id 10 at position 1 of ids [3] is outside [0, 10)");
        GLOSA_VERIFY_THROWS_WITH(std::out_of_range, op(Tensor::fromInts({1}, {-1}), out), "id -1");
        GLOSA_VERIFY_THROWS_WITH(std::invalid_argument, op(Tensor({2}), out), "ids must be I32");
    }
};

QTEST_APPLESS_MAIN(TestOpsBasic)
#include "tst_ops_basic.moc"
