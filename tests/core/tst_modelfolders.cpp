// The user's models folder as a new user meets it: on a first run it does not exist until the
// first import creates it, and the app (AppContext with its default folders) must see a model
// imported there without a restart; a second import of the same model must then be refused as
// installed, not as an invisible leftover. Removing a model that is a direction's default forgets
// it in defaults.json (the app and `glosa-cli models remove` share removeImportedModel). Real
// package (tests/data/toy-en-es), real folders.
#include "app/core/appcontext.h"
#include "app/core/models/modelimport.h"
#include "tests/support/testutil.h"

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

using namespace glosa;

class TestModelFolders : public QObject
{
    Q_OBJECT

    QTemporaryDir m_state;
    const QString m_package = QStringLiteral(GLOSA_TEST_DATA_DIR "/toy-en-es");

    QJsonObject defaults() const
    {
        QFile file(QDir(ModelCatalog::userModelsDir()).filePath(QStringLiteral("defaults.json")));
        if (!file.open(QIODevice::ReadOnly))
            return {};
        return QJsonDocument::fromJson(file.readAll()).object();
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_state.isValid());
        test::isolateAppState(m_state.path(), m_state.path(), QStringLiteral("tst_modelfolders"));
        qunsetenv("GLOSA_MODEL_PATH");
    }

    void firstImportIsSeenWithoutRestart()
    {
        const QString userDir = ModelCatalog::userModelsDir();
        QVERIFY2(!QFileInfo::exists(userDir), qPrintable(userDir));
        AppContext context; // the default folders, as the app starts
        QVERIFY(!context.catalog().find(QStringLiteral("toy-en-es")) ||
                !context.catalog().find(QStringLiteral("toy-en-es"))->folder.startsWith(userDir));

        ModelImportRequest request;
        request.folder = m_package;
        const ModelImportResult imported = importModelFolder(request);
        QVERIFY2(imported.ok(), qPrintable(imported.error));
        QVERIFY(QFileInfo::exists(userDir));

        QSignalSpy changed(&context, &AppContext::modelsChanged);
        context.rescanModels(); // what the window does after an import
        QCOMPARE(changed.size(), 1);
        QVERIFY2(context.catalog().searchPaths().contains(QDir::cleanPath(userDir)),
                 qPrintable(context.catalog().searchPaths().join(QLatin1Char(' '))));
        bool listed = false;
        for (const ModelInfo &info : context.catalog().models())
            listed |= info.id == imported.id && info.folder == imported.folder;
        QVERIFY2(listed, qPrintable(imported.folder));

        // Imported again, it is the model the catalog lists that is refused.
        const ModelImportResult again = importModelFolder(request);
        QVERIFY(!again.ok());
        QVERIFY2(again.error.contains(QStringLiteral("already exists")), qPrintable(again.error));
    }

    void removingTheDefaultForgetsIt()
    {
        ModelCatalog catalog;
        catalog.scan({ModelCatalog::userModelsDir()});
        const std::optional<ModelInfo> info = catalog.find(QStringLiteral("toy-en-es"));
        QVERIFY(info && info->isValid());
        QString error;
        QVERIFY2(ModelCatalog::setUserDefault(*info, &error), qPrintable(error));
        // Another direction's default stays.
        ModelInfo other = *info;
        other.id = QStringLiteral("some-es-en");
        other.sourceLanguage = QStringLiteral("es");
        other.targetLanguage = QStringLiteral("en");
        QVERIFY2(ModelCatalog::setUserDefault(other, &error), qPrintable(error));
        QCOMPARE(defaults().value(QStringLiteral("translation en es")).toString(),
                 QStringLiteral("toy-en-es"));

        QString folder;
        QVERIFY2(removeImportedModel(QStringLiteral("toy-en-es"), &folder, &error),
                 qPrintable(error));
        QVERIFY(!QFileInfo::exists(folder));
        const QJsonObject after = defaults();
        QVERIFY2(!after.contains(QStringLiteral("translation en es")),
                 qPrintable(QJsonDocument(after).toJson()));
        QCOMPARE(after.value(QStringLiteral("translation es en")).toString(),
                 QStringLiteral("some-es-en"));
    }
};

QTEST_MAIN(TestModelFolders)
#include "tst_modelfolders.moc"
