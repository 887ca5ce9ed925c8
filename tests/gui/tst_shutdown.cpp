// Shutdown while worker threads are busy. The main window starts loading
// its model on a worker thread as soon as it is built; destroying it at once used to destroy
// its PluginRegistry (a member) before the workers (children, deleted after the members) were
// stopped, while a worker was still inside ModelCatalog::load reading it: a heap-use-after-free
// under ASan in tst_gui. The workers now belong to the AppContext, which stops and joins them
// before its registry goes, and the registry is shared with the workers that load from it. Run
// with MALLOC_PERTURB_ set (freed memory overwritten; ctest does) the old order crashes here
// without a sanitizer too.
#include "app/core/appcontext.h"
#include "app/gui/mainwindow.h"

#include "tests/support/testutil.h"

#include <QTemporaryDir>
#include <QtTest>

using namespace glosa;

class TestShutdown : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase()
    {
        qputenv("GLOSA_PLUGIN_PATH", GLOSA_TEST_PLUGIN_DIR "/translators");
        qputenv("GLOSA_MODEL_PATH", GLOSA_TEST_DATA_DIR "/toy-en-es");
        QVERIFY(m_settingsDir.isValid());
        glosa::test::isolateAppState(m_settingsDir.path(), m_settingsDir.path(),
                                     QStringLiteral("tst_shutdown"));
    }

    void destroyingTheWindowWhileAModelLoads()
    {
        for (int i = 0; i < 50; ++i) {
            auto *context = new AppContext;
            auto *window = new MainWindow(*context);
            QCOMPARE(window->currentModelId(), QStringLiteral("toy-en-es")); // its load is posted
            delete window;
            delete context; // the worker is (most likely) still loading
        }
    }

private:
    QTemporaryDir m_settingsDir;
};

QTEST_MAIN(TestShutdown)
#include "tst_shutdown.moc"
