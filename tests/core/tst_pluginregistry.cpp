// PluginRegistry: the verdict for every file in a plugin folder, the metadata checks made before
// instance(), and lookup by architecture. The plugins come from tests/plugins/ (one per way of
// being wrong) and are built into GLOSA_TEST_PLUGIN_DIR.
#include "app/core/models/pluginregistry.h"
#include "tests/support/testutil.h"

#include <QFile>
#include <QLibrary>
#include <QTemporaryDir>
#include <QDirIterator>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>

using glosa::PluginRecord;
using glosa::PluginRegistry;
using Status = glosa::PluginRecord::Status;

Q_DECLARE_METATYPE(glosa::PluginRecord::Status)

namespace {

QString testPluginDir()
{
    return QStringLiteral(GLOSA_TEST_PLUGIN_DIR);
}

QString testPlugin(const QString &name)
{
    return testPluginDir() + QStringLiteral("/libglosa_test_") + name + QStringLiteral(".so");
}

const PluginRecord *recordFor(const PluginRegistry &registry, const QString &fileName)
{
    for (const PluginRecord &record : registry.records())
        if (record.fileName == fileName)
            return &record;
    return nullptr;
}

// Whether a library with this file name is mapped into our process right now: the proof that a
// rejected plugin's code was never loaded, independent of what the plugin itself would do.
bool isMapped(const QString &fileName)
{
    QFile maps(QStringLiteral("/proc/self/maps"));
    if (!maps.open(QIODevice::ReadOnly))
        return false;
    return maps.readAll().contains(QFileInfo(fileName).fileName().toLocal8Bit());
}

void writeFile(const QString &path, const QByteArray &bytes)
{
    QFile file(path);
    QVERIFY2(file.open(QIODevice::WriteOnly), qPrintable(path));
    file.write(bytes);
}

} // namespace

class TestPluginRegistry : public QObject
{
    Q_OBJECT

    QTemporaryDir m_markers;

    bool markerExists(const char *name) const
    {
        return QFileInfo::exists(m_markers.filePath(QLatin1String(name)));
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_markers.isValid());
        // Read by tests/plugins/testmarker.h; set before any plugin can possibly be loaded.
        qputenv("GLOSA_TEST_PLUGIN_MARKERS", QFile::encodeName(m_markers.path()));
        for (const char *name :
             {"echo", "wrongapi", "noapi", "wrongiid", "notinterface", "unresolved"})
            QVERIFY2(QFileInfo::exists(testPlugin(QLatin1String(name))),
                     qPrintable(testPlugin(QLatin1String(name)) + " was not built"));
    }

    void verdictPerFile_data()
    {
        QTest::addColumn<QString>("plugin");
        QTest::addColumn<Status>("status");
        QTest::addColumn<QString>("reason"); // a part of the reason that must appear in it
        QTest::newRow("valid") << "echo" << Status::Loaded << QString();
        QTest::newRow("wrong api version")
            << "wrongapi" << Status::WrongApiVersion
            << QStringLiteral("apiVersion 999, expected %1").arg(GLOSA_MODEL_PLUGIN_API_VERSION);
        QTest::newRow("no api version")
            << "noapi" << Status::MissingApiVersion << "metadata missing apiVersion";
        QTest::newRow("wrong iid")
            << "wrongiid" << Status::WrongIid << "wrong IID \"org.example.SomeOtherInterface/1.0\"";
        QTest::newRow("not the interface")
            << "notinterface" << Status::InterfaceMismatch << "qobject_cast";
        QTest::newRow("unresolved symbol")
            << "unresolved" << Status::InstanceFailed << "glosa_test_symbol_that_does_not_exist";
    }
    void verdictPerFile()
    {
        QFETCH(QString, plugin);
        QFETCH(Status, status);
        QFETCH(QString, reason);
        PluginRegistry registry;
        registry.scan({testPluginDir()});
        const PluginRecord *record = recordFor(registry, testPlugin(plugin));
        QVERIFY2(record, qPrintable(testPlugin(plugin)));
        QVERIFY2(record->status == status,
                 qPrintable(glosa::pluginStatusName(record->status) + ": " + record->reason));
        if (status == Status::Loaded) {
            QVERIFY(record->reason.isEmpty());
            QVERIFY(record->plugin);
        } else {
            QVERIFY2(record->reason.contains(reason), qPrintable(record->reason));
            QVERIFY(!record->plugin);
        }
    }

    void everyFileGetsARecord()
    {
        PluginRegistry registry;
        registry.scan({testPluginDir()});
        const QStringList files = QDir(testPluginDir()).entryList(QDir::Files, QDir::Name);
        QCOMPARE(registry.records().size(), files.size());
        QCOMPARE(registry.searchPaths(), QStringList{testPluginDir()});
        QCOMPARE(registry.loadedPlugins().size(), 1);
        QCOMPARE(registry.loadedPlugins().first().fileName, testPlugin(QStringLiteral("echo")));
    }

    void metadataIsExposed()
    {
        PluginRegistry registry;
        const PluginRecord &echo = registry.addFile(testPlugin(QStringLiteral("echo")));
        QVERIFY(echo.isLoaded());
        QCOMPARE(echo.name, QStringLiteral("echo"));
        QCOMPARE(echo.apiVersion, GLOSA_MODEL_PLUGIN_API_VERSION);
        QCOMPARE(echo.architectures, QStringList{QStringLiteral("echo")});
        QCOMPARE(echo.tasks, QStringList{QStringLiteral("translation")});
        // A rejected plugin still tells what it is, so a user can see what is missing.
        const PluginRecord &wrong = registry.addFile(testPlugin(QStringLiteral("wrongapi")));
        QCOMPARE(wrong.name, QStringLiteral("wrongapi"));
        QCOMPARE(wrong.apiVersion, 999);
        QCOMPARE(wrong.architectures, QStringList{QStringLiteral("wrongapi")});
    }

    // The API version is read from the metadata before instance(): the library of an outdated
    // plugin is never even mapped, let alone its plugin object constructed.
    void rejectedPluginCodeNeverRuns()
    {
        PluginRegistry registry;
        registry.scan({testPluginDir()});
        QVERIFY(registry.pluginForArchitecture(QStringLiteral("echo")));
        // Positive control: the marker mechanism works and the valid plugin was constructed.
        QVERIFY(markerExists("echo.constructed"));
        QVERIFY(isMapped(testPlugin(QStringLiteral("echo"))));

        QVERIFY(!markerExists("wrongapi.loaded"));
        QVERIFY(!markerExists("wrongapi.constructed"));
        QVERIFY(!isMapped(testPlugin(QStringLiteral("wrongapi"))));
        QVERIFY(!markerExists("noapi.loaded"));
        QVERIFY(!isMapped(testPlugin(QStringLiteral("noapi"))));
        QVERIFY(!markerExists("wrongiid.loaded"));
        QVERIFY(!isMapped(testPlugin(QStringLiteral("wrongiid"))));
    }

    void notAPlugin_data()
    {
        QTest::addColumn<QString>("fileName");
        QTest::addColumn<QByteArray>("content"); // empty: copy the engine library instead
        QTest::addColumn<QString>("reason");
        QTest::newRow("garbage .so") << "libgarbage.so"
                                     << QByteArray("\x7f"
                                                   "ELF this is not really a library",
                                                   32)
                                     << "not a plugin";
        QTest::newRow("empty .so") << "libempty.so" << QByteArray(1, '\0') << "not a plugin";
        QTest::newRow("text file")
            << "README.txt" << QByteArray("hello\n") << "not a shared library";
        QTest::newRow("library without plugin metadata")
            << "libglosa_engine_copy.so" << QByteArray() << "not a plugin";
    }
    void notAPlugin()
    {
        QFETCH(QString, fileName);
        QFETCH(QByteArray, content);
        QFETCH(QString, reason);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString path = dir.filePath(fileName);
        if (content.isEmpty()) {
            const QString engine = QStringLiteral(GLOSA_BINARY_DIR "/lib/libglosa_engine.so");
            QVERIFY2(QFile::copy(engine, path), qPrintable(engine));
        } else {
            writeFile(path, content);
        }
        PluginRegistry registry;
        registry.scan({dir.path()});
        if (!QLibrary::isLibrary(path)) {
            // A scan passes over files that are not libraries; asked for, one says why.
            QCOMPARE(registry.records().size(), 0);
            registry.addFile(path);
        }
        QCOMPARE(registry.records().size(), 1);
        const PluginRecord &record = registry.records().first();
        QCOMPARE(record.fileName, path);
        QVERIFY2(record.status == Status::NotAPlugin, qPrintable(record.reason));
        QVERIFY2(record.reason.contains(reason), qPrintable(record.reason));
        QVERIFY(!isMapped(path));
    }

    // The build tree's plugin folder also holds CMake files: none of them is listed.
    void scanListsOnlyLibraries()
    {
        const QString folder = QStringLiteral(GLOSA_BINARY_DIR "/plugins");
        QVERIFY(!QDir(folder).entryList({QStringLiteral("*.cmake")}, QDir::Files).isEmpty());
        PluginRegistry registry;
        registry.scan({folder});
        QVERIFY(registry.records().size() >= 3);
        for (const PluginRecord &record : registry.records())
            QVERIFY2(record.isLoaded(), qPrintable(record.fileName + ": " + record.reason));
    }

    void lookupByArchitecture()
    {
        PluginRegistry registry;
        registry.scan({testPluginDir()});
        glosa::ModelPluginInterface *echo = registry.pluginForArchitecture(QStringLiteral("echo"));
        QVERIFY(echo);
        const PluginRecord *record = registry.recordForArchitecture(QStringLiteral("echo"));
        QVERIFY(record);
        QVERIFY(record->architectures.contains(QStringLiteral("echo")));
        QCOMPARE(record->plugin, echo);
        QCOMPARE(record->fileName, testPlugin(QStringLiteral("echo")));
        // Rejected plugins do not answer for the architectures their metadata lists.
        for (const char *arch : {"wrongapi", "noapi", "notinterface", "unresolved", "transformer"})
            QVERIFY2(!registry.pluginForArchitecture(QLatin1String(arch)), arch);
        QVERIFY(!registry.recordForArchitecture(QString()));
    }

    void laterCopyOfALoadedPluginIsNotLoaded()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString copy = dir.filePath(QStringLiteral("libglosa_test_echo_copy.so"));
        QVERIFY(QFile::copy(testPlugin(QStringLiteral("echo")), copy));
        PluginRegistry registry;
        registry.scan({testPluginDir(), dir.path()});
        const PluginRecord *record = recordFor(registry, copy);
        QVERIFY(record);
        QVERIFY2(record->status == Status::Duplicate, qPrintable(record->reason));
        QVERIFY2(record->reason.contains(testPlugin(QStringLiteral("echo"))),
                 qPrintable(record->reason));
        QVERIFY(!isMapped(copy));
        QCOMPARE(registry.recordForArchitecture(QStringLiteral("echo"))->fileName,
                 testPlugin(QStringLiteral("echo")));
    }

    void rescanForgetsEarlierResults()
    {
        PluginRegistry registry;
        registry.scan({testPluginDir()});
        QVERIFY(registry.pluginForArchitecture(QStringLiteral("echo")));
        QTemporaryDir empty;
        registry.scan({empty.path(), empty.path() + QStringLiteral("/does-not-exist")});
        QVERIFY(registry.records().isEmpty());
        QVERIFY(!registry.pluginForArchitecture(QStringLiteral("echo")));
    }

    void defaultSearchPaths()
    {
        QTemporaryDir a;
        QTemporaryDir b;
        const QString missing = a.path() + QStringLiteral("/missing");
        const QString sep = QString(QDir::listSeparator());
        qputenv("GLOSA_PLUGIN_PATH",
                QFile::encodeName(a.path() + sep + missing + sep + b.path() + sep + a.path()));
        // <dir of the executable>/../plugins: build/plugins for this test in build/tests.
        const QString buildPlugins = QDir::cleanPath(QStringLiteral(GLOSA_BINARY_DIR "/plugins"));
        QVERIFY(QDir().mkpath(buildPlugins));
        const QStringList paths = PluginRegistry::defaultSearchPaths();
        qunsetenv("GLOSA_PLUGIN_PATH");
        QVERIFY(paths.size() >= 3);
        QCOMPARE(paths.at(0), a.path());
        QCOMPARE(paths.at(1), b.path());
        QCOMPARE(paths.at(2), buildPlugins);
        QVERIFY(!paths.contains(missing));
        QCOMPARE(paths.count(a.path()), 1);
        // Without the variable the executable's folder leads.
        QCOMPARE(PluginRegistry::defaultSearchPaths().value(0), buildPlugins);
    }

    // A model family names itself in its plugin's metadata ("titles"), the one source the app's
    // model picker and tools/export_package.py read: the real plugins of the build, each title as
    // its JSON file in plugins/<family>/ spells it.
    void familiesNameThemselves()
    {
        PluginRegistry registry;
        registry.scan({QStringLiteral(GLOSA_BINARY_DIR "/plugins")});
        int named = 0;
        QDirIterator files(QStringLiteral(GLOSA_SOURCE_DIR "/plugins"), {"*.json"}, QDir::Files,
                           QDirIterator::Subdirectories);
        while (files.hasNext()) {
            QFile file(files.next());
            QVERIFY(file.open(QIODevice::ReadOnly));
            const QJsonObject json = QJsonDocument::fromJson(file.readAll()).object();
            const QJsonObject titles = json.value(QLatin1String("titles")).toObject();
            // Every architecture a bundled family loads has its title.
            const QJsonArray architectures = json.value(QLatin1String("architectures")).toArray();
            QVERIFY2(!architectures.isEmpty(), qPrintable(file.fileName()));
            for (const QJsonValue &architecture : architectures) {
                const QString title = titles.value(architecture.toString()).toString();
                QVERIFY2(!title.isEmpty(), qPrintable(architecture.toString()));
                QCOMPARE(PluginRegistry::architectureTitle(architecture.toString()), title);
                ++named;
            }
        }
        QVERIFY(named >= 3);
        QCOMPARE(PluginRegistry::architectureTitle(QStringLiteral("rnn-attention")),
                 QStringLiteral("RNN with attention"));
        QCOMPARE(PluginRegistry::architectureTitle(QStringLiteral("no-such-family")),
                 QStringLiteral("no-such-family"));
    }

    void statusNames()
    {
        QCOMPARE(glosa::pluginStatusName(Status::Loaded), QStringLiteral("loaded"));
        QCOMPARE(glosa::pluginStatusName(Status::WrongApiVersion),
                 QStringLiteral("wrong apiVersion"));
        QCOMPARE(glosa::pluginStatusName(Status::NotAPlugin), QStringLiteral("not a plugin"));
    }
};

QTEST_APPLESS_MAIN(TestPluginRegistry)
#include "tst_pluginregistry.moc"
