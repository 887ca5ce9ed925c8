// glosa-cli models search / models get: OPUS-MT (and other MarianMT) models from the Hugging Face
// hub, through the same client and install step as the GUI's Get models… (app/core/hub).
#include "app/cli/modelshub.h"

#include "app/cli/interrupt.h"
#include "app/core/hub/hubinstall.h"

#include <QCommandLineParser>
#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTextStream>

#include <algorithm>
#include <unistd.h>

namespace glosa::cli {

namespace {

QString megabytes(qint64 bytes)
{
    return QString::number(double(bytes) / 1e6, 'f', bytes < 10'000'000 ? 1 : 0);
}

QString secondsText(double seconds)
{
    const qint64 s = qint64(seconds + 0.5);
    return s < 60 ? QStringLiteral("%1 s").arg(s)
                  : QStringLiteral("%1 min %2 s").arg(s / 60).arg(s % 60, 2, 10, QLatin1Char('0'));
}

// One line on a terminal, redrawn at most five times a second: bytes, rate, time left.
class ProgressLine
{
public:
    ProgressLine(QTextStream &err, bool enabled) : m_err(err), m_enabled(enabled) { m_clock.start(); }
    ~ProgressLine() { end(); }

    void show(const QString &text, bool force = false)
    {
        if (!m_enabled || (!force && m_shown && m_clock.elapsed() < 200))
            return;
        m_clock.restart();
        m_err << '\r' << text.leftJustified(m_width) << Qt::flush;
        m_width = std::max(m_width, int(text.size()));
        m_shown = true;
    }
    void download(const HubProgress &p)
    {
        QString text = QStringLiteral("downloading %1: %2 of %3 MB")
                           .arg(p.file, megabytes(p.bytes), megabytes(p.total));
        if (p.bytesPerSecond > 0) {
            text += QStringLiteral(", %1 MB/s").arg(p.bytesPerSecond / 1e6, 0, 'f', 1);
            if (p.total > p.bytes)
                text += QStringLiteral(", %1 left").arg(secondsText((p.total - p.bytes) / p.bytesPerSecond));
        }
        show(text, p.bytes == p.total);
    }
    void end()
    {
        if (m_shown)
            m_err << '\n' << Qt::flush;
        m_shown = false;
    }

private:
    QTextStream &m_err;
    bool m_enabled;
    bool m_shown = false;
    int m_width = 0;
    QElapsedTimer m_clock;
};

bool parseHub(QCommandLineParser &parser, const QString &command, const QStringList &args,
              QTextStream &err, const QString &expected)
{
    if (!parser.parse(QStringList{QStringLiteral("glosa-cli models ") + command} + args)) {
        err << "glosa-cli models " << command << ": " << parser.errorText() << "\n";
        return false;
    }
    if (parser.positionalArguments().size() != 1) {
        err << "glosa-cli models " << command << ": expected " << expected << "\n";
        return false;
    }
    return true;
}

QString downloadsText(qint64 downloads)
{
    return downloads >= 1'000'000 ? QStringLiteral("%1M").arg(downloads / 1e6, 0, 'f', 1)
           : downloads >= 1000    ? QStringLiteral("%1k").arg(downloads / 1e3, 0, 'f', 1)
                                  : QString::number(downloads);
}


} // namespace

void printAlignedTable(const QList<QStringList> &table, QTextStream &out)
{
    QList<int> widths(table.first().size(), 0);
    for (const QStringList &row : table)
        for (int c = 0; c < row.size(); ++c)
            widths[c] = std::max(widths[c], int(row[c].size()));
    for (const QStringList &row : table) {
        QString line;
        for (int c = 0; c < row.size(); ++c)
            line += c + 1 < row.size() ? row[c].leftJustified(widths[c] + 2) : row[c];
        out << line << "\n";
    }
}

int hubExitCode(HubErrorKind kind)
{
    switch (kind) {
    case HubErrorKind::None: return 0;
    case HubErrorKind::NotFound: return 4;
    case HubErrorKind::Network:
    case HubErrorKind::BadResponse: return 5;
    case HubErrorKind::Checksum: return 6;
    case HubErrorKind::DiskFull: return 7;
    case HubErrorKind::Offline: return 8;
    case HubErrorKind::Unauthorized: return 9;
    case HubErrorKind::Cancelled: return 130;
    case HubErrorKind::WriteFailed:
    case HubErrorKind::NotAModel:
    case HubErrorKind::ImportFailed: return 1;
    }
    return 1;
}

int runModelsSearchCommand(const QStringList &args, QTextStream &out, QTextStream &err)
{
    QCommandLineParser parser;
    parser.addOptions({{"json", "One JSON object per model."},
                       {"author",
                        "Only this publisher's models; 'any' for every publisher (default: "
                        "Helsinki-NLP, who publish OPUS-MT).",
                        "NAME", "Helsinki-NLP"},
                       {"limit", "At most this many results (default 50).", "N", "50"}});
    if (!parseHub(parser, QStringLiteral("search"), args, err, QStringLiteral("a search text")))
        return 2;
    const QString query = parser.positionalArguments().first();
    QString author = parser.value("author");
    if (author == QLatin1String("any"))
        author.clear();
    if (query.contains(QLatin1Char('/'))) // "ORG/NAME" names its publisher
        author = query.section(QLatin1Char('/'), 0, 0);
    HubClient hub;
    const CancelOnInterrupt cancelOnInterrupt;
    const auto found = hub.search(query.section(QLatin1Char('/'), -1), author,
                                  parser.value("limit").toInt(),
                                  [] { return interrupted().load(); });
    if (!found.ok()) {
        err << "glosa-cli models search: " << found.error.message << "\n";
        return hubExitCode(found.error.kind);
    }
    const QList<HubModelSummary> &models = found.value;
    if (parser.isSet("json")) {
        for (const HubModelSummary &m : models)
            out << QJsonDocument(QJsonObject{{"id", m.id},
                                             {"languages", QJsonArray::fromStringList(m.languages)},
                                             {"licence", m.licence},
                                             {"downloads", m.downloads},
                                             {"likes", m.likes},
                                             {"gated", m.gated}})
                       .toJson(QJsonDocument::Compact)
                << "\n";
        return 0;
    }
    QList<QStringList> table = {{"REPOSITORY", "LANGUAGES", "LICENCE", "DOWNLOADS"}};
    for (const HubModelSummary &m : models)
        table.append({m.id, m.languages.join(QLatin1Char(' ')), m.licence.isEmpty() ? "-" : m.licence,
                      downloadsText(m.downloads)});
    printAlignedTable(table, out);
    if (models.isEmpty())
        err << "glosa-cli models search: nothing found for \"" << query << "\"\n";
    return 0;
}

int runModelsGetCommand(const QStringList &args, QTextStream &out, QTextStream &err)
{
    QCommandLineParser parser;
    parser.addOptions(
        {{"revision", "A branch, tag or commit (default: main).", "REV"},
         {"float32", "Keep float32 weights (default: int8, a quarter of the size)."},
         {"id", "The package id (default: the repository's name, e.g. opus-mt-en-es).", "ID"},
         {"keep-files", "Keep the downloaded files in the cache folder after the import."},
         {"quiet", "No progress line."}});
    if (!parseHub(parser, QStringLiteral("get"), args, err,
                  QStringLiteral("a repository id such as Helsinki-NLP/opus-mt-en-es")))
        return 2;
    HubInstallRequest request;
    request.repo = parser.positionalArguments().first();
    request.revision = parser.value("revision");
    request.float32 = parser.isSet("float32");
    request.id = parser.value("id");
    request.keepFiles = parser.isSet("keep-files");
    HubClient hub;
    ProgressLine line(err, !parser.isSet("quiet") && ::isatty(STDERR_FILENO));
    const CancelOnInterrupt cancelOnInterrupt;
    const HubInstallResult done = installFromHub(
        hub, request, [&](const HubProgress &p) { line.download(p); },
        [&](double fraction) {
            line.show(QStringLiteral("importing: %1%").arg(int(fraction * 100)), fraction >= 1);
        },
        [] { return interrupted().load(); });
    line.end();
    if (!done.error.ok()) {
        err << "glosa-cli models get: " << done.error.message << "\n";
        if (done.error.kind == HubErrorKind::Cancelled)
            err << "glosa-cli models get: the partial download is kept; the same command "
                   "resumes it\n";
        return hubExitCode(done.error.kind);
    }
    out << "installed " << done.id << " from " << request.repo << " (commit "
        << done.commit.left(12) << ") into " << done.folder << "\n";
    return 0;
}

} // namespace glosa::cli
