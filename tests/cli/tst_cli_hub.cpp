// `glosa-cli models search|get` against a Hugging Face hub on loopback (tests/support/
// loopback_hub.py) serving the MarianMT fixture of ../shared as Helsinki-NLP/opus-mt-en-es:
// the real glosa-cli, real HTTP (redirects to a CDN on another host name, Range, ETags), real
// files. Installed models translate as transformers does; a wrong checksum installs nothing; a
// dropped connection resumes with Range; 404, 401, offline, a full disk and Ctrl+C end with their
// own exit code and message. Skips with a message when ../shared is absent.
#include "tests/support/clirunner.h"
#include "tests/support/loopbackhub.h"
#include "tests/support/smalltmpfs.h"
#include "tests/support/testutil.h"

#include <nlohmann/json.hpp>

#include <QDirIterator>
#include <QTemporaryDir>
#include <QtTest>

#include <csignal>
#include <fstream>

using namespace glosa::test;

namespace {

const QString kRepo = QStringLiteral("Helsinki-NLP/opus-mt-en-es");

} // namespace

class TestCliHub : public QObject
{
    Q_OBJECT

private:
    QString m_fixture;
    nlohmann::json m_reference;

    // A private home for each case: models, cache and settings start empty.
    struct Home
    {
        QTemporaryDir dir;
        QString data() const { return dir.filePath(QStringLiteral("data")); }
        QString cache() const { return dir.filePath(QStringLiteral("cache")); }
    };

    QList<std::pair<QString, QString>> env(const Home &home, const LoopbackHub &hub,
                                           QList<std::pair<QString, QString>> more = {}) const
    {
        more.append({QStringLiteral("XDG_DATA_HOME"), home.data()});
        more.append({QStringLiteral("XDG_CACHE_HOME"), home.cache()});
        more.append({QStringLiteral("HF_ENDPOINT"), hub.endpoint()});
        return more;
    }

    QStringList repos() const { return {kRepo + QLatin1Char('=') + m_fixture + "/safetensors"}; }

    // Every file under the hub download cache (partial ones included).
    static QStringList cached(const Home &home)
    {
        QStringList files;
        QDirIterator it(home.cache(), QDir::Files | QDir::Hidden, QDirIterator::Subdirectories);
        while (it.hasNext())
            files << it.next();
        return files;
    }

    // The packages in the user's models folder (wherever under XDG_DATA_HOME it is).
    static QStringList installedIds(const Home &home)
    {
        QStringList ids;
        QDirIterator it(home.data(), {QStringLiteral("model.json")}, QDir::Files,
                        QDirIterator::Subdirectories);
        while (it.hasNext())
            ids << QFileInfo(it.next()).dir().dirName();
        return ids;
    }

    QByteArray sources() const
    {
        QByteArray input;
        for (const auto &c : m_reference["cases"])
            input += QByteArray::fromStdString(c["source"].get<std::string>()) + '\n';
        return input;
    }

    // The installed model's float32 translations against transformers', line by line.
    void checkTranslations(const Home &home, const LoopbackHub &hub, const QString &id)
    {
        for (const char *strategy : {"greedy", "beam4"}) {
            const QStringList args =
                strategy == QByteArray("greedy")
                    ? QStringList{"translate", "--model", id, "--strategy", "greedy"}
                    : QStringList{"translate", "--model", id, "--strategy", "beam", "--beam-size",
                                  "4"};
            const CliRun r = runGlosaCli(args, env(home, hub), sources());
            QVERIFY2(r.exitCode == 0, r.err.constData());
            const QList<QByteArray> lines = r.lines();
            QCOMPARE(lines.size(), qsizetype(m_reference["cases"].size()));
            int same = 0;
            for (int i = 0; i < lines.size(); ++i)
                same += lines[i].toStdString() ==
                        m_reference["cases"][i][strategy]["text"].get<std::string>();
            QVERIFY2(same == lines.size(),
                     qPrintable(QStringLiteral("%1: %2 of %3 equal transformers'")
                                    .arg(strategy)
                                    .arg(same)
                                    .arg(lines.size())));
        }
    }

private slots:
    void initTestCase()
    {
        m_fixture =
            QDir::cleanPath(sharedDataDir() + QStringLiteral("/../fixtures/marian-tiny-en-es"));
        if (!QFileInfo::exists(m_fixture + "/reference.json"))
            QSKIP(qPrintable(m_fixture + " is absent (it lives in ../shared)"));
        std::ifstream in((m_fixture + "/reference.json").toStdString());
        m_reference = nlohmann::json::parse(in);
    }

    void searchListsTheRepository()
    {
        const LoopbackHub hub(repos());
        QVERIFY(hub.isRunning());
        Home home;
        CliRun r = runGlosaCli({"models", "search", "en-es"}, env(home, hub));
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY2(r.out.contains("Helsinki-NLP/opus-mt-en-es") && r.out.contains("cc-by-2.0") &&
                     r.out.contains("en es"),
                 r.out.constData());
        QVERIFY2(hub.log().first().contains("/api/models?search=en-es") &&
                     hub.log().first().contains("author=Helsinki-NLP"),
                 qPrintable(hub.log().join('\n')));
        r = runGlosaCli({"models", "search", "en-es", "--json"}, env(home, hub));
        QCOMPARE(r.lines().size(), 1);
        const auto hit = nlohmann::json::parse(r.lines().first().toStdString());
        QCOMPARE(hit["id"], nlohmann::json("Helsinki-NLP/opus-mt-en-es"));
        QCOMPARE(hit["languages"], nlohmann::json::array({"en", "es"}));
        QCOMPARE(hit["downloads"], nlohmann::json(1234));
        // Nothing found is not an error, but says so.
        r = runGlosaCli({"models", "search", "xx-yy"}, env(home, hub));
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.err.contains("nothing found"), r.err.constData());
    }

    void getInstallsAModelThatTranslatesAsTransformers()
    {
        const LoopbackHub hub(repos());
        QVERIFY(hub.isRunning());
        Home home;
        const CliRun r = runGlosaCli({"models", "get", kRepo, "--float32"}, env(home, hub));
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY2(r.out.startsWith("installed opus-mt-en-es from Helsinki-NLP/opus-mt-en-es"),
                 r.out.constData());
        QCOMPARE(installedIds(home), QStringList{"opus-mt-en-es"});
        // Named after its repository, which model.json records with the commit.
        const CliRun listed = runGlosaCli({"models", "--json"}, env(home, hub));
        QVERIFY2(listed.out.contains("\"name\":\"OPUS-MT en→es (Helsinki-NLP)\""),
                 listed.out.constData());
        QDirIterator manifests(home.data(), {QStringLiteral("model.json")}, QDir::Files,
                               QDirIterator::Subdirectories);
        QFile manifest(manifests.next());
        QVERIFY(manifest.open(QIODevice::ReadOnly));
        const auto json = nlohmann::json::parse(manifest.readAll().toStdString());
        QCOMPARE(json["imported_from"]["repo"], nlohmann::json("Helsinki-NLP/opus-mt-en-es"));
        QCOMPARE(json["imported_from"]["commit"].get<std::string>().size(), std::size_t(40));
        // Only what the importer reads was fetched, weights through the CDN, without a token.
        const QStringList log = hub.log();
        QVERIFY2(log.filter("/cdn/").size() == 1 && log.filter("host=localhost").size() == 1,
                 qPrintable(log.join('\n')));
        QVERIFY(log.filter("auth=yes").isEmpty());
        // The downloaded files are gone after a good import.
        QVERIFY2(cached(home).isEmpty(), qPrintable(cached(home).join('\n')));
        checkTranslations(home, hub, QStringLiteral("opus-mt-en-es"));
    }

    void keepFilesKeepsTheVerifiedDownload()
    {
        const LoopbackHub hub(repos());
        Home home;
        CliRun r = runGlosaCli({"models", "get", kRepo, "--keep-files", "--id", "kept"},
                               env(home, hub));
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QStringList files = cached(home);
        QVERIFY2(files.filter(QRegularExpression("/models--Helsinki-NLP--opus-mt-en-es/[0-9a-f]{40}/"
                                                 "model.safetensors$"))
                         .size() == 1,
                 qPrintable(files.join('\n')));
        // A second get of the same commit downloads nothing again.
        hub.clearLog();
        r = runGlosaCli({"models", "get", kRepo, "--id", "again"}, env(home, hub));
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY2(hub.log().filter("/resolve/").isEmpty(), qPrintable(hub.log().join('\n')));
    }

    void aWrongChecksumInstallsNothing()
    {
        const LoopbackHub hub(repos(), {"--corrupt", "model.safetensors"});
        Home home;
        const CliRun r = runGlosaCli({"models", "get", kRepo}, env(home, hub));
        QCOMPARE(r.exitCode, 6);
        QVERIFY2(r.err.contains("model.safetensors: SHA-256 mismatch") &&
                     r.err.contains("the file was deleted"),
                 r.err.constData());
        QVERIFY(installedIds(home).isEmpty());
        QVERIFY2(cached(home).filter("model.safetensors").isEmpty(),
                 qPrintable(cached(home).join('\n')));
    }

    void aDroppedConnectionResumesWithRange()
    {
        const LoopbackHub hub(repos(), {"--drop-after", "1000000"});
        Home home;
        const CliRun r = runGlosaCli({"models", "get", kRepo, "--float32"}, env(home, hub));
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QStringList cdn = hub.log().filter("/cdn/");
        QVERIFY2(cdn.size() == 2 && cdn[0].endsWith("range=-") &&
                     cdn[1].endsWith("range=bytes=1000000-"),
                 qPrintable(hub.log().join('\n')));
        QVERIFY(!hub.log().filter("DROPPED after 1000000").isEmpty());
        checkTranslations(home, hub, QStringLiteral("opus-mt-en-es"));
    }

    void aServerThatIgnoresRangeGetsARestart()
    {
        const LoopbackHub hub(repos(), {"--drop-after", "1000000", "--ignore-range"});
        Home home;
        const CliRun r = runGlosaCli({"models", "get", kRepo}, env(home, hub));
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QCOMPARE(installedIds(home), QStringList{"opus-mt-en-es"});
    }

    void notFoundAndRefusedSayWhy()
    {
        const LoopbackHub hub(repos(), {"--token", "hf_secret"});
        Home home;
        CliRun r = runGlosaCli({"models", "get", "Helsinki-NLP/opus-mt-xx-yy"}, env(home, hub));
        QCOMPARE(r.exitCode, 4);
        QVERIFY2(r.err.contains("not found"), r.err.constData());
        r = runGlosaCli({"models", "get", kRepo}, env(home, hub));
        QCOMPARE(r.exitCode, 9);
        QVERIFY2(r.err.contains("HF_TOKEN"), r.err.constData());
        QVERIFY(installedIds(home).isEmpty());
        r = runGlosaCli({"models", "get", kRepo, "--revision", "v9"},
                        env(home, hub, {{"HF_TOKEN", "hf_secret"}}));
        QCOMPARE(r.exitCode, 4);
        // With the token: installed, and the token never reached the CDN's host.
        hub.clearLog();
        r = runGlosaCli({"models", "get", kRepo}, env(home, hub, {{"HF_TOKEN", "hf_secret"}}));
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QStringList log = hub.log();
        QVERIFY2(log.filter("host=127.0.0.1").filter("auth=no").isEmpty() &&
                     log.filter("host=localhost").filter("auth=yes").isEmpty() &&
                     log.filter("TOKEN SENT TO CDN").isEmpty() &&
                     !log.filter("host=localhost").isEmpty(),
                 qPrintable(log.join('\n')));
        // Not a repository id at all: refused before any request.
        hub.clearLog();
        r = runGlosaCli({"models", "get", "../../etc"}, env(home, hub));
        QCOMPARE(r.exitCode, 4);
        QVERIFY(hub.log().isEmpty());
    }

    void offlineSendsNothing()
    {
        const LoopbackHub hub(repos());
        Home home;
        const QList<std::pair<QString, QString>> offline = env(home, hub, {{"HF_HUB_OFFLINE", "1"}});
        CliRun r = runGlosaCli({"models", "get", kRepo}, offline);
        QCOMPARE(r.exitCode, 8);
        QVERIFY2(r.err.contains("HF_HUB_OFFLINE"), r.err.constData());
        r = runGlosaCli({"models", "search", "en-es"}, offline);
        QCOMPARE(r.exitCode, 8);
        QVERIFY2(hub.log().isEmpty(), qPrintable(hub.log().join('\n')));
    }

    void aNetworkErrorSaysSo()
    {
        Home home;
        // A port nothing listens on: the hub's process is gone.
        QString endpoint;
        {
            const LoopbackHub hub(repos());
            endpoint = hub.endpoint();
        }
        const CliRun r = runGlosaCli({"models", "get", kRepo},
                                     {{"XDG_DATA_HOME", home.data()},
                                      {"XDG_CACHE_HOME", home.cache()},
                                      {"HF_ENDPOINT", endpoint}});
        QCOMPARE(r.exitCode, 5);
        QVERIFY2(r.err.contains("refused"), r.err.constData());
    }

    void aFullDiskLeavesNothingAndSaysSo()
    {
        SmallTmpfs disk; // 2 MiB: the fixture's weights are 5.6 MB
        if (!disk.isMounted())
            QSKIP(qPrintable(disk.why()));
        const LoopbackHub hub(repos());
        Home home;
        const CliRun r = runGlosaCli({"models", "get", kRepo},
                                     {{"XDG_DATA_HOME", home.data()},
                                      {"XDG_CACHE_HOME", disk.filePath("cache")},
                                      {"HF_ENDPOINT", hub.endpoint()}});
        QCOMPARE(r.exitCode, 7);
        QVERIFY2(r.err.contains("not enough space"), r.err.constData());
        QVERIFY(installedIds(home).isEmpty());
        QDirIterator it(disk.filePath("cache"), QDir::Files | QDir::Hidden,
                        QDirIterator::Subdirectories);
        QVERIFY(!it.hasNext());
    }

    void ctrlCKeepsThePartialFileAndTheNextGetResumes()
    {
        // 2 MB/s: the 5.6 MB weights take about three seconds, time to interrupt.
        const LoopbackHub hub(repos(), {"--throttle", "2000000"});
        Home home;
        QProcess process;
        prepareGlosaCli(process, env(home, hub));
        process.setArguments({"models", "get", kRepo, "--float32"});
        process.start();
        QVERIFY(process.waitForStarted());
        // Interrupt once part of the weights is on disk.
        QElapsedTimer clock;
        clock.start();
        qint64 partial = 0;
        while (clock.elapsed() < 20000 && partial < 500000) {
            QThread::msleep(50);
            for (const QString &file : cached(home))
                if (file.endsWith("model.safetensors.incomplete"))
                    partial = QFileInfo(file).size();
        }
        QVERIFY2(partial >= 500000, "the download did not start");
        ::kill(pid_t(process.processId()), SIGINT);
        QVERIFY(process.waitForFinished(20000));
        QCOMPARE(process.exitCode(), 130);
        const QByteArray err = process.readAllStandardError();
        QVERIFY2(err.contains("cancelled") && err.contains("resumes"), err.constData());
        QVERIFY(installedIds(home).isEmpty());
        const QStringList left = cached(home).filter("model.safetensors.incomplete");
        QCOMPARE(left.size(), 1);
        const qint64 kept = QFileInfo(left.first()).size();
        QVERIFY(kept >= partial);
        hub.clearLog();
        const CliRun r = runGlosaCli({"models", "get", kRepo, "--float32"}, env(home, hub));
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY2(!hub.log().filter(QStringLiteral("range=bytes=%1-").arg(kept)).isEmpty(),
                 qPrintable(hub.log().join('\n')));
        checkTranslations(home, hub, QStringLiteral("opus-mt-en-es"));
    }
};

QTEST_GUILESS_MAIN(TestCliHub)
#include "tst_cli_hub.moc"
