// fp32 Linear through its own AVX-512 kernel (floatgemm.h) against a plain double-precision loop:
// every row count a decoder meets and more, odd shapes, bias or none, each activation, one thread
// and all of them; which kernel runs where; and the oneDNN path the same op takes when the
// kernel stands aside.
#include "engine/ops/floatgemm.h"
#include "engine/ops/linear.h"
#include "engine/runtime.h"

#include "tests/engine/tst_ops_common.h"

#include <QtTest>

#include <cmath>
#include <limits>
#include <vector>

using namespace glosa::engine;
using namespace glosa::engine::ops;
using glosa::test::randomTensor;

Q_DECLARE_METATYPE(glosa::engine::ops::Activation)

namespace {

// Each output in double, and a bound on its fp32 rounding: any order of K fp32 products summed
// in fp32 stays within K · 2⁻²³ · Σ|x·w| of the exact sum (the classic γ_K bound, products
// included), and the activation (oneDNN's vectorised eltwise, not the libm one) within a few
// ulps of its value.
struct Expected
{
    std::vector<double> value, tolerance;
};

Expected reference(const Tensor &x, const Tensor &w, const Tensor &b, Activation activation)
{
    const std::int64_t m = x.dim(0), k = x.dim(1), n = w.dim(0);
    Expected e;
    e.value.resize(static_cast<std::size_t>(m * n));
    e.tolerance.resize(e.value.size());
    const float *xs = x.data<float>(), *ws = w.data<float>();
    for (std::int64_t i = 0; i < m; ++i)
        for (std::int64_t j = 0; j < n; ++j) {
            double sum = b.empty() ? 0.0 : b.data<float>()[j], magnitude = std::fabs(sum);
            for (std::int64_t c = 0; c < k; ++c) {
                const double p = double(xs[i * k + c]) * ws[j * k + c];
                sum += p;
                magnitude += std::fabs(p);
            }
            const double y = activationReference(activation, static_cast<float>(sum));
            e.value[i * n + j] = y;
            // Every activation here is 1.2-Lipschitz at most.
            e.tolerance[i * n + j] =
                1.2 * (k + 1) * std::ldexp(magnitude, -23) + 1e-5 * std::fabs(y) + 1e-6;
        }
    return e;
}

// The worst |y - expected| over its tolerance (> 1: a failure), with where it was.
QString worstExcess(const Tensor &y, const Expected &e, double &excess)
{
    excess = 0.0;
    std::int64_t at = -1;
    for (std::size_t i = 0; i < e.value.size(); ++i) {
        const double over = std::fabs(y.data<float>()[i] - e.value[i]) / e.tolerance[i];
        if (!(over <= excess)) { // NaN too
            excess = std::isnan(over) ? std::numeric_limits<double>::infinity() : over;
            at = static_cast<std::int64_t>(i);
        }
    }
    if (at < 0)
        return {};
    return QString("at %1: %2 against %3 (tolerance %4)")
        .arg(at)
        .arg(y.data<float>()[at])
        .arg(e.value[at])
        .arg(e.tolerance[at]);
}

bool kernelHere()
{
    return detail::floatGemmMaxRows() > 0;
}

} // namespace

class TestOpsFloatGemm : public QObject
{
    Q_OBJECT
private slots:
    // Row counts: every tile height of 1-6 rows and their mixes up to 40 (32: greedy at batch
    // 32), 47, 64, 128 (beam 4 at batch 32: chunks of several panels), 203 and 513 (encoders).
    // Shapes: n below one panel of 64 and not a multiple of 16, k odd, several panels with a
    // partial one, K = 2,048 (512 KB panels), and 8,003 outputs at K = 512 (many chunks, the
    // last partial) on fewer row counts.
    void matchesReference_data()
    {
        QTest::addColumn<int>("in");
        QTest::addColumn<int>("out");
        QTest::addColumn<bool>("withBias");
        QTest::addColumn<Activation>("activation");
        QTest::addColumn<bool>("allRows");
        QTest::addRow("19x37") << 19 << 37 << true << Activation::None << true;
        QTest::addRow("64x3") << 64 << 3 << false << Activation::None << true;
        QTest::addRow("3x130") << 3 << 130 << true << Activation::None << true;
        QTest::addRow("515x1001") << 515 << 1001 << false << Activation::None << true;
        QTest::addRow("2048x130") << 2048 << 130 << true << Activation::None << true;
        QTest::addRow("512x8003") << 512 << 8003 << true << Activation::None << false;
        for (Activation a : {Activation::Relu, Activation::Relu6, Activation::Gelu,
                             Activation::Tanh, Activation::Sigmoid, Activation::Swish})
            QTest::addRow("33x70 %s", activationName(a)) << 33 << 70 << true << a << true;
        QTest::addRow("33x70 relu no bias") << 33 << 70 << false << Activation::Relu << true;
    }
    void matchesReference()
    {
        QFETCH(int, in);
        QFETCH(int, out);
        QFETCH(bool, withBias);
        QFETCH(Activation, activation);
        QFETCH(bool, allRows);
        const Tensor w = randomTensor({out, in}, 11);
        const Tensor b = withBias ? randomTensor({out}, 12) : Tensor();
        const Linear linear(w, b, activation);
        std::vector<int> rowCounts;
        if (allRows)
            for (int m = 1; m <= 40; ++m)
                rowCounts.push_back(m);
        for (int m : {47, 64, 128, 203, 513})
            rowCounts.push_back(m);
        if (!allRows)
            rowCounts = {1, 4, 6, 32, 128, 203};
        for (int m : rowCounts) {
            const Tensor x = randomTensor({m, in}, 13 + m, -2.0f, 2.0f);
            const Expected expected = reference(x, w, b, activation);
            for (int threads : {0, 1}) {
                runtime::setNumThreads(threads);
                Tensor y;
                linear(x, y);
                runtime::setNumThreads(0);
                QCOMPARE(y.shape(), (Shape{m, out}));
                double excess = 0.0;
                const QString where = worstExcess(y, expected, excess);
                QVERIFY2(excess <= 1.0, qPrintable(QString("%1 rows, %2 thread(s), %3: %4")
                                                       .arg(m)
                                                       .arg(threads ? "one" : "all")
                                                       .arg(linear.implementation(m).c_str())
                                                       .arg(where)));
            }
        }
    }

    // With AVX-512 that oneDNN may use, fp32 Linear runs the kernel at every row count (F16
    // weights too beyond the fp16 kernel's rows); under ONEDNN_MAX_CPU_ISA=AVX2 or without
    // AVX-512, never. An explicit Linear::Kernel is oneDNN's.
    void kernelRunsWhereTheCpuAllows()
    {
        const Tensor w = randomTensor({70, 33}, 21);
        const Linear linear(w);
        const QByteArray isa = qgetenv("ONEDNN_MAX_CPU_ISA").toUpper();
        // oneDNN's avx512_core: F, BW, DQ and VL.
        const bool avx512 =
            __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
            __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl") &&
            (isa.isEmpty() || isa == "ALL" || isa.startsWith("AVX512"));
        QCOMPARE(kernelHere(), avx512);
        for (std::int64_t rows : {1, 4, 5, 32, 128})
            QCOMPARE(linear.implementation(rows) == "floatgemm:avx512", avx512);
        QVERIFY(!linear.plainWeights() || !avx512); // no floatGemv copy beside the panels
        QVERIFY(Linear(w, Tensor(), Activation::None, Linear::Kernel::Matmul).implementation(32) !=
                "floatgemm:avx512");
        Tensor half({70, 33}, DType::F16);
        for (int i = 0; i < 70 * 33; ++i)
            half.data<std::uint16_t>()[i] = floatToHalf(w.data<float>()[i]);
        const Linear halfLinear(half);
        QCOMPARE(halfLinear.implementation(32) == "floatgemm:avx512", avx512);
        if (halfLinear.halfWeights())
            QVERIFY(halfLinear.implementation(4).starts_with("halfgemv:"));
        qInfo("fp32 Linear at 32 rows runs %s here", linear.implementation(32).c_str());
    }

    // Where the kernel runs, the layer keeps only its panels: a call that takes oneDNN (the
    // kernel's row limit at 0, as bench_linear does) packs oneDNN's copy from them.
    void oneDnnFromThePanels()
    {
        if (!kernelHere())
            QSKIP("no AVX-512 here: fp32 Linear is oneDNN's already");
        const Tensor w = randomTensor({1001, 515}, 31), b = randomTensor({1001}, 32);
        const Linear linear(w, b, Activation::Swish);
        for (int m : {1, 32}) {
            const Tensor x = randomTensor({m, 515}, 33 + m, -2.0f, 2.0f);
            const Expected expected = reference(x, w, b, Activation::Swish);
            detail::limitFloatGemmRows(0);
            Tensor y;
            linear(x, y);
            const std::string implementation = linear.implementation(m);
            detail::limitFloatGemmRows(-1);
            QVERIFY2(implementation != "floatgemm:avx512", implementation.c_str());
            double excess = 0.0;
            const QString where = worstExcess(y, expected, excess);
            QVERIFY2(excess <= 1.0, qPrintable(where));
        }
    }
};

QTEST_APPLESS_MAIN(TestOpsFloatGemm)
#include "tst_ops_floatgemm.moc"
