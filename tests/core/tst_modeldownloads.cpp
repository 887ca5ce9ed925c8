// ModelDownloads, the presenter of Get models… (app/core/hub/modeldownloads.h), against the
// loopback hub (tests/support/loopback_hub.py) serving the shared MarianMT fixture as
// Helsinki-NLP/opus-mt-en-es: a search on the pool with its results, an install with progress
// that ends in a package the catalog reads, Cancel mid-download, a missing repository, one install
// at a time, a model of the Hugging Face cache imported without a request, and the OPUS-MT
// suggestion for a direction. Skips with a message when ../shared is
// absent.
#include "app/core/hub/knownmodels.h"
#include "app/core/hub/modeldownloads.h"
#include "app/core/models/modelcatalog.h"
#include "app/core/models/modelimport.h"

#include "tests/support/hfcache.h"
#include "tests/support/loopbackhub.h"
#include "tests/support/testutil.h"

#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

using namespace glosa;
using namespace glosa::test;

class TestModelDownloads : public QObject
{
    Q_OBJECT

    QTemporaryDir m_state;
    QString m_fixture;

    QStringList repos() const
    {
        return {QStringLiteral("Helsinki-NLP/opus-mt-en-es=") + m_fixture,
                QStringLiteral("Helsinki-NLP/opus-mt-es-en=") + m_fixture};
    }
    static HubConfig config(const LoopbackHub &hub)
    {
        HubConfig c;
        c.endpoint = QUrl(hub.endpoint());
        return c;
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_state.isValid());
        isolateAppState(m_state.path(), m_state.path(), QStringLiteral("tst_modeldownloads"));
        qputenv("XDG_CACHE_HOME", QFile::encodeName(m_state.filePath(QStringLiteral("cache"))));
        m_fixture = QDir::cleanPath(sharedDataDir() +
                                    QStringLiteral("/../fixtures/marian-tiny-en-es/safetensors"));
    }

    void searchRunsOffTheGuiThread()
    {
        if (!QFileInfo::exists(m_fixture + QStringLiteral("/config.json")))
            QSKIP(qPrintable(m_fixture + QStringLiteral(" is absent (it lives in ../shared)")));
        const LoopbackHub hub(repos());
        QVERIFY(hub.isRunning());
        ModelDownloads downloads(config(hub));
        QSignalSpy finished(&downloads, &ModelDownloads::searchFinished);
        downloads.search(QStringLiteral("opus-mt-en"));
        QVERIFY(downloads.isSearching()); // the answer comes later, from the pool
        QVERIFY(finished.wait(20000));
        QVERIFY(!downloads.isSearching());
        QVERIFY2(downloads.searchError().ok(), qPrintable(downloads.searchError().message));
        QCOMPARE(downloads.results().size(), 1);
        const HubModelSummary &hit = downloads.results().first();
        QCOMPARE(hit.id, QStringLiteral("Helsinki-NLP/opus-mt-en-es"));
        QVERIFY2(hit.languages.contains(QStringLiteral("es")), qPrintable(hit.languages.join(' ')));
        QVERIFY(hub.log().join('\n').contains(QStringLiteral("author=Helsinki-NLP")));

        // A second search replaces the first; only the newer answer is kept.
        downloads.search(QStringLiteral("opus-mt-en"));
        downloads.search(QStringLiteral("opus-mt-es"));
        QVERIFY(finished.wait(20000));
        QCOMPARE(downloads.results().size(), 1);
        QCOMPARE(downloads.results().first().id, QStringLiteral("Helsinki-NLP/opus-mt-es-en"));
    }

    void installReportsProgressAndImports()
    {
        if (!QFileInfo::exists(m_fixture + QStringLiteral("/config.json")))
            QSKIP(qPrintable(m_fixture + QStringLiteral(" is absent (it lives in ../shared)")));
        const LoopbackHub hub(repos(), {QStringLiteral("--throttle"), QStringLiteral("8000000")});
        QVERIFY(hub.isRunning());
        QTemporaryDir models;
        ModelDownloads downloads(config(hub));
        QSignalSpy progressed(&downloads, &ModelDownloads::progressChanged);
        QSignalSpy finished(&downloads, &ModelDownloads::installFinished);
        HubInstallRequest request;
        request.repo = QStringLiteral("Helsinki-NLP/opus-mt-en-es");
        request.destinationRoot = models.path();
        QVERIFY(downloads.install(request));
        QVERIFY(downloads.isInstalling());
        QCOMPARE(downloads.installingRepo(), request.repo);
        QVERIFY(!downloads.install(request)); // one at a time
        qint64 lastBytes = 0;
        bool sawRate = false, sawImport = false, monotonic = true;
        connect(&downloads, &ModelDownloads::progressChanged, this, [&] {
            const DownloadProgress &p = downloads.progress();
            monotonic &= p.phase == DownloadProgress::Phase::Importing || p.bytes >= lastBytes;
            lastBytes = p.bytes;
            sawRate |= p.bytesPerSecond > 0 && p.secondsLeft() >= 0;
            sawImport |= p.phase == DownloadProgress::Phase::Importing;
        });
        QVERIFY(finished.wait(120000));
        const HubError error = finished.first().at(1).value<HubError>();
        QVERIFY2(error.ok(), qPrintable(error.message));
        QCOMPARE(finished.first().at(0).toString(), QStringLiteral("opus-mt-en-es"));
        QVERIFY(!downloads.isInstalling());
        QVERIFY(progressed.size() >= 3);
        QVERIFY(monotonic && sawRate && sawImport);
        QVERIFY(lastBytes > 5'000'000); // the fixture's weights came through

        ModelCatalog catalog;
        catalog.scan({models.path()});
        const auto info = catalog.find(QStringLiteral("opus-mt-en-es"));
        QVERIFY(info && info->isValid());
        QCOMPARE(info->folder, downloads.lastInstall().folder);
    }

    void cancelStopsTheDownload()
    {
        if (!QFileInfo::exists(m_fixture + QStringLiteral("/config.json")))
            QSKIP(qPrintable(m_fixture + QStringLiteral(" is absent (it lives in ../shared)")));
        // Slow enough that the weights are still arriving when Cancel comes.
        const LoopbackHub hub(repos(), {QStringLiteral("--throttle"), QStringLiteral("500000")});
        QVERIFY(hub.isRunning());
        QTemporaryDir models;
        ModelDownloads downloads(config(hub));
        QSignalSpy finished(&downloads, &ModelDownloads::installFinished);
        HubInstallRequest request;
        request.repo = QStringLiteral("Helsinki-NLP/opus-mt-es-en");
        request.destinationRoot = models.path();
        QVERIFY(downloads.install(request));
        QVERIFY(QTest::qWaitFor([&] { return downloads.progress().file.endsWith(".safetensors"); },
                                60000));
        downloads.cancel();
        QVERIFY(finished.wait(30000));
        const HubError error = finished.first().at(1).value<HubError>();
        QCOMPARE(error.kind, HubErrorKind::Cancelled);
        QVERIFY(QDir(models.path()).entryList(QDir::Dirs | QDir::NoDotAndDotDot).isEmpty());
    }

    void missingRepositoryIsNamed()
    {
        if (!QFileInfo::exists(m_fixture + QStringLiteral("/config.json")))
            QSKIP(qPrintable(m_fixture + QStringLiteral(" is absent (it lives in ../shared)")));
        const LoopbackHub hub(repos());
        QVERIFY(hub.isRunning());
        ModelDownloads downloads(config(hub));
        QSignalSpy finished(&downloads, &ModelDownloads::installFinished);
        QVERIFY(downloads.install(QStringLiteral("Helsinki-NLP/opus-mt-xx-yy")));
        QVERIFY(finished.wait(20000));
        const HubError error = finished.first().at(1).value<HubError>();
        QCOMPARE(error.kind, HubErrorKind::NotFound);
        QVERIFY2(error.message.contains(QStringLiteral("opus-mt-xx-yy")),
                 qPrintable(error.message));
    }

    // A model transformers already downloaded is found in the Hugging Face cache and imported
    // without a request (offline: any request would fail), named after its repository.
    void cachedModelImportsWithoutDownload()
    {
        if (!QFileInfo::exists(m_fixture + QStringLiteral("/config.json")))
            QSKIP(qPrintable(m_fixture + QStringLiteral(" is absent (it lives in ../shared)")));
        QTemporaryDir cache, models;
        const QString snapshot = makeHfCacheSnapshot(
            cache.path(), QStringLiteral("Helsinki-NLP/opus-mt-en-es"), m_fixture);
        QVERIFY(!snapshot.isEmpty());
        HubConfig offline;
        offline.offline = true;
        ModelDownloads downloads(offline);
        QSignalSpy found(&downloads, &ModelDownloads::cachedModelsFound);
        downloads.findCachedModels({cache.path()});
        QVERIFY(found.wait(20000));
        QCOMPARE(downloads.cachedModels().size(), 1);
        const CachedHubModel cached = downloads.cachedModels().first();
        QCOMPARE(cached.repo, QStringLiteral("Helsinki-NLP/opus-mt-en-es"));

        QSignalSpy finished(&downloads, &ModelDownloads::installFinished);
        QSignalSpy progressed(&downloads, &ModelDownloads::progressChanged);
        QVERIFY(downloads.importCached(cached, models.path()));
        QVERIFY(downloads.isInstalling());
        QCOMPARE(downloads.installingRepo(), cached.repo);
        QVERIFY(finished.wait(120000));
        const HubError error = finished.first().at(1).value<HubError>();
        QVERIFY2(error.ok(), qPrintable(error.message));
        QCOMPARE(finished.first().at(0).toString(), QStringLiteral("opus-mt-en-es"));
        QVERIFY(progressed.size() >= 2);
        QCOMPARE(downloads.progress().phase, DownloadProgress::Phase::Importing);
        ModelCatalog catalog;
        catalog.scan({models.path()});
        const auto info = catalog.find(QStringLiteral("opus-mt-en-es"));
        QVERIFY(info && info->isValid());
        QVERIFY(QFileInfo::exists(snapshot + QStringLiteral("/config.json"))); // left as it was
    }

    void offlineSendsNothing()
    {
        HubConfig c;
        c.endpoint = QUrl(QStringLiteral("http://127.0.0.1:9"));
        c.offline = true;
        ModelDownloads downloads(c);
        QSignalSpy finished(&downloads, &ModelDownloads::searchFinished);
        downloads.search(QStringLiteral("en-es"));
        QVERIFY(finished.wait(20000));
        QCOMPARE(downloads.searchError().kind, HubErrorKind::Offline);
    }

    void suggestionForDirection()
    {
        ModelCatalog empty;
        empty.scan(QStringList{});
        const auto suggestion =
            suggestedHubModel(empty, QStringLiteral("en"), QStringLiteral("es"));
        QVERIFY(suggestion);
        QCOMPARE(suggestion->repo, QStringLiteral("Helsinki-NLP/opus-mt-en-es"));
        QVERIFY(suggestion->approximateBytes > 100'000'000);
        QVERIFY(!suggestedHubModel(empty, QStringLiteral("en"), QStringLiteral("xx")));

        // An imported model for the direction: no suggestion any more.
        ModelImportRequest request;
        request.folder = QStringLiteral(GLOSA_TEST_DATA_DIR "/toy-en-es");
        const ModelImportResult imported = importModelFolder(request);
        QVERIFY2(imported.ok(), qPrintable(imported.error));
        ModelCatalog catalog;
        catalog.scan({ModelCatalog::userModelsDir()});
        QVERIFY(!suggestedHubModel(catalog, QStringLiteral("en"), QStringLiteral("es")));
        QVERIFY(suggestedHubModel(catalog, QStringLiteral("es"), QStringLiteral("en")));
    }
};

QTEST_MAIN(TestModelDownloads)
#include "tst_modeldownloads.moc"
