// ops/rowsoftmax.h against the plain reference (reference::softmax, double) and against
// BestSampler on the written row: bestOfRow must give the very token and log-probability a greedy
// search takes from logSoftmaxRow's output, rounding ties included.
#include "engine/decoding/sampler.h"
#include "engine/ops/linear.h"
#include "engine/ops/rowsoftmax.h"
#include "engine/runtime.h"
#include "tests/engine/tst_ops_common.h"
#include "tests/reference/opsreference.h"

#include <QtTest>

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

using namespace glosa;
using namespace glosa::engine;
using namespace glosa::test;

namespace {
constexpr float kNegInf = -std::numeric_limits<float>::infinity();

// QCOMPARE on floats is fuzzy; these must be the same bits.
std::uint32_t bits(float v)
{
    return std::bit_cast<std::uint32_t>(v);
}
} // namespace

class TestOpsRowSoftmax : public QObject
{
    Q_OBJECT
private slots:
    // Sizes around the vector widths (8, 16) and their doubles (the two accumulators), the
    // OPUS-MT vocabulary, and the tail lengths in between.
    void matchesReference_data()
    {
        QTest::addColumn<int>("n");
        for (int n : {1, 2, 7, 8, 9, 15, 16, 17, 31, 32, 33, 47, 100, 1001, 65001})
            QTest::addRow("n%d", n) << n;
    }
    void matchesReference()
    {
        QFETCH(int, n);
        const Tensor x = randomTensor({1, n}, 7 + n, -8.0f, 8.0f);
        Tensor expected;
        ops::reference::softmax(x, Tensor(), true, expected);
        const ops::RowNormalizer norm = ops::rowNormalizer(x.data<float>(), n);
        Tensor y({1, n});
        ops::logSoftmaxRow(x.data<float>(), n, norm, y.data<float>());
        GLOSA_COMPARE_TENSORS(y, expected);

        float best = 0.0f;
        const std::int32_t token = ops::bestOfRow(x.data<float>(), n, norm, &best);
        const std::span<const float> row(y.data<float>(), static_cast<std::size_t>(n));
        QCOMPARE(token, BestSampler::sample(row));
        QCOMPARE(bits(best), bits(row[token])); // bit for bit, not within a tolerance
    }
    void inPlace()
    {
        const Tensor x = randomTensor({1, 33}, 3);
        Tensor y = x.clone(), expected;
        ops::reference::softmax(x, Tensor(), true, expected);
        ops::logSoftmaxRow(y.data<float>(), 33, ops::rowNormalizer(y.data<float>(), 33),
                           y.data<float>());
        GLOSA_COMPARE_TENSORS(y, expected);
    }
    // A token a little below the largest logit whose log-probability rounds to the same value
    // (log Σ exp ≈ 11 for 65,001 entries: an ulp there is ~1e-6): the written row makes them tie
    // and BestSampler takes the first, so bestOfRow must too, not the argmax of the logits.
    // The two in one block of the search's pass and in different ones (its blocks are 256 long).
    void roundingTieTakesTheFirst_data()
    {
        QTest::addColumn<int>("first");
        QTest::addColumn<int>("second");
        QTest::newRow("same block") << 10 << 20;
        QTest::newRow("adjacent blocks") << 255 << 256;
        QTest::newRow("far apart") << 10 << 64700;
    }
    void roundingTieTakesTheFirst()
    {
        QFETCH(int, first);
        QFETCH(int, second);
        const int n = 65001;
        Tensor x = randomTensor({1, n}, 11, -1.0f, 1.0f);
        float *p = x.data<float>();
        p[second] = 2.0f;
        p[first] = std::nextafter(2.0f, 0.0f); // 1.2e-7 below: log Σ exp ≈ 9.2, half an ulp 4.8e-7
        const ops::RowNormalizer norm = ops::rowNormalizer(p, n);
        std::vector<float> row(n);
        ops::logSoftmaxRow(p, n, norm, row.data());
        QCOMPARE(bits(row[first]), bits(row[second])); // the premise: they tie once written
        QVERIFY(p[first] < p[second]);
        float best = 0.0f;
        QCOMPARE(ops::bestOfRow(p, n, norm, &best), BestSampler::sample(row));
        QCOMPARE(ops::bestOfRow(p, n, norm, &best), first);
        QCOMPARE(bits(best), bits(row[first]));
        const std::vector<std::int32_t> excluded{first};
        QCOMPARE(ops::bestOfRow(p, n, norm, &best, excluded), second);
        QCOMPARE(bits(best), bits(row[second]));
    }
    // Ids the caller sets to -inf after the normaliser (never generated) keep their share of
    // the normaliser and are never chosen; a row of -inf has no best token.
    void excludedEntries()
    {
        Tensor x = randomTensor({1, 50}, 13);
        float *p = x.data<float>();
        p[42] = 9.0f; // the largest
        const ops::RowNormalizer norm = ops::rowNormalizer(p, 50);
        std::vector<float> row(50);
        ops::logSoftmaxRow(p, 50, norm, row.data());
        p[42] = row[42] = kNegInf;
        float best = 0.0f;
        const std::int32_t token = ops::bestOfRow(p, 50, norm, &best);
        QVERIFY(token != 42);
        QCOMPARE(token, BestSampler::sample(row));
        QCOMPARE(bits(best), bits(row[token]));

        std::vector<float> none(17, kNegInf);
        const ops::RowNormalizer empty = ops::rowNormalizer(none.data(), 17);
        QCOMPARE(empty.max, kNegInf);
        best = 1.0f;
        QCOMPARE(ops::bestOfRow(none.data(), 17, empty, &best), -1);
        QCOMPARE(best, 1.0f);
    }

    // Excluded ids (suppressed tokens) are skipped as if the written row held -inf there while
    // the normaliser still counts them: the token and log-probability BestSampler takes from the
    // written row with those entries set to -inf, bit for bit. Odd lengths (vector tails), an
    // excluded id that is the largest, ids at both ends, all but one excluded, and all excluded.
    void excludedIds_data()
    {
        QTest::addColumn<int>("n");
        QTest::addColumn<QList<int>>("excluded");
        QTest::addColumn<int>("largest"); // the entry set above every other (-1: none)
        QTest::addRow("n1 none") << 1 << QList<int>{} << -1;
        QTest::addRow("n7 max excluded") << 7 << QList<int>{3} << 3;
        QTest::addRow("n17 ends") << 17 << QList<int>{0, 16} << 16;
        QTest::addRow("n33 max and pad") << 33 << QList<int>{1, 2, 31} << 2;
        QTest::addRow("n65001 max excluded") << 65001 << QList<int>{0, 42, 65000} << 42;
        QTest::addRow("n1001 block edges") << 1001 << QList<int>{255, 256, 511, 1000} << 256;
        QTest::addRow("n65001 max kept") << 65001 << QList<int>{0, 65000} << 12345;
        QList<int> allButFive;
        for (int j = 0; j < 19; ++j)
            if (j != 5)
                allButFive.append(j);
        QTest::addRow("n19 all but one") << 19 << allButFive << 0;
        QList<int> all;
        for (int j = 0; j < 9; ++j)
            all.append(j);
        QTest::addRow("n9 all") << 9 << all << 4;
    }
    void excludedIds()
    {
        QFETCH(int, n);
        QFETCH(QList<int>, excluded);
        QFETCH(int, largest);
        Tensor x = randomTensor({1, n}, 5 + n, -4.0f, 4.0f);
        float *p = x.data<float>();
        if (largest >= 0)
            p[largest] = 9.0f;
        const ops::RowNormalizer norm = ops::rowNormalizer(p, n);
        std::vector<float> row(n);
        ops::logSoftmaxRow(p, n, norm, row.data());
        const std::vector<std::int32_t> ids(excluded.begin(), excluded.end());
        for (std::int32_t id : ids)
            row[id] = kNegInf; // what SuppressTokens does to the written row
        const float before = row.empty() ? 0.0f : p[0];
        float best = 1.0f;
        const std::int32_t token = ops::bestOfRow(p, n, norm, &best, ids);
        QCOMPARE(p[0], before); // the logits are not edited
        if (static_cast<int>(ids.size()) == n) {
            QCOMPARE(token, -1);
            QCOMPARE(best, 1.0f);
            return;
        }
        QCOMPARE(token, BestSampler::sample(row));
        QVERIFY(!excluded.contains(token));
        QCOMPARE(bits(best), bits(row[token]));
    }

    // rowMax, the max both the normaliser and bestOfRow's blocks read, vectorised with several
    // accumulators: the largest entry wherever it sits (the first, a vector's last lane, the
    // tail), NaN never chosen, a row of -inf and NaN only giving -inf.
    void rowMaxFindsTheLargest()
    {
        for (int n : {1, 2, 7, 15, 16, 17, 31, 33, 63, 64, 65, 100, 255, 256, 257, 65001}) {
            const Tensor x = randomTensor({n}, 40 + n, -5.0f, 5.0f);
            for (int at : {0, n / 2, n - 1}) {
                std::vector<float> row(x.data<float>(), x.data<float>() + n);
                row[at] = 6.5f;
                if (n > 2)
                    row[(at + 1) % n] = std::numeric_limits<float>::quiet_NaN();
                QCOMPARE(bits(ops::rowMax(row.data(), n)), bits(6.5f));
                for (float &v : row)
                    v = std::isnan(v) ? v : kNegInf;
                QCOMPARE(bits(ops::rowMax(row.data(), n)), bits(kNegInf));
            }
        }
    }

    // An output layer's normalisers computed with it (Linear's overload: int8 layers take each
    // row's max while they rescale it, a block at a time) are rowNormalizer() of the rows it
    // writes, and the rows are those of the plain call, bit for bit: widths of one block, of
    // several with a longer last block, around the vector tails (16 k + 8, 16 k + 9, 16 k + 15),
    // the OPUS-MT vocabulary; 1-4 rows (int8gemv's kernel where the CPU has VNNI), 5 and 32 rows
    // (oneDNN); with and without a bias; one thread and two.
    void outputLayerNormalizers_data()
    {
        QTest::addColumn<bool>("int8");
        QTest::addColumn<int>("out");
        QTest::addColumn<int>("rows");
        QTest::addColumn<bool>("bias");
        QTest::addColumn<int>("threads");
        for (bool int8 : {true, false})
            for (int out : {40, 8200, 12311, 16392, 20041, 65001})
                for (int rows : {1, 3, 5, 32})
                    QTest::addRow("%s out %d rows %d", int8 ? "int8" : "fp32", out, rows)
                        << int8 << out << rows << (out % 2 == 1) << (rows == 5 ? 2 : 1);
        QTest::addRow("int8 65001 without bias") << true << 65001 << 3 << false << 1;
        QTest::addRow("int8 20041 without bias, 2 threads") << true << 20041 << 32 << false << 2;
    }
    void outputLayerNormalizers()
    {
        QFETCH(bool, int8);
        QFETCH(int, out);
        QFETCH(int, rows);
        QFETCH(bool, bias);
        QFETCH(int, threads);
        constexpr int in = 64;
        runtime::setNumThreads(threads);
        const Tensor w = randomTensor({out, in}, 3 + out, -0.5f, 0.5f);
        const Tensor b = bias ? randomTensor({out}, 4 + out, -2.0f, 2.0f) : Tensor();
        const ops::Linear layer = ops::Linear::withPrecision(int8, w, b);
        const Tensor x = randomTensor({rows, in}, 5 + rows, -3.0f, 3.0f);
        Tensor plain, fused;
        layer(x, plain);
        std::vector<ops::RowNormalizer> norms(static_cast<std::size_t>(rows));
        layer(x, fused, norms.data());
        runtime::setNumThreads(1);
        QCOMPARE(fused.shape(), plain.shape());
        for (std::int64_t i = 0; i < plain.numel(); ++i)
            if (bits(fused.data<float>()[i]) != bits(plain.data<float>()[i]))
                QFAIL(qPrintable(QStringLiteral("row %1, column %2: %3 vs %4")
                                     .arg(i / out)
                                     .arg(i % out)
                                     .arg(double(fused.data<float>()[i]), 0, 'g', 9)
                                     .arg(double(plain.data<float>()[i]), 0, 'g', 9)));
        for (int r = 0; r < rows; ++r) {
            const ops::RowNormalizer want = ops::rowNormalizer(plain.data<float>() + r * out, out);
            QCOMPARE(bits(norms[r].max), bits(want.max));
            QCOMPARE(bits(norms[r].logSum), bits(want.logSum));
        }
    }
};

QTEST_GUILESS_MAIN(TestOpsRowSoftmax)
#include "tst_ops_rowsoftmax.moc"
