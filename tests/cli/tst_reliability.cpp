// Never lose a user's file, never stall on a document. Each test drives the real
// glosa-cli (with the toy model, tests/data/toy-en-es) or the real app classes on real files, and
// failed on the code before the fix:
//   1. a full disk (a small tmpfs) truncated translate-doc's output, exported history and
//      imported models, reported success and lost the old file;
//   2. `history export -o` onto the live database overwrote it;
//   3. translate-doc (and the Documents view's Export) wrote over the input document;
//   4. Ctrl+C replaced an existing output with a partial translation;
//   7. a FIFO input hung; 8. an endless input (/dev/urandom) was read to gigabytes.
// Then hostile settings and interrupted imports: settings nested 50,000 deep crashed every start,
// a FIFO as the settings hung it, and an import killed midway left its staging folder for good.
// The full-disk tests mount a tmpfs (CI runs as root) and skip with a message where they may not.
#include "app/core/documents/document.h"
#include "app/core/documents/documentworker.h"
#include "app/core/documents/formats.h"
#include "app/core/documents/layout.h"
#include "app/core/documents/textencoding.h"
#include "app/core/documents/ziparchive.h"
#include "app/core/history/store.h"
#include "app/core/models/modelcatalog.h"
#include "app/core/platform/savefile.h"
#include "app/core/settings/settingsfile.h"
#include "tests/support/clirunner.h"
#include "engine/import/marianimport.h"
#include "engine/package.h"
#include "engine/packageerror.h"
#include "tests/support/historytestutil.h"
#include "tests/support/smalltmpfs.h"
#include "tests/support/testutil.h"

#include <QBuffer>
#include <QDataStream>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QPainter>
#include <QPdfWriter>
#include <QProcess>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

#include <csignal>
#include <optional>
#include <vector>

#include <fcntl.h>
#include <spawn.h>
#include <grp.h>
#include <sys/file.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <sys/statvfs.h>
#include <unistd.h>

namespace {

using glosa::test::SmallTmpfs;

QList<std::pair<QString, QString>> toyEnvironment()
{
    return {
        {QStringLiteral("GLOSA_PLUGIN_PATH"), QStringLiteral(GLOSA_TEST_PLUGIN_DIR "/translators")},
        {QStringLiteral("GLOSA_MODEL_PATH"),
         glosa::test::testDataDir() + QStringLiteral("/toy-en-es")}};
}

glosa::test::CliRun cli(const QStringList &args, int timeoutMs = 60000)
{
    return glosa::test::runGlosaCli(args, toyEnvironment(), {}, timeoutMs);
}

// glosa-cli `args` on the toy model, reaped here with wait4() so that its own peak RSS is known:
// getrusage(RUSAGE_CHILDREN) holds the largest child of any earlier test function (under ASan
// another row's 861 MiB), not this run's. stderr goes to `errPath`.
struct MeasuredRun
{
    int exitCode = -1;
    qint64 peakMiB = 0;
    QByteArray err;
};

MeasuredRun measuredCli(const QStringList &args, const QString &errPath)
{
    QProcess prepared;
    glosa::test::prepareGlosaCli(prepared, toyEnvironment());
    std::vector<QByteArray> argBytes{QFile::encodeName(prepared.program())};
    for (const QString &arg : args)
        argBytes.push_back(QFile::encodeName(arg));
    std::vector<QByteArray> envBytes;
    for (const QString &entry : prepared.processEnvironment().toStringList())
        envBytes.push_back(entry.toLocal8Bit());
    std::vector<char *> argv, envp;
    for (QByteArray &arg : argBytes)
        argv.push_back(arg.data());
    argv.push_back(nullptr);
    for (QByteArray &entry : envBytes)
        envp.push_back(entry.data());
    envp.push_back(nullptr);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
    const QByteArray errFile = QFile::encodeName(errPath);
    posix_spawn_file_actions_addopen(&actions, 2, errFile.constData(),
                                     O_WRONLY | O_CREAT | O_TRUNC, 0600);
    MeasuredRun run;
    pid_t pid = 0;
    const int spawned =
        posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), envp.data());
    posix_spawn_file_actions_destroy(&actions);
    if (spawned != 0)
        return run;
    int status = 0;
    rusage usage{};
    if (::wait4(pid, &status, 0, &usage) != pid)
        return run;
    run.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : -2;
    run.peakMiB = usage.ru_maxrss / 1024;
    QFile err(errPath);
    if (err.open(QIODevice::ReadOnly))
        run.err = err.readAll();
    return run;
}

QString fixture(const QString &name)
{
    return glosa::test::testDataDir() + QStringLiteral("/documents/") + name;
}

QByteArray readAll(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

bool writeAll(const QString &path, const QByteArray &bytes)
{
    QFile file(path);
    return file.open(QIODevice::WriteOnly) && file.write(bytes) == bytes.size();
}

// A document of `format` several pages long (more than a tmpfs page of output): the sentences
// of tests/data/documents/sentences.txt as its paragraphs, or report.docx / report.odt.
QString writeLongDocument(const QString &folder, const QString &format)
{
    if (format == QLatin1String("docx") || format == QLatin1String("odt"))
        return fixture(QStringLiteral("report.") + format);
    QList<QByteArray> sentences = readAll(fixture(QStringLiteral("sentences.txt"))).split('\n');
    sentences.removeAll(QByteArray());
    QByteArray text = format == QLatin1String("html") ? "<html><body>\n" : "";
    for (int i = 0; i < 200; ++i) {
        const QByteArray &sentence = sentences[i % sentences.size()];
        if (format == QLatin1String("srt"))
            text += QByteArray::number(i + 1) + "\n00:00:" + QByteArray::number(10 + i % 50) +
                    ",000 --> 00:00:" + QByteArray::number(10 + i % 50) + ",900\n" + sentence +
                    "\n\n";
        else if (format == QLatin1String("html"))
            text += "<p>" + sentence + "</p>\n";
        else if (format == QLatin1String("md"))
            text += (i % 10 == 0 ? "# " : "") + sentence + "\n\n";
        else
            text += sentence + "\n\n";
    }
    if (format == QLatin1String("html"))
        text += "</body></html>\n";
    const QString path = QDir(folder).filePath(QStringLiteral("long.") + format);
    return writeAll(path, text) ? path : QString();
}

// This process's resident memory (residentMiB) and its peak since the last resetPeakMemory()
// (peakMemoryMiB), in MiB; -1 when unknown.
void resetPeakMemory()
{
    QFile clear(QStringLiteral("/proc/self/clear_refs"));
    if (clear.open(QIODevice::WriteOnly))
        clear.write("5"); // resets VmHWM to the current resident size
}
// A memory line of /proc/self/status ("VmHWM", "VmRSS") in MiB, -1 when not there.
qint64 statusMiB(const QByteArray &field)
{
    QFile status(QStringLiteral("/proc/self/status"));
    if (!status.open(QIODevice::ReadOnly))
        return -1;
    for (const QByteArray &line : status.readAll().split('\n'))
        if (line.startsWith(field + ':'))
            return line.mid(field.size() + 1).trimmed().split(' ').first().toLongLong() / 1024;
    return -1;
}
qint64 peakMemoryMiB()
{
    return statusMiB("VmHWM");
}
qint64 residentMiB()
{
    return statusMiB("VmRSS");
}

// A PDF whose text is `text` (letters: no escapes) as pdfium reads a word wrapped over lines:
// 100 letters a line, 300 lines a page, in Helvetica, uncompressed.
QByteArray pdfWith(const QByteArray &text)
{
    constexpr qsizetype kPerLine = 100, kLinesPerPage = 300;
    std::vector<QByteArray> objects{"<< /Type /Catalog /Pages 2 0 R >>", QByteArray(),
                                    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"};
    QByteArray kids;
    int pages = 0;
    for (qsizetype at = 0; at < text.size(); at += kPerLine * kLinesPerPage, ++pages) {
        QByteArray content = "BT /F1 2.4 Tf 10 770 Td 2.45 TL";
        for (qsizetype line = at; line < std::min(text.size(), at + kPerLine * kLinesPerPage);
             line += kPerLine)
            content += " T* (" + text.mid(line, kPerLine) + ") Tj";
        content += " ET";
        const int page = int(objects.size()) + 1;
        objects.push_back("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents " +
                          QByteArray::number(page + 1) +
                          " 0 R /Resources << /Font << /F1 3 0 R >> >> >>");
        objects.push_back("<< /Length " + QByteArray::number(content.size()) + " >>\nstream\n" +
                          content + "\nendstream");
        kids += QByteArray::number(page) + " 0 R ";
    }
    objects[1] = "<< /Type /Pages /Kids [" + kids + "] /Count " + QByteArray::number(pages) + " >>";
    QByteArray pdf = "%PDF-1.4\n";
    QByteArray xref = "xref\n0 " + QByteArray::number(objects.size() + 1) + "\n0000000000 65535 f \n";
    for (std::size_t i = 0; i < objects.size(); ++i) {
        xref += QByteArray::number(pdf.size()).rightJustified(10, '0') + " 00000 n \n";
        pdf += QByteArray::number(i + 1) + " 0 obj\n" + objects[i] + "\nendobj\n";
    }
    const qsizetype start = pdf.size();
    return pdf + xref + "trailer\n<< /Size " + QByteArray::number(objects.size() + 1) +
           " /Root 1 0 R >>\nstartxref\n" + QByteArray::number(start) + "\n%%EOF\n";
}

// `text` drawn by QPdfWriter into a page-wide rectangle that runs far below the page: Qt wraps
// it anywhere and places every glyph, most of them past the page's end.
QByteArray qtPdfWith(const QByteArray &text)
{
    QBuffer buffer;
    buffer.open(QIODevice::WriteOnly);
    {
        QPdfWriter writer(&buffer);
        QPainter painter(&writer);
        painter.drawText(QRect(0, 0, writer.width(), 100'000'000), Qt::TextWrapAnywhere,
                         QString::fromLatin1(text));
    }
    return buffer.data();
}

// `text` as the one paragraph of a document of `format` (docx and odt: a minimal archive; pdf:
// pdfWith(), qpdf: qtPdfWith()).
QByteArray documentWith(const QString &format, const QByteArray &text)
{
    if (format == QLatin1String("pdf"))
        return pdfWith(text);
    if (format == QLatin1String("qpdf"))
        return qtPdfWith(text);
    using glosa::documents::ZipEntry;
    if (format == QLatin1String("docx"))
        return glosa::documents::writeZip(
            {ZipEntry{QStringLiteral("[Content_Types].xml"), "<Types/>", false},
             ZipEntry{QStringLiteral("word/document.xml"),
                      "<w:document xmlns:w=\"http://schemas.openxmlformats.org/"
                      "wordprocessingml/2006/main\"><w:body><w:p><w:r><w:t>" +
                          text + "</w:t></w:r></w:p></w:body></w:document>",
                      false}});
    if (format == QLatin1String("odt"))
        return glosa::documents::writeZip(
            {ZipEntry{QStringLiteral("mimetype"), "application/vnd.oasis.opendocument.text", true},
             ZipEntry{QStringLiteral("content.xml"),
                      "<office:document-content xmlns:office=\"urn:oasis:names:tc:"
                      "opendocument:xmlns:office:1.0\" xmlns:text=\"urn:oasis:names:tc:"
                      "opendocument:xmlns:text:1.0\"><office:body><office:text><text:p>" +
                          text + "</text:p></office:text></office:body></office:document-content>",
                      false}});
    if (format == QLatin1String("html"))
        return "<html><body><p>" + text + "</p></body></html>\n";
    if (format == QLatin1String("srt"))
        return "1\n00:00:01,000 --> 00:00:02,000\n" + text + "\n";
    return text + "\n";
}

bool saysDiskFull(const QByteArray &message)
{
    return message.toLower().contains("no space left on device");
}


// --- Round 3: settings, staging folders ---------------------------------------------------------

// glosa-cli `args` on the toy model with its own configuration and data folders.
glosa::test::CliRun cliIn(const QString &config, const QString &data, const QStringList &args)
{
    auto env = toyEnvironment();
    env.append({QStringLiteral("XDG_CONFIG_HOME"), config});
    env.append({QStringLiteral("XDG_DATA_HOME"), data});
    return glosa::test::runGlosaCli(args, env, {}, 30000);
}

// The settings file glosa-cli reads under XDG_CONFIG_HOME `config`.
QString cliSettingsFile(const QString &config)
{
    return config + QStringLiteral("/Glosa/Glosa.settings");
}

// A settings file in the app's format whose one value is `depth` lists inside one another.
QByteArray nestedSettings(int depth)
{
    QByteArray stream;
    QDataStream out(&stream, QIODevice::WriteOnly);
    out.setVersion(QDataStream::Qt_6_4);
    out << quint32(1) << QStringLiteral("ui/language");
    for (int i = 0; i < depth; ++i)
        out << quint32(QMetaType::QVariantList) << qint8(0) << quint32(1);
    out << quint32(QMetaType::Int) << qint8(0) << qint32(1);
    return QByteArray("GLOSA-SETTINGS 1\n") + stream;
}

// The staging folders (and owner files) left in a models folder.
QStringList stagingIn(const QString &models)
{
    return QDir(models).entryList({QStringLiteral(".import-*")},
                                  QDir::AllEntries | QDir::Hidden | QDir::System);
}
} // namespace

class TestReliability : public QObject
{
    Q_OBJECT

private slots:
    // Item 1: every document format on a full disk: exit code 1, the system's message, the old
    // file as it was and no temporary file left. Before: exit code 0, an empty or cut file
    // (a .docx of 4,096 bytes) in place of the old one, and "Unknown error" where anything
    // was said.
    void fullDiskKeepsTheOldDocument_data()
    {
        QTest::addColumn<QString>("format");
        QTest::addColumn<qint64>("leave"); // bytes left free: none, or a page (a short write)
        for (const qint64 leave : {0, 4096})
            for (const char *format : {"txt", "srt", "docx", "odt", "md", "html"})
                QTest::addRow("%s%s, %lld bytes free", format,
                              QByteArrayView(format) == "txt" || QByteArrayView(format) == "srt"
                                  ? " (streamed)"
                                  : "",
                              leave)
                    << format << leave;
    }
    void fullDiskKeepsTheOldDocument()
    {
        QFETCH(QString, format);
        QFETCH(qint64, leave);
        SmallTmpfs disk;
        if (!disk.isMounted())
            QSKIP(qPrintable(disk.why()));
        QTemporaryDir dir;
        const QString input = writeLongDocument(dir.path(), format);
        QVERIFY(!input.isEmpty());
        const QString name = QStringLiteral("out.") + format;
        const QString out = disk.filePath(name);
        QVERIFY(writeAll(out, "OLD\n"));
        QVERIFY(disk.fill(leave));
        const auto run =
            cli({"translate-doc", "--quiet", "--model", "toy-en-es", input, "-o", out});
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(saysDiskFull(run.err), run.err);
        QCOMPARE(readAll(out), QByteArray("OLD\n"));
        QCOMPARE(disk.leftovers({name}), QStringList());
    }

    // Item 1: a history export on a full disk keeps the earlier export.
    void fullDiskKeepsTheOldHistoryExport()
    {
        SmallTmpfs disk;
        if (!disk.isMounted())
            QSKIP(qPrintable(disk.why()));
        QTemporaryDir dir;
        const QString history = dir.filePath(QStringLiteral("h.sqlite"));
        {
            glosa::HistoryStore store;
            store.open(history);
            QVERIFY(store.isOpen());
            for (int i = 0; i < 200; ++i)
                QVERIFY(store.addEntry(glosa::test::makeTranslation(
                            QStringLiteral("sentence %1 of a history that fills a page").arg(i),
                            {QStringLiteral("frase %1").arg(i)})) > 0);
        }
        const QString out = disk.filePath(QStringLiteral("export.jsonl"));
        QVERIFY(writeAll(out, "OLD\n"));
        QVERIFY(disk.fill());
        const auto run =
            cli({"--history", history, "history", "export", "--format", "jsonl", "-o", out});
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(saysDiskFull(run.err), run.err);
        QCOMPARE(readAll(out), QByteArray("OLD\n"));
        QCOMPARE(disk.leftovers({QStringLiteral("export.jsonl")}), QStringList());
    }

    // Item 1: a model imported onto a full disk is not installed, and the message says why.
    void fullDiskStopsAModelImport()
    {
        SmallTmpfs disk;
        if (!disk.isMounted())
            QSKIP(qPrintable(disk.why()));
        QVERIFY(QDir().mkpath(disk.filePath(QStringLiteral("models"))));
        QVERIFY(disk.fill());
        QString error;
        const auto imported = glosa::ModelCatalog::importModel(
            glosa::test::testDataDir() + QStringLiteral("/toy-en-es"),
            disk.filePath(QStringLiteral("models")), &error);
        QVERIFY(!imported);
        QVERIFY2(saysDiskFull(error.toUtf8()), qPrintable(error));
        QCOMPARE(QDir(disk.filePath(QStringLiteral("models")))
                     .entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot),
                 QStringList());
    }

    // Item 1: the model chosen for a direction (`models default`, Settings ▸ Models) on a full
    // disk. Before (QSaveFile): true, and defaults.json renamed to an empty file, every choice
    // lost. Now: false with the system's message, the old file as it was.
    void fullDiskKeepsTheModelDefaults()
    {
        SmallTmpfs disk;
        if (!disk.isMounted())
            QSKIP(qPrintable(disk.why()));
        const QByteArray oldDataHome = qgetenv("XDG_DATA_HOME");
        const auto restore = qScopeGuard([&] { qputenv("XDG_DATA_HOME", oldDataHome); });
        qputenv("XDG_DATA_HOME", QFile::encodeName(disk.filePath(QStringLiteral("data"))));
        const glosa::ModelInfo info = glosa::ModelCatalog::readPackage(
            glosa::test::testDataDir() + QStringLiteral("/toy-en-es"));
        QVERIFY(info.isValid());
        QString error;
        QVERIFY2(glosa::ModelCatalog::setUserDefault(info, &error), qPrintable(error));
        const QDir models(glosa::ModelCatalog::userModelsDir());
        QVERIFY(models.path().startsWith(disk.filePath(QString())));
        const QByteArray before = readAll(models.filePath(QStringLiteral("defaults.json")));
        QVERIFY(before.contains("toy-en-es"));
        QVERIFY(disk.fill());
        QVERIFY(!glosa::ModelCatalog::setUserDefault(info, &error));
        QVERIFY2(saysDiskFull(error.toUtf8()), qPrintable(error));
        QCOMPARE(readAll(models.filePath(QStringLiteral("defaults.json"))), before);
        QCOMPARE(models.entryList(QDir::Files | QDir::Hidden), QStringList{"defaults.json"});
    }

    // Item 1: the settings on a full disk. Before (QSettings' INI format through QSaveFile): with
    // a page left, sync() after an 8,000-byte value said NoError and left an empty settings
    // file, every setting lost. Now the write fails (AccessError), the old file stays as it was,
    // the reporter says why, and the values are written once there is room again.
    void fullDiskKeepsTheOldSettings_data()
    {
        QTest::addColumn<qint64>("leave"); // bytes left free
        QTest::addColumn<int>("valueBytes");
        // With no byte free, QSettings cannot write its lock file (QLockFile) and stops before
        // the writer runs: the old file stays, status() says AccessError, and nothing says why.
        QTest::addColumn<bool>("reported");
        QTest::newRow("a page free, a value under QFileDevice's buffer")
            << qint64(4096) << 8000 << true;
        QTest::newRow("a page free, a value over the buffer") << qint64(4096) << 40000 << true;
        QTest::newRow("nothing free") << qint64(0) << 10 << false;
    }
    void fullDiskKeepsTheOldSettings()
    {
        QFETCH(qint64, leave);
        QFETCH(int, valueBytes);
        QFETCH(bool, reported);
        SmallTmpfs disk;
        if (!disk.isMounted())
            QSKIP(qPrintable(disk.why()));
        QTemporaryDir data;
        glosa::test::isolateAppState(disk.filePath(QStringLiteral("config")), data.path(),
                                     QStringLiteral("tst_reliability"));
        QString file;
        {
            QSettings settings;
            settings.setValue(QStringLiteral("ui/language"), QStringLiteral("es"));
            settings.setValue(QStringLiteral("window/geometry"), QByteArray("\x01\x02geometry"));
            settings.sync();
            QCOMPARE(settings.status(), QSettings::NoError);
            file = settings.fileName();
        }
        const QByteArray before = readAll(file);
        QVERIFY(!before.isEmpty());
        QVERIFY(disk.fill(leave));
        QSignalSpy failed(glosa::SettingsFileReporter::instance(),
                          &glosa::SettingsFileReporter::writeFailed);
        {
            QSettings settings;
            settings.setValue(QStringLiteral("translate/keepTerms"),
                              QStringList{QString(valueBytes, QLatin1Char('k'))});
            settings.sync();
            QCOMPARE(settings.status(), QSettings::AccessError);
        }
        QCOMPARE(readAll(file), before);
        QCOMPARE(QDir(QFileInfo(file).path()).entryList(QDir::Files | QDir::Hidden),
                 QStringList{QFileInfo(file).fileName()});
        if (reported) {
            QTRY_COMPARE(failed.count(), 1);
            QCOMPARE(failed.first().at(0).toString(), file);
            QVERIFY2(saysDiskFull(failed.first().at(1).toString().toUtf8()),
                     qPrintable(failed.first().at(1).toString()));
        }

        // Room again: the next change writes every value, the one that failed too.
        QVERIFY(QFile::remove(disk.filePath(QStringLiteral("fill"))));
        {
            QSettings settings;
            settings.setValue(QStringLiteral("ui/appearance"), QStringLiteral("dark"));
            settings.sync();
            QCOMPARE(settings.status(), QSettings::NoError);
        }
        QSettings::Format format = QSettings::defaultFormat();
        QSettings reread(file, format);
        QCOMPARE(reread.value(QStringLiteral("ui/language")).toString(), QStringLiteral("es"));
        QCOMPARE(reread.value(QStringLiteral("window/geometry")).toByteArray(),
                 QByteArray("\x01\x02geometry"));
        QCOMPARE(reread.value(QStringLiteral("translate/keepTerms")).toStringList().value(0).size(),
                 valueBytes);
        QCOMPARE(reread.value(QStringLiteral("ui/appearance")).toString(), QStringLiteral("dark"));
    }

    // The settings of an earlier version (QSettings' INI file) are copied into the new file once,
    // every type as it was; the INI file is left alone, and a later start does not copy again.
    void iniSettingsAreCarriedOver()
    {
        QTemporaryDir config, data;
        qputenv("XDG_DATA_HOME", data.path().toUtf8());
        QSettings::setDefaultFormat(QSettings::IniFormat);
        QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, config.path());
        QCoreApplication::setOrganizationName(QStringLiteral("GlosaTest"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_reliability_ini"));
        const QVariantMap preset{{QStringLiteral("beam_size"), QStringLiteral("5")}};
        QString iniFile;
        {
            QSettings ini; // the INI format, as the app wrote it before
            ini.setValue(QStringLiteral("ui/language"), QStringLiteral("ko"));
            ini.setValue(QStringLiteral("window/geometry"), QByteArray("\0\xff" "bytes", 7));
            ini.setValue(QStringLiteral("files/recent"), QStringList{"a|x", "b|y"});
            ini.setValue(QStringLiteral("decoding/presets"), QVariantMap{{"mine", preset}});
            ini.sync();
            iniFile = ini.fileName();
        }
        const QByteArray iniBytes = readAll(iniFile);
        glosa::installSettingsFile();
        QSettings settings;
        QVERIFY(settings.fileName() != iniFile);
        QVERIFY(QFileInfo::exists(settings.fileName()));
        QCOMPARE(settings.value(QStringLiteral("ui/language")).toString(), QStringLiteral("ko"));
        QCOMPARE(settings.value(QStringLiteral("window/geometry")).toByteArray(),
                 QByteArray("\0\xff" "bytes", 7));
        QCOMPARE(settings.value(QStringLiteral("files/recent")).toStringList(),
                 (QStringList{"a|x", "b|y"}));
        QCOMPARE(settings.value(QStringLiteral("decoding/presets")).toMap(),
                 (QVariantMap{{"mine", preset}}));
        QCOMPARE(readAll(iniFile), iniBytes);
        // Changed since: not copied over again.
        settings.setValue(QStringLiteral("ui/language"), QStringLiteral("es"));
        settings.sync();
        QSettings::setDefaultFormat(QSettings::IniFormat);
        glosa::installSettingsFile();
        QCOMPARE(QSettings().value(QStringLiteral("ui/language")).toString(), QStringLiteral("es"));
    }

    // A settings file that cannot be read is kept aside (QSettings' next write replaces it).
    void damagedSettingsAreKeptAside()
    {
        QTemporaryDir config, data;
        glosa::test::isolateAppState(config.path(), data.path(),
                                     QStringLiteral("tst_reliability_damaged"));
        const QString file = QSettings().fileName();
        QVERIFY(QDir().mkpath(QFileInfo(file).path()));
        QVERIFY(writeAll(file, "[General]\nlanguage=es\n"));
        QSettings settings;
        QCOMPARE(settings.status(), QSettings::FormatError);
        QCOMPARE(readAll(file + QStringLiteral(".damaged")), QByteArray("[General]\nlanguage=es\n"));
    }

    // SaveFile itself on a device that is always full (/dev/full's ENOSPC on every write):
    // commit() fails with the system's message, and the device stays a device (QSaveFile, run
    // as root, renamed its temporary file over /dev/full).
    void saveFileReportsAFullDevice()
    {
        struct stat before;
        if (::stat("/dev/full", &before) != 0 || !S_ISCHR(before.st_mode))
            QSKIP("no /dev/full character device here");
        glosa::SaveFile file(QStringLiteral("/dev/full"));
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(QByteArray(100, 'x'));
        QVERIFY(!file.commit());
        QVERIFY2(saysDiskFull(file.errorString().toUtf8()), qPrintable(file.errorString()));
        struct stat after;
        QVERIFY(::stat("/dev/full", &after) == 0 && S_ISCHR(after.st_mode));
        QCOMPARE(after.st_rdev, before.st_rdev);
    }

    // Item 2: the history database and its -wal/-shm files are refused as export targets, by
    // inode: through "./", a symlink or a hard link too. Before: "exported 40 records" over the
    // database, and the next start moved it aside as corrupt.
    void historyExportNeverOverwritesTheDatabase_data()
    {
        QTest::addColumn<QString>("target"); // relative to the folder, or a link made to it
        QTest::addColumn<QString>("link");   // "symlink", "hardlink" or empty
        QTest::newRow("the database") << "h.sqlite"
                                      << "";
        QTest::newRow("./ the database") << "./h.sqlite"
                                         << "";
        QTest::newRow("a symlink") << "h.sqlite"
                                   << "symlink";
        QTest::newRow("a hard link") << "h.sqlite"
                                     << "hardlink";
        QTest::newRow("-wal") << "h.sqlite-wal"
                              << "";
        QTest::newRow("-shm") << "h.sqlite-shm"
                              << "";
    }
    void historyExportNeverOverwritesTheDatabase()
    {
        QFETCH(QString, target);
        QFETCH(QString, link);
        QTemporaryDir dir;
        const QString history = dir.filePath(QStringLiteral("h.sqlite"));
        {
            glosa::HistoryStore store;
            store.open(history);
            QVERIFY(store.isOpen());
            for (int i = 0; i < 40; ++i)
                QVERIFY(store.addEntry(glosa::test::makeTranslation(QStringLiteral("cat %1").arg(i),
                                                                    {QStringLiteral("gato")})) > 0);
        }
        QString out = dir.filePath(target);
        if (link == QLatin1String("symlink")) {
            out = dir.filePath(QStringLiteral("link.jsonl"));
            QVERIFY(QFile::link(history, out));
        } else if (link == QLatin1String("hardlink")) {
            out = dir.filePath(QStringLiteral("hard.jsonl"));
            QVERIFY(::link(QFile::encodeName(history).constData(),
                           QFile::encodeName(out).constData()) == 0);
        }
        const QByteArray before = readAll(history);
        QVERIFY(QDir::setCurrent(dir.path())); // "./h.sqlite" is relative to it
        const auto run =
            cli({"--history", history, "history", "export", "--format", "jsonl", "-o", out});
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(run.err.contains("of the history being exported"), run.err);
        QVERIFY2(!run.err.contains("exported 40"), run.err);
        QCOMPARE(readAll(history), before);
        const auto list = cli({"--history", history, "history", "list", "--limit", "100"});
        QCOMPARE(list.exitCode, 0);
        QCOMPARE(list.out.count('\n'), 40);
    }

    // Item 3: translate-doc refuses an output that is the input, however it is named. Before:
    // the source document was overwritten with its translation.
    void outputEqualToInputIsRefused_data()
    {
        QTest::addColumn<QString>("output"); // "same", "./", "symlink", "hardlink"
        QTest::newRow("the same name") << "same";
        QTest::newRow("./") << "./";
        QTest::newRow("a symlink") << "symlink";
        QTest::newRow("a hard link") << "hardlink";
    }
    void outputEqualToInputIsRefused()
    {
        QFETCH(QString, output);
        QTemporaryDir dir;
        const QString input = dir.filePath(QStringLiteral("a.txt"));
        QVERIFY(writeAll(input, "The cat sleeps.\n"));
        QString out = input;
        if (output == QLatin1String("./")) {
            QVERIFY(QDir::setCurrent(dir.path()));
            out = QStringLiteral("./a.txt");
        } else if (output == QLatin1String("symlink")) {
            out = dir.filePath(QStringLiteral("b.txt"));
            QVERIFY(QFile::link(input, out));
        } else if (output == QLatin1String("hardlink")) {
            out = dir.filePath(QStringLiteral("b.txt"));
            QVERIFY(::link(QFile::encodeName(input).constData(),
                           QFile::encodeName(out).constData()) == 0);
        }
        const auto run =
            cli({"translate-doc", "--quiet", "--model", "toy-en-es", input, "-o", out});
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(run.err.contains("is the input document itself"), run.err);
        QCOMPARE(readAll(input), QByteArray("The cat sleeps.\n"));
    }

    // Item 3, the Documents view's Export: the worker refuses the file it read.
    void exportOntoTheSourceIsRefused()
    {
        QTemporaryDir dir;
        const QString input = dir.filePath(QStringLiteral("a.html"));
        const QByteArray html = "<p>The cat sleeps.</p>\n";
        QVERIFY(writeAll(input, html));
        glosa::documents::DocumentWorker worker;
        QSignalSpy opened(&worker, &glosa::documents::DocumentWorker::opened);
        QSignalSpy failed(&worker, &glosa::documents::DocumentWorker::failed);
        QSignalSpy exported(&worker, &glosa::documents::DocumentWorker::exported);
        worker.open(input);
        QTRY_COMPARE_WITH_TIMEOUT(opened.size(), 1, 10000);
        QVERIFY(QFile::link(input, dir.filePath(QStringLiteral("link.html"))));
        for (const QString &target : {input, dir.filePath(QStringLiteral("link.html"))}) {
            failed.clear();
            worker.exportTo(target);
            QTRY_COMPARE_WITH_TIMEOUT(failed.size(), 1, 10000);
            QVERIFY2(failed.first().first().toString().contains(
                         QStringLiteral("is the document being translated")),
                     qPrintable(failed.first().first().toString()));
        }
        QCOMPARE(exported.size(), 0);
        QCOMPARE(readAll(input), html);
        // Another name still exports.
        worker.exportTo(dir.filePath(QStringLiteral("b.html")));
        QTRY_COMPARE_WITH_TIMEOUT(exported.size(), 1, 10000);
    }

    // Item 4: Ctrl+C during translate-doc keeps an existing output as it was and writes the
    // partial translation beside it, saying where. Before: the partial translation replaced it.
    void interruptKeepsTheOldOutput_data()
    {
        QTest::addColumn<QString>("suffix");
        QTest::newRow("txt (streamed)") << "txt";
        QTest::newRow("md (whole)") << "md";
    }
    void interruptKeepsTheOldOutput()
    {
        QFETCH(QString, suffix);
        QTemporaryDir dir;
        const QString input = dir.filePath(QStringLiteral("big.") + suffix);
        const QString out = dir.filePath(QStringLiteral("big.es.") + suffix);
        const QString partial = dir.filePath(QStringLiteral("big.es.partial.") + suffix);
        QList<QByteArray> sentences = readAll(fixture(QStringLiteral("sentences.txt"))).split('\n');
        sentences.removeAll(QByteArray());
        QVERIFY(!sentences.isEmpty());
        QByteArray text;
        for (int i = 0; text.size() < (qsizetype(3) << 20); ++i)
            text += sentences[i % sentences.size()] + "\n\n";
        QVERIFY(writeAll(input, text));
        QVERIFY(writeAll(out, "OLD\n"));

        QProcess process;
        glosa::test::prepareGlosaCli(process, toyEnvironment());
        process.setArguments({"translate-doc", "--model", "toy-en-es", input, "-o", out,
                              "--strategy", "greedy", "--chunk-bytes", "262144"});
        QByteArray err;
        bool interrupted = false;
        connect(&process, &QProcess::readyReadStandardError, this, [&] {
            err += process.readAllStandardError();
            // Once a progress line says some sentences are done.
            static const QRegularExpression done(QStringLiteral("([0-9]{3,}) sentences"));
            if (!interrupted && done.match(QString::fromUtf8(err)).hasMatch()) {
                interrupted = true;
                ::kill(pid_t(process.processId()), SIGINT);
            }
        });
        process.start();
        QVERIFY(process.waitForStarted(10000));
        QVERIFY(process.waitForFinished(120000));
        err += process.readAllStandardError();
        QVERIFY2(interrupted, err);
        QCOMPARE(process.exitCode(), 130);
        QCOMPARE(readAll(out), QByteArray("OLD\n"));
        QVERIFY2(err.contains(QFile::encodeName(partial)) && err.contains("is left as it was"),
                 err);
        // The partial translation: the whole document, its start translated.
        const QByteArray written = readAll(partial);
        QVERIFY(written.size() > text.size() / 2);
        QVERIFY2(written.left(4096) != text.left(4096), written.left(200));
    }

    // Items 7 and 8: inputs that are not regular files are refused at once with a message
    // naming what they are. Before: a FIFO hung (opened twice: the second open waits for a
    // writer that has gone) and /dev/urandom was read to 2.1 GB before "out of memory".
    void inputsThatAreNotFilesAreRefused_data()
    {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QString>("message");
        QTest::newRow("FIFO .txt") << "fifo.txt"
                                   << "is a FIFO (named pipe), not a document file";
        QTest::newRow("FIFO .html") << "fifo.html"
                                    << "is a FIFO (named pipe), not a document file";
        QTest::newRow("/dev/urandom .txt") << "urandom.txt"
                                           << "is a character device, not a document file";
        QTest::newRow("/dev/zero .md") << "zero.md"
                                       << "is a character device, not a document file";
    }
    void inputsThatAreNotFilesAreRefused()
    {
        QFETCH(QString, kind);
        QFETCH(QString, message);
        QTemporaryDir dir;
        const QString input = dir.filePath(kind);
        QProcess writer; // keeps the FIFO's writer end waiting, as a producer would
        if (kind.startsWith(QLatin1String("fifo"))) {
            QVERIFY(::mkfifo(QFile::encodeName(input).constData(), 0600) == 0);
            writer.start(QStringLiteral("sh"),
                         {QStringLiteral("-c"),
                          QStringLiteral("printf 'The cat sleeps.\\n' > '%1'").arg(input)});
        } else {
            QVERIFY(QFile::link(
                kind.startsWith(QLatin1String("zero")) ? "/dev/zero" : "/dev/urandom", input));
        }
        QElapsedTimer timer;
        timer.start();
        const auto run = cli({"translate-doc", "--quiet", "--model", "toy-en-es", input, "-o",
                              dir.filePath(QStringLiteral("out.") + QFileInfo(kind).suffix())},
                             20000);
        qInfo("%s: exit code %d in %lld ms", qPrintable(kind), run.exitCode, timer.elapsed());
        writer.kill();
        writer.waitForFinished();
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(run.err.contains(message.toUtf8()), run.err);
        QVERIFY(timer.elapsed() < 10000);
    }

    // Item 8 for regular files: a document read whole stops at the documented size limit
    // (limits::kMaxDocumentBytes) before reading it. A sparse 300 MiB .html costs no disk.
    void documentsOverTheSizeLimitAreRefused()
    {
        QTemporaryDir dir;
        const QString input = dir.filePath(QStringLiteral("big.html"));
        {
            QFile file(input);
            QVERIFY(file.open(QIODevice::WriteOnly) && file.resize(qint64(300) << 20));
        }
        QElapsedTimer timer;
        timer.start();
        const auto run = cli({"translate-doc", "--quiet", "--model", "toy-en-es", input, "-o",
                              dir.filePath(QStringLiteral("out.html"))});
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(run.err.contains("is larger than the limit of 256 MiB"), run.err);
        QVERIFY2(timer.elapsed() < 10000, qPrintable(QString::number(timer.elapsed())));
    }

    // Item 5: every reader on a 1 MB unbroken token, and the Markdown and HTML inputs of the
    // issue, in bounded time and memory. Before: SpanProtector::find (ICU regex) was quadratic
    // on a run of word characters (the e-mail rule rescanned it from every character: 8 KB
    // 4.3 s, 16 KB 20.7 s, 64 KB did not finish) and overflowed ICU's stack on a long number;
    // the Markdown reader rescanned the rest of a paragraph from every backtick, bracket, image
    // and asterisk (1 MB of backticks: 58 s).
    void readersStayLinearOnLongTokens_data()
    {
        QTest::addColumn<QString>("format");
        QTest::addColumn<QByteArray>("text");
        const QByteArray letters(1 << 20, 'a');
        for (const char *format : {"txt", "srt", "md", "html", "docx", "odt"})
            QTest::addRow("%s: 1 MB of letters", format) << format << letters;
        // A PDF cannot hold a line that long (pdfium reads 32,767 characters of a string): the
        // word wrapped over 10,486 lines, 35 pages. Before: glosa-pdftext loaded each page's
        // text again for every line, and stopped at its 30 s of processor time (38 s).
        QTest::newRow("pdf: 1 MB of letters, wrapped") << "pdf" << letters;
        // Where QPdfWriter wrapped it down past the page's end, one page holds a million glyph
        // boxes: the lines' places are not looked up one line at a time then (each look-up
        // loaded them all again: 256 KB 24.5 s, 1 MB past the 30 s). Measured 4.9 s and 458 MB
        // in the helper (pdfium's own getAllText).
        QTest::newRow("pdf: 1 MB of letters, drawn by QPdfWriter") << "qpdf" << letters;
        // Runs over limits::kMaxUnbrokenBytes are kept untranslated and not searched for spans
        // (overlongRunsAreKeptNotTranslated); these, just under it, still go through the span
        // rules, where the old quadratic e-mail and number rules took 68 s for each 32 KB.
        QTest::newRow("txt: 1 MB of 32,000-letter words")
            << "txt" << (QByteArray(32000, 'a') + ' ').repeated(32);
        QTest::newRow("txt: 1 MB of 32,000-digit numbers then a letter")
            << "txt" << (QByteArray(32000, '1') + "x ").repeated(32);
        QTest::newRow("txt: 1 MB number then a letter") << "txt" << QByteArray(1 << 20, '1') + "x";
        QTest::newRow("txt: % then 1 MB of zeros") << "txt"
                                                   << "%" + QByteArray(1 << 20, '0');
        QTest::newRow("txt: 1 MB of a.a.a") << "txt" << QByteArray("a.").repeated(1 << 19);
        QTest::newRow("html: 64 KB title attribute")
            << "html"
            << "<span title=\"" + QByteArray(1 << 16, 'a') + "\">x</span>";
        QTest::newRow("md: 1 MB of backticks")
            << "md"
            << "The cat " + QByteArray(1 << 20, '`') + " sleeps.";
        QTest::newRow("md: [ 512 K times") << "md" << QByteArray("[a").repeated(1 << 19);
        QTest::newRow("md: ![ 256 K times") << "md" << QByteArray("![a ").repeated(1 << 18);
        QTest::newRow("md: *a 256 K times") << "md" << QByteArray("*a *").repeated(1 << 18);
        QTest::newRow("md: [a]( 256 K times") << "md" << QByteArray("[a](").repeated(1 << 18);
        // What describeLayout() (the Documents view's formatted source) reads: one tag cut by
        // 20,000 slots (its translated attributes), a table row of 100,000 cells, 50,000
        // <script> elements, each of which sends it looking for its end tag.
        QTest::newRow("html: a tag of 20,000 title attributes")
            << "html"
            << "</p><div " + QByteArray("title=\"a b\" ").repeated(20000) + ">x</div><p>";
        QTest::newRow("md: a table row of 100,000 cells")
            << "md"
            << "|" + QByteArray(" a |").repeated(100000);
        QTest::newRow("html: 50,000 script elements")
            << "html"
            << "</p>" + QByteArray("<script>var a;</script>").repeated(50000) + "<p>x";
    }
    void readersStayLinearOnLongTokens()
    {
        QFETCH(QString, format);
        QFETCH(QByteArray, text);
        const QByteArray bytes = documentWith(format, text);
        const qint64 before = residentMiB();
        resetPeakMemory();
        QElapsedTimer timer;
        timer.start();
        glosa::documents::Document doc;
        try {
            if (format.endsWith(QLatin1String("pdf"))) { // from a file, by glosa-pdftext
                QTemporaryDir dir;
                const QString path = dir.filePath(QStringLiteral("long.pdf"));
                QVERIFY(writeAll(path, bytes));
                doc = glosa::documents::readDocument(path);
                // All of it where the lines are on the page; QPdfWriter's glyphs past the page's
                // end are not text to pdfium.
                QVERIFY(!doc.segments.empty());
                if (format == QLatin1String("pdf"))
                    QCOMPARE(glosa::documents::plainText(doc).count('a'), text.count('a'));
            } else {
                doc = glosa::documents::parseDocument(bytes, format, QStringLiteral("long.") + format);
            }
        } catch (const glosa::documents::DocumentError &error) {
            QFAIL(qPrintable(error.message()));
        }
        const qint64 ms = timer.elapsed();
        const qint64 peak = peakMemoryMiB() - before;
        qInfo("%lld bytes read in %lld ms, peak %lld MiB over the %lld MiB before", bytes.size(),
              ms, peak, before);
        QVERIFY(!doc.segments.empty());
        // How the Documents view shows it formatted: one layout per segment.
        timer.restart();
        const std::vector<glosa::documents::SegmentLayout> layout =
            glosa::documents::describeLayout(doc);
        const qint64 layoutMs = timer.elapsed();
        qInfo("laid out in %lld ms", layoutMs);
        QCOMPARE(layout.size(), doc.segments.size());
        // Measured (Release, 2 shared cores): at most 7 s and 60 MiB over the input. A fixed
        // cap, not a ratio to a smaller input: the paths this guards against were quadratic
        // (minutes at 1 MB), far past it, while the linear cost is a few seconds.
#ifdef GLOSA_SANITIZED
        const qint64 boundMs = 120000, boundMiB = 2048;
#else
        const qint64 boundMs = 20000, boundMiB = 512;
#endif
        QVERIFY2(ms < boundMs, qPrintable(QString::number(ms)));
        QVERIFY2(layoutMs < boundMs, qPrintable(QString::number(layoutMs)));
        QVERIFY2(peak < boundMiB, qPrintable(QString::number(peak)));
    }

    // Item 5: a 1 MB "word" in each format through translate-doc: the paragraph is kept as it
    // is (with a notice), the others are translated, in bounded time and memory. Before: the
    // word went to the model in chunks of its longest input, linearly but for minutes (.txt with
    // the toy model: 185 s and 1.4 GB resident; transformer-en-es: 35 s for 64 KB), after 3.7 s
    // of span finding (ICU's regular expression tried at each of its bytes).
    //
    // Why a fixed cap and not a ratio of two sizes: the cost is now a scan of the bytes (0.1 s
    // measured for the whole command, Release, 2 shared cores), so a ratio would compare two
    // timings dominated by the start of the process and the model load; and the old path was not
    // quadratic but a huge per-byte cost, which a ratio would not catch at all. 30 s (120 s under
    // the sanitizers) is ~300 times the cost measured and 6 times below the old one; 512 MiB is
    // 5 times the resident size of a glosa-cli run with the real model and a third of the old.
    void overlongRunsAreKeptNotTranslated_data()
    {
        QTest::addColumn<QString>("format");
        QTest::addColumn<QByteArray>("between"); // ends a paragraph and starts another
        QTest::newRow("txt") << "txt" << QByteArray("\n\n");
        QTest::newRow("md") << "md" << QByteArray("\n\n");
        QTest::newRow("srt") << "srt" << QByteArray("\n\n2\n00:00:03,000 --> 00:00:04,000\n");
        QTest::newRow("html") << "html" << QByteArray("</p><p>");
        QTest::newRow("docx") << "docx" << QByteArray("</w:t></w:r></w:p><w:p><w:r><w:t>");
        QTest::newRow("odt") << "odt" << QByteArray("</text:p><text:p>");
    }
    void overlongRunsAreKeptNotTranslated()
    {
        QFETCH(QString, format);
        QFETCH(QByteArray, between);
        const QByteArray word(1 << 20, 'a');
        QTemporaryDir dir;
        const QString input = dir.filePath(QStringLiteral("word.") + format);
        const QString output = dir.filePath(QStringLiteral("out.") + format);
        QVERIFY(writeAll(input, documentWith(format, "The cat sleeps." + between + word)));
        QElapsedTimer timer;
        timer.start();
        const MeasuredRun run = measuredCli(
            {"translate-doc", "--quiet", "--model", "toy-en-es", input, "-o", output},
            dir.filePath(QStringLiteral("stderr.txt")));
        const qint64 ms = timer.elapsed();
        const qint64 peakMiB = run.peakMiB;
        qInfo("%lld ms, peak %lld MiB", ms, peakMiB);
        QCOMPARE(run.exitCode, 0);
        QVERIFY2(run.err.contains("paragraph 2 (1048576 bytes) has text without a space over "
                                  "the limit of 32768 bytes: kept as it is, not translated"),
                 run.err);
#ifdef GLOSA_SANITIZED
        const qint64 boundMs = 120000;
        const qint64 boundMiB = 1024; // ASan's quarantine and shadow pages count as resident
#else
        const qint64 boundMs = 30000;
        const qint64 boundMiB = 512;
#endif
        QVERIFY2(ms < boundMs, qPrintable(QString::number(ms)));
        QVERIFY2(peakMiB < boundMiB, qPrintable(QString::number(peakMiB)));
        const glosa::documents::Document out = glosa::documents::readDocument(output);
        QCOMPARE(out.segments.size(), std::size_t(2));
        QVERIFY2(out.segments[0].text.contains("gato"), out.segments[0].text);
        QVERIFY(out.segments[1].text == word);
    }

    // Item 6: Markdown nested 100,000 levels deep on one line (200 KB) is refused at the
    // nesting limit, as HTML is, in milliseconds; nested as deep as the limit it reads, and what
    // goes to the model is the text, not the markers. Before: the whole 200 KB line went to the
    // model as one paragraph (PCRE2 gave up matching the 100,000 "> " and reported no match; a
    // list item took the other 99,999 markers as its text), past 45 s at 241-364 MB.
    void deepMarkdownNestingIsCapped_data()
    {
        QTest::addColumn<QByteArray>("marker");
        QTest::addColumn<int>("levels");
        QTest::addColumn<bool>("refused");
        for (const char *marker : {"> ", "- ", "1. ", "> - "}) {
            QTest::addRow("'%s' 100,000 deep", marker) << QByteArray(marker) << 100000 << true;
            QTest::addRow("'%s' 50 deep", marker) << QByteArray(marker) << 50 << false;
        }
    }
    void deepMarkdownNestingIsCapped()
    {
        QFETCH(QByteArray, marker);
        QFETCH(int, levels);
        QFETCH(bool, refused);
        const QByteArray text = "Intro.\n\n" + marker.repeated(levels) + "The cat sleeps.\n";
        QElapsedTimer timer;
        timer.start();
        try {
            const glosa::documents::Document doc = glosa::documents::parseDocument(
                text, QStringLiteral("md"), QStringLiteral("deep.md"));
            QVERIFY2(!refused, "no DocumentError");
            QCOMPARE(doc.segments.size(), std::size_t(2));
            QCOMPARE(doc.segments[1].text, QByteArray("The cat sleeps."));
            QCOMPARE(doc.render(), text);
        } catch (const glosa::documents::DocumentError &error) {
            QVERIFY2(refused, qPrintable(error.message()));
            QVERIFY2(error.message().contains(QStringLiteral(
                         "deep.md: block quotes or list items nest deeper than the limit of 100 "
                         "(line 3)")),
                     qPrintable(error.message()));
        }
        QVERIFY2(timer.elapsed() < 5000, qPrintable(QString::number(timer.elapsed())));
    }

    // Item 9: a package whose weights are a symlink to a file outside it, or to /dev/zero, is
    // refused by the loader and listed as broken, each with what the file is. Before: the
    // outside file loaded, /dev/zero was "file not found", and `models --all` said "ok".
    void packageFilesMustLieInsideThePackage_data()
    {
        QTest::addColumn<QString>("target"); // what model.safetensors links to
        QTest::addColumn<QString>("message");
        QTest::newRow("a file outside") << "outside"
                                        << "is a link to %1, outside the package folder";
        QTest::newRow("/dev/zero") << "/dev/zero"
                                   << "is a character device (/dev/zero)";
    }
    void packageFilesMustLieInsideThePackage()
    {
        QFETCH(QString, target);
        QFETCH(QString, message);
        QTemporaryDir dir;
        const QString toy = glosa::test::testDataDir() + QStringLiteral("/toy-en-es/");
        const QString package = dir.filePath(QStringLiteral("models/linked"));
        QVERIFY(QDir().mkpath(package));
        QVERIFY(QFile::copy(toy + "spm.model", package + "/spm.model"));
        QFile manifest(toy + "model.json");
        QVERIFY(manifest.open(QIODevice::ReadOnly));
        QByteArray json = manifest.readAll();
        json.replace("\"id\": \"toy-en-es\"", "\"id\": \"linked\"");
        QVERIFY(writeAll(package + "/model.json", json));
        QString linkTo = target;
        if (target == QLatin1String("outside")) {
            linkTo = dir.filePath(QStringLiteral("weights.safetensors"));
            QVERIFY(QFile::copy(toy + "model.safetensors", linkTo));
            message = message.arg(QFileInfo(linkTo).canonicalFilePath());
        }
        QVERIFY(QFile::link(linkTo, package + "/model.safetensors"));

        // The engine's loader on its own (the plugins' entry point).
        try {
            glosa::engine::ModelPackage::load(package.toStdString());
            QFAIL("the package loaded");
        } catch (const glosa::engine::PackageError &error) {
            QVERIFY2(QString::fromStdString(error.what()).contains(message), error.what());
        }

        const auto run =
            glosa::test::runGlosaCli({"translate", "--model", package},
                                     {{QStringLiteral("GLOSA_PLUGIN_PATH"),
                                       QStringLiteral(GLOSA_TEST_PLUGIN_DIR "/translators")}},
                                     "The cat sleeps.\n", 20000);
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(run.err.contains(message.toUtf8()), run.err);
        QVERIFY2(run.out.isEmpty(), run.out);

        const auto listed = glosa::test::runGlosaCli(
            {"models", "--all"},
            {{QStringLiteral("GLOSA_PLUGIN_PATH"),
              QStringLiteral(GLOSA_TEST_PLUGIN_DIR "/translators")},
             {QStringLiteral("GLOSA_MODEL_PATH"), dir.filePath(QStringLiteral("models"))}},
            {}, 20000);
        QByteArray line;
        for (const QByteArray &l : listed.out.split('\n'))
            if (l.startsWith("linked "))
                line = l;
        QVERIFY2(!line.isEmpty(), listed.out + listed.err);
        QVERIFY2(!line.contains(" ok "), line);
    }

    // Item 10: members of an input .docx named outside the archive ("../../x", "/x",
    // "a\\..\\..\\x") are not carried into the exported document. Before: copied unchanged.
    void zipSlipMembersAreDropped()
    {
        QTemporaryDir dir;
        const QByteArray docx = documentWith(QStringLiteral("docx"), "The cat sleeps.");
        std::vector<glosa::documents::ZipEntry> entries =
            glosa::documents::readZip(docx, QStringLiteral("docx"));
        for (const char *name : {"../../evil-parent.txt", "/evil-absolute.txt",
                                 "word\\..\\..\\evil-backslash.txt", "C:/evil-drive.txt"})
            entries.push_back({QString::fromLatin1(name), "x", false});
        entries.push_back({QStringLiteral("word/media/fine.txt"), "kept", false});
        const QString input = dir.filePath(QStringLiteral("in.docx"));
        QVERIFY(writeAll(input, glosa::documents::writeZip(entries)));
        const QString out = dir.filePath(QStringLiteral("out.docx"));
        const auto run =
            cli({"translate-doc", "--quiet", "--model", "toy-en-es", input, "-o", out});
        QCOMPARE(run.exitCode, 0);
        const QByteArray written = readAll(out);
        QVERIFY(!written.isEmpty());
        for (const char *name : {"evil-parent", "evil-absolute", "evil-backslash", "evil-drive"})
            QVERIFY2(!written.contains(name), name);
        QVERIFY(written.contains("word/media/fine.txt"));
        QVERIFY(!glosa::documents::isSafeMemberName(QStringLiteral("a/../../x")));
        QVERIFY(glosa::documents::isSafeMemberName(QStringLiteral("word/..x/y..z")));
    }

    // Item 12: messages that named the wrong problem.
    void messagesSayWhatIsWrong_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QString>("message");
        // "is not a non-negative integer" before.
        QTest::newRow("--seed 2^70")
            << QStringList{"translate", "--model", "toy-en-es", "--seed", "1180591620717411303424"}
            << 2
            << "'1180591620717411303424' is too large (the limits are 0 and "
               "18446744073709551615)";
        // "is not a number" before.
        QTest::newRow("--max-length-ratio 1e308")
            << QStringList{"translate", "--model", "toy-en-es", "--max-length-ratio", "1e308"} << 2
            << "'1e308' is out of range";
        // "Cannot open ... for writing" before.
        QTest::newRow("an output name over 255 bytes")
            << QStringList{"translate-doc",
                           "--quiet",
                           "--model",
                           "toy-en-es",
                           fixture(QStringLiteral("sample.txt")),
                           "-o",
                           QDir::tempPath() + QLatin1Char('/') + QString(300, QLatin1Char('x')) +
                               QStringLiteral(".txt")}
            << 1 << "File name too long";
        // "Cannot open the history file ... for writing." before.
        QTest::newRow("a --history name over 255 bytes")
            << QStringList{"--history",
                           QDir::tempPath() + QLatin1Char('/') + QString(300, QLatin1Char('h')) +
                               QStringLiteral(".sqlite"),
                           "history", "list"}
            << 1 << ".sqlite: File name too long.";
        // "folder does not exist" before.
        QTest::newRow("models import of a name over 255 bytes")
            << QStringList{"models", "import",
                           QDir::tempPath() + QLatin1Char('/') + QString(300, QLatin1Char('m'))}
            << 1 << "mmm: File name too long";
        // "no such file" before.
        QTest::newRow("caption of an image name over 255 bytes")
            << QStringList{"caption",
                           QDir::tempPath() + QLatin1Char('/') + QString(300, QLatin1Char('i')) +
                               QStringLiteral(".png")}
            << 1 << "iii.png: File name too long";
    }
    void messagesSayWhatIsWrong()
    {
        QFETCH(QStringList, args);
        QFETCH(int, exitCode);
        QFETCH(QString, message);
        const auto run =
            glosa::test::runGlosaCli(args, toyEnvironment(), "The cat sleeps.\n", 20000);
        QCOMPARE(run.exitCode, exitCode);
        QVERIFY2(run.err.contains(message.toUtf8()), run.err);
    }

    // Item 12: a 100 KB --model name is not echoed whole (the message was 100 KB long), nor a
    // 100 KB id given to `models remove` or `models default` (100 KB messages until round 2).
    void longModelNameIsNotEchoed_data()
    {
        QTest::addColumn<QStringList>("args");
        const QString name(100000, QLatin1Char('m'));
        QTest::newRow("translate --model") << QStringList{"translate", "--model", name};
        QTest::newRow("models remove") << QStringList{"models", "remove", name};
        QTest::newRow("models default") << QStringList{"models", "default", name};
    }
    void longModelNameIsNotEchoed()
    {
        QFETCH(QStringList, args);
        const auto run =
            glosa::test::runGlosaCli(args, toyEnvironment(), "The cat sleeps.\n", 20000);
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(run.err.size() < 1000, run.err.left(300));
        QVERIFY2(run.err.contains("(100000 characters)"), run.err.left(300));
    }

    // Item 12: a history that cannot be written (a read-only folder, a chmod 444 file) is still
    // listed, searched, shown and exported, and nothing is left beside it; a write says what is
    // read-only and leaves nothing either. Before: a read-only folder made every history command
    // "Cannot open the history file ... for writing" (SQLite could not create the -shm), and a
    // 0444 file was read but left 0444 -wal and -shm files behind (and a write said "for
    // writing" after leaving them too). Root writes anything, so as root glosa-cli runs as
    // nobody (65534), the owner of the files.
    void readOnlyHistoryIsReadAndLeftAlone_data()
    {
        QTest::addColumn<bool>("readOnlyFolder");
        QTest::addColumn<QByteArray>("refusal"); // what a write says
        QTest::newRow("folder 0555") << true << QByteArray("its folder");
        QTest::newRow("file 0444") << false << QByteArray("the file cannot be written");
    }
    void readOnlyHistoryIsReadAndLeftAlone()
    {
        QFETCH(bool, readOnlyFolder);
        QFETCH(QByteArray, refusal);
        QTemporaryDir dir;
        const QString folder = dir.filePath(QStringLiteral("history"));
        const QString path = folder + QStringLiteral("/h.sqlite");
        {
            glosa::HistoryStore store;
            store.open(path);
            for (const char *text : {"the cat sleeps", "the dog runs", "the cat eats"})
                store.addEntry(glosa::test::makeTranslation(QString::fromLatin1(text),
                                                            {QStringLiteral("x")}));
        } // closed: the -wal checkpointed and removed
        const uid_t nobody = 65534;
        const bool root = ::geteuid() == 0;
        if (root) { // nobody must reach the files, and own them
            QVERIFY(::chmod(QFile::encodeName(dir.path()).constData(), 0755) == 0);
            for (const QString &p : {folder, path})
                QVERIFY(::chown(QFile::encodeName(p).constData(), nobody, nobody) == 0);
        }
        QVERIFY(::chmod(QFile::encodeName(readOnlyFolder ? folder : path).constData(),
                        readOnlyFolder ? 0555 : 0444) == 0);
        const auto run = [&](const QStringList &args) {
            QProcess process;
            glosa::test::prepareGlosaCli(process, toyEnvironment());
            if (root)
                process.setChildProcessModifier([] {
                    if (::setgroups(0, nullptr) != 0 || ::setgid(65534) != 0 ||
                        ::setuid(65534) != 0)
                        ::_exit(99);
                });
            process.setArguments(QStringList{"--history", path} + args);
            process.start();
            process.write("the cat sleeps\n"); // what translate reads
            process.closeWriteChannel();
            process.waitForFinished(60000);
            return std::pair{process.exitCode(), process.readAllStandardOutput() +
                                                     process.readAllStandardError()};
        };
        const auto besideIt = [&] {
            return QDir(folder).entryList(QDir::Files | QDir::Hidden | QDir::System);
        };
        for (const QStringList &args :
             {QStringList{"history", "list"}, QStringList{"history", "search", "cat"},
              QStringList{"history", "show", "2"},
              QStringList{"history", "export", "--format", "jsonl"}}) {
            const auto [code, output] = run(args);
            QVERIFY2(code == 0, qPrintable(args.join(' ') + ": " + output));
            QVERIFY2(output.contains("the dog runs") || output.contains("the [cat]"), output);
            QCOMPARE(besideIt(), QStringList{QStringLiteral("h.sqlite")});
        }
        for (const QStringList &args :
             {QStringList{"history", "star", "1"},
              QStringList{"translate", "--model", "toy-en-es", "--save-history"}}) {
            const auto [code, output] = run(args);
            QVERIFY2(code == 1, qPrintable(args.join(' ') + ": " + output));
            QVERIFY2(output.contains("Cannot write to the history file " + QFile::encodeName(path) +
                                     ": " + refusal),
                     output);
            QCOMPARE(besideIt(), QStringList{QStringLiteral("h.sqlite")});
        }
        ::chmod(QFile::encodeName(folder).constData(), 0755); // for QTemporaryDir to remove it
    }

    // Item 12: a file whose name is not UTF-8 (Latin-1 "café.txt") is opened by its bytes, and
    // a name is printed escaped ("caf\xe9.txt"). Before: Qt decoded the argument to "caf�.txt",
    // "cannot open caf�.txt: No such file or directory". The raw bytes go through sh's printf:
    // QProcess encodes every argument as UTF-8.
    void nonUtf8FileNamesAreOpenedByTheirBytes()
    {
        QTemporaryDir dir;
        const QByteArray folder = QFile::encodeName(dir.path());
        {
            QFile file;
            const int fd = ::open(folder + "/caf\xe9.txt", O_WRONLY | O_CREAT | O_EXCL, 0644);
            QVERIFY(fd >= 0);
            QVERIFY(file.open(fd, QIODevice::WriteOnly, QFileDevice::AutoCloseHandle));
            QVERIFY(file.write("The cat sleeps.\n") > 0);
        }
        const auto links = [] {
            return QDir::temp().entryList({QStringLiteral("glosa-names-*")}, QDir::Dirs);
        };
        const QStringList before = links();
        const auto run = [&](const QString &arguments) {
            QProcess process;
            glosa::test::prepareGlosaCli(process, toyEnvironment());
            process.setWorkingDirectory(dir.path());
            process.setProgram(QStringLiteral("/bin/sh"));
            process.setArguments({QStringLiteral("-c"), QStringLiteral("exec \"$0\" ") + arguments,
                                  QStringLiteral(GLOSA_BINARY_DIR "/bin/glosa-cli")});
            process.start();
            process.closeWriteChannel();
            process.waitForFinished(60000);
            return std::tuple{process.exitCode(), process.readAllStandardOutput(),
                              process.readAllStandardError()};
        };
        const QString name = QStringLiteral("\"$(printf 'caf\\351.txt')\"");
        auto [code, out, err] =
            run(QStringLiteral("translate-doc --quiet --model toy-en-es %1 -o out.txt").arg(name));
        QVERIFY2(code == 0, err);
        QVERIFY2(readAll(dir.filePath(QStringLiteral("out.txt"))).contains("gato duerme"),
                 readAll(dir.filePath(QStringLiteral("out.txt"))));
        std::tie(code, out, err) = run(QStringLiteral("translate --model toy-en-es %1").arg(name));
        QVERIFY2(code == 0, err);
        QVERIFY2(out.contains("gato duerme"), out);
        // Without -o, OUT would be named beside IN: not in a name that is not UTF-8.
        std::tie(code, out, err) = run(QStringLiteral("translate-doc --model toy-en-es %1").arg(name));
        QCOMPARE(code, 2);
        QVERIFY2(err.contains("caf\\xe9.txt: the name is not UTF-8; name the output with -o OUT"),
                 err);
        // A missing one is named escaped, not with U+FFFD.
        std::tie(code, out, err) = run(QStringLiteral("translate-doc --model toy-en-es "
                                                      "\"$(printf 'nope\\351.txt')\" -o x.txt"));
        QCOMPARE(code, 1);
        QVERIFY2(err.contains("cannot open nope\\xe9.txt: No such file or directory"), err);
        QCOMPARE(links(), before); // the links made for it are gone
        ::unlink(folder + "/caf\xe9.txt"); // a name QTemporaryDir cannot remove
    }

    // Item 11: a UTF-8 file with one stray byte stays UTF-8, the byte becomes U+FFFD and a
    // notice names its line. Before: the whole file was read as ISO-8859-1 ("café" became
    // "cafÃ©") and written back in it.
    void utf8WithAStrayByteStaysUtf8()
    {
        const QByteArray bytes = "The caf\xc3\xa9 is open.\n\nSe\xc3\xb1or Garc\xc3\xad"
                                 "a.\n\nBad \xff.\n";
        const glosa::documents::Document doc =
            glosa::documents::parseDocument(bytes, QStringLiteral("txt"), QStringLiteral("m.txt"));
        QCOMPARE(doc.encoding, QStringLiteral("UTF-8"));
        QCOMPARE(doc.segments.size(), std::size_t(3));
        QCOMPARE(QString::fromUtf8(doc.segments[0].text), QStringLiteral("The café is open."));
        QCOMPARE(QString::fromUtf8(doc.segments[1].text), QStringLiteral("Señor García."));
        QCOMPARE(QString::fromUtf8(doc.segments[2].text), QStringLiteral("Bad \uFFFD."));
        QCOMPARE(
            doc.notices,
            QStringList{QStringLiteral(
                "m.txt: 1 byte not UTF-8 (line 5) read as U+FFFD (\uFFFD); the rest is UTF-8")});

        // Through glosa-cli: the notice, and the output in UTF-8.
        QTemporaryDir dir;
        const QString input = dir.filePath(QStringLiteral("m.txt"));
        QVERIFY(writeAll(input, bytes));
        const auto run = cli({"translate-doc", "--quiet", "--model", "toy-en-es", input, "-o",
                              dir.filePath(QStringLiteral("o.txt"))});
        QCOMPARE(run.exitCode, 0);
        QVERIFY2(
            run.err.contains("notice: " + QFile::encodeName(input) + ": 1 byte not UTF-8 (line 5)"),
            run.err);
        QVERIFY2(!run.err.contains("ISO-8859"), run.err);
        const QByteArray out = readAll(dir.filePath(QStringLiteral("o.txt")));
        QVERIFY2(QString::fromUtf8(out).toUtf8() == out, out); // well-formed UTF-8

        // A Latin-1 file (no well-formed multi-byte character) is still read as Latin-1.
        const glosa::documents::Document latin1 =
            glosa::documents::parseDocument("Se\xf1or Garc\xed"
                                            "a est\xe1 aqu\xed.\n",
                                            QStringLiteral("txt"), QStringLiteral("l.txt"));
        QVERIFY2(latin1.encoding != QLatin1String("UTF-8"), qPrintable(latin1.encoding));
        QCOMPARE(QString::fromUtf8(latin1.segments[0].text),
                 QStringLiteral("Señor García está aquí."));
        QCOMPARE(latin1.notices.size(), 1); // which encoding it was read as
        QVERIFY2(latin1.notices.first().startsWith(QStringLiteral("l.txt is not UTF-8: read as ")),
                 qPrintable(latin1.notices.first()));
    }

    // Item 11: text in GB18030, Big5, Shift_JIS, EUC-JP and EUC-KR is detected (ICU's charset
    // detector, multi-byte encodings only above a confidence threshold) and read as what it is;
    // a notice names the encoding assumed; the output is UTF-8 unless --output-encoding input.
    // Before: GB18030, Big5 and EUC-KR were read as ISO-8859-1 (mojibake, and the model's
    // output written back in Latin-1), Shift_JIS was refused as "not UTF-8 text".
    void legacyMultiByteEncodingsAreDetected_data()
    {
        QTest::addColumn<QString>("encoding");
        QTest::addColumn<QString>("text");
        const QString chinese = QStringLiteral("猫在睡觉。这是一个关于中国文化的简短文件，我们用它来测"
                                               "试编码检测。我们的朋友都在家里吃饭。");
        QTest::newRow("GB18030") << "GB18030" << chinese;
        QTest::newRow("Big5") << "Big5"
                              << QStringLiteral("貓在睡覺。這是一個關於中國文化的簡短文件，我們用"
                                                "它來測試編碼檢測。我們的朋友都在家裡吃飯。");
        const QString japanese = QStringLiteral("猫が寝ています。これは日本語のテキストです。私たち"
                                                "の友達はみんな家でご飯を食べています。");
        QTest::newRow("Shift_JIS") << "Shift_JIS" << japanese;
        QTest::newRow("EUC-JP") << "EUC-JP" << japanese;
        QTest::newRow("EUC-KR") << "EUC-KR"
                                << QStringLiteral("고양이가 잠을 자요. 이것은 한국어 텍스트입니다. "
                                                  "우리 친구들은 모두 집에서 밥을 먹어요.");
    }
    void legacyMultiByteEncodingsAreDetected()
    {
        QFETCH(QString, encoding);
        QFETCH(QString, text);
        const QString paragraphs = QStringLiteral("The cat sleeps.\n\n") + text + QLatin1Char('\n');
        const std::optional<QByteArray> bytes =
            glosa::documents::encodeText(paragraphs.toUtf8(), encoding);
        QVERIFY(bytes);
        const glosa::documents::Document doc =
            glosa::documents::parseDocument(*bytes, QStringLiteral("txt"), QStringLiteral("c.txt"));
        QCOMPARE(doc.encoding, encoding);
        QCOMPARE(doc.segments.size(), std::size_t(2));
        QCOMPARE(QString::fromUtf8(doc.segments[1].text), text);
        QCOMPARE(doc.notices.size(), 1);
        QVERIFY2(doc.notices.first().startsWith(
                     QStringLiteral("c.txt is not UTF-8: read as %1, the most likely encoding "
                                    "(ICU's charset detector: confidence ")
                         .arg(encoding)),
                 qPrintable(doc.notices.first()));

        // Through glosa-cli: the notice, then UTF-8 out; --output-encoding input writes the
        // input's encoding where every character fits.
        QTemporaryDir dir;
        const QString input = dir.filePath(QStringLiteral("c.txt"));
        const QString output = dir.filePath(QStringLiteral("o.txt"));
        QVERIFY(writeAll(input, *bytes));
        auto run = cli({"translate-doc", "--quiet", "--model", "toy-en-es", input, "-o", output});
        QCOMPARE(run.exitCode, 0);
        QVERIFY2(run.err.contains("notice: " + QFile::encodeName(input) +
                                  " is not UTF-8: read as " + encoding.toLatin1()),
                 run.err);
        QVERIFY2(run.err.contains(QFile::encodeName(output) + " is written in UTF-8"), run.err);
        const QByteArray utf8 = readAll(output);
        QVERIFY2(QString::fromUtf8(utf8).toUtf8() == utf8, utf8);
        QVERIFY2(utf8.contains("gato duerme."), utf8);
        run = cli({"translate-doc", "--quiet", "--model", "toy-en-es", input, "-o", output,
                   "--output-encoding", "input"});
        QCOMPARE(run.exitCode, 0);
        // The toy model writes what it does not know as U+2047 (⁇), which GB18030 has and
        // Big5 does not, for example.
        if (const auto encoded = glosa::documents::encodeText(utf8, encoding)) {
            QCOMPARE(readAll(output), *encoded);
            QVERIFY2(run.err.contains(" is written in " + encoding.toLatin1() + ", as the input"),
                     run.err);
        } else {
            QCOMPARE(readAll(output), utf8);
            QVERIFY2(run.err.contains(" is written in UTF-8: the translation has characters "
                                      "that " +
                                      encoding.toLatin1() + " does not have"),
                     run.err);
        }
    }

    // Latin-1 prose that happens to pair up into valid GB18030 / Big5 characters ("ño", "ía")
    // stays Latin-1: the multi-byte matches are under the confidence threshold.
    void latin1IsNotTakenForAMultiByteEncoding()
    {
        const QByteArray latin1 = QStringLiteral("La canci\u00f3n del ni\u00f1o peque\u00f1o "
                                                 "est\u00e1 aqu\u00ed; Se\u00f1or Garc\u00eda "
                                                 "lleg\u00f3 r\u00e1pido.\n")
                                      .toLatin1()
                                      .repeated(20);
        int confidence = 0;
        const QString encoding = glosa::documents::detectEncoding(latin1, false, &confidence);
        QVERIFY2(encoding == QLatin1String("ISO-8859-1") ||
                     encoding == QLatin1String("windows-1252"),
                 qPrintable(encoding));
    }

    // Item 11: UTF-16 without a byte-order mark is text, not "binary data", and is written back
    // as it was read.
    void utf16WithoutAByteOrderMarkIsText_data()
    {
        QTest::addColumn<QString>("encoding");
        QTest::newRow("UTF-16LE") << "UTF-16LE";
        QTest::newRow("UTF-16BE") << "UTF-16BE";
    }
    void utf16WithoutAByteOrderMarkIsText()
    {
        QFETCH(QString, encoding);
        const QString text = QStringLiteral("The café is open.\n\nSeñor García sleeps.\n");
        QByteArray bytes;
        for (const QChar c : text) {
            const char16_t u = c.unicode();
            const char low = char(u & 0xFF), high = char(u >> 8);
            const bool little = encoding == QLatin1String("UTF-16LE");
            bytes += little ? low : high;
            bytes += little ? high : low;
        }
        glosa::documents::Document doc;
        try {
            doc = glosa::documents::parseDocument(bytes, QStringLiteral("txt"),
                                                  QStringLiteral("u16.txt"));
        } catch (const glosa::documents::DocumentError &error) {
            QFAIL(qPrintable(error.message()));
        }
        QCOMPARE(doc.encoding, encoding);
        QCOMPARE(doc.segments.size(), std::size_t(2));
        QCOMPARE(QString::fromUtf8(doc.segments[1].text), QStringLiteral("Señor García sleeps."));
        QCOMPARE(glosa::documents::encodeText(doc.render(), doc.encoding), bytes);
        // Binary data with NULs on both sides of the units, and ASCII with a stray NUL, are
        // still binary.
        for (const QByteArray &binary :
             {QByteArray("ab\0\0cd", 6), QByteArray("the cat sleeps\0 the dog runs", 29)})
            QVERIFY_THROWS_EXCEPTION(
                glosa::documents::DocumentError,
                glosa::documents::parseDocument(binary + "\n", QStringLiteral("txt")));
    }

    // Round 3, items 4 and 11: 50,000 nested lists in the settings overflowed the stack when
    // QDataStream read them, and every start of glosa-cli (and the GUI) ended in SIGSEGV. Now the
    // depth is bounded, the file is moved aside, and glosa-cli says so once, naming the copy.
    void deeplyNestedSettingsAreResetOnce()
    {
        QTemporaryDir config, data;
        const QString file = cliSettingsFile(config.path());
        QVERIFY(QDir().mkpath(QFileInfo(file).path()));
        QVERIFY(writeAll(file, nestedSettings(50'000)));
        const auto first = cliIn(config.path(), data.path(), {"models"});
        QVERIFY2(first.exitCode == 0, first.err);
        QVERIFY2(first.err.contains(("glosa-cli: the settings file " + file +
                                     " could not be read (values nest deeper than the limit of "
                                     "64); it was kept as " + file + ".damaged")
                                        .toUtf8()),
                 first.err);
        QCOMPARE(readAll(file + QStringLiteral(".damaged")), nestedSettings(50'000));
        const auto second = cliIn(config.path(), data.path(), {"models"});
        QVERIFY2(second.exitCode == 0 && !second.err.contains("settings"), second.err);
    }
    // ... and settings nested as deep as the limit are read as they were.
    void settingsWithinTheDepthLimitAreRead()
    {
        QTemporaryDir config, data;
        glosa::test::isolateAppState(config.path(), data.path(),
                                     QStringLiteral("tst_reliability_depth"));
        QVariant value = 7;
        for (int i = 0; i < 63; ++i)
            value = QVariantList{value};
        {
            QSettings settings;
            settings.setValue(QStringLiteral("deep"), value);
            settings.setValue(QStringLiteral("map"), QVariantMap{{"a", QVariantHash{{"b", 1}}}});
        }
        QSettings settings;
        QCOMPARE(settings.status(), QSettings::NoError);
        QCOMPARE(settings.value(QStringLiteral("deep")), value);
        QCOMPARE(settings.value(QStringLiteral("map")),
                 QVariant(QVariantMap{{"a", QVariantHash{{"b", 1}}}}));
    }

    // Round 3, item 5: a FIFO as the settings file: QSettings' open waited for a writer and no
    // command (nor the GUI's window) ever started. Now it is moved aside and said, at once.
    void settingsFifoIsMovedAside()
    {
        QTemporaryDir config, data;
        const QString file = cliSettingsFile(config.path());
        QVERIFY(QDir().mkpath(QFileInfo(file).path()));
        QVERIFY(::mkfifo(QFile::encodeName(file).constData(), 0600) == 0);
        const auto run = cliIn(config.path(), data.path(), {"models"});
        QVERIFY2(run.exitCode == 0, run.err);
        QVERIFY2(run.err.contains("could not be read (not a regular file (a FIFO))"), run.err);
        QFileInfo kept(file + QStringLiteral(".damaged"));
        QVERIFY(kept.exists() && !kept.isFile());
    }

    // Round 3, item 7: an import killed midway left its hidden staging folder for good (1021 MB
    // after a --float32 import). Each staging folder's owner file is locked by its import: the
    // next listing removes those whose lock is free, and the old ones from before the lock.
    void abandonedStagingIsRemovedByTheNextListing()
    {
        QTemporaryDir config, data;
        const QString models = data.path() + QStringLiteral("/Glosa/Glosa/models");
        for (const char *name : {".import-live01", ".import-dead01", ".import-old001"}) {
            QVERIFY(QDir().mkpath(models + QLatin1Char('/') + name + QStringLiteral("/sub")));
            QVERIFY(writeAll(models + QLatin1Char('/') + name + QStringLiteral("/sub/w"), "x"));
        }
        QVERIFY(writeAll(models + QStringLiteral("/.import-dead01.owner"), "99999999\n"));
        QVERIFY(writeAll(models + QStringLiteral("/.import-gone01.owner"), "99999999\n"));
        QVERIFY(writeAll(models + QStringLiteral("/.import-live01.owner"), "1\n"));
        QFile live(models + QStringLiteral("/.import-live01.owner"));
        QVERIFY(live.open(QIODevice::ReadWrite));
        QVERIFY(::flock(live.handle(), LOCK_EX | LOCK_NB) == 0); // an import running here
        const timespec twoHoursAgo[2] = {{::time(nullptr) - 7200, 0}, {::time(nullptr) - 7200, 0}};
        QVERIFY(::utimensat(AT_FDCWD,
                            QFile::encodeName(models + QStringLiteral("/.import-old001")).constData(),
                            twoHoursAgo, 0) == 0);
        const auto run = cliIn(config.path(), data.path(), {"models"});
        QVERIFY2(run.exitCode == 0, run.err);
        QCOMPARE(stagingIn(models),
                 (QStringList{".import-live01", ".import-live01.owner"}));
    }
    // ... and Ctrl+C or SIGTERM cancel an import, which removes its staging folder before
    // glosa-cli ends; a SIGKILL leaves it to the next listing.
    void interruptedImportLeavesNoStaging_data()
    {
        QTest::addColumn<int>("signal");
        QTest::newRow("SIGINT") << int(SIGINT);
        QTest::newRow("SIGTERM") << int(SIGTERM);
        QTest::newRow("SIGKILL") << int(SIGKILL);
    }
    void interruptedImportLeavesNoStaging()
    {
        const QString fixture = glosa::test::marianFixtureDir(QStringLiteral("bin"));
        if (!QFileInfo::exists(fixture))
            QSKIP(qPrintable(QStringLiteral("shared fixture not found: %1").arg(fixture)));
        QFETCH(int, signal);
        QTemporaryDir config, data;
        const QString models = data.path() + QStringLiteral("/Glosa/Glosa/models");
        bool caught = false;
        for (int attempt = 0; attempt < 5 && !caught; ++attempt) {
            QDir(models).removeRecursively();
            QProcess process;
            auto env = toyEnvironment();
            env.append({QStringLiteral("XDG_DATA_HOME"), data.path()});
            env.append({QStringLiteral("XDG_CONFIG_HOME"), config.path()});
            glosa::test::prepareGlosaCli(process, env);
            process.setArguments({"models", "import", fixture, "--float32", "--id", "m"});
            process.start();
            QVERIFY(process.waitForStarted());
            // The signal lands while the staging folder is there.
            QVERIFY(QTest::qWaitFor([&] {
                return !stagingIn(models).isEmpty() || process.state() == QProcess::NotRunning;
            }, 30000));
            ::kill(pid_t(process.processId()), signal);
            QVERIFY(process.waitForFinished(30000));
            caught = !QFileInfo::exists(models + QStringLiteral("/m"));
            if (!caught)
                continue; // the import finished first: try again
            if (signal == SIGKILL) {
                QVERIFY(!stagingIn(models).isEmpty());
                QVERIFY(cliIn(config.path(), data.path(), {"models"}).exitCode == 0);
            } else {
                QCOMPARE(process.exitCode(), 128 + signal);
                QVERIFY2(process.readAllStandardError().contains("the import was cancelled"),
                         "no message");
            }
            QCOMPARE(stagingIn(models), QStringList());
        }
        if (!caught)
            QSKIP("the import finished before each signal landed");
    }

    // Round 3, item 9: on a full disk an import said "cannot write the file (disk full or not
    // writable?)" or "Input/output error". Now the system's own words, and the path.
    void fullDiskImportSaysNoSpace()
    {
        const QString fixture = glosa::test::marianFixtureDir(QStringLiteral("safetensors"));
        if (!QFileInfo::exists(fixture))
            QSKIP(qPrintable(QStringLiteral("shared fixture not found: %1").arg(fixture)));
        SmallTmpfs disk;
        if (!disk.isMounted())
            QSKIP(qPrintable(disk.why()));
        glosa::engine::MarianImportOptions options;
        options.int8 = false; // 5.6 MB of float32 on a 2 MiB disk
        QString error;
        try {
            glosa::engine::importMarian(fixture.toStdString(),
                                        disk.filePath(QStringLiteral("models")).toStdString(),
                                        options);
        } catch (const glosa::engine::PackageError &e) {
            error = QString::fromStdString(e.what());
        }
        QVERIFY2(error.contains(disk.filePath(QStringLiteral("models/.import-"))) &&
                     error.contains(QStringLiteral("No space left on device")),
                 qPrintable(error));
        QCOMPARE(stagingIn(disk.filePath(QStringLiteral("models"))), QStringList());
    }
};

QTEST_MAIN(TestReliability)
#include "tst_reliability.moc"
