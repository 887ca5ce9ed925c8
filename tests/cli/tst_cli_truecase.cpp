// Truecasing through the real glosa-cli and the bundled default en→es model: a capitalised first
// word ("Hello!", "Teacher") is translated as its lower-case form is, capital restored, where the
// model read as typed invents a word ("¡Holalo!"); --no-truecase gives the model's own reading
// back; a name keeps its capital.
#include "tests/support/clirunner.h"

#include <QtTest>

namespace {

glosa::test::CliRun translate(const QStringList &extra, const QByteArray &input)
{
    // --from/--to: the direction's default model, the one a new user gets.
    return glosa::test::runGlosaCli(
        QStringList{"translate", "--from", "en", "--to", "es"} + extra,
        {{QStringLiteral("GLOSA_MODEL_PATH"), QStringLiteral(GLOSA_SOURCE_DIR "/resources/models")}},
        input);
}

// `text` with its first letter (after "¡", "¿") upper-cased.
QString capitalised(QString text)
{
    for (qsizetype i = 0; i < text.size(); ++i)
        if (text[i].isLetterOrNumber()) {
            text[i] = text[i].toUpper();
            break;
        }
    return text;
}

} // namespace

class TestCliTruecase : public QObject
{
    Q_OBJECT
private slots:
    void capitalisedWordAsItsLowerCaseForm()
    {
        const QByteArray input = "Hello!\nhello!\nTeacher\nteacher\nMadrid\n";
        const glosa::test::CliRun run = translate({}, input);
        QCOMPARE(run.exitCode, 0);
        const QList<QByteArray> lines = run.lines();
        QCOMPARE(lines.size(), 5);
        const auto line = [&](int i) { return QString::fromUtf8(lines[i]); };
        qInfo("Hello! -> %s, hello! -> %s, Teacher -> %s, teacher -> %s, Madrid -> %s",
              lines[0].constData(), lines[1].constData(), lines[2].constData(),
              lines[3].constData(), lines[4].constData());
        QCOMPARE(line(0), capitalised(line(1)));
        QCOMPARE(line(2), capitalised(line(3)));
        QVERIFY2(line(2) != line(3), "the capital was not restored");
        QVERIFY2(line(4).contains("Madrid"), lines[4]);

        // Read as typed, the capitalised words are taken for names: they come out as something
        // other than the translations of "hello!" and "teacher" ("¡Holalo!", "Instruido").
        const glosa::test::CliRun typed = translate({"--no-truecase"}, "Hello!\nTeacher\n");
        QCOMPARE(typed.exitCode, 0);
        QCOMPARE(typed.lines().size(), 2);
        QVERIFY2(QString::fromUtf8(typed.lines()[0]) != line(0), typed.out);
        QVERIFY2(QString::fromUtf8(typed.lines()[1]) != line(2), typed.out);
    }
};

QTEST_GUILESS_MAIN(TestCliTruecase)
#include "tst_cli_truecase.moc"
