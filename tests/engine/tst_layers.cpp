// engine/layers against plain references: the attention blocks every model family uses (score
// functions, softmax and weighted sum, in double precision here), the decoder-state row gather
// behind every DecoderState::reorder(), the text decoders' shared state bookkeeping, and the
// Transformer's shapes (position tables, pre/post-norm residuals).
#include "engine/layers/attention.h"
#include "engine/layers/stategather.h"
#include "engine/layers/textstate.h"
#include "engine/layers/transformer.h"
#include "engine/ops/layernorm.h"
#include "tests/reference/opsreference.h"
#include "tests/engine/tst_ops_common.h"

#include <QtTest>

#include <cmath>
#include <cstring>
#include <vector>

using namespace glosa::engine;
using glosa::test::randomTensor;

namespace {

std::vector<double> softmax(const std::vector<double> &scores)
{
    double maximum = -INFINITY, sum = 0;
    for (double s : scores)
        maximum = std::max(maximum, s);
    std::vector<double> p;
    for (double s : scores)
        p.push_back(std::exp(s - maximum));
    for (double v : p)
        sum += v;
    for (double &v : p)
        v /= sum;
    return p;
}

// dotScores' summation order (engine/layers/attention.cpp), one key at a time in scalar code:
// lane l adds q[i] · k[i] for i ≡ l (mod 4) below dim rounded down to 4, the rest goes to lane
// 0, then (((lane0 + 0) + lane1) + lane2) + lane3, times scale. It is what GCC made of the plain
// `omp simd` loop for the x86-64 baseline, which the faster paths must reproduce bit for bit.
float dotInOrder(const float *q, const float *k, int dim, float scale)
{
    float lane[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    const int vectorDim = dim & ~3;
    for (int i = 0; i < vectorDim; ++i)
        lane[i % 4] += q[i] * k[i];
    for (int i = vectorDim; i < dim; ++i)
        lane[0] += q[i] * k[i];
    return ((((lane[0] + 0.0f) + lane[1]) + lane[2]) + lane[3]) * scale;
}

// softmaxWeightedSum as the plain loops computed it: max, exp and sum in order, p_j = e_j ·
// (1 / sum), out[i] = Σ_j p_j · v_j[i] with j in order.
void softmaxWeightedSumInOrder(float *scores, int n, const float *values, int valueStride,
                               int width, float *out)
{
    float maximum = -INFINITY;
    for (int j = 0; j < n; ++j)
        maximum = std::max(maximum, scores[j]);
    float sum = 0.0f;
    for (int j = 0; j < n; ++j) {
        scores[j] = std::exp(scores[j] - maximum);
        sum += scores[j];
    }
    const float inverse = 1.0f / sum;
    for (int i = 0; i < width; ++i)
        out[i] = 0.0f;
    for (int j = 0; j < n; ++j) {
        scores[j] *= inverse;
        for (int i = 0; i < width; ++i)
            out[i] += scores[j] * values[j * valueStride + i];
    }
}

bool sameBits(float a, float b)
{
    return std::memcmp(&a, &b, sizeof a) == 0;
}

} // namespace

class TestLayers : public QObject
{
    Q_OBJECT
private slots:
    void attentionMatchesReference_data()
    {
        QTest::addColumn<int>("n");
        QTest::addColumn<int>("dim");
        QTest::addColumn<float>("spread"); // score magnitude: large values test the max shift
        QTest::addColumn<bool>("additive");
        QTest::newRow("one position") << 1 << 8 << 1.0f << false;
        QTest::newRow("dot, 7 x 64") << 7 << 64 << 1.0f << false;
        QTest::newRow("dot, large scores") << 13 << 16 << 40.0f << false;
        QTest::newRow("additive, 9 x 32") << 9 << 32 << 1.0f << true;
        QTest::newRow("additive, 50 x 5") << 50 << 5 << 3.0f << true;
    }
    void attentionMatchesReference()
    {
        QFETCH(int, n);
        QFETCH(int, dim);
        QFETCH(float, spread);
        QFETCH(bool, additive);
        // Keys and values in rows wider than they are read, as the plugins lay them out.
        const int stride = dim + 3, width = dim + 1, valueStride = width + 2;
        const Tensor q = randomTensor({dim}, 1, -spread, spread);
        const Tensor k = randomTensor({n, stride}, 2, -spread, spread);
        const Tensor v = randomTensor({n, valueStride}, 3);
        const Tensor w = randomTensor({dim}, 4);
        const float scale = 1.0f / std::sqrt(float(dim));

        std::vector<double> scores(n);
        for (int j = 0; j < n; ++j)
            for (int i = 0; i < dim; ++i) {
                const double qi = q.data<float>()[i], kj = k.data<float>()[j * stride + i];
                scores[j] += additive ? w.data<float>()[i] * std::tanh(qi + kj) : qi * kj;
            }
        if (!additive)
            for (double &s : scores)
                s *= scale;
        const std::vector<double> p = softmax(scores);

        std::vector<float> got(n + 1, -7.0f); // one past n must stay untouched
        if (additive)
            layers::additiveScores(w.data<float>(), q.data<float>(), k.data<float>(), stride, n,
                                   dim, got.data());
        else
            layers::dotScores(q.data<float>(), k.data<float>(), stride, n, dim, scale, got.data());
        for (int j = 0; j < n; ++j)
            QVERIFY2(
                std::abs(got[j] - scores[j]) <= 1e-5 * (1 + std::abs(scores[j])),
                qPrintable(QStringLiteral("score %1: %2 vs %3").arg(j).arg(got[j]).arg(scores[j])));
        std::vector<float> out(width + 1, -7.0f);
        layers::softmaxWeightedSum(got.data(), n, v.data<float>(), valueStride, width, out.data());
        double total = 0;
        for (int j = 0; j < n; ++j) {
            QVERIFY(std::abs(got[j] - p[j]) <= 1e-6);
            total += got[j];
        }
        QVERIFY(std::abs(total - 1.0) <= 1e-5);
        QCOMPARE(got[n], -7.0f);
        for (int i = 0; i < width; ++i) {
            double expected = 0;
            for (int j = 0; j < n; ++j)
                expected += p[j] * v.data<float>()[j * valueStride + i];
            QVERIFY2(
                std::abs(out[i] - expected) <= 1e-5,
                qPrintable(QStringLiteral("out %1: %2 vs %3").arg(i).arg(out[i]).arg(expected)));
        }
        QCOMPARE(out[width], -7.0f);
    }

    // The attention loops keep the plain loops' floats bit for bit (a decoder's outputs must not
    // move by a bit when they get faster): every key-group path of dotScores (eight, four and
    // single keys, dims with and without a tail of dim % 4) and softmaxWeightedSum's register
    // blocks (32, 4 and single outputs).
    void attentionKeepsItsOrder()
    {
        for (int dim : {1, 2, 3, 4, 5, 7, 8, 31, 64, 65, 100}) {
            for (int n : {1, 3, 4, 5, 8, 9, 15, 16, 17, 33}) {
                const int stride = dim + 5;
                const Tensor q = randomTensor({dim}, 11 + dim, -3.0f, 3.0f);
                const Tensor k = randomTensor({n, stride}, 12 + n, -3.0f, 3.0f);
                const float scale = 1.0f / std::sqrt(float(dim));
                std::vector<float> got(n + 1, -7.0f);
                layers::dotScores(q.data<float>(), k.data<float>(), stride, n, dim, scale,
                                  got.data());
                for (int j = 0; j < n; ++j) {
                    const float want =
                        dotInOrder(q.data<float>(), k.data<float>() + j * stride, dim, scale);
                    QVERIFY2(sameBits(got[j], want),
                             qPrintable(QStringLiteral("dim %1, n %2, key %3: %4 vs %5")
                                            .arg(dim)
                                            .arg(n)
                                            .arg(j)
                                            .arg(double(got[j]), 0, 'g', 9)
                                            .arg(double(want), 0, 'g', 9)));
                }
                QCOMPARE(got[n], -7.0f);
            }
        }
        // A long row with a wide spread, as a peaked attention gives.
        for (int width : {1, 3, 4, 5, 31, 32, 33, 64, 100}) {
            for (int n : {1, 2, 7, 20, 999}) {
                const int valueStride = width + 3;
                const float spread = n > 100 ? 60.0f : 4.0f;
                const Tensor scores = randomTensor({n}, 21 + n, -spread, spread);
                const Tensor v = randomTensor({n, valueStride}, 22 + width);
                std::vector<float> p(scores.data<float>(), scores.data<float>() + n), pWant = p;
                std::vector<float> out(width + 1, -7.0f), want(width);
                layers::softmaxWeightedSum(p.data(), n, v.data<float>(), valueStride, width,
                                           out.data());
                softmaxWeightedSumInOrder(pWant.data(), n, v.data<float>(), valueStride, width,
                                          want.data());
                for (int j = 0; j < n; ++j)
                    QVERIFY2(sameBits(p[j], pWant[j]), qPrintable(QStringLiteral("p %1").arg(j)));
                for (int i = 0; i < width; ++i)
                    QVERIFY2(sameBits(out[i], want[i]),
                             qPrintable(QStringLiteral("width %1, n %2, out %3: %4 vs %5")
                                            .arg(width)
                                            .arg(n)
                                            .arg(i)
                                            .arg(double(out[i]), 0, 'g', 9)
                                            .arg(double(want[i]), 0, 'g', 9)));
                QCOMPARE(out[width], -7.0f);
            }
        }
    }

    // Every row lands where its origin says, rank > 2 kept, the in-place and the spare path.
    void gatherStateRowsFollowsOrigins_data()
    {
        QTest::addColumn<std::vector<std::int32_t>>("origins");
        QTest::newRow("expand and shuffle (spare)") << std::vector<std::int32_t>{3, 0, 0, 2, 1};
        QTest::newRow("drop rows (in place)") << std::vector<std::int32_t>{0, 2, 3};
        QTest::newRow("identity") << std::vector<std::int32_t>{0, 1, 2, 3};
        QTest::newRow("all finished") << std::vector<std::int32_t>{};
        QTest::newRow("one repeated") << std::vector<std::int32_t>{1, 1};
    }
    void gatherStateRowsFollowsOrigins()
    {
        QFETCH(std::vector<std::int32_t>, origins);
        std::vector<float> values(4 * 2 * 3);
        for (std::size_t i = 0; i < values.size(); ++i)
            values[i] = static_cast<float>(i);
        for (int used : {-1, 6, 4}) { // whole rows; whole rows given as a count; a prefix
            Tensor rows = Tensor::fromFloats({4, 2, 3}, values);
            Tensor spare;
            layers::gatherStateRows(rows, origins, spare, used);
            QCOMPARE(rows.shape(), (Shape{std::int64_t(origins.size()), 2, 3}));
            const int copied = used < 0 ? 6 : used;
            for (std::size_t i = 0; i < origins.size(); ++i)
                for (int j = 0; j < copied; ++j)
                    QCOMPARE(rows.data<float>()[i * 6 + j], values[origins[i] * 6 + j]);
        }
        Tensor rows = Tensor::fromFloats({4, 2, 3}, values), spare;
        QVERIFY_THROWS_EXCEPTION(std::out_of_range, layers::gatherStateRows(rows, {4}, spare));
        QVERIFY_THROWS_EXCEPTION(std::out_of_range, layers::gatherStateRows(rows, {-1}, spare));
    }

    // A state reordered many times keeps one buffer and one spare: no allocation per step.
    void gatherStateRowsReusesBuffers()
    {
        Tensor rows = randomTensor({8, 16}, 5), spare;
        layers::gatherStateRows(rows, {7, 6, 5, 4, 3, 2, 1, 0}, spare); // allocates the spare
        const void *a = rows.raw(), *b = spare.raw();
        for (int step = 0; step < 10; ++step) {
            layers::gatherStateRows(rows, {7, 6, 5, 4, 3, 2, 1, 0}, spare);
            QVERIFY((rows.raw() == a && spare.raw() == b) || (rows.raw() == b && spare.raw() == a));
        }
        layers::gatherStateRows(rows, {0, 3}, spare); // dropping rows copies nothing away
        QVERIFY(rows.raw() == a || rows.raw() == b);
    }

    // The row → sentence bookkeeping of the text decoders: lengths, keys, checks, and the row
    // tensors a model registers moved with the rows (a prefix of each row where it says so).
    void textStateKeepsRowsToSentences()
    {
        struct State : layers::TextState
        {
            State(const std::vector<std::vector<std::int32_t>> &sources, std::int64_t vocabulary,
                  std::int64_t maxLength, const char *decoder)
                : TextState(sources, vocabulary, maxLength, decoder)
            {
                rowTensors.add(hidden);
                rowTensors.add(cache, [this] { return used; });
                rowTensors.add(notYet); // empty: skipped, as a cache before the first step
            }
            Tensor hidden = Tensor::fromFloats({2, 2}, {0, 1, 10, 11});
            Tensor cache = Tensor::fromFloats({2, 3}, {0, 1, 2, 10, 11, 12});
            Tensor notYet;
            std::int64_t used = 3;
        };
        State state({{5, 6, 2}, {7, 2}}, 10, 3, "Toy");
        QCOMPARE(state.rows(), 2);
        QCOMPARE(state.maxSourceLength, 3);
        QCOMPARE(state.sourceKey(1), tokenKey({7, 2}));
        const void *before = state.hidden.raw();
        state.reorder({0, 1}); // the identity: nothing moves
        QCOMPARE(state.hidden.raw(), before);
        state.reorder({1, 1, 0});
        QCOMPARE(state.rows(), 3);
        QCOMPARE(state.sourceLength(0), 2);
        QCOMPARE(state.sourceLength(2), 3);
        QCOMPARE(state.hidden.shape(), (Shape{3, 2}));
        QCOMPARE(std::vector<float>(state.hidden.data<float>(), state.hidden.data<float>() + 6),
                 (std::vector<float>{10, 11, 10, 11, 0, 1}));
        state.used = 2; // only the first two floats of a cache row hold data now
        state.reorder({2, 0});
        QCOMPARE(state.cache.shape(), (Shape{2, 3}));
        QCOMPARE(state.cache.data<float>()[0], 0.0f);
        QCOMPARE(state.cache.data<float>()[1], 1.0f);
        QCOMPARE(state.cache.data<float>()[3], 10.0f);
        QCOMPARE(state.cache.data<float>()[4], 11.0f);
        QVERIFY(state.notYet.empty());
        QVERIFY_THROWS_EXCEPTION(std::out_of_range, state.reorder({3}));
        const auto refused = [](const std::vector<std::vector<std::int32_t>> &sources) {
            try {
                State bad(sources, 10, 3, "Toy");
            } catch (const std::invalid_argument &error) {
                return QString::fromUtf8(error.what());
            }
            return QString();
        };
        QCOMPARE(refused({{1}, {}}), QStringLiteral("Toy::encode: source 1 is empty"));
        QVERIFY(refused({{1, 10}}).contains(QStringLiteral("token id 10 in source 0")));
        QVERIFY(refused({{1, 2, 3, 4}}).contains(QStringLiteral("more than max_positions 3")));
    }

    // Sinusoidal positions against the formula (Vaswani et al. 2017, 3.5), in both layouts: the
    // same values, interleaved (ours) or as sin | cos halves (Marian's).
    void positionTablesFollowTheFormula()
    {
        using namespace glosa::engine::layers;
        const std::int64_t positions = 50, d = 16;
        const Tensor interleaved =
            layers::sinusoidalPositions(positions, d, PositionEncoding::Interleaved);
        const Tensor halves = layers::sinusoidalPositions(positions, d, PositionEncoding::Halves);
        QCOMPARE(interleaved.shape(), (Shape{positions, d}));
        for (std::int64_t pos = 0; pos < positions; ++pos)
            for (std::int64_t i = 0; i < d / 2; ++i) {
                const double angle = double(pos) / std::pow(10000.0, 2.0 * double(i) / double(d));
                const float sin = float(std::sin(angle)), cos = float(std::cos(angle));
                QCOMPARE(interleaved.data<float>()[pos * d + 2 * i], sin);
                QCOMPARE(interleaved.data<float>()[pos * d + 2 * i + 1], cos);
                QCOMPARE(halves.data<float>()[pos * d + i], sin);
                QCOMPARE(halves.data<float>()[pos * d + d / 2 + i], cos);
            }
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                                 layers::sinusoidalPositions(4, 7, PositionEncoding::Halves));
        QCOMPARE(positionEncodingFromName(positionEncodingName(PositionEncoding::Halves)),
                 PositionEncoding::Halves);
        QCOMPARE(normalizationFromName("post-norm"), Normalization::PostNorm);
        QCOMPARE(feedForwardActivationFromName("silu"), glosa::engine::ops::Activation::Swish);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, normalizationFromName("sandwich"));
    }

    // A sublayer's residual: pre-norm reads norm(x) and adds f; post-norm reads x and
    // normalises x + f, both against the plain formulas.
    void sublayerResidual()
    {
        using namespace glosa::engine::layers;
        const Tensor x0 = Tensor::fromFloats({2, 4}, {1, 2, 3, 4, -1, 0, 5, 2});
        const Tensor f = Tensor::fromFloats({2, 4}, {0.5f, -1, 2, 0, 1, 1, -3, 0.25f});
        const Tensor gamma = Tensor::fromFloats({4}, {1, 0.5f, 2, 1});
        const Tensor beta = Tensor::fromFloats({4}, {0, 0.1f, -0.2f, 0.3f});
        const glosa::engine::ops::LayerNorm norm(gamma, beta, 1e-5f);
        Tensor sum = x0.clone();
        for (int i = 0; i < 8; ++i)
            sum.data<float>()[i] += f.data<float>()[i];
        for (Normalization n : {Normalization::PreNorm, Normalization::PostNorm}) {
            TransformerShape shape;
            shape.normalization = n;
            Tensor x = x0.clone(), normed, expectedIn, expectedOut;
            const Tensor &in = sublayerInput(shape, norm, x, normed);
            if (n == Normalization::PreNorm)
                glosa::engine::ops::reference::layerNorm(x0, gamma, beta, 1e-5f, expectedIn);
            else
                expectedIn = x0;
            for (int i = 0; i < 8; ++i)
                QCOMPARE(in.data<float>()[i], expectedIn.data<float>()[i]);
            closeSublayer(shape, norm, x, f);
            if (n == Normalization::PreNorm)
                expectedOut = sum;
            else
                glosa::engine::ops::reference::layerNorm(sum, gamma, beta, 1e-5f, expectedOut);
            for (int i = 0; i < 8; ++i)
                QVERIFY(std::abs(x.data<float>()[i] - expectedOut.data<float>()[i]) < 1e-5f);
        }
    }
};

QTEST_GUILESS_MAIN(TestLayers)
#include "tst_layers.moc"
