// glosa-cli in everyday use: the language guard on translate and translate-doc (text in another
// language than the model's source is refused with exit code 3 unless --force-language),
// translate -o OUT, translate-doc never replacing an earlier translation without --overwrite,
// and several documents in one run with --output-dir. The real binary on the toy package
// (tests/data/toy-en-es, English → Spanish) and, where a direction is offered, the bundled models.
#include "tests/support/clirunner.h"
#include "tests/support/testutil.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include <unistd.h>

namespace {

using Run = glosa::test::CliRun;

const QByteArray kSpanish = "¿Dónde está la estación?";
const QByteArray kSpanishDocument =
    "La casa de mi abuela está cerca del río y tiene un jardín muy bonito.\n\n"
    "Mañana vamos a la playa con nuestros amigos, si no llueve por la tarde.\n";

Run runToy(const QStringList &args, const QByteArray &input = {})
{
    return glosa::test::runGlosaCli(
        args,
        {{QStringLiteral("GLOSA_PLUGIN_PATH"),
          QStringLiteral(GLOSA_TEST_PLUGIN_DIR "/translators")},
         {QStringLiteral("GLOSA_MODEL_PATH"), glosa::test::testDataDir() + "/toy-en-es"}},
        input);
}

// The bundled models (English ↔ Spanish among them) with the real plugins.
Run runBundled(const QStringList &args, const QByteArray &input = {})
{
    return glosa::test::runGlosaCli(
        args,
        {{QStringLiteral("GLOSA_PLUGIN_PATH"), QStringLiteral(GLOSA_BINARY_DIR "/plugins")},
         {QStringLiteral("GLOSA_MODEL_PATH"), QStringLiteral(GLOSA_SOURCE_DIR "/resources/models")}},
        input);
}

QByteArray readAll(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

bool writeFile(const QString &path, const QByteArray &bytes)
{
    QFile file(path);
    return file.open(QIODevice::WriteOnly) && file.write(bytes) == bytes.size();
}

QString sampleMd()
{
    return glosa::test::testDataDir() + QStringLiteral("/documents/sample.md");
}

} // namespace

class TestCliEveryday : public QObject
{
    Q_OBJECT
private slots:
    // The reproduction: Spanish given to the default English → Spanish model was translated
    // ("¿Dónde trena la estación de tren?", exit code 0). Now it is refused, and the message
    // names the language and the options that translate it.
    void translateRefusesSpanishForAnEnglishModel()
    {
        if (!QFileInfo::exists(GLOSA_SOURCE_DIR "/resources/models/transformer-general-es-en"))
            QSKIP("the bundled Spanish → English model is not exported");
        const Run run = runBundled({"translate"}, kSpanish + "\n");
        QCOMPARE(run.exitCode, 3);
        QCOMPARE(run.out, QByteArray("\n")); // one line in, one (empty) line out
        QCOMPARE(run.err.count('\n'), 1);
        for (const char *part : {"line 1 looks like Spanish", "translates from English",
                                 "--from es --to en", "--force-language"})
            QVERIFY2(run.err.contains(part), run.err);

        const Run forced = runBundled({"translate", "--force-language"}, kSpanish + "\n");
        QCOMPARE(forced.exitCode, 0);
        QVERIFY(forced.out.trimmed().size() > 0);

        const Run right = runBundled({"translate", "--from", "es", "--to", "en"}, kSpanish + "\n");
        QCOMPARE(right.exitCode, 0);
        QVERIFY2(right.err.isEmpty(), right.err);
        QVERIFY(right.out.trimmed().size() > 0);
    }

    // Line by line: the English lines are translated, the Spanish one is an empty line (an
    // error object under --json), and the exit code is 3 at the end.
    void translateRefusesOnlyTheLinesInAnotherLanguage()
    {
        const QByteArray input = "the cat is big.\n" + kSpanish + "\nhello my friend!\n";
        const Run run = runToy({"translate", "--model", "toy-en-es"}, input);
        QCOMPARE(run.exitCode, 3);
        const QList<QByteArray> lines = run.lines();
        QCOMPARE(lines.size(), 3);
        QCOMPARE(QString::fromUtf8(lines[0]), QStringLiteral("el gato es grande."));
        QVERIFY(lines[1].isEmpty());
        QVERIFY(!lines[2].isEmpty());
        QVERIFY2(run.err.contains("line 2 looks like Spanish"), run.err);
        QVERIFY2(run.err.contains("--force-language"), run.err);

        const Run json = runToy({"translate", "--model", "toy-en-es", "--json"}, input);
        QCOMPARE(json.exitCode, 3);
        const QJsonObject refused = QJsonDocument::fromJson(json.lines().value(1)).object();
        QCOMPARE(refused["source"].toString(), QString::fromUtf8(kSpanish));
        QVERIFY(refused["error"].toString().contains(QStringLiteral("looks like Spanish")));
    }

    // A document in another language is not translated (nothing written), and --force-language
    // translates it.
    void translateDocRefusesADocumentInAnotherLanguage()
    {
        QTemporaryDir dir;
        const QString input = dir.filePath(QStringLiteral("carta.txt"));
        QVERIFY(writeFile(input, kSpanishDocument));
        const QString output = dir.filePath(QStringLiteral("out.txt"));
        const Run run = runToy({"translate-doc", "--model", "toy-en-es", "--quiet", input, "-o",
                                output});
        QCOMPARE(run.exitCode, 3);
        QVERIFY2(run.err.contains(input.toUtf8() + " looks like Spanish"), run.err);
        QVERIFY2(run.err.contains("not translated"), run.err);
        QVERIFY(!QFileInfo::exists(output));

        const Run forced = runToy({"translate-doc", "--model", "toy-en-es", "--quiet",
                                   "--force-language", input, "-o", output});
        QCOMPARE(forced.exitCode, 0);
        QVERIFY(QFileInfo::exists(output));
    }

    // Without -o an earlier translation is never replaced: the second run writes
    // "notes.es (2).md"; --overwrite replaces notes.es.md; -o OUT replaces OUT.
    void translateDocKeepsAnEarlierTranslation()
    {
        QTemporaryDir dir;
        const QString input = dir.filePath(QStringLiteral("notes.md"));
        QVERIFY(QFile::copy(sampleMd(), input));
        const QString earlier = dir.filePath(QStringLiteral("notes.es.md"));
        QVERIFY(writeFile(earlier, "my corrected translation\n"));

        Run run = runToy({"translate-doc", "--model", "toy-en-es", input});
        QCOMPARE(run.exitCode, 0);
        QCOMPARE(readAll(earlier), QByteArray("my corrected translation\n"));
        const QString second = dir.filePath(QStringLiteral("notes.es (2).md"));
        QVERIFY(QFileInfo::exists(second));
        QVERIFY2(run.err.contains(second.toUtf8()), run.err); // the summary names it
        run = runToy({"translate-doc", "--model", "toy-en-es", "--quiet", input});
        QCOMPARE(run.exitCode, 0);
        QVERIFY(QFileInfo::exists(dir.filePath(QStringLiteral("notes.es (3).md"))));

        run = runToy({"translate-doc", "--model", "toy-en-es", "--quiet", "--overwrite", input});
        QCOMPARE(run.exitCode, 0);
        QCOMPARE(readAll(earlier), readAll(second));
        QVERIFY(!QFileInfo::exists(dir.filePath(QStringLiteral("notes.es (4).md"))));

        const QString chosen = dir.filePath(QStringLiteral("chosen.md"));
        QVERIFY(writeFile(chosen, "old\n"));
        run = runToy({"translate-doc", "--model", "toy-en-es", "--quiet", input, "-o", chosen});
        QCOMPARE(run.exitCode, 0);
        QCOMPARE(readAll(chosen), readAll(second));
    }

    // translate FILE -o OUT: the translations go to OUT (nothing on stdout), through a save that
    // replaces OUT once complete; OUT is never an input, however it is named.
    void translateWritesToOutput()
    {
        QTemporaryDir dir;
        const QString input = dir.filePath(QStringLiteral("in.txt"));
        QVERIFY(writeFile(input, "the cat is big.\nhello my friend!\n"));
        const QString output = dir.filePath(QStringLiteral("out.txt"));
        QVERIFY(writeFile(output, "old\n"));
        const Run run = runToy({"translate", "--model", "toy-en-es", input, "-o", output});
        QCOMPARE(run.exitCode, 0);
        QVERIFY(run.out.isEmpty());
        QVERIFY(readAll(output).startsWith("el gato es grande.\n"));
        QCOMPARE(readAll(output).count('\n'), 2);

        QVERIFY(QFile::link(input, dir.filePath(QStringLiteral("link.txt"))));
        QVERIFY(::link(QFile::encodeName(input).constData(),
                       QFile::encodeName(dir.filePath(QStringLiteral("hard.txt"))).constData()) ==
                0);
        QVERIFY(QDir(dir.path()).mkdir(QStringLiteral("sub")));
        for (const QString &same :
             {input, dir.filePath(QStringLiteral("link.txt")),
              dir.filePath(QStringLiteral("hard.txt")), dir.filePath(QStringLiteral("sub/../in.txt"))}) {
            const Run refused = runToy({"translate", "--model", "toy-en-es", input, "-o", same});
            QCOMPARE(refused.exitCode, 2);
            QVERIFY2(refused.err.contains("itself"), refused.err);
            QCOMPARE(readAll(input), QByteArray("the cat is big.\nhello my friend!\n"));
        }
    }

    // Several documents in one run, into --output-dir; one that cannot be read is reported and
    // the others are still translated (exit code 1); -o with several inputs is refused.
    void translateDocTakesSeveralDocuments()
    {
        QTemporaryDir dir;
        const QString a = dir.filePath(QStringLiteral("a.md"));
        const QString b = dir.filePath(QStringLiteral("b.txt"));
        QVERIFY(QFile::copy(sampleMd(), a));
        QVERIFY(writeFile(b, "the cat is big.\n\nhello my friend!\n"));
        const QString out = dir.filePath(QStringLiteral("out/es"));
        Run run = runToy({"translate-doc", "--model", "toy-en-es", "--quiet", a, b,
                          "--output-dir", out});
        QCOMPARE(run.exitCode, 0);
        QVERIFY(QFileInfo::exists(out + QStringLiteral("/a.es.md")));
        QCOMPARE(readAll(out + QStringLiteral("/b.es.txt")),
                 QByteArray("el gato es grande.\n\nhola mi amigo!\n"));

        const QString broken = glosa::test::testDataDir() + QStringLiteral("/documents/corrupt.odt");
        const QString spanish = dir.filePath(QStringLiteral("c.txt"));
        QVERIFY(writeFile(spanish, kSpanishDocument));
        const QString out2 = dir.filePath(QStringLiteral("out2"));
        run = runToy({"translate-doc", "--model", "toy-en-es", "--quiet", broken, spanish, b,
                      "--output-dir", out2});
        QCOMPARE(run.exitCode, 1); // a failure outweighs a refusal
        QVERIFY2(run.err.contains("corrupt.odt"), run.err);
        QVERIFY2(run.err.contains("looks like Spanish"), run.err);
        QCOMPARE(QDir(out2).entryList(QDir::Files), QStringList{"b.es.txt"});

        run = runToy({"translate-doc", "--model", "toy-en-es", a, b, "-o",
                      dir.filePath(QStringLiteral("x.md"))});
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(run.err.contains("--output-dir"), run.err);
    }

    // evaluate: a test set in Spanish is not scored with an English → Spanish model.
    void evaluateRefusesATestSetInAnotherLanguage()
    {
        QTemporaryDir dir;
        const QString tsv = dir.filePath(QStringLiteral("set.tsv"));
        QVERIFY(writeFile(tsv, "¿Dónde está la estación?\tWhere is the station?\n"
                               "Los niños juegan en el jardín detrás de la casa.\tThe children "
                               "play in the garden behind the house.\n"));
        const Run run = runToy({"evaluate", "--model", "toy-en-es", "--test-set", tsv});
        QCOMPARE(run.exitCode, 3);
        QVERIFY2(run.err.contains("the test set looks like Spanish"), run.err);
        QVERIFY(run.out.isEmpty());
        const Run forced =
            runToy({"evaluate", "--model", "toy-en-es", "--test-set", tsv, "--force-language"});
        QCOMPARE(forced.exitCode, 0);
    }
};

QTEST_GUILESS_MAIN(TestCliEveryday)
#include "tst_cli_everyday.moc"
