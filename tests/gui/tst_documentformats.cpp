// The format table (app/core/documents/formats.cpp) and every list derived from it agree: each
// suffix of the table (names and aliases such as .htm, .xhtml, .markdown) is read as its format
// by readDocument, accepted by the Open dialog's filter, by dropping, and by glosa-cli
// translate-doc; each "writable as" entry is written and read back, what is not in it is refused
// alike by the library and the CLI; and the fuzzers (tests/fuzz) cover every format.
#include "tests/support/clirunner.h"
#include "tests/support/testutil.h"

#include "app/core/appcontext.h"
#include "app/core/documents/formats.h"
#include "app/gui/views/documentsview.h"

#include <QDragEnterEvent>
#include <QFile>
#include <QMimeData>
#include <QPushButton>
#include <QSet>
#include <QDir>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QtTest>

using namespace glosa;
using namespace glosa::documents;

namespace {

QString fixture(const QString &name)
{
    return glosa::test::testDataDir() + QStringLiteral("/documents/") + name;
}

// Every suffix of the table with the format it names, in upper case too.
QList<std::pair<QString, QString>> everySuffix()
{
    QList<std::pair<QString, QString>> suffixes;
    for (const DocumentFormat &row : documentFormats())
        for (const QString &suffix : QStringList{row.name} + row.aliases)
            suffixes << std::pair{suffix, row.name} << std::pair{suffix.toUpper(), row.name};
    return suffixes;
}

glosa::test::CliRun translateDoc(const QString &in, const QString &out)
{
    // A model that does not exist: the command reads the document first, then stops at the model.
    return glosa::test::runGlosaCli({QStringLiteral("translate-doc"), QStringLiteral("--model"),
                                     QStringLiteral("no-such-model"), in, QStringLiteral("-o"),
                                     out},
                                    {}, {}, 60000);
}

} // namespace

class TestDocumentFormats : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    void tableIsConsistent()
    {
        QSet<QString> suffixes, names;
        for (const DocumentFormat &row : documentFormats())
            names << row.name;
        for (const DocumentFormat &row : documentFormats()) {
            for (const QString &suffix : QStringList{row.name} + row.aliases) {
                QVERIFY2(!suffix.isEmpty() && suffix == suffix.toLower(), qPrintable(suffix));
                QVERIFY2(!suffixes.contains(suffix), qPrintable(suffix + " names two formats"));
                suffixes << suffix;
            }
            QVERIFY2(row.description, qPrintable(row.name));
            QVERIFY2(row.parse || row.readFile, qPrintable(row.name + " has no reader"));
            QVERIFY2(!row.writableAs.empty(), qPrintable(row.name));
            QStringList targets;
            for (const WriteAs &way : row.writableAs) {
                QVERIFY2(names.contains(way.format) && way.write,
                         qPrintable(row.name + " → " + way.format));
                targets << way.format;
            }
            // Every document can be saved as its translated text.
            QVERIFY2(targets.contains(QStringLiteral("txt")), qPrintable(row.name));
            // A streamed export (DocumentWorker, glosa-cli) writes chunks as they were read or as
            // plain text, nothing else.
            if (row.streamable)
                for (const QString &target : targets)
                    QVERIFY2(target == row.name || target == QLatin1String("txt"),
                             qPrintable(row.name + " is streamed but written as " + target));
            QCOMPARE(writableFormats(row.name), targets);
            QCOMPARE(isStreamable(row.name), row.streamable);
            QCOMPARE(findFormat(row.name), &row);
        }
        const QStringList supported = supportedFormats();
        QCOMPARE(QSet<QString>(supported.begin(), supported.end()), suffixes);
        QCOMPARE(supported.size(), suffixes.size());
        QCOMPARE(findFormat(QStringLiteral("htm")), nullptr); // aliases are suffixes only
    }

    void aliasesAreReadAsTheirFormat()
    {
        // Pinned: .htm, .xhtml and .markdown are not formats of their own.
        QCOMPARE(formatForPath(QStringLiteral("/a/page.XHTML")), QStringLiteral("html"));
        QCOMPARE(formatForPath(QStringLiteral("page.htm")), QStringLiteral("html"));
        QCOMPARE(formatForPath(QStringLiteral("notes.markdown")), QStringLiteral("md"));
        QCOMPARE(formatForPath(QStringLiteral("book.epub")), QString());
        QCOMPARE(formatForPath(QStringLiteral("docx")), QString()); // no suffix
        QVERIFY(supportedFormats().contains(QStringLiteral("xhtml")));
    }

    void everySuffixIsReadAsItsFormat_data()
    {
        QTest::addColumn<QString>("suffix");
        QTest::addColumn<QString>("format");
        for (const auto &[suffix, format] : everySuffix())
            QTest::newRow(qPrintable(suffix)) << suffix << format;
    }
    void everySuffixIsReadAsItsFormat()
    {
        QFETCH(QString, suffix);
        QFETCH(QString, format);
        QCOMPARE(formatForPath(QStringLiteral("x.") + suffix), format);
        const QString path = m_dir.filePath(QStringLiteral("read.") + suffix);
        QFile::remove(path);
        QVERIFY(QFile::copy(fixture(QStringLiteral("sample.") + format), path));
        const Document doc = readDocument(path);
        QCOMPARE(doc.format, format);
        QVERIFY(!doc.segments.empty());
        if (findFormat(format)->parse) {
            QFile file(path);
            QVERIFY(file.open(QIODevice::ReadOnly));
            QCOMPARE(parseDocument(file.readAll(), format).segments.size(), doc.segments.size());
        } else {
            QVERIFY_THROWS_EXCEPTION(DocumentError, parseDocument("x", format));
        }
    }

    void writableAsIsWhatIsWritten_data()
    {
        QTest::addColumn<QString>("from");
        QTest::addColumn<QString>("to");
        QTest::addColumn<bool>("writable");
        for (const DocumentFormat &row : documentFormats())
            for (const DocumentFormat &target : documentFormats())
                for (const QString &suffix : QStringList{target.name} + target.aliases)
                    QTest::addRow("%s as %s", qPrintable(row.name), qPrintable(suffix))
                        << row.name << suffix << writableFormats(row.name).contains(target.name);
    }
    void writableAsIsWhatIsWritten()
    {
        QFETCH(QString, from);
        QFETCH(QString, to);
        QFETCH(bool, writable);
        const Document doc = readDocument(fixture(QStringLiteral("sample.") + from));
        const QString out = m_dir.filePath(from + QStringLiteral("-out.") + to);
        QFile::remove(out);
        if (!writable) {
            QVERIFY_THROWS_EXCEPTION(DocumentError, writeDocument(doc, out));
            QVERIFY(!QFile::exists(out));
            return;
        }
        writeDocument(doc, out);
        const Document back = readDocument(out);
        QCOMPARE(back.format, formatForPath(out));
        QVERIFY(!back.segments.empty());
    }

    // glosa-cli translate-doc takes every suffix the library reads, and refuses the outputs the
    // library refuses, before it loads a model.
    void cliAgrees_data()
    {
        QTest::addColumn<QString>("from");
        QTest::addColumn<QString>("to");
        QTest::addColumn<bool>("writable");
        for (const DocumentFormat &row : documentFormats())
            for (const DocumentFormat &target : documentFormats())
                QTest::addRow("%s as %s", qPrintable(row.name), qPrintable(target.name))
                    << row.name << target.name << writableFormats(row.name).contains(target.name);
    }
    void cliAgrees()
    {
        QFETCH(QString, from);
        QFETCH(QString, to);
        QFETCH(bool, writable);
        const QString in = m_dir.filePath(QStringLiteral("cli-in.") + from);
        QFile::remove(in);
        QVERIFY(QFile::copy(fixture(QStringLiteral("sample.") + from), in));
        const glosa::test::CliRun run =
            translateDoc(in, m_dir.filePath(QStringLiteral("cli-out.") + to));
        QVERIFY2(run.exitCode > 0, run.err.constData());
        QVERIFY2(!run.err.contains("unsupported"), run.err.constData());
        if (writable)
            QVERIFY2(run.err.contains("no-such-model"), run.err.constData());
        else
            QVERIFY2(run.exitCode == 2 && run.err.contains("cannot write"), run.err.constData());
    }

    void cliReadsEverySuffix_data() { everySuffixIsReadAsItsFormat_data(); }
    void cliReadsEverySuffix()
    {
        QFETCH(QString, suffix);
        QFETCH(QString, format);
        const QString in = m_dir.filePath(QStringLiteral("cli-read.") + suffix);
        QFile::remove(in);
        QVERIFY(QFile::copy(fixture(QStringLiteral("sample.") + format), in));
        const glosa::test::CliRun run = translateDoc(in, m_dir.filePath(QStringLiteral("o.txt")));
        QVERIFY2(run.err.contains("no-such-model") && !run.err.contains("unsupported"),
                 run.err.constData());
    }

    void cliRefusesOtherSuffixes()
    {
        const QString in = m_dir.filePath(QStringLiteral("book.epub"));
        QFile file(in);
        QVERIFY(file.open(QIODevice::WriteOnly) && file.write("text") == 4);
        file.close();
        const glosa::test::CliRun run = translateDoc(in, m_dir.filePath(QStringLiteral("o.txt")));
        QVERIFY2(run.exitCode == 1 && run.err.contains("unsupported file type '.epub'"),
                 run.err.constData());
    }

    void cliHelpNamesEveryFormat()
    {
        const glosa::test::CliRun run = glosa::test::runGlosaCli(
            {QStringLiteral("translate-doc"), QStringLiteral("--help")}, {});
        QCOMPARE(run.exitCode, 0);
        for (const DocumentFormat &row : documentFormats())
            QVERIFY2(run.out.contains(" ." + row.name.toUtf8()), qPrintable(row.name));
    }

    void dialogsAndDroppingAgree_data() { everySuffixIsReadAsItsFormat_data(); }
    void dialogsAndDroppingAgree()
    {
        QFETCH(QString, suffix);
        QFETCH(QString, format);
        // The Open dialog: its first filter matches the suffix.
        const QString documents = DocumentsView::openFilter().split(QStringLiteral(";;")).first();
        const QStringList patterns =
            documents.section(QLatin1Char('('), 1).chopped(1).split(QLatin1Char(' '));
        QVERIFY2(patterns.contains(QStringLiteral("*.") + suffix.toLower()), qPrintable(documents));
        // Dropping.
        AppContext noModels(QStringList{}, QStringList{}); // a view, no translation needed
        DocumentsView view(noModels);
        QMimeData data;
        data.setUrls({QUrl::fromLocalFile(QStringLiteral("/tmp/dropped.") + suffix)});
        QDragEnterEvent enter(QPoint(10, 10), Qt::CopyAction, &data, Qt::LeftButton,
                              Qt::NoModifier);
        enter.setAccepted(false);
        QCoreApplication::sendEvent(&view, &enter);
        QVERIFY(enter.isAccepted());
        // The Open button's tooltip names the format.
        bool named = false;
        for (const QPushButton *button : view.findChildren<QPushButton *>())
            named = named || button->toolTip().contains(QLatin1Char('.') + format);
        QVERIFY(named);
        // Export: one filter per writable format.
        const QStringList writable = writableFormats(format);
        const QStringList filters = DocumentsView::exportFilters(writable);
        QCOMPARE(filters.size(), writable.size());
        for (qsizetype i = 0; i < writable.size(); ++i)
            QVERIFY2(filters[i].endsWith(QStringLiteral("(*.") + writable[i] + QLatin1Char(')')),
                     qPrintable(filters[i]));
    }

    void droppingRefusesOtherFiles()
    {
        AppContext noModels(QStringList{}, QStringList{}); // a view, no translation needed
        DocumentsView view(noModels);
        QMimeData data;
        data.setUrls({QUrl::fromLocalFile(QStringLiteral("/tmp/book.epub"))});
        QDragEnterEvent enter(QPoint(10, 10), Qt::CopyAction, &data, Qt::LeftButton,
                              Qt::NoModifier);
        enter.setAccepted(false);
        QCoreApplication::sendEvent(&view, &enter);
        QVERIFY(!enter.isAccepted());
    }

    // The fuzz harnesses are made from the format table (tests/fuzz/documentformats.cmake reads
    // its rows) and their seeds from each format's sample (tests/fuzz/make_corpus.py): the
    // reading found every row, and every format has its sample and its committed seeds.
    void fuzzersCoverEveryFormat()
    {
        QStringList names;
        for (const DocumentFormat &row : documentFormats())
            names << row.name;
        QStringList harnesses =
            QStringLiteral(GLOSA_FUZZ_FORMATS).split(QLatin1Char(' '), Qt::SkipEmptyParts);
        QCOMPARE(harnesses, names);
        for (const QString &name : names) {
            QVERIFY2(QFileInfo::exists(
                         QStringLiteral(GLOSA_SOURCE_DIR "/tests/data/documents/sample.") + name),
                     qPrintable(name));
            const QDir seeds(QStringLiteral(GLOSA_SOURCE_DIR "/tests/fuzz/corpus/fuzz_") + name);
            QVERIFY2(!seeds.entryList(QDir::Files).isEmpty(), qPrintable(seeds.path()));
        }
    }

private:
    QTemporaryDir m_dir;
};

QTEST_MAIN(TestDocumentFormats)
#include "tst_documentformats.moc"
