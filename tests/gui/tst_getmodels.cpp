// Get models… as a new user meets it (real window, widgets, hub client, import, plugin and worker;
// the loopback hub of tests/support serves the shared MarianMT fixture as
// Helsinki-NLP/opus-mt-en-es): on a first run, before the user's models folder exists, the model
// picker offers the OPUS-MT model for its direction without sending anything; the offer opens Get
// models… with it chosen; a search lists it with its languages named in the interface language,
// size, licence and downloads; Download shows its progress, and the model then translates with no
// restart. A model already in the Hugging Face cache is imported without a request. The model
// manager has Get models… and names each direction's default. Skips with a
// message when ../shared is absent.
#include "app/core/appcontext.h"
#include "app/core/hub/modeldownloads.h"
#include "app/core/models/modelcatalog.h"
#include "app/core/models/pluginregistry.h"
#include "app/gui/dialogs/getmodelsdialog.h"
#include "app/gui/dialogs/modelsdialog.h"
#include "app/gui/mainwindow.h"
#include "app/gui/views/translateview.h"
#include "tests/support/hfcache.h"
#include "tests/support/loopbackhub.h"
#include "tests/support/testutil.h"
#include "tests/support/testwindow.h"

#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QScopeGuard>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QThreadPool>

#include <memory>

using namespace glosa;

class TestGetModels : public QObject
{
    Q_OBJECT

    QTemporaryDir m_state;
    QString m_fixture;
    const QString m_repo = QStringLiteral("Helsinki-NLP/opus-mt-en-es");

private slots:
    void initTestCase()
    {
        QVERIFY(m_state.isValid());
        test::isolateAppState(m_state.path(), m_state.path(), QStringLiteral("tst_getmodels"));
        qputenv("XDG_CACHE_HOME", QFile::encodeName(m_state.filePath(QStringLiteral("cache"))));
        qunsetenv("GLOSA_MODEL_PATH");
        qunsetenv("HF_HUB_OFFLINE");
        // Not the user's Hugging Face cache: one of the test's own, empty until a test fills it.
        qputenv("HF_HUB_CACHE", QFile::encodeName(m_state.filePath(QStringLiteral("hf"))));
        QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates));
        m_fixture = QDir::cleanPath(test::sharedDataDir() +
                                    QStringLiteral("/../fixtures/marian-tiny-en-es/safetensors"));
    }

    void offerSearchDownloadTranslate()
    {
        if (!QFileInfo::exists(m_fixture + QStringLiteral("/config.json")))
            QSKIP(qPrintable(m_fixture + QStringLiteral(" is absent (it lives in ../shared)")));
        // Slow enough that the progress is seen mid-way.
        const test::LoopbackHub hub({m_repo + QLatin1Char('=') + m_fixture},
                                    {QStringLiteral("--throttle"), QStringLiteral("2000000")});
        QVERIFY(hub.isRunning());
        qputenv("HF_ENDPOINT", hub.endpoint().toUtf8());
        QVERIFY(!QFileInfo::exists(ModelCatalog::userModelsDir())); // a first run

        test::Window window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(window.context().chooseModel(QStringLiteral("transformer-en-es")));
        QLabel *hint = window.hubHint();
        QTRY_VERIFY(hint->isVisible());
        QVERIFY2(hint->text().contains(QStringLiteral("English → Spanish")) &&
                     hint->text().contains(QStringLiteral("OPUS-MT")),
                 qPrintable(hint->text()));
        QVERIFY(hub.log().isEmpty()); // nothing is sent at start

        // The offer opens Get models… with the repository chosen, still without a request.
        emit hint->linkActivated(m_repo);
        GetModelsDialog *dialog = window.getModelsDialog();
        QVERIFY(dialog && dialog->isVisible());
        QCOMPARE(dialog->selectedRepository(), m_repo);
        QVERIFY(dialog->downloadButton()->isEnabled());
        QVERIFY(hub.log().isEmpty());

        // A search lists it: languages in the interface language, size, licence, downloads.
        QSignalSpy searched(&dialog->downloads(), &ModelDownloads::searchFinished);
        QTest::keyClicks(dialog->searchField(), QStringLiteral("en-es"));
        QTest::keyClick(dialog->searchField(), Qt::Key_Return);
        QVERIFY(searched.wait(20000));
        QTableWidget *table = dialog->resultTable();
        QCOMPARE(table->rowCount(), 1);
        QCOMPARE(table->item(0, 0)->text(), QStringLiteral("English → Spanish"));
        QCOMPARE(table->item(0, 1)->text(), m_repo);
        QVERIFY2(table->item(0, 2)->text().startsWith(QStringLiteral("≈ ")),
                 qPrintable(table->item(0, 2)->text()));
        QCOMPARE(table->item(0, 3)->text(), QStringLiteral("cc-by-2.0"));
        QVERIFY(!table->item(0, 4)->text().isEmpty());
        QCOMPARE(dialog->selectedRepository(), m_repo);

        // Download: a progress bar and Cancel while it runs, then the model is chosen.
        QSignalSpy installed(dialog, &GetModelsDialog::modelInstalled);
        QTest::mouseClick(dialog->downloadButton(), Qt::LeftButton);
        QVERIFY(dialog->progressBar()->isVisible());
        QVERIFY(dialog->cancelButton()->isVisible());
        QVERIFY(!dialog->downloadButton()->isEnabled());
        QTRY_VERIFY_WITH_TIMEOUT(dialog->progressBar()->value() > 0 &&
                                     dialog->statusLabel()->text().contains(QStringLiteral("MB")),
                                 60000);
        QVERIFY(installed.wait(120000));
        QCOMPARE(installed.first().first().toString(), QStringLiteral("opus-mt-en-es"));
        QVERIFY(!dialog->progressBar()->isVisible());
        QVERIFY(!dialog->cancelButton()->isVisible());

        // Usable at once: listed, chosen, no offer any more, and it translates.
        QCOMPARE(window.currentModelId(), QStringLiteral("opus-mt-en-es"));
        QVERIFY(!hint->isVisible());
        const TranslationResult result =
            test::translateIn(window, QStringLiteral("I like cats."), 60000);
        QVERIFY(!result.hypotheses.isEmpty());
        QVERIFY2(!window.translateView()->targetEditor()->toPlainText().trimmed().isEmpty(),
                 "no translation shown");
        dialog->reject();
        QTRY_VERIFY(!window.getModelsDialog());
    }

    // Closing Get models… mid-download cancels it: the pool thread ends soon after, and nothing
    // is installed.
    void closingCancelsTheDownload()
    {
        if (!QFileInfo::exists(m_fixture + QStringLiteral("/config.json")))
            QSKIP(qPrintable(m_fixture + QStringLiteral(" is absent (it lives in ../shared)")));
        const QString repo = QStringLiteral("Helsinki-NLP/opus-mt-es-en");
        const test::LoopbackHub hub({repo + QLatin1Char('=') + m_fixture},
                                    {QStringLiteral("--throttle"), QStringLiteral("300000")});
        QVERIFY(hub.isRunning());
        qputenv("HF_ENDPOINT", hub.endpoint().toUtf8());
        AppContext context;
        auto dialog = std::make_unique<GetModelsDialog>(context);
        dialog->show();
        dialog->selectRepository(repo);
        QTest::mouseClick(dialog->downloadButton(), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(
            dialog->downloads().progress().file.endsWith(QStringLiteral(".safetensors")), 60000);
        dialog->reject();
        dialog.reset();
        // The install job returns once it sees the cancel: well before the 20 s the rest of the
        // throttled file would take.
        QVERIFY(QThreadPool::globalInstance()->waitForDone(10000));
        QVERIFY(
            !QFileInfo::exists(ModelCatalog::userModelsDir() + QStringLiteral("/opus-mt-es-en")));
    }

    // A MarianMT model already in the Hugging Face cache is listed as on this computer and
    // imported with no request at all (offline), then translates.
    void modelOnThisComputerImports()
    {
        if (!QFileInfo::exists(m_fixture + QStringLiteral("/config.json")))
            QSKIP(qPrintable(m_fixture + QStringLiteral(" is absent (it lives in ../shared)")));
        QVERIFY(!test::makeHfCacheSnapshot(m_state.filePath(QStringLiteral("hf")),
                                           QStringLiteral("someone/marian-tiny-en-es"), m_fixture)
                     .isEmpty());
        qputenv("HF_HUB_OFFLINE", "1");
        const auto online = qScopeGuard([] { qunsetenv("HF_HUB_OFFLINE"); });
        test::Window window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.showGetModels();
        GetModelsDialog *dialog = window.getModelsDialog();
        QVERIFY(dialog);
        QTableWidget *table = dialog->resultTable();
        QTRY_COMPARE(table->rowCount(), 1);
        QCOMPARE(table->item(0, 1)->text(), QStringLiteral("someone/marian-tiny-en-es"));
        QCOMPARE(table->item(0, 2)->text(), QStringLiteral("On this computer"));
        table->selectRow(0);
        QCOMPARE(dialog->downloadButton()->text(), QStringLiteral("Import"));
        QSignalSpy installed(dialog, &GetModelsDialog::modelInstalled);
        QTest::mouseClick(dialog->downloadButton(), Qt::LeftButton);
        QVERIFY(installed.wait(120000));
        QCOMPARE(installed.first().first().toString(), QStringLiteral("marian-tiny-en-es"));
        QCOMPARE(window.currentModelId(), QStringLiteral("marian-tiny-en-es"));
        QCOMPARE(table->rowCount(), 0); // installed: no longer offered
        const TranslationResult result =
            test::translateIn(window, QStringLiteral("I like cats."), 60000);
        QVERIFY(!result.hypotheses.isEmpty());
        dialog->reject();
    }

    void managerOffersGetModelsAndNamesTheDefault()
    {
        AppContext context;
        ModelsDialog dialog(context.catalog(), *context.plugins());
        auto *get = dialog.findChild<QPushButton *>(QStringLiteral("getModels"));
        QVERIFY(get);
        QSignalSpy requested(&dialog, &ModelsDialog::getModelsRequested);
        QTest::mouseClick(get, Qt::LeftButton);
        QCOMPARE(requested.size(), 1);

        const std::optional<ModelInfo> def = context.catalog().defaultModel(
            AppContext::kTranslation, QStringLiteral("en"), QStringLiteral("es"));
        QVERIFY(def);
        QTableWidget *table = dialog.modelTable();
        int defaults = 0;
        for (int r = 0; r < table->rowCount(); ++r) {
            const bool isDefault = table->item(r, 6)->text().contains(QStringLiteral("default"));
            const QString folder = table->item(r, 8)->text();
            if (folder == QDir::toNativeSeparators(def->folder))
                QVERIFY2(isDefault, qPrintable(table->item(r, 6)->text()));
            defaults += isDefault;
        }
        // One per direction at most: never every model of a direction.
        QVERIFY(defaults >= 1);
        QVERIFY(defaults < table->rowCount());
    }
};

QTEST_MAIN(TestGetModels)
#include "tst_getmodels.moc"
