// Every shipped package with a golden in tests/data/parity/shipped (PyTorch on the package's own
// weights, tools/make_parity_fixtures.py shipped ID), whatever its architecture, loaded in float32
// through the built plugin its model.json names: the same SentencePiece ids from the engine's
// tokenizer, the same greedy and beam-4 outputs, log-probabilities within the bound. The tiny
// random-weight packages of the other tst_parity_* tests check each op; these check that what
// users run is the model that was trained and scored.
#include "engine/package.h"
#include "engine/runtime.h"
#include "engine/translation/translationmodel.h"
#include "tests/support/testplugins.h"
#include "tests/support/testutil.h"
#include "tests/parity/tst_parity_common.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>

using namespace glosa;
using namespace glosa::test::parity;

class TestParityShipped : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase() { engine::runtime::setNumThreads(1); }
    void matchesPyTorch_data();
    void matchesPyTorch();
};

void TestParityShipped::matchesPyTorch_data()
{
    QTest::addColumn<QString>("golden");
    const QDir dir(glosa::test::testDataDir() + QStringLiteral("/parity/shipped"));
    for (const QString &name : dir.entryList({QStringLiteral("*.json")}, QDir::Files))
        QTest::newRow(qPrintable(name)) << dir.filePath(name);
    QVERIFY(dir.exists() && !dir.isEmpty());
}

void TestParityShipped::matchesPyTorch()
{
    QFETCH(QString, golden);
    const Golden g = Golden::loadSearches(golden.toStdString());
    const QString dir =
        QStringLiteral(GLOSA_SOURCE_DIR "/resources/models/") + QString::fromStdString(g.json.at("package"));
    QFile manifest(dir + QStringLiteral("/model.json"));
    QVERIFY2(manifest.open(QIODevice::ReadOnly), qPrintable(dir));
    const QString architecture =
        QJsonDocument::fromJson(manifest.readAll()).object().value("architecture").toString();
    QString error;
    const auto model = glosa::test::loadWithBuiltPlugin<engine::TranslationModel>(
        architecture, dir.toStdString(), &error, engine::ComputeType::Float32);
    QVERIFY2(model, qPrintable(error));
    const auto texts = g.json.at("texts").get<std::vector<std::string>>();
    QCOMPARE(texts.size(), g.sources.size());
    QVERIFY(texts.size() >= 6);
    for (std::size_t b = 0; b < texts.size(); ++b) {
        std::vector<std::int32_t> ids;
        for (const engine::Token &token : model->sourceTokenizer().encode(texts[b]))
            ids.push_back(token.id);
        ids.push_back(model->sourceTokenizer().eosId());
        QCOMPARE(ids, g.sources[b]);
    }
    checkGreedy(model->decoder(), g);
    checkBeam(model->decoder(), g, true);
    qInfo("%s (%s): %zu sentences", qPrintable(dir), qPrintable(architecture), texts.size());
}

QTEST_APPLESS_MAIN(TestParityShipped)
#include "tst_parity_shipped.moc"
