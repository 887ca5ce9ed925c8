// BatchedMatMul, Concat and Split against their plain-loop references.
#include "engine/ops/concat.h"
#include "engine/ops/matmul.h"
#include "tests/reference/opsreference.h"

#include "tests/engine/tst_ops_common.h"

#include <QtTest>

using namespace glosa::engine;
using namespace glosa::engine::ops;
using glosa::test::randomTensor;

Q_DECLARE_METATYPE(glosa::engine::Shape)

class TestOpsMatMul : public QObject
{
    Q_OBJECT
private slots:
    void batchedMatMul_data()
    {
        QTest::addColumn<int>("batch");
        QTest::addColumn<int>("m");
        QTest::addColumn<int>("k");
        QTest::addColumn<int>("n");
        for (int m : {1, 3, 7, 33, 100})
            for (int k : {1, 7, 64})
                QTest::addRow("b4 m%d k%d n%d", m, k, 33) << 4 << m << k << 33;
        QTest::newRow("b1 m1 k1 n1") << 1 << 1 << 1 << 1;
        QTest::newRow("b3 m5 k33 n100") << 3 << 5 << 33 << 100;
        QTest::newRow("b16 m1 k64 n7") << 16 << 1 << 64 << 7;
    }
    void batchedMatMul()
    {
        QFETCH(int, batch);
        QFETCH(int, m);
        QFETCH(int, k);
        QFETCH(int, n);
        const Tensor a = randomTensor({batch, m, k}, 1);
        for (bool transposeB : {false, true})
            for (bool broadcastB : {false, true})
                for (float alpha : {1.0f, 0.125f}) {
                    const int bBatch = broadcastB ? 1 : batch;
                    const Tensor b =
                        randomTensor(transposeB ? Shape{bBatch, n, k} : Shape{bBatch, k, n}, 2);
                    Tensor c, expected;
                    BatchedMatMul(transposeB, alpha)(a, b, c);
                    reference::batchedMatMul(a, b, transposeB, alpha, expected);
                    GLOSA_COMPARE_TENSORS(c, expected);
                }
    }
    void batchedMatMulRejectsMismatch()
    {
        Tensor c;
        GLOSA_VERIFY_THROWS_WITH(std::invalid_argument,
                                 BatchedMatMul(true)(Tensor({2, 3, 4}), Tensor({2, 5, 3}), c),
                                 "A [2, 3, 4] and B [2, 5, 3] (transposed) do not match: need "
                                 "K = 4");
        GLOSA_VERIFY_THROWS_WITH(std::invalid_argument,
                                 BatchedMatMul()(Tensor({2, 3, 4}), Tensor({3, 4, 5}), c),
                                 "batch 2 or 1");
        GLOSA_VERIFY_THROWS_WITH(std::invalid_argument,
                                 BatchedMatMul()(Tensor({3, 4}), Tensor({4, 5}), c), "rank 3");
    }
    void concatSplit_data()
    {
        QTest::addColumn<Shape>("shape");
        QTest::addColumn<int>("axis");
        QTest::newRow("rows") << Shape{7, 3} << 0;
        QTest::newRow("last") << Shape{3, 5, 33} << -1;
        QTest::newRow("middle") << Shape{2, 7, 3} << 1;
        QTest::newRow("single") << Shape{1} << 0;
        QTest::newRow("4d channels") << Shape{1, 100, 3, 3} << 1;
    }
    void concatSplit()
    {
        QFETCH(Shape, shape);
        QFETCH(int, axis);
        const int a = axis < 0 ? axis + int(shape.size()) : axis;
        std::vector<Tensor> parts;
        std::vector<std::int64_t> sizes;
        for (int i = 0; i < 3; ++i) {
            Shape s = shape;
            s[a] = shape[a] + i; // unequal sizes
            sizes.push_back(s[a]);
            parts.push_back(randomTensor(s, 10 + i));
        }
        Tensor joined, expected;
        Concat{axis}(parts, joined);
        reference::concat(parts, axis, expected);
        GLOSA_COMPARE_TENSORS(joined, expected);
        std::vector<Tensor> back, backExpected;
        Split(axis, sizes)(joined, back);
        reference::split(joined, axis, sizes, backExpected);
        QCOMPARE(back.size(), size_t(3));
        for (int i = 0; i < 3; ++i) {
            GLOSA_COMPARE_TENSORS(back[i], backExpected[i]);
            GLOSA_COMPARE_TENSORS(back[i], parts[i]);
        }
    }
    void concatIntegers()
    {
        Tensor out;
        Concat(0)({Tensor::fromInts({2}, {1, 2}), Tensor::fromInts({1}, {3})}, out);
        QCOMPARE(out.dtype(), DType::I32);
        QCOMPARE(out.data<std::int32_t>()[2], 3);
    }
    void concatSplitRejectMismatch()
    {
        Tensor out;
        GLOSA_VERIFY_THROWS_WITH(std::invalid_argument,
                                 Concat(1)({Tensor({2, 3}), Tensor({3, 3})}, out),
                                 "input 1 F32 [3, 3] does not match input 0 F32 [2, 3]");
        GLOSA_VERIFY_THROWS_WITH(std::invalid_argument, Concat(2)({Tensor({2, 3})}, out),
                                 "axis 2 is out of range for rank 2");
        std::vector<Tensor> parts;
        GLOSA_VERIFY_THROWS_WITH(std::invalid_argument, Split(1, {1, 1})(Tensor({2, 3}), parts),
                                 "sizes add up to 2 but input [2, 3] has 3");
    }
};

QTEST_APPLESS_MAIN(TestOpsMatMul)
#include "tst_ops_matmul.moc"
