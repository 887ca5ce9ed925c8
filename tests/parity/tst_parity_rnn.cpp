// Parity of plugins/rnnattention with PyTorch (tools/train_rnn.py) on tiny random-weight packages
// exported by the training code (tools/make_parity_fixtures.py), one per attention score
// function (dot, general with a 2-layer encoder, additive, scaled-dot) plus an fp16 export:
// per-step log-probabilities and attention within 1e-4, identical greedy and beam-4 outputs.
#include "engine/layers/alignmentsource.h"
#include "engine/layers/attentioninspector.h"
#include "engine/package.h"
#include "engine/packageerror.h"
#include "engine/runtime.h"
#include "engine/translation/translationmodel.h"
#include "plugins/rnnattention/rnnattentiondecoder.h"
#include "tests/support/testplugins.h"
#include "tests/parity/tst_parity_common.h"

#include <QTemporaryDir>
#include <QtTest>

#include <filesystem>

using namespace glosa;
using namespace glosa::test::parity;
using rnnattention::RnnAttentionDecoder;

class TestParityRnn : public QObject
{
    Q_OBJECT

private slots:
    // One thread: these models are far too small for parallel kernels to pay, and on a loaded
    // machine spinning OpenMP workers slow each step down by orders of magnitude.
    void initTestCase() { engine::runtime::setNumThreads(1); }
    void teacherForced_data() { packages(); }
    void teacherForced();
    void greedy_data() { packages(); }
    void greedy();
    void beam_data();
    void beam();
    void stateSurvivesReorder();
    void loadsThroughPlugin();
    void int8CloseToFloat32_data() { int8AgreementRows(0.55, 0.90); }
    // ComputeType::Int8 against Float32 on the shipped RNN (see tst_parity_common.h).
    void int8CloseToFloat32()
    {
        checkInt8Agreement(QStringLiteral("rnn-attention"), "rnn-attention-en-es");
    }
    void refusesBadPackages_data();
    void refusesBadPackages();

private:
    static void packages();
};

void TestParityRnn::packages()
{
    QTest::addColumn<QString>("package");
    QTest::addColumn<QString>("score");
    QTest::newRow("dot") << "rnn-dot"
                         << "dot";
    QTest::newRow("general, 2 encoder layers") << "rnn-general"
                                               << "general";
    QTest::newRow("general fp16") << "rnn-general-f16"
                                  << "general";
    QTest::newRow("additive") << "rnn-additive"
                              << "additive";
    QTest::newRow("scaled-dot") << "rnn-scaled-dot"
                                << "scaled-dot";
    QTest::newRow("none (no attention)") << "rnn-none"
                                         << "none";
}

void TestParityRnn::teacherForced()
{
    QFETCH(QString, package);
    QFETCH(QString, score);
    const std::string dir = packageDir(package);
    const Golden g = Golden::load(dir);
    RnnAttentionDecoder model(engine::ModelPackage::load(dir));
    QCOMPARE(QString::fromUtf8(rnnattention::attentionScoreName(model.config().attention)), score);
    const std::int64_t T = g.attention.empty() ? 0 : g.attention.dim(1);
    const std::int64_t S = g.attention.empty() ? 0 : g.attention.dim(2);
    const auto [logProbDiff, attentionDiff] =
        compareTeacherForced(model, g, [&](std::int64_t b, std::int64_t t, std::int64_t j) {
            return g.attention.data<float>()[(b * T + t) * S + j];
        });
    qInfo("%s: max |log-prob diff| %.3g, max |attention diff| %.3g", qPrintable(package),
          logProbDiff, attentionDiff);
    QVERIFY(logProbDiff < kTolerance);
    QVERIFY(attentionDiff < kTolerance);
}

void TestParityRnn::greedy()
{
    QFETCH(QString, package);
    const std::string dir = packageDir(package);
    RnnAttentionDecoder model(engine::ModelPackage::load(dir));
    checkGreedy(model, Golden::load(dir));
}

void TestParityRnn::beam_data()
{
    QTest::addColumn<QString>("package");
    QTest::addColumn<bool>("batched");
    for (const char *name :
         {"rnn-dot", "rnn-general", "rnn-general-f16", "rnn-additive", "rnn-scaled-dot",
          "rnn-none"}) {
        QTest::addRow("%s one by one", name) << QString::fromUtf8(name) << false;
        QTest::addRow("%s batched", name) << QString::fromUtf8(name) << true;
    }
}

void TestParityRnn::beam()
{
    QFETCH(QString, package);
    QFETCH(bool, batched);
    const std::string dir = packageDir(package);
    RnnAttentionDecoder model(engine::ModelPackage::load(dir));
    checkBeam(model, Golden::load(dir), batched);
}

// Duplicated, swapped and dropped rows continue exactly like a fresh decode of their history.
void TestParityRnn::stateSurvivesReorder()
{
    const std::string dir = packageDir(QStringLiteral("rnn-additive"));
    const Golden g = Golden::load(dir);
    RnnAttentionDecoder model(engine::ModelPackage::load(dir));
    const std::vector<std::vector<std::int32_t>> sources{g.sources[0], g.sources[1]};
    const auto [diffA, diffB] =
        reorderedVersusFresh(model, sources, {2, 17, 42, 99, 5}, {2, 250, 8, 8, 61});
    // Rows of a batch of 3 and of 1 go through different kernels: a few fp32 ulps apart.
    QVERIFY2(diffA < 1e-5f && diffB < 1e-5f,
             qPrintable(QStringLiteral("max |diff| a %1, b %2").arg(diffA).arg(diffB)));
    auto state = model.encode(sources);
    QVERIFY_THROWS_EXCEPTION(std::out_of_range, state->reorder({-1}));
}

void TestParityRnn::loadsThroughPlugin()
{
    const std::string dir = packageDir(QStringLiteral("rnn-general"));
    QString error;
    const auto translation = glosa::test::loadWithBuiltPlugin<engine::TranslationModel>(
        QStringLiteral("rnn-attention"), dir, &error);
    QVERIFY2(translation, qPrintable(error));
    QCOMPARE(translation->id(), std::string("parity-rnn-general"));
    // One attention per step: nothing to choose, and the inspector reports that one.
    QVERIFY(!translation->decoder().alignmentSource());
    const Golden g = Golden::load(dir);
    engine::AttentionInspector *inspector = translation->decoder().attentionInspector();
    QVERIFY(inspector);
    QVERIFY(inspector->attentionKinds() ==
            std::vector<engine::AttentionKind>{engine::AttentionKind::Cross});
    const std::vector<std::int32_t> target(g.prefixes[1].begin() + 1, g.prefixes[1].end());
    const engine::AttentionMaps maps = inspector->inspectAttention(g.sources[1], target);
    QVERIFY(maps.encoderSelf.empty() && maps.decoderSelf.empty());
    const auto T = static_cast<std::int64_t>(target.size());
    const auto S = static_cast<std::int64_t>(g.sources[1].size()), maxS = g.attention.dim(2);
    QVERIFY(maps.cross.shape() == (engine::Shape{1, 1, T, S}));
    float diff = 0; // g.attention [B, T + 1, maxS]: the golden rows of sentence 1
    for (std::int64_t t = 0; t < T; ++t)
        diff = std::max(diff,
                        maxAbsDiff(maps.cross.data<float>() + t * S,
                                   g.attention.data<float>() + (g.attention.dim(1) + t) * maxS, S));
    QVERIFY2(diff < kTolerance, qPrintable(QString::number(diff)));
    checkGreedy(translation->decoder(), g);
    checkBeam(translation->decoder(), g, true);

    // Without attention there is nothing to inspect: the attention panel lists no kind.
    const auto blind = glosa::test::loadWithBuiltPlugin<engine::TranslationModel>(
        QStringLiteral("rnn-attention"), packageDir(QStringLiteral("rnn-none")), &error);
    QVERIFY2(blind, qPrintable(error));
    engine::AttentionInspector *none = blind->decoder().attentionInspector();
    QVERIFY(none && none->attentionKinds().empty());
    QVERIFY(none->inspectAttention(g.sources[0], {5, 6}).cross.empty());
    QVERIFY(!blind->decoder().alignmentSource());
}

void TestParityRnn::refusesBadPackages_data()
{
    QTest::addColumn<QString>("key");
    QTest::addColumn<QString>("value"); // JSON
    QTest::addColumn<QString>("expected");
    QTest::newRow("unknown score") << "attention"
                                   << "\"location\""
                                   << "hyperparameters.attention";
    QTest::newRow("missing tensor") << "attention"
                                    << "\"additive\""
                                    << "decoder.attention.query_proj.weight";
    QTest::newRow("shapes") << "embedding_dim"
                            << "24"
                            << "embedding.weight";
    QTest::newRow("layers") << "encoder_layers"
                            << "3"
                            << "encoder.rnn.weight_ih_l2";
    QTest::newRow("dot needs equal sizes") << "attention"
                                           << "\"dot\""
                                           << "decoder_hidden";
}

void TestParityRnn::refusesBadPackages()
{
    QFETCH(QString, key);
    QFETCH(QString, value);
    QFETCH(QString, expected);
    QTemporaryDir tmp;
    QVERIFY(tmp.isValid());
    // A copy of rnn-general with one hyperparameter changed (the "dot" row also sets
    // decoder_hidden to 48, which differs from 2 * encoder_hidden = 32).
    nlohmann::json changes = {{key.toStdString(), nlohmann::json::parse(value.toStdString())}};
    if (key == "attention" && value == "\"dot\"")
        changes["decoder_hidden"] = 48;
    const std::string copy =
        copyWithHyperparameters(packageDir(QStringLiteral("rnn-general")), tmp.path(), changes);
    try {
        RnnAttentionDecoder model(engine::ModelPackage::load(copy));
        QFAIL("the package was accepted");
    } catch (const engine::PackageError &e) {
        QVERIFY2(QString::fromUtf8(e.what()).contains(expected), e.what());
    }
}

QTEST_APPLESS_MAIN(TestParityRnn)
#include "tst_parity_rnn.moc"
