// ModelCatalog: discovering packages in temporary folders through GLOSA_MODEL_PATH, reporting
// broken manifests with their reason, finding a model by id or folder, loading one through the
// echo test plugin (tests/plugins/echo) and importing a package into the user's folder.
#include "app/core/models/modelcatalog.h"
#include "plugins/modelplugin.h"
#include "app/core/models/pluginregistry.h"
#include "tests/support/testutil.h"

#include <QCoreApplication>
#include <QDirIterator>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtEndian>
#include <QtTest>

#include <functional>

using glosa::ModelCatalog;
using glosa::ModelInfo;

namespace {

void writeFile(const QString &path, const QByteArray &bytes)
{
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        qFatal("cannot write %s", qPrintable(path));
    file.write(bytes);
}

// A safetensors file with fp32 tensors of shape [1] (https://github.com/huggingface/safetensors).
QByteArray safetensors(const QStringList &names)
{
    QJsonObject header;
    QByteArray data;
    for (const QString &name : names) {
        const float value = 0.5f;
        header.insert(name,
                      QJsonObject{{"dtype", "F32"},
                                  {"shape", QJsonArray{1}},
                                  {"data_offsets", QJsonArray{data.size(), data.size() + 4}}});
        data.append(reinterpret_cast<const char *>(&value), 4);
    }
    QByteArray json = QJsonDocument(header).toJson(QJsonDocument::Compact);
    while (json.size() % 8)
        json.append(' ');
    QByteArray out(8, '\0');
    qToLittleEndian<quint64>(json.size(), out.data());
    return out + json + data;
}

QJsonObject manifest(const QString &id)
{
    return QJsonObject{
        {"format_version", 1},
        {"id", id},
        {"version", "1.0.0"},
        {"name", "Echo " + id},
        {"task", "translation"},
        {"architecture", "echo"},
        {"plugin", "echo"},
        {"languages", QJsonObject{{"source", "en"}, {"target", "es"}}},
        {"hyperparameters", QJsonObject{{"d_model", 1}}},
        {"tokenizer",
         QJsonObject{{"type", "sentencepiece"}, {"source", "spm.model"}, {"target", "spm.model"}}},
        {"weights", "model.safetensors"},
        {"training",
         QJsonObject{{"script", "none"},
                     {"data", QJsonArray{QJsonObject{{"name", "test corpus"},
                                                     {"licence", "CC0"},
                                                     {"attribution", "the Glosa tests"}}}}}},
        {"licence", "CC0"},
        {"scores", QJsonObject{{"test/dev", QJsonObject{{"bleu", 12.5}, {"chrf", 40.0}}}}},
    };
}

// Writes a package that the engine and the echo plugin accept; `edit` may spoil it.
QString makePackage(const QString &root, const QString &folderName, const QString &id,
                    const std::function<void(QJsonObject &)> &edit = {})
{
    const QString folder = root + QLatin1Char('/') + folderName;
    QDir().mkpath(folder);
    QJsonObject m = manifest(id);
    if (edit)
        edit(m);
    writeFile(folder + "/model.json", QJsonDocument(m).toJson());
    writeFile(folder + "/model.safetensors", safetensors({QStringLiteral("echo.scale")}));
    const QString spm = glosa::test::testDataDir() + "/spm/spm-identity.model";
    if (!QFile::copy(spm, folder + "/spm.model"))
        qFatal("cannot copy %s", qPrintable(spm));
    return folder;
}

qint64 bytesUnder(const QString &folder)
{
    qint64 total = 0;
    QDirIterator it(folder, QDir::Files | QDir::Hidden, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        it.next();
        total += it.fileInfo().size();
    }
    return total;
}

const ModelInfo *byFolder(const ModelCatalog &catalog, const QString &folder)
{
    for (const ModelInfo &info : catalog.models())
        if (info.folder == folder)
            return &info;
    return nullptr;
}

} // namespace

class TestModelCatalog : public QObject
{
    Q_OBJECT

    QTemporaryDir m_a; // first entry of GLOSA_MODEL_PATH
    QTemporaryDir m_b; // second entry
    glosa::PluginRegistry m_plugins;

    void setModelPath()
    {
        qputenv("GLOSA_MODEL_PATH",
                QFile::encodeName(m_a.path() + QDir::listSeparator() + m_b.path()));
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_a.isValid() && m_b.isValid());
        // Keep userModelsDir() away from the real ~/.local/share.
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("Glosa"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_modelcatalog"));
        QDir(ModelCatalog::userModelsDir()).removeRecursively();

        makePackage(m_a.path(), "alpha", "alpha");
        makePackage(m_a.path(), "incomplete", "incomplete", [](QJsonObject &m) {
            m.remove("name");
            m.remove("licence");
        });
        QDir().mkpath(m_a.path() + "/bad-json");
        writeFile(m_a.path() + "/bad-json/model.json", "{ \"id\": \"bad-json\", ");
        QDir().mkpath(m_a.path() + "/no-manifest");
        writeFile(m_a.path() + "/no-manifest/readme.txt", "not a model\n");
        makePackage(m_b.path(), "alpha-again", "alpha");
        makePackage(m_b.path(), "beta", "beta", [](QJsonObject &m) {
            m.insert("languages", QJsonObject{{"source", "es"}, {"target", "en"}});
        });
        setModelPath();

        m_plugins.scan({QStringLiteral(GLOSA_TEST_PLUGIN_DIR)});
        QVERIFY(m_plugins.pluginForArchitecture(QStringLiteral("echo")));
    }
    void cleanupTestCase() { QDir(ModelCatalog::userModelsDir()).removeRecursively(); }

    void defaultSearchPaths()
    {
        const QStringList paths = ModelCatalog::defaultSearchPaths();
        QVERIFY(paths.size() >= 2);
        QCOMPARE(paths.at(0), m_a.path());
        QCOMPARE(paths.at(1), m_b.path());
        // This test runs from the build tree, so the bundled models are the source tree's.
        const QString bundled = QDir::cleanPath(QStringLiteral(GLOSA_SOURCE_DIR "/resources/models"));
        if (QFileInfo(bundled).isDir())
            QCOMPARE(paths.last(), bundled);
        QVERIFY(!paths.contains(QStringLiteral(GLOSA_INSTALL_DATA_DIR "/models")));
        // The user folder joins once it exists, before the bundled models.
        QVERIFY(QDir().mkpath(ModelCatalog::userModelsDir()));
        const QStringList withUser = ModelCatalog::defaultSearchPaths();
        QCOMPARE(withUser.value(2), ModelCatalog::userModelsDir());
        QDir(ModelCatalog::userModelsDir()).removeRecursively();
    }

    void discovery()
    {
        ModelCatalog catalog;
        catalog.scan();
        QCOMPARE(catalog.searchPaths().mid(0, 2), (QStringList{m_a.path(), m_b.path()}));
        const ModelInfo *alpha = byFolder(catalog, m_a.path() + "/alpha");
        QVERIFY(alpha);
        QVERIFY2(alpha->isValid(), qPrintable(alpha->error));
        QCOMPARE(alpha->id, QStringLiteral("alpha"));
        QCOMPARE(alpha->name, QStringLiteral("Echo alpha"));
        QCOMPARE(alpha->version, QStringLiteral("1.0.0"));
        QCOMPARE(alpha->task, QStringLiteral("translation"));
        QCOMPARE(alpha->architecture, QStringLiteral("echo"));
        QCOMPARE(alpha->plugin, QStringLiteral("echo"));
        QCOMPARE(alpha->sourceLanguage, QStringLiteral("en"));
        QCOMPARE(alpha->targetLanguage, QStringLiteral("es"));
        QCOMPARE(alpha->licence, QStringLiteral("CC0"));
        QCOMPARE(alpha->scores.value("test/dev").toObject().value("bleu").toDouble(), 12.5);
        QCOMPARE(alpha->manifest.value("hyperparameters").toObject().value("d_model").toInt(), 1);
        QCOMPARE(alpha->searchPath, m_a.path());
        QCOMPARE(alpha->sizeOnDisk, bytesUnder(alpha->folder));
        QVERIFY(alpha->sizeOnDisk > 3000); // the tokenizer alone is ~4 KB
        QVERIFY(alpha->shadowedBy.isEmpty());

        const ModelInfo *beta = byFolder(catalog, m_b.path() + "/beta");
        QVERIFY(beta && beta->isValid());
        QCOMPARE(beta->sourceLanguage, QStringLiteral("es"));

        // Same id in a later search folder: listed, but shadowed by the earlier one.
        const ModelInfo *again = byFolder(catalog, m_b.path() + "/alpha-again");
        QVERIFY(again && again->isValid());
        QCOMPARE(again->shadowedBy, alpha->folder);

        QStringList available;
        // Bundled models (resources/models) are available too; look only at the test folders.
        for (const ModelInfo &info : catalog.availableModels())
            if (info.searchPath == m_a.path() || info.searchPath == m_b.path())
                available << info.folder;
        QCOMPARE(available, (QStringList{alpha->folder, beta->folder}));
    }

    // Broken packages stay in the list with a reason instead of vanishing.
    void brokenPackagesAreListed_data()
    {
        QTest::addColumn<QString>("folderName");
        QTest::addColumn<QString>("reason");
        QTest::newRow("invalid JSON") << "bad-json"
                                      << "model.json: invalid JSON at byte";
        QTest::newRow("no model.json") << "no-manifest"
                                       << "no model.json";
        QTest::newRow("missing keys") << "incomplete"
                                      << "missing \"name\"; missing \"licence\"";
    }
    void brokenPackagesAreListed()
    {
        QFETCH(QString, folderName);
        QFETCH(QString, reason);
        ModelCatalog catalog;
        catalog.scan();
        const ModelInfo *info = byFolder(catalog, m_a.path() + "/" + folderName);
        QVERIFY(info);
        QVERIFY(!info->isValid());
        QVERIFY2(info->error.contains(reason), qPrintable(info->error));
        for (const ModelInfo &usable : catalog.availableModels())
            QVERIFY(usable.folder != info->folder);
    }

    void manifestChecks_data()
    {
        QTest::addColumn<QByteArray>("json");  // replaces model.json when not empty
        QTest::addColumn<QString>("key");      // removed from the good manifest when not empty
        QTest::addColumn<QJsonValue>("value"); // ... or set to this value
        QTest::addColumn<QString>("reason");
        const QJsonValue none;
        QTest::newRow("truncated")
            << QByteArray("{\"id\": \"x\"") << QString() << none << "invalid JSON at byte";
        QTest::newRow("array") << QByteArray("[1, 2]") << QString() << none
                               << "the top level must be a JSON object";
        QTest::newRow("no id") << QByteArray() << "id" << none << "missing \"id\"";
        QTest::newRow("id with slash") << QByteArray() << "id" << QJsonValue("../evil")
                                       << "\"id\" \"../evil\" may contain only";
        QTest::newRow("format 2") << QByteArray() << "format_version" << QJsonValue(2)
                                  << "\"format_version\" is 2, expected 1";
        QTest::newRow("format missing")
            << QByteArray() << "format_version" << none << "missing \"format_version\"";
        QTest::newRow("unknown task")
            << QByteArray() << "task" << QJsonValue("summarise") << "\"task\" is \"summarise\"";
        QTest::newRow("name not a string")
            << QByteArray() << "name" << QJsonValue(3) << "\"name\" must be a non-empty string";
        QTest::newRow("no target language")
            << QByteArray() << "languages" << QJsonValue(QJsonObject{{"source", "en"}})
            << "missing \"languages.target\"";
        QTest::newRow("weights missing") << QByteArray() << "weights" << QJsonValue("other.bin")
                                         << "weights file \"other.bin\" not found";
        QTest::newRow("training data without licence")
            << QByteArray() << "training"
            << QJsonValue(QJsonObject{
                   {"data", QJsonArray{QJsonObject{{"name", "x"}, {"attribution", "y"}}}}})
            << "\"training.data[0]\" lacks \"licence\"";
        QTest::newRow("scores not an object")
            << QByteArray() << "scores" << QJsonValue(QJsonArray{})
            << "\"scores\" must be an object";
        QTest::newRow("no tokenizer")
            << QByteArray() << "tokenizer" << none << "missing \"tokenizer\"";
        QTest::newRow("tokenizer file missing")
            << QByteArray() << "tokenizer"
            << QJsonValue(QJsonObject{
                   {"type", "sentencepiece"}, {"source", "spm.model"}, {"target", "target.model"}})
            << "tokenizer file \"target.model\" not found";
    }
    void manifestChecks()
    {
        QFETCH(QByteArray, json);
        QFETCH(QString, key);
        QFETCH(QJsonValue, value);
        QFETCH(QString, reason);
        QTemporaryDir root;
        const QString folder = makePackage(root.path(), "pkg", "pkg", [&](QJsonObject &m) {
            if (key.isEmpty())
                return;
            if (value.isUndefined() || value.isNull())
                m.remove(key);
            else
                m.insert(key, value);
        });
        if (!json.isEmpty())
            writeFile(folder + "/model.json", json);
        const ModelInfo info = ModelCatalog::readPackage(folder);
        QVERIFY(!info.isValid());
        QVERIFY2(info.error.startsWith("model.json: "), qPrintable(info.error));
        QVERIFY2(info.error.contains(reason), qPrintable(info.error));
        // The loader refuses it too, naming the folder.
        QString error;
        QVERIFY(!ModelCatalog::load(info, m_plugins, &error));
        QVERIFY2(error.contains(folder) && error.contains(reason), qPrintable(error));
    }

    void captioningNeedsNoSourceLanguage()
    {
        QTemporaryDir root;
        const QString folder = makePackage(root.path(), "cap", "cap", [](QJsonObject &m) {
            m.insert("task", "captioning");
            m.insert("languages", QJsonObject{{"target", "en"}});
        });
        const ModelInfo info = ModelCatalog::readPackage(folder);
        QVERIFY2(info.isValid(), qPrintable(info.error));
        QVERIFY(info.sourceLanguage.isEmpty());
    }

    // The bundled folder: the translation packages, the RNNs first by name; the general en→es and
    // es→en Transformers declare "default": true, and that, not the order, picks them (the
    // Tatoeba-only transformer-en-de and transformer-es-en come first by name).
    void defaultModelPerDirection_data()
    {
        QTest::addColumn<QStringList>("languages");
        QTest::addColumn<QString>("expected");
        QTest::newRow("en-US") << QStringList{"en-US"} << "transformer-general-en-es";
        QTest::newRow("es-ES") << QStringList{"es-ES", "en"} << "transformer-general-es-en";
        QTest::newRow("es_MX") << QStringList{"es_MX"} << "transformer-general-es-en";
        QTest::newRow("ko-KR: no Korean model, English next")
            << QStringList{"ko-KR"} << "transformer-general-en-es";
        QTest::newRow("nothing known") << QStringList{} << "transformer-general-en-es";
        // No package translates from German; the only one into German is the user's.
        QTest::newRow("de-DE: into German") << QStringList{"de-DE", "en"} << "transformer-en-de";
    }
    void defaultModelPerDirection()
    {
        QFETCH(QStringList, languages);
        QFETCH(QString, expected);
        ModelCatalog catalog;
        catalog.scan({QStringLiteral(GLOSA_SOURCE_DIR "/resources/models")});
        QCOMPARE(catalog.availableModels().first().id, QStringLiteral("captioner-en"));
        QCOMPARE(catalog.availableModels().at(1).id, QStringLiteral("rnn-additive-en-es"));
        QCOMPARE(catalog.defaultTranslationModel(languages)->id, expected);
        QCOMPARE(catalog.defaultModel("translation", "en", "es")->id,
                 QStringLiteral("transformer-general-en-es"));
        QCOMPARE(catalog.defaultModel("captioning")->id, QStringLiteral("captioner-en"));
        QVERIFY(!catalog.defaultModel("translation", "ko"));
    }

    // Without a declared default the first package of the direction is used; "default" must be
    // a boolean.
    void defaultFlag()
    {
        QTemporaryDir dir;
        makePackage(dir.path(), "a", "a");
        makePackage(dir.path(), "b", "b", [](QJsonObject &m) { m.insert("default", true); });
        makePackage(dir.path(), "c", "c", [](QJsonObject &m) {
            m.insert("languages", QJsonObject{{"source", "es"}, {"target", "en"}});
        });
        makePackage(dir.path(), "d", "d", [](QJsonObject &m) { m.insert("default", "yes"); });
        ModelCatalog catalog;
        catalog.scan({dir.path()});
        QCOMPARE(catalog.defaultModel("translation", "en")->id, QStringLiteral("b"));
        QCOMPARE(catalog.defaultModel("translation", "es", "en")->id, QStringLiteral("c"));
        QCOMPARE(catalog.defaultTranslationModel({"es"})->id, QStringLiteral("c"));
        QVERIFY(catalog.find("b")->isDefault);
        QVERIFY(!catalog.find("a")->isDefault);
        QVERIFY2(catalog.find("d")->error.contains("\"default\" must be true or false"),
                 qPrintable(catalog.find("d")->error));
    }

    void findByIdOrFolder()
    {
        ModelCatalog catalog;
        catalog.scan();
        std::optional<ModelInfo> alpha = catalog.find(QStringLiteral("alpha"));
        QVERIFY(alpha);
        QCOMPARE(alpha->folder, m_a.path() + "/alpha"); // the winner, not the shadowed copy
        // A folder names exactly that package, shadowed or not.
        std::optional<ModelInfo> again = catalog.find(m_b.path() + "/alpha-again/");
        QVERIFY(again);
        QCOMPARE(again->folder, m_b.path() + "/alpha-again");
        QCOMPARE(again->shadowedBy, alpha->folder);
        // An id whose only package is broken gives that package, so the caller can say why.
        std::optional<ModelInfo> incomplete = catalog.find(QStringLiteral("incomplete"));
        QVERIFY(incomplete);
        QVERIFY(!incomplete->isValid());
        QVERIFY(!catalog.find(QStringLiteral("no-such-model")));
        QVERIFY(!catalog.find(QString()));
        // A folder outside the search paths is read on the spot.
        QTemporaryDir elsewhere;
        const QString outside = makePackage(elsewhere.path(), "gamma", "gamma");
        std::optional<ModelInfo> gamma = catalog.find(outside);
        QVERIFY(gamma && gamma->isValid());
        QCOMPARE(gamma->id, QStringLiteral("gamma"));
        QVERIFY(gamma->searchPath.isEmpty());
        QVERIFY(!catalog.find(elsewhere.path() + "/missing"));
    }

    void loadThroughPlugin()
    {
        ModelCatalog catalog;
        catalog.scan();
        const std::optional<ModelInfo> info = catalog.find(QStringLiteral("beta"));
        QVERIFY(info);
        QString error;
        std::shared_ptr<glosa::engine::Model> model = ModelCatalog::load(*info, m_plugins, &error);
        QVERIFY2(model, qPrintable(error));
        QVERIFY(error.isEmpty());
        QCOMPARE(model->id(), std::string("beta"));
        QVERIFY(model->task() == glosa::engine::Task::Translation);
    }

    void loadErrors_data()
    {
        QTest::addColumn<QString>("architecture");
        QTest::addColumn<QByteArray>("weights"); // model.safetensors content
        QTest::addColumn<QString>("reason");
        const QByteArray good = safetensors({QStringLiteral("echo.scale")});
        QTest::newRow("no plugin")
            << "nonexistent" << good << "no plugin for architecture \"nonexistent\"";
        QTest::newRow("plugin rejected")
            << "wrongapi" << good
            << QStringLiteral("was rejected: apiVersion 999, expected %1")
                   .arg(GLOSA_MODEL_PLUGIN_API_VERSION);
        QTest::newRow("tensor the plugin needs is missing")
            << "echo" << safetensors({QStringLiteral("other")}) << "echo.scale";
        QTest::newRow("weights file corrupt")
            << "echo" << QByteArray("\xff\xff\xff\xff\xff\xff\xff\x7f garbage")
            << "model.safetensors";
    }
    void loadErrors()
    {
        QFETCH(QString, architecture);
        QFETCH(QByteArray, weights);
        QFETCH(QString, reason);
        QTemporaryDir root;
        const QString folder = makePackage(root.path(), "pkg", "pkg", [&](QJsonObject &m) {
            m.insert("architecture", architecture);
        });
        writeFile(folder + "/model.safetensors", weights);
        const ModelInfo info = ModelCatalog::readPackage(folder);
        QVERIFY2(info.isValid(), qPrintable(info.error));
        QString error;
        QVERIFY(!ModelCatalog::load(info, m_plugins, &error));
        QVERIFY2(error.startsWith("cannot load model " + folder + ": "), qPrintable(error));
        QVERIFY2(error.contains(reason), qPrintable(error));
    }

    void importModel()
    {
        QTemporaryDir destination;
        const QString source = m_b.path() + "/beta";
        QString error;
        std::optional<ModelInfo> imported =
            ModelCatalog::importModel(source, destination.path(), &error);
        QVERIFY2(imported, qPrintable(error));
        QCOMPARE(imported->folder, destination.path() + "/beta"); // named after the id
        QVERIFY(imported->isValid());
        QCOMPARE(imported->id, QStringLiteral("beta"));
        QCOMPARE(imported->sizeOnDisk, bytesUnder(source));
        for (const char *file : {"model.json", "model.safetensors", "spm.model"}) {
            QFile a(source + "/" + file), b(imported->folder + "/" + file);
            QVERIFY(a.open(QIODevice::ReadOnly) && b.open(QIODevice::ReadOnly));
            QCOMPARE(b.readAll(), a.readAll());
        }
        // The copy is a usable model.
        QVERIFY2(ModelCatalog::load(*imported, m_plugins, &error), qPrintable(error));

        // A second import of the same id is refused and leaves the first one alone.
        QVERIFY(!ModelCatalog::importModel(source, destination.path(), &error));
        QVERIFY2(error.contains("already exists"), qPrintable(error));
        QCOMPARE(QDir(destination.path())
                     .entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot),
                 QStringList{"beta"});
    }

    void importRefusesBrokenPackages_data()
    {
        QTest::addColumn<QString>("source");
        QTest::addColumn<QString>("reason");
        QTest::newRow("bad manifest") << "incomplete"
                                      << "missing \"name\"";
        QTest::newRow("bad weights") << "corrupt"
                                     << "model.safetensors";
        QTest::newRow("not a folder") << "does-not-exist"
                                      << "folder does not exist";
    }
    void importRefusesBrokenPackages()
    {
        QFETCH(QString, source);
        QFETCH(QString, reason);
        QTemporaryDir scratch;
        QString folder = m_a.path() + "/" + source;
        if (source == QLatin1String("corrupt")) {
            folder = makePackage(scratch.path(), "corrupt", "corrupt");
            writeFile(folder + "/model.safetensors", QByteArray(64, '\x01'));
        }
        QTemporaryDir destination;
        QString error;
        QVERIFY(!ModelCatalog::importModel(folder, destination.path(), &error));
        QVERIFY2(error.startsWith("cannot import model " + folder), qPrintable(error));
        QVERIFY2(error.contains(reason), qPrintable(error));
        // Nothing is left behind, not even the hidden staging folder.
        QVERIFY(QDir(destination.path())
                    .entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot)
                    .isEmpty());
    }

    void importIntoUserFolderShowsUpInScan()
    {
        QTemporaryDir elsewhere;
        const QString source = makePackage(elsewhere.path(), "delta-src", "delta");
        QString error;
        const std::optional<ModelInfo> imported = ModelCatalog::importModel(source, {}, &error);
        QVERIFY(!imported); // an empty destination is refused, not the current folder
        const std::optional<ModelInfo> user =
            ModelCatalog::importModel(source, ModelCatalog::userModelsDir(), &error);
        QVERIFY2(user, qPrintable(error));
        QCOMPARE(user->folder, ModelCatalog::userModelsDir() + "/delta");
        ModelCatalog catalog;
        catalog.scan();
        const std::optional<ModelInfo> found = catalog.find(QStringLiteral("delta"));
        QVERIFY(found && found->isValid());
        QCOMPARE(found->searchPath, ModelCatalog::userModelsDir());
        QDir(ModelCatalog::userModelsDir()).removeRecursively();
    }
};

QTEST_APPLESS_MAIN(TestModelCatalog)
#include "tst_modelcatalog.moc"
