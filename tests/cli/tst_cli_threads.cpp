// How many threads glosa-cli decodes with (app/core/platform/openmpsetup.h), through the real
// binary: with no OpenMP settings of the user's it bounds OpenMP's spinning and takes the cores
// other programs leave idle; OMP_WAIT_POLICY=passive keeps one thread; GLOSA_THREADS fixes the
// count. Every count translates to the same words.
#include "tests/support/clirunner.h"

#include <QtTest>

namespace {

using Env = QList<std::pair<QString, QString>>;

// glosa-cli with `env` set and, unlike ctest's environment, no OpenMP settings but those of `env`.
glosa::test::CliRun runCli(const QStringList &args, const Env &env, const QByteArray &input = {})
{
    return glosa::test::runGlosaCli(
        args, env, input, 300000,
        {QStringLiteral("OMP_WAIT_POLICY"), QStringLiteral("GOMP_SPINCOUNT")});
}

QByteArray threadsLine(const Env &env)
{
    const glosa::test::CliRun run = runCli({QStringLiteral("--version")}, env);
    if (run.exitCode != 0 || run.lines().size() < 2)
        return "glosa-cli --version failed: " + run.err;
    return run.lines().at(1);
}

} // namespace

class TestCliThreads : public QObject
{
    Q_OBJECT
private slots:
    void versionSaysHowItChose()
    {
        const QByteArray automatic = threadsLine({});
        QVERIFY2(automatic.startsWith("inference threads: the cores other programs leave idle ("),
                 automatic);
        QVERIFY2(automatic.contains("pauses before they sleep (GOMP_SPINCOUNT)"), automatic);

        const QByteArray passive = threadsLine({{"OMP_WAIT_POLICY", "passive"}});
        QVERIFY2(passive.startsWith("inference threads: 1 (OMP_WAIT_POLICY=passive"), passive);

        const QByteArray fixed = threadsLine({{"GLOSA_THREADS", "3"}});
        QVERIFY2(fixed.startsWith("inference threads: 3 (GLOSA_THREADS)"), fixed);

        // The user's own spin count is kept, not recalibrated.
        const QByteArray ownSpin = threadsLine({{"GOMP_SPINCOUNT", "777"}});
        QVERIFY2(ownSpin.contains("spin 777 pauses"), ownSpin);
    }

    void everyThreadCountTranslatesAlike()
    {
        const QByteArray input = "The weather is nice today.\nWhere is the station?\n"
                                 "I would like a cup of coffee, please.\nShe reads every night.\n";
        const QStringList args{"translate", "--from", "en", "--to", "es", "--strategy", "beam"};
        const Env models{{"GLOSA_MODEL_PATH", GLOSA_SOURCE_DIR "/resources/models"}};
        const glosa::test::CliRun one =
            runCli(args, models + Env{{"OMP_WAIT_POLICY", "passive"}}, input);
        QCOMPARE(one.exitCode, 0);
        QCOMPARE(one.lines().size(), 4);
        const glosa::test::CliRun two = runCli(args, models + Env{{"GLOSA_THREADS", "2"}}, input);
        QCOMPARE(two.exitCode, 0);
        QCOMPARE(two.out, one.out);
        const glosa::test::CliRun automatic = runCli(args, models, input);
        QCOMPARE(automatic.exitCode, 0);
        QCOMPARE(automatic.out, one.out);
    }
};

QTEST_GUILESS_MAIN(TestCliThreads)
#include "tst_cli_threads.moc"
