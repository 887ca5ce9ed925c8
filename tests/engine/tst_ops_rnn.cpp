// Gru and Lstm (cells and whole sequences, forward/backward, ragged lengths) against the
// plain-loop PyTorch-semantics references.
#include "engine/ops/rnn.h"
#include "tests/reference/opsreference.h"

#include "tests/engine/tst_ops_common.h"

#include <QtTest>

#include <cstring>

using namespace glosa::engine;
using namespace glosa::engine::ops;
using glosa::test::randomTensor;

namespace {

struct Weights
{
    Tensor wIh, wHh, bIh, bHh;
};

Weights weights(int gates, std::int64_t in, std::int64_t hidden, unsigned seed, bool bias = true)
{
    // PyTorch initialises with U(-1/sqrt(H), 1/sqrt(H)); use a wider range to exercise
    // saturation too.
    return {randomTensor({gates * hidden, in}, seed, -0.8f, 0.8f),
            randomTensor({gates * hidden, hidden}, seed + 1, -0.8f, 0.8f),
            bias ? randomTensor({gates * hidden}, seed + 2) : Tensor(),
            bias ? randomTensor({gates * hidden}, seed + 3) : Tensor()};
}

// Row b of a [B, H] tensor as a [1, H] copy.
Tensor row(const Tensor &t, std::int64_t b)
{
    return t.slice(b, b + 1).clone();
}

void setRow(Tensor &t, std::int64_t b, const Tensor &r)
{
    std::memcpy(t.data<float>() + b * t.dim(1), r.raw(), r.byteSize());
}

} // namespace

class TestOpsRnn : public QObject
{
    Q_OBJECT
private slots:
    void cells_data()
    {
        QTest::addColumn<int>("in");
        QTest::addColumn<int>("hidden");
        QTest::addColumn<bool>("bias");
        for (int in : {1, 3, 100})
            for (int hidden : {1, 7, 33})
                QTest::addRow("in%d h%d", in, hidden) << in << hidden << true;
        QTest::newRow("no bias") << 7 << 7 << false;
        QTest::newRow("decoder size") << 256 << 256 << true;
    }
    void cells()
    {
        QFETCH(int, in);
        QFETCH(int, hidden);
        QFETCH(bool, bias);
        const Weights g = weights(3, in, hidden, 10, bias), l = weights(4, in, hidden, 20, bias);
        const Gru gru(g.wIh, g.wHh, g.bIh, g.bHh);
        const Lstm lstm(l.wIh, l.wHh, l.bIh, l.bHh);
        QCOMPARE(gru.hiddenSize(), hidden);
        QCOMPARE(lstm.inputSize(), in);
        for (int m : {1, 3, 7}) {
            const Tensor x = randomTensor({m, in}, 30 + m, -2.0f, 2.0f);
            const Tensor h = randomTensor({m, hidden}, 40 + m), c = randomTensor({m, hidden}, 50);
            Tensor hOut, expected;
            gru(x, h, hOut);
            reference::gruCell(x, h, g.wIh, g.wHh, g.bIh, g.bHh, expected);
            GLOSA_COMPARE_TENSORS(hOut, expected);
            Tensor inPlace = h.clone(); // the decoder updates its state in place
            gru(x, inPlace, inPlace);
            GLOSA_COMPARE_TENSORS(inPlace, expected);

            Tensor lh, lc, eh, ec;
            lstm(x, h, c, lh, lc);
            reference::lstmCell(x, h, c, l.wIh, l.wHh, l.bIh, l.bHh, eh, ec);
            GLOSA_COMPARE_TENSORS(lh, eh);
            GLOSA_COMPARE_TENSORS(lc, ec);
            Tensor ph = h.clone(), pc = c.clone();
            lstm(x, ph, pc, ph, pc);
            GLOSA_COMPARE_TENSORS(ph, eh);
            GLOSA_COMPARE_TENSORS(pc, ec);
        }
    }
    void sequences_data()
    {
        QTest::addColumn<bool>("reverse");
        QTest::addColumn<bool>("ragged");
        QTest::newRow("forward") << false << false;
        QTest::newRow("backward") << true << false;
        QTest::newRow("forward ragged") << false << true;
        QTest::newRow("backward ragged") << true << true;
    }
    void sequences()
    {
        QFETCH(bool, reverse);
        QFETCH(bool, ragged);
        const std::int64_t T = 7, B = 3, in = 5, H = 33;
        const std::vector<std::int64_t> lengths =
            ragged ? std::vector<std::int64_t>{7, 1, 4} : std::vector<std::int64_t>{};
        const Weights g = weights(3, in, H, 60), l = weights(4, in, H, 70);
        const Gru gru(g.wIh, g.wHh, g.bIh, g.bHh);
        const Lstm lstm(l.wIh, l.wHh, l.bIh, l.bHh);
        const Tensor x = randomTensor({T, B, in}, 80);
        const Tensor h0 = randomTensor({B, H}, 81), c0 = randomTensor({B, H}, 82);

        Tensor out, hLast, lOut, lh, lc;
        gru.sequence(x, h0, reverse, out, hLast, lengths);
        lstm.sequence(x, h0, c0, reverse, lOut, lh, lc, lengths);
        QCOMPARE(out.shape(), (Shape{T, B, H}));

        // Reference: each row on its own, over its own length, with the cell references.
        Tensor expOut({T, B, H}), expLOut({T, B, H}), expH({B, H}), expLh({B, H}), expLc({B, H});
        for (std::int64_t b = 0; b < B; ++b) {
            const std::int64_t len = lengths.empty() ? T : lengths[b];
            Tensor h = row(h0, b), lhb = row(h0, b), lcb = row(c0, b);
            for (std::int64_t i = 0; i < len; ++i) {
                const std::int64_t t = reverse ? len - 1 - i : i;
                const Tensor xt = x[t].slice(b, b + 1).clone();
                reference::gruCell(xt, h, g.wIh, g.wHh, g.bIh, g.bHh, h);
                reference::lstmCell(xt, lhb, lcb, l.wIh, l.wHh, l.bIh, l.bHh, lhb, lcb);
                std::memcpy(expOut.data<float>() + (t * B + b) * H, h.raw(), h.byteSize());
                std::memcpy(expLOut.data<float>() + (t * B + b) * H, lhb.raw(), lhb.byteSize());
            }
            setRow(expH, b, h);
            setRow(expLh, b, lhb);
            setRow(expLc, b, lcb);
        }
        GLOSA_COMPARE_TENSORS(out, expOut);
        GLOSA_COMPARE_TENSORS(hLast, expH);
        GLOSA_COMPARE_TENSORS(lOut, expLOut);
        GLOSA_COMPARE_TENSORS(lh, expLh);
        GLOSA_COMPARE_TENSORS(lc, expLc);

        // Zero initial state when none is given.
        Tensor outZero, hZero;
        gru.sequence(x, Tensor(), reverse, outZero, hZero, lengths);
        Tensor outExplicit, hExplicit;
        gru.sequence(x, Tensor({B, H}), reverse, outExplicit, hExplicit, lengths);
        GLOSA_COMPARE_TENSORS(outZero, outExplicit);
    }
    void rejectsBadShapes()
    {
        const Weights g = weights(3, 4, 5, 1);
        GLOSA_VERIFY_THROWS_WITH(std::invalid_argument, Gru(g.wIh, g.wIh, g.bIh, g.bHh),
                                 "are not [3H, in] and [3H, H]");
        GLOSA_VERIFY_THROWS_WITH(std::invalid_argument, Gru(g.wIh, g.wHh, Tensor({7}), g.bHh),
                                 "bias [7] is not [15]");
        const Gru gru(g.wIh, g.wHh, g.bIh, g.bHh);
        Tensor h;
        GLOSA_VERIFY_THROWS_WITH(std::invalid_argument, gru(Tensor({2, 4}), Tensor({2, 6}), h),
                                 "state F32 [2, 6] is not F32 [2, 5]");
        Tensor out;
        GLOSA_VERIFY_THROWS_WITH(std::invalid_argument,
                                 gru.sequence(Tensor({3, 2, 5}), Tensor(), false, out, h),
                                 "sequence [3, 2, 5] is not F32 [T, B, 4]");
        GLOSA_VERIFY_THROWS_WITH(std::invalid_argument,
                                 gru.sequence(Tensor({3, 2, 4}), Tensor(), false, out, h, {3, 4}),
                                 "length 4 outside [0, 3]");
        const Weights l = weights(4, 4, 5, 1);
        GLOSA_VERIFY_THROWS_WITH(std::invalid_argument, Lstm(l.wIh, l.wHh, l.bIh, Tensor({5})),
                                 "bias [5] is not [20]");
    }
};

QTEST_APPLESS_MAIN(TestOpsRnn)
#include "tst_ops_rnn.moc"
