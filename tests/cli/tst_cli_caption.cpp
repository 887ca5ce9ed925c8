// glosa-cli caption end to end: the real binary (QProcess), plugin registry, package loader,
// image loader, backbone and search, on the tiny random captioner of tests/data/parity (whose
// PyTorch greedy caption is in its golden.json).
#include "app/core/inference/translationrunner.h"
#include "tests/support/clirunner.h"
#include "tests/support/testutil.h"

#include <QCryptographicHash>
#include <QFile>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

namespace {

using Run = glosa::test::CliRun;

QString tinyPackage()
{
    return glosa::test::testDataDir() + QStringLiteral("/parity/captioner-tiny");
}

// `command` "caption" or "history"; --history may stand anywhere in `args`.
Run runCli(const QStringList &args, const QString &command = QStringLiteral("caption"))
{
    return glosa::test::runGlosaCli(QStringList{command} + args,
                                    {{QStringLiteral("GLOSA_PLUGIN_PATH"),
                                      QStringLiteral(GLOSA_BINARY_DIR "/plugins")},
                                     {QStringLiteral("GLOSA_MODEL_PATH"), tinyPackage()},
                                     {QStringLiteral("OMP_NUM_THREADS"), QStringLiteral("1")}},
                                    {}, 120000);
}

QJsonObject golden()
{
    QFile f(tinyPackage() + QStringLiteral("/golden.json"));
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return QJsonDocument::fromJson(f.readAll()).object();
}

} // namespace

class TestCliCaption : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void plainCaption();
    void json();
    void tidyCaption_data();
    void tidyCaption();
    void brokenImageAmongGoodOnes();
    void saveHistoryRecordsEachImage();
    void usageErrors_data();
    void usageErrors();

private:
    QTemporaryDir m_dir;
    QString m_png; // the golden 224x224 image, written losslessly
};

void TestCliCaption::initTestCase()
{
    QVERIFY(m_dir.isValid());
    QFile raw(tinyPackage() + QStringLiteral("/image-224x224.rgb"));
    QVERIFY(raw.open(QIODevice::ReadOnly));
    const QByteArray pixels = raw.readAll();
    QCOMPARE(pixels.size(), 224 * 224 * 3);
    QImage image(reinterpret_cast<const uchar *>(pixels.constData()), 224, 224, 224 * 3,
                 QImage::Format_RGB888);
    m_png = m_dir.filePath(QStringLiteral("golden.png"));
    QVERIFY(image.save(m_png));
}

void TestCliCaption::plainCaption()
{
    const Run run =
        runCli({"--model", tinyPackage(), "--strategy", "greedy", "--max-length", "8", m_png});
    QVERIFY2(run.exitCode == 0, run.err.constData());
    QCOMPARE(run.lines().size(), 1);
    QCOMPARE(QString::fromUtf8(run.lines()[0]),
             glosa::tidyCaption(golden()["greedy"].toObject()["text"].toString()));
}

void TestCliCaption::json()
{
    const Run run = runCli({"--model", tinyPackage(), "--strategy", "beam", "--beam-size", "3",
                            "--n-best", "2", "--max-length", "8", "--json", m_png});
    QVERIFY2(run.exitCode == 0, run.err.constData());
    QCOMPARE(run.lines().size(), 1);
    const QJsonObject o = QJsonDocument::fromJson(run.lines()[0]).object();
    QCOMPARE(o["image"].toString(), m_png);
    QCOMPARE(o["model"].toString(), QStringLiteral("captioner-tiny"));
    QCOMPARE(o["grid"].toArray(), (QJsonArray{7, 7}));
    QCOMPARE(o["hypotheses"].toArray().size(), 2);
    const QJsonArray tokens = o["tokens"].toArray();
    const QJsonArray attention = o["attention"].toArray();
    QVERIFY(!tokens.isEmpty());
    QCOMPARE(attention.size(), tokens.size());
    for (const QJsonValue &row : attention) {
        QCOMPARE(row.toArray().size(), 49);
        double sum = 0.0;
        for (const QJsonValue &v : row.toArray())
            sum += v.toDouble();
        QVERIFY2(std::abs(sum - 1.0) < 1e-3, qPrintable(QString::number(sum)));
    }
    // "caption" is the text as shown; the hypotheses keep the model's own.
    const QString raw = o["hypotheses"].toArray()[0].toObject()["text"].toString();
    QCOMPARE(o["caption"].toString(), glosa::tidyCaption(raw));
    QCOMPARE(o["strategy"].toObject()["beam_size"].toInt(), 3);
}

void TestCliCaption::tidyCaption_data()
{
    QTest::addColumn<QString>("raw");
    QTest::addColumn<QString>("shown");
    QTest::newRow("full stop") << "a dog runs on the grass ."
                               << "A dog runs on the grass.";
    QTest::newRow("commas") << "two men , one dog ."
                            << "Two men, one dog.";
    QTest::newRow("no stop") << "a man rides a bike"
                             << "A man rides a bike";
    QTest::newRow("empty") << ""
                           << "";
    QTest::newRow("only a stop") << " ."
                                 << ".";
}

void TestCliCaption::tidyCaption()
{
    QFETCH(QString, raw);
    QFETCH(QString, shown);
    QCOMPARE(glosa::tidyCaption(raw), shown);
    // Token ranges follow the text: "." still covers the full stop.
    QList<glosa::TokenSpan> tokens;
    const qsizetype stop = raw.lastIndexOf(QLatin1Char('.'));
    if (stop >= 0) {
        tokens.append({1, QStringLiteral("\u2581."), int(stop), int(stop) + 1});
        const QString text = glosa::tidyCaption(raw, &tokens);
        QCOMPARE(text.mid(tokens[0].begin, tokens[0].end - tokens[0].begin), QStringLiteral("."));
    }
}

void TestCliCaption::brokenImageAmongGoodOnes()
{
    const QString text = m_dir.filePath(QStringLiteral("notes.jpg"));
    QFile f(text);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("not a picture\n");
    f.close();
    const Run run = runCli(
        {"--model", tinyPackage(), "--strategy", "greedy", "--max-length", "8", text, m_png});
    QCOMPARE(run.exitCode, 1);
    QCOMPARE(run.lines().size(), 2);
    QVERIFY(run.lines()[0].isEmpty());
    QCOMPARE(QString::fromUtf8(run.lines()[1]),
             glosa::tidyCaption(golden()["greedy"].toObject()["text"].toString()));
    QVERIFY2(run.err.contains(text.toUtf8() + ": not an image Qt can read"), run.err.constData());
}

void TestCliCaption::saveHistoryRecordsEachImage()
{
    QTemporaryDir dir;
    const QString database = dir.filePath(QStringLiteral("history.sqlite"));
    const QString broken = dir.filePath(QStringLiteral("broken.png"));
    QFile f(broken);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("\x89PNG\r\n\x1a\n cut short");
    f.close();
    const QStringList caption = {"--model", tinyPackage(), "--strategy", "greedy",
                                 "--max-length", "8", "--history", database};

    // Without --save-history nothing is recorded (the database is not even created).
    QCOMPARE(runCli(caption + QStringList{m_png}).exitCode, 0);
    QVERIFY(!QFile::exists(database));

    const Run run = runCli(caption + QStringList{"--save-history", m_png, broken});
    QCOMPARE(run.exitCode, 1); // the broken image
    const QString text = glosa::tidyCaption(golden()["greedy"].toObject()["text"].toString());
    QCOMPARE(QString::fromUtf8(run.lines().value(0)), text);

    const Run list = runCli({"--history", database, "list"}, QStringLiteral("history"));
    QCOMPARE(list.exitCode, 0);
    QCOMPARE(list.lines().size(), 1); // the broken image is not recorded
    const Run shown = runCli({"--history", database, "show", "1"}, QStringLiteral("history"));
    QVERIFY2(shown.exitCode == 0, shown.err.constData());
    const QJsonObject entry = QJsonDocument::fromJson(shown.out).object();
    QCOMPARE(entry["kind"].toString(), QStringLiteral("caption"));
    QCOMPARE(entry["modelId"].toString(), QStringLiteral("captioner-tiny"));
    const QJsonObject image = entry["image"].toObject();
    QCOMPARE(image["path"].toString(), m_png);
    QFile png(m_png);
    QVERIFY(png.open(QIODevice::ReadOnly));
    QCOMPARE(image["sha256"].toString(),
             QString::fromLatin1(
                 QCryptographicHash::hash(png.readAll(), QCryptographicHash::Sha256).toHex()));
    QVERIFY(!QImage::fromData(QByteArray::fromBase64(image["thumbnailPng"].toString().toLatin1()))
                 .isNull());
    const QJsonArray outputs = entry["outputs"].toArray();
    QCOMPARE(outputs.size(), 1);
    QCOMPARE(outputs[0].toObject()["text"].toString(), text);
    const QJsonObject alignment = outputs[0].toObject()["alignment"].toObject();
    QCOMPARE(alignment["cols"].toInt(), 49); // the 7 x 7 grid
    QVERIFY(alignment["rows"].toInt() > 0);
    QCOMPARE(entry["settings"].toObject()["strategy"].toString(), QStringLiteral("greedy"));
}

void TestCliCaption::usageErrors_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<int>("exitCode");
    QTest::addColumn<QString>("message");
    QTest::newRow("no image") << QStringList{"--model", "captioner-tiny"} << 2 << "no image given";
    QTest::newRow("nothing") << QStringList{} << 2 << "no image given";
    QTest::newRow("bad beam") << QStringList{"--model", "captioner-tiny", "--beam-size", "0",
                                             "x.png"}
                              << 2 << "beam_size = 0";
    QTest::newRow("unknown model") << QStringList{"--model", "nope", "x.png"} << 1 << "no model";
}

void TestCliCaption::usageErrors()
{
    QFETCH(QStringList, args);
    QFETCH(int, exitCode);
    QFETCH(QString, message);
    const Run run = runCli(args);
    QCOMPARE(run.exitCode, exitCode);
    QVERIFY2(run.out.isEmpty(), run.out.constData());
    QVERIFY2(QString::fromUtf8(run.err).contains(message), run.err.constData());
}

QTEST_APPLESS_MAIN(TestCliCaption)
#include "tst_cli_caption.moc"
