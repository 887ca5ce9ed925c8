// Tensor basics: allocation, alignment, views, fp16/bf16 storage conversion.
#include "engine/tensor.h"

#include <QtTest>

#include <cmath>
#include <cstring>

using namespace glosa::engine;

class TestTensor : public QObject
{
    Q_OBJECT
private slots:
    void allocationIsAlignedAndZeroed()
    {
        for (std::int64_t n : {1, 3, 17, 64, 1000}) {
            Tensor t({n, 3});
            QCOMPARE(reinterpret_cast<std::uintptr_t>(t.raw()) % kTensorAlignment, 0u);
            for (std::int64_t i = 0; i < t.numel(); ++i)
                QCOMPARE(t.data<float>()[i], 0.0f);
        }
    }
    void viewsShareStorage()
    {
        Tensor t = Tensor::fromFloats({3, 2}, {0, 1, 2, 3, 4, 5});
        Tensor row = t[1];
        QCOMPARE(row.shape(), (Shape{2}));
        QCOMPARE(row.data<float>()[0], 2.0f);
        row.data<float>()[1] = 42;
        QCOMPARE(t.data<float>()[3], 42.0f);
        Tensor flat = t.reshaped({-1});
        QCOMPARE(flat.shape(), (Shape{6}));
        Tensor rows = t.slice(1, 3);
        QCOMPARE(rows.shape(), (Shape{2, 2}));
        QCOMPARE(rows.data<float>()[0], 2.0f);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, t.reshaped({4}));
        QVERIFY_THROWS_EXCEPTION(std::out_of_range, t.slice(2, 4));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, t.data<std::int32_t>());
    }
    void cloneIsDeep()
    {
        Tensor t = Tensor::fromFloats({2}, {1, 2});
        Tensor c = t.clone();
        c.data<float>()[0] = 9;
        QCOMPARE(t.data<float>()[0], 1.0f);
    }
    void resizeReusesUnsharedStorage()
    {
        Tensor t({4, 4});
        const void *before = t.raw();
        t.resize({2, 3});
        QCOMPARE(t.raw(), before);
        Tensor alias = t;
        t.resize({2, 2}); // shared: must not hand out memory another tensor sees
        QVERIFY(t.raw() != alias.raw());
    }
    void halfRoundTrip_data()
    {
        QTest::addColumn<float>("value");
        QTest::addColumn<float>("expected");
        QTest::newRow("zero") << 0.0f << 0.0f;
        QTest::newRow("one") << 1.0f << 1.0f;
        QTest::newRow("negative") << -2.5f << -2.5f;
        QTest::newRow("max") << 65504.0f << 65504.0f;
        QTest::newRow("overflow") << 70000.0f << INFINITY;
        QTest::newRow("smallest subnormal") << 5.9604645e-8f << 5.9604645e-8f;
        QTest::newRow("round to even") << 1.00048828125f << 1.0f; // halfway between 1 and 1+2^-10
        QTest::newRow("third") << 0.333333f << 0.33325195f;
    }
    void halfRoundTrip()
    {
        QFETCH(float, value);
        QFETCH(float, expected);
        QCOMPARE(halfToFloat(floatToHalf(value)), expected);
    }
    void sixteenBitStorageConverts()
    {
        std::uint16_t half[3] = {floatToHalf(1.5f), floatToHalf(-0.25f), 0x7c00u};
        Tensor h = Tensor::wrap(half, {3}, DType::F16, nullptr);
        QVERIFY(!h.allFinite());
        Tensor f = h.toFloat32();
        QCOMPARE(f.data<float>()[0], 1.5f);
        QCOMPARE(f.data<float>()[1], -0.25f);
        QVERIFY(std::isinf(f.data<float>()[2]));
        std::uint16_t bf[2] = {0x3fc0u, 0xc080u}; // 1.5, -4
        Tensor b = Tensor::wrap(bf, {2}, DType::BF16, nullptr).toFloat32();
        QCOMPARE(b.data<float>()[0], 1.5f);
        QCOMPARE(b.data<float>()[1], -4.0f);
    }
};

QTEST_APPLESS_MAIN(TestTensor)
#include "tst_tensor.moc"
