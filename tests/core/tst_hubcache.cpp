// Models already on this computer (app/core/hub/hubcache.h): a real Hugging Face cache layout is
// built here as huggingface_hub writes it (models--ORG--NAME/blobs/<sha256>,
// snapshots/<commit>/<file> as links into ../../blobs/, refs/main) from the committed multi-target
// MarianMT fixture (tests/data/marian-multi) and, where ../shared has it, the OPUS-MT fixture.
// The scan lists the MarianMT snapshots only, the newest of each repository; an import from a
// snapshot takes its id and name from the repository and records the repository and commit
// (app/core/models/modelimport.h).
#include "app/core/hub/hubcache.h"
#include "app/core/models/modelimport.h"
#include "tests/support/testutil.h"

#include <QCryptographicHash>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

using namespace glosa;

namespace {

const QString kOld = QStringLiteral("1111111111111111111111111111111111111111");
const QString kNew = QStringLiteral("abc1230000000000000000000000000000000def");

QString multiFixture()
{
    return test::testDataDir() + QStringLiteral("/marian-multi");
}

QString sharedFixture()
{
    return QDir::cleanPath(test::sharedDataDir() +
                           QStringLiteral("/../fixtures/marian-tiny-en-es/safetensors"));
}

// `source`'s files as snapshot `commit` of `repo` in `cache`: each file a blob named by its
// SHA-256 and a relative link to it; refs/main names the commit when `main`.
QString addSnapshot(const QString &cache, const QString &repo, const QString &commit,
                    const QString &source, bool main = true)
{
    const QDir repoDir(cache + QStringLiteral("/models--") + QString(repo).replace('/', "--"));
    const QDir snapshot(repoDir.filePath(QStringLiteral("snapshots/") + commit));
    QDir().mkpath(snapshot.path());
    QDir().mkpath(repoDir.filePath(QStringLiteral("blobs")));
    QDir().mkpath(repoDir.filePath(QStringLiteral("refs")));
    for (const QFileInfo &file : QDir(source).entryInfoList(QDir::Files)) {
        QFile in(file.filePath());
        if (!in.open(QIODevice::ReadOnly))
            return {};
        const QByteArray bytes = in.readAll();
        const QString blob = QString::fromLatin1(
            QCryptographicHash::hash(bytes, QCryptographicHash::Sha256).toHex());
        QFile out(repoDir.filePath(QStringLiteral("blobs/") + blob));
        if (!out.exists() && (!out.open(QIODevice::WriteOnly) || out.write(bytes) != bytes.size()))
            return {};
        out.close();
        QFile::link(QStringLiteral("../../blobs/") + blob, snapshot.filePath(file.fileName()));
    }
    if (main) {
        QFile ref(repoDir.filePath(QStringLiteral("refs/main")));
        if (!ref.open(QIODevice::WriteOnly))
            return {};
        ref.write(commit.toLatin1());
    }
    return snapshot.path();
}

QJsonObject manifestOf(const QString &folder)
{
    QFile file(folder + QStringLiteral("/model.json"));
    return file.open(QIODevice::ReadOnly) ? QJsonDocument::fromJson(file.readAll()).object()
                                          : QJsonObject();
}

} // namespace

class TestHubCache : public QObject
{
    Q_OBJECT

private slots:
    void repoForCacheSnapshot_data()
    {
        QTest::addColumn<QString>("folder");
        QTest::addColumn<QString>("repo");
        QTest::newRow("snapshot") << "/c/hub/models--Helsinki-NLP--opus-mt-en-es/snapshots/abc"
                                  << "Helsinki-NLP/opus-mt-en-es";
        QTest::newRow("trailing slash")
            << "/c/hub/models--Helsinki-NLP--opus-mt-en-es/snapshots/abc/"
            << "Helsinki-NLP/opus-mt-en-es";
        QTest::newRow("no organisation") << "/c/models--t5-small/snapshots/abc"
                                         << "t5-small";
        QTest::newRow("relative") << "models--a--b/snapshots/c"
                                  << "a/b";
        QTest::newRow("a plain folder") << "/home/u/opus-mt-en-es"
                                        << "";
        QTest::newRow("the snapshots folder") << "/c/models--a--b/snapshots"
                                              << "";
        QTest::newRow("a dataset") << "/c/datasets--a--b/snapshots/c"
                                   << "";
        QTest::newRow("empty name") << "/c/models--/snapshots/c"
                                    << "";
    }
    void repoForCacheSnapshot()
    {
        QFETCH(QString, folder);
        QFETCH(QString, repo);
        QCOMPARE(glosa::repoForCacheSnapshot(folder), repo);
    }

    void findsTheNewestMarianSnapshots()
    {
        QTemporaryDir dir;
        const QString cache = dir.filePath(QStringLiteral("hub"));
        const QString repo = QStringLiteral("Helsinki-NLP/opus-mt-en-ROMANCE");
        QVERIFY(!addSnapshot(cache, repo, kOld, multiFixture(), false).isEmpty());
        const QString newest = addSnapshot(cache, repo, kNew, multiFixture());
        QVERIFY(!newest.isEmpty());
        QVERIFY(QFileInfo(newest + QStringLiteral("/config.json")).isSymLink());
        // Not MarianMT: another model type.
        QTemporaryDir bert;
        QFile config(bert.filePath(QStringLiteral("config.json")));
        QVERIFY(config.open(QIODevice::WriteOnly));
        config.write(R"({"model_type": "bert"})");
        config.close();
        QVERIFY(
            !addSnapshot(cache, QStringLiteral("google/bert-base"), kNew, bert.path()).isEmpty());
        // A snapshot whose weights' blob is gone (an interrupted download): a dangling link.
        const QString broken =
            addSnapshot(cache, QStringLiteral("Helsinki-NLP/opus-mt-en-de"), kNew, multiFixture());
        QVERIFY(QFile::remove(
            QFileInfo(broken + QStringLiteral("/model.safetensors")).symLinkTarget()));

        const QList<CachedHubModel> found = findCachedMarianModels({cache});
        QCOMPARE(found.size(), 1);
        QCOMPARE(found[0].repo, repo);
        QCOMPARE(found[0].commit, kNew);
        QCOMPARE(found[0].folder, QDir::cleanPath(newest));
        // Without refs/main the most recently written snapshot is the newest.
        QVERIFY(QFile::remove(
            cache + QStringLiteral("/models--Helsinki-NLP--opus-mt-en-ROMANCE/refs/main")));
        QCOMPARE(findCachedMarianModels({cache}).size(), 1);
        QVERIFY(findCachedMarianModels({dir.filePath(QStringLiteral("absent"))}).isEmpty());
    }

    void cacheFoldersFollowTheEnvironment()
    {
        QTemporaryDir dir;
        const QString hubCache = dir.filePath(QStringLiteral("hub-cache"));
        const QString home = dir.filePath(QStringLiteral("hf-home"));
        QVERIFY(QDir().mkpath(hubCache) && QDir().mkpath(home + QStringLiteral("/hub")));
        const QByteArray oldHome = qgetenv("HOME");
        qputenv("HF_HUB_CACHE", hubCache.toUtf8());
        qputenv("HF_HOME", home.toUtf8());
        qunsetenv("XDG_CACHE_HOME");
        qputenv("HOME", dir.filePath(QStringLiteral("user")).toUtf8()); // no ~/.cache there
        const QStringList dirs = huggingFaceCacheDirs();
        qputenv("HOME", oldHome);
        qunsetenv("HF_HUB_CACHE");
        qunsetenv("HF_HOME");
        QCOMPARE(dirs, (QStringList{hubCache, home + QStringLiteral("/hub")}));
    }

    // The id and name come from the repository, not the snapshot's commit folder; model.json
    // records the repository and the commit.
    void importFromTheCacheNamesTheRepository()
    {
        QTemporaryDir dir;
        const QString snapshot =
            addSnapshot(dir.filePath(QStringLiteral("hub")),
                        QStringLiteral("Helsinki-NLP/opus-mt-en-ROMANCE"), kNew, multiFixture());
        ModelImportRequest request{snapshot, dir.filePath(QStringLiteral("models"))};
        request.float32 = true;
        const ModelImportResult result = importModelFolder(request);
        QVERIFY2(result.ok(), qPrintable(result.error));
        QCOMPARE(result.id, QStringLiteral("opus-mt-en-ROMANCE"));
        const QJsonObject manifest = manifestOf(result.folder);
        QCOMPARE(manifest.value("name").toString(),
                 QStringLiteral("OPUS-MT en→es, fr (Helsinki-NLP)"));
        const QJsonObject from = manifest.value("imported_from").toObject();
        QCOMPARE(from.value("repo").toString(), QStringLiteral("Helsinki-NLP/opus-mt-en-ROMANCE"));
        QCOMPARE(from.value("commit").toString(), kNew);
    }

    void givenRepositoryNamesAPlainFolder()
    {
        QTemporaryDir dir;
        ModelImportRequest request{multiFixture(), dir.path()};
        request.repo = QStringLiteral("someone/tiny-multi");
        const ModelImportResult result = importModelFolder(request);
        QVERIFY2(result.ok(), qPrintable(result.error));
        QCOMPARE(result.id, QStringLiteral("tiny-multi"));
        QCOMPARE(manifestOf(result.folder).value("name").toString(),
                 QStringLiteral("someone/tiny-multi"));
        QVERIFY(!manifestOf(result.folder).value("imported_from").toObject().contains("commit"));
    }

    void opusMtFixture()
    {
        if (!QFileInfo::exists(sharedFixture()))
            QSKIP(qPrintable(sharedFixture() + " is absent (it lives in ../shared)"));
        QTemporaryDir dir;
        const QString snapshot =
            addSnapshot(dir.filePath(QStringLiteral("hub")),
                        QStringLiteral("Helsinki-NLP/opus-mt-en-es"), kNew, sharedFixture());
        const ModelImportResult cached =
            importModelFolder({snapshot, dir.filePath(QStringLiteral("models"))});
        QVERIFY2(cached.ok(), qPrintable(cached.error));
        QCOMPARE(cached.id, QStringLiteral("opus-mt-en-es"));
        QCOMPARE(manifestOf(cached.folder).value("name").toString(),
                 QStringLiteral("OPUS-MT en→es (Helsinki-NLP)"));
        // The fixture's own folder, "safetensors", names nothing: not the id, not the name.
        const ModelImportResult plain =
            importModelFolder({sharedFixture(), dir.filePath(QStringLiteral("plain"))});
        QVERIFY2(plain.ok(), qPrintable(plain.error));
        QCOMPARE(plain.id, QStringLiteral("marian-en-es"));
        QCOMPARE(manifestOf(plain.folder).value("name").toString(),
                 QStringLiteral("MarianMT en→es"));
    }
};

QTEST_GUILESS_MAIN(TestHubCache)
#include "tst_hubcache.moc"
