// HubClient (app/core/hub) on its own: the hub's JSON read within bounds, repository ids and
// paths checked, the MarianMT files chosen, and downloads from the loopback hub
// (tests/support/loopback_hub.py) that hit a full disk mid-file or a file kept in git whose blob
// id does not match. The whole install through glosa-cli is tests/cli/tst_cli_hub.cpp.
#include "app/core/hub/hubclient.h"

#include "tests/support/loopbackhub.h"
#include "tests/support/smalltmpfs.h"
#include "tests/support/testutil.h"

#include <QTemporaryDir>
#include <QtTest>

using namespace glosa;
using namespace glosa::test;

class TestHubClient : public QObject
{
    Q_OBJECT

private:
    QString m_fixture;

    HubConfig config(const LoopbackHub &hub) const
    {
        HubConfig c;
        c.endpoint = QUrl(hub.endpoint());
        return c;
    }

private slots:
    void initTestCase()
    {
        m_fixture = QDir::cleanPath(sharedDataDir() +
                                    QStringLiteral("/../fixtures/marian-tiny-en-es/safetensors"));
    }

    void repoIdsAndPaths_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<bool>("repo");
        QTest::addColumn<bool>("path");
        QTest::newRow("org/name") << "Helsinki-NLP/opus-mt-en-es" << true << true;
        QTest::newRow("name") << "gpt2" << true << true;
        QTest::newRow("dots") << "a/b.c_d" << true << true;
        QTest::newRow("parent") << "../etc" << false << false;
        QTest::newRow("inner parent") << "a/../b" << false << false;
        QTest::newRow("absolute") << "/etc/passwd" << false << false;
        QTest::newRow("three parts") << "a/b/c" << false << true;
        QTest::newRow("double dash") << "a--b/c" << false << true;
        QTest::newRow("empty part") << "a//b" << false << false;
        QTest::newRow("backslash") << "a\\b" << false << false;
        QTest::newRow("control") << "a/b\n" << false << false;
        QTest::newRow("too long") << QString(200, 'a') << false << true;
    }
    void repoIdsAndPaths()
    {
        QFETCH(QString, text);
        QFETCH(bool, repo);
        QFETCH(bool, path);
        QCOMPARE(isValidRepoId(text), repo);
        QCOMPARE(isSafeRepoPath(text), path);
    }

    void repoInfoIsReadWithinBounds()
    {
        const QByteArray good = R"({"id":"A/b","sha":"0123456789abcdef0123456789abcdef01234567",
            "tags":["en","es","license:apache-2.0","translation"],
            "siblings":[{"rfilename":"config.json","blobId":"89abcdef0123456789abcdef0123456789abcdef","size":12},
                        {"rfilename":"model.safetensors","size":5,"lfs":{"sha256":
                        "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA","size":99}}]})";
        const HubResult<HubRepoInfo> info = parseRepoInfo(good);
        QVERIFY2(info.ok(), qPrintable(info.error.message));
        QCOMPARE(info.value.licence, QStringLiteral("apache-2.0"));
        QCOMPARE(info.value.languages, (QStringList{"en", "es"}));
        QCOMPARE(info.value.files.size(), 2);
        QCOMPARE(info.value.files[0].gitBlobId, QByteArray("89abcdef0123456789abcdef0123456789abcdef"));
        QVERIFY(info.value.files[1].isLfs());
        QCOMPARE(info.value.files[1].size, 99); // the LFS object's size, not the pointer's
        QCOMPARE(info.value.files[1].sha256, QByteArray(64, 'a'));

        const auto bad = [](const QByteArray &json, const char *expected) {
            const HubResult<HubRepoInfo> r = parseRepoInfo(json);
            return r.error.kind == HubErrorKind::BadResponse && r.error.message.contains(expected);
        };
        QVERIFY(bad("{", "JSON error"));
        QVERIFY(bad(R"({"sha":"xyz","siblings":[]})", "no commit"));
        QVERIFY(bad(R"({"sha":"0123456789abcdef0123456789abcdef01234567","siblings":{}})",
                    "siblings"));
        QVERIFY(bad(R"({"sha":"0123456789abcdef0123456789abcdef01234567","siblings":[{"size":1}]})",
                    "file 0: no file name"));
        QVERIFY(bad(R"({"sha":"0123456789abcdef0123456789abcdef01234567","siblings":[
                       {"rfilename":"x","lfs":{"sha256":"00"}}]})",
                    "64 hex digits"));
        // Counts are bounded as well as bytes: 10,001 files.
        QByteArray many = R"({"sha":"0123456789abcdef0123456789abcdef01234567","siblings":[)";
        for (int i = 0; i <= hublimits::kMaxFiles; ++i)
            many += (i ? "," : "") + QByteArray(R"({"rfilename":"f"})");
        QVERIFY(bad(many + "]}", "at most 10000 files"));
        QVERIFY(bad(QByteArray(hublimits::kMaxJsonBytes + 1, ' '), "MiB an answer may have"));
    }

    void searchResultsAreRead()
    {
        const HubResult<QList<HubModelSummary>> hits = parseSearchResults(
            R"([{"id":"Helsinki-NLP/opus-mt-en-de","downloads":1500000,"likes":40,
                 "tags":["translation","en","de","license:cc-by-4.0"],"gated":false},
                {"id":"x/y","gated":"manual"}])");
        QVERIFY2(hits.ok(), qPrintable(hits.error.message));
        QCOMPARE(hits.value.size(), 2);
        QCOMPARE(hits.value[0].downloads, 1500000);
        QCOMPARE(hits.value[0].licence, QStringLiteral("cc-by-4.0"));
        QCOMPARE(hits.value[0].languages, (QStringList{"en", "de"}));
        QVERIFY(hits.value[1].gated);
        QVERIFY(!parseSearchResults(R"({"id":"a"})").ok());
        QVERIFY(!parseSearchResults(R"([{"id":"../x"}])").ok());
    }

    void marianFilesPreferSafetensors()
    {
        HubRepoInfo repo;
        repo.id = QStringLiteral("Helsinki-NLP/opus-mt-en-es");
        for (const char *name : {"config.json", "vocab.json", "source.spm", "target.spm",
                                 "pytorch_model.bin", "tf_model.h5", "rust_model.ot", "README.md"})
            repo.files.append(HubFile{QString::fromLatin1(name), 1, {}, {}});
        HubResult<QList<HubFile>> files = marianFiles(repo);
        QVERIFY2(files.ok(), qPrintable(files.error.message));
        QStringList names;
        for (const HubFile &f : files.value)
            names << f.path;
        QCOMPARE(names, (QStringList{"config.json", "vocab.json", "source.spm", "target.spm",
                                     "README.md", "pytorch_model.bin"}));
        repo.files.append(HubFile{QStringLiteral("model.safetensors"), 1, {}, {}});
        QCOMPARE(marianFiles(repo).value.last().path, QStringLiteral("model.safetensors"));
        repo.files.removeIf([](const HubFile &f) { return f.path == "target.spm"; });
        files = marianFiles(repo);
        QCOMPARE(files.error.kind, HubErrorKind::NotAModel);
        QVERIFY2(files.error.message.contains("it has no target.spm"), qPrintable(files.error.message));
    }

    void aFullDiskMidFileLeavesNothing()
    {
        if (!QFileInfo::exists(m_fixture + "/model.safetensors"))
            QSKIP(qPrintable(m_fixture + " is absent (it lives in ../shared)"));
        SmallTmpfs disk;
        if (!disk.isMounted())
            QSKIP(qPrintable(disk.why()));
        const LoopbackHub hub({"A/opus-mt-en-es=" + m_fixture});
        QVERIFY(hub.isRunning());
        HubClient client(config(hub));
        const HubResult<HubRepoInfo> info = client.repoInfo("A/opus-mt-en-es");
        QVERIFY2(info.ok(), qPrintable(info.error.message));
        const HubFile *weights = info.value.file("model.safetensors");
        QVERIFY(weights && weights->isLfs());
        qint64 reported = 0;
        const QString path = disk.filePath("model.safetensors");
        const HubError error = client.download(info.value, *weights, path,
                                               [&](const HubProgress &p) { reported = p.fileBytes; });
        QCOMPARE(error.kind, HubErrorKind::DiskFull);
        QVERIFY2(error.message.contains("No space left on device") &&
                     error.message.contains(path + ".incomplete"),
                 qPrintable(error.message));
        QVERIFY(reported > 1000000); // it failed mid-file, not before
        QVERIFY(!QFileInfo::exists(path));
        QVERIFY(!QFileInfo::exists(path + ".incomplete"));
    }

    void aFileKeptInGitIsCheckedByItsBlobId()
    {
        if (!QFileInfo::exists(m_fixture + "/config.json"))
            QSKIP(qPrintable(m_fixture + " is absent (it lives in ../shared)"));
        const LoopbackHub hub({"A/opus-mt-en-es=" + m_fixture}, {"--corrupt", "config.json"});
        HubClient client(config(hub));
        const HubResult<HubRepoInfo> info = client.repoInfo("A/opus-mt-en-es");
        QVERIFY2(info.ok(), qPrintable(info.error.message));
        const HubFile *configFile = info.value.file("config.json");
        QVERIFY(configFile && !configFile->isLfs() && !configFile->gitBlobId.isEmpty());
        QTemporaryDir dir;
        const HubError error = client.download(info.value, *configFile, dir.filePath("config.json"));
        QCOMPARE(error.kind, HubErrorKind::Checksum);
        QVERIFY2(error.message.contains("config.json: git blob SHA-1 mismatch"),
                 qPrintable(error.message));
        QVERIFY(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden).isEmpty());
        // The same file uncorrupted passes the same check.
        const LoopbackHub clean({"A/opus-mt-en-es=" + m_fixture});
        HubClient cleanClient(config(clean));
        const HubError ok = cleanClient.download(info.value, *configFile, dir.filePath("config.json"));
        QVERIFY2(ok.ok(), qPrintable(ok.message));
        QFile got(dir.filePath("config.json")), want(m_fixture + "/config.json");
        QVERIFY(got.open(QIODevice::ReadOnly) && want.open(QIODevice::ReadOnly));
        QCOMPARE(got.readAll(), want.readAll());
    }

    void offlineSendsNothing()
    {
        const LoopbackHub hub({"A/opus-mt-en-es=" + m_fixture});
        HubConfig c = config(hub);
        c.offline = true;
        HubClient offline(c);
        QCOMPARE(offline.search("x").error.kind, HubErrorKind::Offline);
        QCOMPARE(offline.repoInfo("A/b").error.kind, HubErrorKind::Offline);
        QVERIFY(hub.log().isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestHubClient)
#include "tst_hubclient.moc"
