// A multi-target MarianMT model through the real glosa-cli, with a private models folder: the
// committed fixture tests/data/marian-multi (opus-mt-en-ROMANCE's layout; its outputs are checked
// against an independent reference in tests/parity/tst_parity_marianmulti.cpp) imported, listed
// once for each target language, and chosen by --to: with --model, by direction, by a code typed
// before the text; ISO 639-1 and 639-3 alike.
#include "tests/support/clirunner.h"
#include "tests/support/testutil.h"

#include <nlohmann/json.hpp>

#include <QTemporaryDir>
#include <QtTest>

using namespace glosa::test;

class TestCliMultiTarget : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_data; // XDG_DATA_HOME: the user's models folder lives under it

    CliRun run(const QStringList &args, const QByteArray &input = {})
    {
        return runGlosaCli(args, {{QStringLiteral("XDG_DATA_HOME"), m_data.path()}}, input);
    }
    QByteArray translate(const QStringList &args, const QByteArray &input = "Hello world.\n")
    {
        const CliRun r = run(QStringList{"translate", "--strategy", "greedy"} + args, input);
        if (r.exitCode != 0)
            qWarning("%s", r.err.constData());
        return r.exitCode == 0 ? r.out.trimmed() : QByteArray("failed: ") + r.err;
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_data.isValid());
        const CliRun r = run(
            {"models", "import", testDataDir() + "/marian-multi", "--id", "multi", "--float32"});
        QVERIFY2(r.exitCode == 0, r.err.constData());
    }

    void listedOnceForEachTarget()
    {
        const CliRun r = run({"models", "--json"});
        QCOMPARE(r.exitCode, 0);
        QStringList targets;
        for (const QByteArray &line : r.lines()) {
            const auto model = nlohmann::json::parse(line.toStdString());
            if (model["id"].get<std::string>().rfind("multi@", 0) != 0)
                continue;
            QCOMPARE(model["source_language"], nlohmann::json("en"));
            QCOMPARE(model["id"].get<std::string>(),
                     "multi@" + model["target_language"].get<std::string>());
            targets << QString::fromStdString(model["target_language"].get<std::string>());
        }
        QCOMPARE(targets, (QStringList{"es", "fr"}));
    }

    void toPicksTheLanguageCode()
    {
        const QByteArray french = translate({"--model", "multi", "--to", "fr"});
        const QByteArray spanish = translate({"--model", "multi", "--to", "es"});
        QVERIFY(!french.startsWith("failed") && !spanish.startsWith("failed"));
        QVERIFY2(french != spanish, french.constData());
        QCOMPARE(translate({"--model", "multi", "--to", "fra"}), french);
        QCOMPARE(translate({"--from", "en", "--to", "fr"}), french);
        QCOMPARE(translate({"--from", "eng", "--to", "fra"}), french);
        QCOMPARE(translate({"--model", "multi@fr"}), french);
        // en→es has the bundled default; the multi-target model is that direction's once chosen.
        QVERIFY(run({"models", "default", "multi@es"}).exitCode == 0);
        QCOMPARE(translate({"--from", "en", "--to", "es"}), spanish);
        // Typed as MarianTokenizer users type it: the same, whatever the model's default.
        QCOMPARE(translate({"--model", "multi"}, ">>fra<< Hello world.\n"), french);
        QCOMPARE(translate({"--model", "multi", "--to", "es"}, ">>fra<< Hello world.\n"), french);
    }

    void unknownTargetIsRefused()
    {
        const CliRun r = run({"translate", "--model", "multi", "--to", "de"}, "Hello.\n");
        QVERIFY(r.exitCode != 0);
        QVERIFY2(r.err.contains("does not translate into de (it translates into es fr)"),
                 r.err.constData());
    }
};

QTEST_GUILESS_MAIN(TestCliMultiTarget)
#include "tst_cli_multitarget.moc"
