// A model package whose tokenizer is not the one its model was trained with: every family's
// plugin refuses it with one message (engine::requireTokenizerSizes, engine/tokenizersizes.h)
// naming the tokenizer's file and both sizes, instead of decoding ids the tokenizer does not
// have. Real packages: a bundled model copied to a temporary folder with another bundled model's
// SentencePiece file in place of its own, loaded through the real plugins.
#include "app/core/models/modelcatalog.h"
#include "app/core/models/pluginregistry.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

using namespace glosa;

namespace {

const QString kModels = QStringLiteral(GLOSA_SOURCE_DIR "/resources/models");

// Copies the files of bundled model `id` into `destination`; false when one does not copy.
bool copyModel(const QString &id, const QString &destination)
{
    const QDir source(kModels + QLatin1Char('/') + id);
    if (!source.exists() || !QDir().mkpath(destination))
        return false;
    for (const QString &name : source.entryList(QDir::Files))
        if (!QFile::copy(source.filePath(name), destination + QLatin1Char('/') + name))
            return false;
    return true;
}

// Points model.json's "tokenizer.source" at `file`.
bool setSourceTokenizer(const QString &folder, const QString &file)
{
    QFile manifest(folder + QStringLiteral("/model.json"));
    if (!manifest.open(QIODevice::ReadOnly))
        return false;
    QJsonObject root = QJsonDocument::fromJson(manifest.readAll()).object();
    manifest.close();
    QJsonObject tokenizer = root.value(QStringLiteral("tokenizer")).toObject();
    tokenizer.insert(QStringLiteral("source"), file);
    root.insert(QStringLiteral("tokenizer"), tokenizer);
    return manifest.open(QIODevice::WriteOnly | QIODevice::Truncate) &&
           manifest.write(QJsonDocument(root).toJson()) > 0;
}

} // namespace

class TestTokenizerSizes : public QObject
{
    Q_OBJECT

    PluginRegistry m_plugins;

private slots:
    void initTestCase() { m_plugins.scan({QStringLiteral(GLOSA_BINARY_DIR "/plugins")}); }

    void aTokenizerOfAnotherSizeIsRefused_data()
    {
        QTest::addColumn<QString>("model");
        QTest::addColumn<QString>("donor");    // whose spm.model goes in
        QTest::addColumn<QString>("replaced"); // the file of the package it replaces
        QTest::addColumn<QString>("expected"); // the message after the file's name
        QTest::newRow("transformer") << "transformer-en-es"
                                     << "rnn-general-en-es"
                                     << "spm.model"
                                     << "the tokenizer has 16000 pieces but the model's "
                                        "vocabulary (hyperparameters.vocab_size) has 8000";
        // Only the encoder's side: its own file, named by "tokenizer.source".
        QTest::newRow("transformer source") << "transformer-en-es"
                                            << "rnn-general-en-es"
                                            << "source.model"
                                            << "the source tokenizer has 16000 pieces but the "
                                               "encoder's vocabulary has 8000";
        QTest::newRow("rnn-attention") << "rnn-attention-en-es"
                                       << "transformer-general-en-es"
                                       << "spm.model"
                                       << "the tokenizer has 16000 pieces but the model's "
                                          "vocabulary (hyperparameters.vocab_size) has 8000";
        QTest::newRow("captioner") << "captioner-en"
                                   << "transformer-en-es"
                                   << "spm.model"
                                   << "the tokenizer has 8000 pieces but the model's "
                                      "vocabulary (hyperparameters.vocab_size) has 2549";
    }

    void aTokenizerOfAnotherSizeIsRefused()
    {
        QFETCH(QString, model);
        QFETCH(QString, donor);
        QFETCH(QString, replaced);
        QFETCH(QString, expected);
        if (!QFileInfo::exists(kModels + QLatin1Char('/') + model + QStringLiteral("/model.json")))
            QSKIP(qPrintable(QStringLiteral("resources/models/%1 is not exported").arg(model)));
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString folder = dir.filePath(model);
        QVERIFY(copyModel(model, folder));

        // The package as bundled loads: what fails below is the tokenizer only.
        QString error;
        QVERIFY2(ModelCatalog::load(ModelCatalog::readPackage(folder), m_plugins, &error),
                 qPrintable(error));

        const QString target = folder + QLatin1Char('/') + replaced;
        QFile::remove(target);
        QVERIFY(
            QFile::copy(kModels + QLatin1Char('/') + donor + QStringLiteral("/spm.model"), target));
        if (replaced != QLatin1String("spm.model"))
            QVERIFY(setSourceTokenizer(folder, replaced));
        const ModelInfo info = ModelCatalog::readPackage(folder);
        QVERIFY2(info.isValid(), qPrintable(info.error));
        QVERIFY(!ModelCatalog::load(info, m_plugins, &error));
        QVERIFY2(error.endsWith(replaced + QStringLiteral(": ") + expected), qPrintable(error));
        QVERIFY2(error.startsWith(QStringLiteral("cannot load model ")), qPrintable(error));
        QVERIFY2(!error.contains(QLatin1Char('\n')), qPrintable(error));
    }
};

QTEST_GUILESS_MAIN(TestTokenizerSizes)
#include "tst_tokenizersizes.moc"
