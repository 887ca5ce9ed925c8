// `glosa-cli models import|default|remove` as a user runs them, on the real glosa-cli with a
// private models folder: the MarianMT fixture of ../shared imported, listed, translating,
// chosen as the default for en→es, removed; what must be refused is refused with a message.
// Skips with a message when ../shared is absent.
#include "tests/support/clirunner.h"
#include "tests/support/testutil.h"

#include <nlohmann/json.hpp>

#include <QDirIterator>
#include <QTemporaryDir>
#include <QtTest>

#include <fstream>

using namespace glosa::test;

class TestCliModels : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_data; // XDG_DATA_HOME: the user's models folder lives under it
    QString m_fixture;

    CliRun run(const QStringList &args, const QByteArray &input = {})
    {
        return runGlosaCli(args, {{QStringLiteral("XDG_DATA_HOME"), m_data.path()}}, input);
    }

private slots:
    void initTestCase()
    {
        m_fixture =
            QDir::cleanPath(sharedDataDir() + QStringLiteral("/../fixtures/marian-tiny-en-es"));
        if (!QFileInfo::exists(m_fixture + "/reference.json"))
            QSKIP(qPrintable(m_fixture + " is absent (it lives in ../shared)"));
        QVERIFY(m_data.isValid());
    }

    void importTranslateDefaultRemove()
    {
        std::ifstream in((m_fixture + "/reference.json").toStdString());
        const nlohmann::json reference = nlohmann::json::parse(in);
        const nlohmann::json &station = reference["cases"][1]; // "Where is the train station?"

        CliRun r =
            run({"models", "import", m_fixture + "/bin", "--id", "fixture-en-es", "--float32"});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY2(r.out.startsWith("imported fixture-en-es into "), r.out.constData());

        r = run({"models", "--json"});
        QCOMPARE(r.exitCode, 0);
        bool listed = false;
        for (const QByteArray &line : r.lines()) {
            const auto model = nlohmann::json::parse(line.toStdString());
            if (model["id"] == "fixture-en-es") {
                listed = true;
                QCOMPARE(model["status"], nlohmann::json("ok"));
                QCOMPARE(model["source_language"], nlohmann::json("en"));
                QCOMPARE(model["target_language"], nlohmann::json("es"));
                QCOMPARE(model["default"], nlohmann::json(false)); // a bundled one is
            }
        }
        QVERIFY(listed);

        r = run({"translate", "--model", "fixture-en-es", "--strategy", "greedy"},
                QByteArray::fromStdString(station["source"].get<std::string>() + "\n"));
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QCOMPARE(r.out.trimmed().toStdString(), station["greedy"]["text"].get<std::string>());
        // The package's own defaults: the generation config's beam 4.
        r = run({"translate", "--model", "fixture-en-es"},
                QByteArray::fromStdString(station["source"].get<std::string>() + "\n"));
        QCOMPARE(r.out.trimmed().toStdString(), station["beam4"]["text"].get<std::string>());

        // Use as default for en→es: translate without --model picks it over the bundled ones.
        r = run({"models", "default", "fixture-en-es"});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        r = run({"translate", "--from", "en", "--to", "es", "--strategy", "greedy"},
                QByteArray::fromStdString(station["source"].get<std::string>() + "\n"));
        QCOMPARE(r.out.trimmed().toStdString(), station["greedy"]["text"].get<std::string>());
        r = run({"models"});
        const QStringList rows = QString::fromUtf8(r.out).split('\n').filter("fixture-en-es");
        QVERIFY2(rows.size() == 1 && rows[0].contains("(default)"), r.out.constData());

        // The fixture has no placeholder pieces: a URL it garbles is named on stderr and in
        // --json's "missing_spans" (it keeps none of the 11 URLs of tools/span_survival.py's
        // cases); a sentence without spans has none.
        const QString url = QStringLiteral("https://example.com/downloads/glosa-2.1.tar.gz");
        r = run({"translate", "--model", "fixture-en-es", "--json"},
                QStringLiteral("Download the installer from %1 and verify it.\nWhy?\n")
                    .arg(url)
                    .toUtf8());
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QList<QByteArray> lines = r.lines();
        QCOMPARE(lines.size(), 2);
        const auto first = nlohmann::json::parse(lines[0].toStdString());
        QVERIFY2(first["translation"].get<std::string>().find(url.toStdString()) ==
                     std::string::npos,
                 lines[0].constData());
        QCOMPARE(first["missing_spans"], nlohmann::json::array({url.toStdString()}));
        QVERIFY2(r.err.contains("the translation lost \"" + url.toUtf8() + "\""),
                 r.err.constData());
        QCOMPARE(nlohmann::json::parse(lines[1].toStdString())["missing_spans"],
                 nlohmann::json::array());
        QVERIFY2(!r.err.contains("--keep"), r.err.constData());
        // A term of --keep is kept the same way, and the warning names --keep when
        // one of its terms is lost (it named numbers, URLs and code only).
        r = run({"translate", "--model", "fixture-en-es", "--keep", "Zorblatix"},
                "Zorblatix is here.\n");
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY2(r.err.contains("the translation lost \"Zorblatix\"") &&
                     r.err.contains("the terms of --keep and --keep-file"),
                 r.err.constData());

        // Bundled models cannot be removed; the imported one can, and is gone.
        r = run({"models", "remove", "transformer-en-es"});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("is not an imported model"), r.err.constData());
        r = run({"models", "remove", "fixture-en-es"});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        r = run({"models"});
        QVERIFY(!r.out.contains("fixture-en-es"));
        // It was en→es's default: defaults.json forgets it, so that a later model of the same
        // id does not become the default unasked.
        int defaultsFiles = 0;
        for (QDirIterator it(m_data.path(), {QStringLiteral("defaults.json")}, QDir::Files,
                             QDirIterator::Subdirectories);
             it.hasNext(); ++defaultsFiles) {
            QFile file(it.next());
            QVERIFY(file.open(QIODevice::ReadOnly));
            const QByteArray json = file.readAll();
            QVERIFY2(!json.contains("fixture-en-es"), json.constData());
        }
        QCOMPARE(defaultsFiles, 1);
    }

    void refusedImportsSayWhy()
    {
        QTemporaryDir folder;
        QFile config(folder.filePath("config.json"));
        QVERIFY(config.open(QIODevice::WriteOnly));
        config.write(R"({"model_type": "t5", "d_model": 512})");
        config.close();
        CliRun r = run({"models", "import", folder.path()});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("model_type t5 is not supported; Glosa imports MarianMT"),
                 r.err.constData());
        r = run({"models", "import"});
        QCOMPARE(r.exitCode, 2);
        // A wrong folder (here one with a text file only) is named, with what a model folder
        // holds: not "no model.json in the folder", which says nothing of MarianMT.
        QTemporaryDir wrong;
        QFile notes(wrong.filePath("notes.txt"));
        QVERIFY(notes.open(QIODevice::WriteOnly));
        notes.close();
        r = run({"models", "import", wrong.path()});
        QCOMPARE(r.exitCode, 1);
        for (const char *part : {"is not a model folder", "Glosa package", "model.json",
                                 "MarianMT", "config.json", "model.safetensors",
                                 "pytorch_model.bin", "source.spm", "target.spm", "vocab.json"})
            QVERIFY2(r.err.contains(part), r.err.constData());
        QVERIFY2(r.err.contains(wrong.path().toUtf8()), r.err.constData());
        QVERIFY2(!r.err.contains("no model.json in the folder"), r.err.constData());
        r = run({"models", "import", m_fixture + "/safetensors", "--id", "../escape"});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("not a valid package id"), r.err.constData());
    }
};

QTEST_GUILESS_MAIN(TestCliModels)
#include "tst_cli_models.moc"
