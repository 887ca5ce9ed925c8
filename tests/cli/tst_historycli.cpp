// glosa-cli history ... against a real database, through the real executable.
#include "app/core/history/store.h"
#include "tests/support/clirunner.h"

#include <QJsonDocument>
#include <QTemporaryDir>
#include <QXmlStreamReader>
#include <QtTest>

using namespace glosa;

namespace {

struct Run
{
    int exitCode = -1;
    QString out;
    QString err;
};

Run cli(const QStringList &args)
{
    const test::CliRun run = test::runGlosaCli(args, {}, {}, 30000);
    return {run.exitCode, QString::fromUtf8(run.out), QString::fromUtf8(run.err)};
}

} // namespace

class TestHistoryCli : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    QString m_db;
    qint64 m_cat = 0;
    qint64 m_morning = 0;

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_db = m_dir.filePath(QStringLiteral("sub/history.sqlite"));
        HistoryStore store;
        store.open(m_db);
        HistoryEntry e;
        e.modelId = QStringLiteral("transformer-en-es");
        e.sourceLanguage = QStringLiteral("en");
        e.targetLanguage = QStringLiteral("es");
        e.time = QDateTime(QDate(2026, 5, 1), QTime(9, 0), Qt::UTC);
        e.inputText = QStringLiteral("The cat sleeps.");
        e.outputs.append({.text = QStringLiteral("El gato duerme."), .score = -0.5});
        m_cat = store.addEntry(e);
        e.time = QDateTime(QDate(2026, 5, 2), QTime(9, 0), Qt::UTC);
        e.inputText = QStringLiteral("Good\nmorning.");
        e.outputs = {{.text = QStringLiteral("Buenos días.")}};
        m_morning = store.addEntry(e);
        HistoryEntry c;
        c.kind = HistoryKind::Caption;
        c.modelId = QStringLiteral("captioner");
        c.time = QDateTime(QDate(2026, 5, 3), QTime(9, 0), Qt::UTC);
        c.outputs = {{.text = QStringLiteral("a cat on a sofa")}};
        store.addEntry(c);
    }

    void list()
    {
        const Run r = cli(
            {QStringLiteral("--history"), m_db, QStringLiteral("history"), QStringLiteral("list")});
        QCOMPARE(r.exitCode, 0);
        const QStringList lines = r.out.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 3);
        QVERIFY(lines[0].contains(QLatin1String("\tcaption\tcaptioner\t")));
        QCOMPARE(lines[1], QStringLiteral("%1\t2026-05-02 09:00:00\ttranslation\t"
                                          "transformer-en-es\tGood morning.\tBuenos días.")
                               .arg(m_morning));
        // Filters and paging; --history also works after the command.
        const Run page =
            cli({QStringLiteral("history"), QStringLiteral("list"), QStringLiteral("--kind"),
                 QStringLiteral("translation"), QStringLiteral("--limit"), QStringLiteral("1"),
                 QStringLiteral("--history=") + m_db});
        QCOMPARE(page.exitCode, 0);
        QVERIFY(page.out.startsWith(QString::number(m_morning) + QLatin1Char('\t')));
        QCOMPARE(page.out.count(QLatin1Char('\n')), 1);
        QVERIFY(page.err.contains(QLatin1String("--offset 1")));
        const Run until =
            cli({QStringLiteral("--history"), m_db, QStringLiteral("history"),
                 QStringLiteral("list"), QStringLiteral("--until"), QStringLiteral("2026-05-02")});
        QVERIFY(until.out.startsWith(QString::number(m_cat) + QLatin1Char('\t')));
        QCOMPARE(until.out.count(QLatin1Char('\n')), 1);
    }

    void search()
    {
        const Run r = cli({QStringLiteral("--history"), m_db, QStringLiteral("history"),
                           QStringLiteral("search"), QStringLiteral("cat")});
        QCOMPARE(r.exitCode, 0);
        const QStringList lines = r.out.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 2);
        QVERIFY2(lines[0].endsWith(QLatin1String("\ta [cat] on a sofa")), qPrintable(lines[0]));
        QVERIFY(lines[1].endsWith(QLatin1String("\tThe [cat] sleeps.")));
        const Run none = cli({QStringLiteral("--history"), m_db, QStringLiteral("history"),
                              QStringLiteral("search"), QStringLiteral("dias"),
                              QStringLiteral("--kind"), QStringLiteral("caption")});
        // Nothing found is said on stderr and is exit code 1, as grep does; stdout stays empty.
        QCOMPARE(none.exitCode, 1);
        QCOMPARE(none.out, QString());
        QVERIFY2(none.err.contains(QLatin1String("no entries match 'dias'")), qPrintable(none.err));
    }

    void exportFormats()
    {
        const QString tmx = m_dir.filePath(QStringLiteral("out.tmx"));
        const Run r = cli({QStringLiteral("--history"), m_db, QStringLiteral("history"),
                           QStringLiteral("export"), QStringLiteral("--format"),
                           QStringLiteral("tmx"), QStringLiteral("-o"), tmx});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.err.contains(QLatin1String("exported 2 records")));
        QFile file(tmx);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QXmlStreamReader xml(&file);
        int units = 0;
        while (!xml.atEnd()) {
            if (xml.readNext() == QXmlStreamReader::StartElement &&
                xml.name() == QLatin1String("tu"))
                ++units;
        }
        QVERIFY(!xml.hasError());
        QCOMPARE(units, 2);

        const Run jsonl =
            cli({QStringLiteral("--history"), m_db, QStringLiteral("history"),
                 QStringLiteral("export"), QStringLiteral("--format"), QStringLiteral("jsonl")});
        QCOMPARE(jsonl.exitCode, 0);
        const QStringList lines = jsonl.out.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 3);
        QCOMPARE(QJsonDocument::fromJson(lines[0].toUtf8()).object().value("id").toInteger(),
                 m_cat);

        const Run csv =
            cli({QStringLiteral("--history"), m_db, QStringLiteral("history"),
                 QStringLiteral("export"), QStringLiteral("--format"), QStringLiteral("csv"),
                 QStringLiteral("--model"), QStringLiteral("captioner")});
        QCOMPARE(csv.exitCode, 0);
        QCOMPARE(csv.out.count(QLatin1String("\r\n")), 2);

        const Run bad =
            cli({QStringLiteral("--history"), m_db, QStringLiteral("history"),
                 QStringLiteral("export"), QStringLiteral("--format"), QStringLiteral("xml")});
        QCOMPARE(bad.exitCode, 2);
    }

    void usageErrorsCreateNothing()
    {
        const QString fresh = m_dir.filePath(QStringLiteral("never.sqlite"));
        QCOMPARE(cli({QStringLiteral("--history"), fresh, QStringLiteral("history"),
                      QStringLiteral("lsit")})
                     .exitCode,
                 2);
        QCOMPARE(
            cli({QStringLiteral("history"), QStringLiteral("list"), QStringLiteral("--history")})
                .exitCode,
            2);
        QVERIFY(!QFileInfo::exists(fresh));
    }

    // Last: it changes the database.
    void starDeleteClear()
    {
        const QStringList base{QStringLiteral("--history"), m_db, QStringLiteral("history")};
        QCOMPARE(cli(base + QStringList{"star", QString::number(m_cat)}).exitCode, 0);
        const Run starred = cli(base + QStringList{"list", "--starred"});
        QVERIFY(starred.out.startsWith(QString::number(m_cat) + QLatin1Char('\t')));
        QCOMPARE(starred.out.count(QLatin1Char('\n')), 1);
        QCOMPARE(cli(base + QStringList{"show", QString::number(m_cat)}).exitCode, 0);
        QCOMPARE(cli(base + QStringList{"delete", QString::number(m_morning)}).exitCode, 0);
        QCOMPARE(cli(base + QStringList{"delete", QString::number(m_morning)}).exitCode, 1);
        QCOMPARE(cli(base + QStringList{"clear"}).exitCode, 2);
        QCOMPARE(cli(base + QStringList{"list"}).out.count(QLatin1Char('\n')), 2);
        const Run cleared = cli(base + QStringList{"clear", "--yes"});
        QCOMPARE(cleared.exitCode, 0);
        QVERIFY(cleared.err.contains(QLatin1String("removed 2 entries")));
        QCOMPARE(cli(base + QStringList{"list"}).out, QString());
    }
};

QTEST_GUILESS_MAIN(TestHistoryCli)
#include "tst_historycli.moc"
