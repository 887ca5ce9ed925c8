#include "app/cli/historycommand.h"

#include "app/core/history/export.h"
#include "app/core/history/recorder.h"
#include "app/core/history/store.h"
#include "app/core/savefile.h"
#include "app/core/settings.h"

#include <QCommandLineParser>
#include <QFile>
#include <QJsonDocument>
#include <QTextStream>

namespace glosa::cli {

std::optional<QString> takeHistoryOption(QStringList &args, QTextStream &err)
{
    QString path;
    for (qsizetype i = 1; i < args.size();) {
        const QString &a = args[i];
        if (a == QLatin1String("--history")) {
            if (i + 1 >= args.size()) {
                err << "glosa-cli: --history needs a PATH\n";
                return std::nullopt;
            }
            path = args[i + 1];
            args.remove(i, 2);
        } else if (a.startsWith(QLatin1String("--history="))) {
            path = a.mid(10);
            args.remove(i);
        } else {
            ++i;
        }
    }
    return path.isEmpty() ? HistoryStore::defaultPath() : path;
}

namespace {

int usage(QTextStream &err)
{
    err << "usage: glosa-cli [--history PATH] history " << historyCommand().synopsis
        << "\n'glosa-cli history --help' tells more.\n";
    return 2;
}

QString oneLine(QString text)
{
    text.replace(QLatin1Char('\n'), QLatin1Char(' '));
    text.replace(QLatin1Char('\t'), QLatin1Char(' '));
    return text;
}

std::optional<QDateTime> parseDate(const QString &text)
{
    QDateTime t = QDateTime::fromString(text, Qt::ISODateWithMs);
    if (!t.isValid()) {
        const QDate d = QDate::fromString(text, Qt::ISODate);
        if (!d.isValid())
            return std::nullopt;
        t = QDateTime(d, QTime(0, 0), Qt::UTC);
    }
    if (t.timeSpec() == Qt::LocalTime) // no offset given: UTC, as documented
        t.setTimeSpec(Qt::UTC);
    return t;
}

// Damaged entries go to stderr (stdout keeps one format a line for scripts) and make the exit
// code 1: a listing with holes must not pass for a whole one.
int reportDamage(QTextStream &err, const QList<HistoryDamage> &damaged)
{
    for (const HistoryDamage &damage : damaged)
        err << "glosa-cli history: entry " << damage.id << " is damaged and cannot be read ("
            << damage.error << ")\n";
    if (damaged.isEmpty())
        return 0;
    err << "glosa-cli history: 'glosa-cli history repair' rebuilds the file from the entries "
           "that can be read, keeping the old one\n";
    return 1;
}

void printSummary(QTextStream &out, const HistorySummary &s, bool withSnippet)
{
    out << s.id << '\t' << s.time.toUTC().toString(QStringLiteral("yyyy-MM-dd HH:mm:ss")) << '\t'
        << historyKindName(s.kind) << '\t' << (s.starred ? "*" : "") << s.modelId << '\t';
    if (withSnippet)
        out << oneLine(s.snippet) << '\n';
    else
        out << oneLine(s.inputPreview) << '\t' << oneLine(s.outputPreview) << '\n';
}

} // namespace

int runHistoryCommand(const QStringList &args, const CommandIo &io);

Command historyCommand()
{
    Command help;
    help.name = QStringLiteral("history");
    help.synopsis = QStringLiteral("list|search QUERY...|show ID|export|star ID|unstar ID|delete "
                                   "ID|clear --yes|repair [options]");
    help.summary = QStringLiteral(
        "List, search, show, export, star or delete history entries; repair the file.");
    help.description = QStringLiteral(
        "Works on the history the app records (or --history PATH): list shows the newest "
        "entries, search finds entries by words of their input or output (newest first, or "
        "--relevance), show prints one entry in full as JSON, export writes the entries that "
        "match the filters as JSON Lines, CSV or TMX, clear deletes every entry.\n\n"
        "A file damaged in places stays in use: list, search and show report the entries that "
        "cannot be read on stderr, with their id and SQLite's error, and exit with 1. repair "
        "rebuilds the file from every entry that can be read and keeps the old one next to it "
        "(its name is printed); close Glosa first.\n\n"
        "Dates are ISO 8601 in UTC; a bare date means its midnight.");
    help.options = {
        {"kind",
         "Only entries of this kind: translation, caption, comparison, document or evaluation.",
         "KIND"},
        {"model", "Only entries made with this model id.", "ID"},
        {"since", "Only entries made at or after DATE.", "DATE"},
        {"until", "Only entries made before DATE.", "DATE"},
        {"starred", "Only starred entries."},
        {"limit", "list, search: at most N entries.", "N", QStringLiteral("20")},
        {"offset", "list, search: skip the first N entries.", "N", QStringLiteral("0")},
        {"relevance", "search: best matches first instead of newest first."},
        {"format", "export: jsonl, csv or tmx.", "FORMAT"},
        {{"o", "output"}, "export: write FILE instead of stdout.", "FILE"},
        {"yes", "clear: really delete every entry."},
    };
    help.examples = {
        QStringLiteral("glosa-cli history search coffee"),
        QStringLiteral("glosa-cli history list --kind translation --since 2026-01-01 --limit 50"),
        QStringLiteral("glosa-cli history export --format tmx --starred -o memory.tmx"),
        QStringLiteral("glosa-cli --history work.sqlite history show 12"),
    };
    help.run = runHistoryCommand;
    return help;
}

int runHistoryCommand(const QStringList &args, const CommandIo &io)
{
    const QString &historyPath = io.historyPath;
    QTextStream &out = io.out, &err = io.err;
    if (args.isEmpty())
        return usage(err);
    const QString sub = args.first();
    static const QStringList known = {"list",   "search", "show",  "export", "star",
                                      "unstar", "delete", "clear", "repair"};
    if (!known.contains(sub)) { // before open(): a typo must not create a database
        err << "glosa-cli history: unknown subcommand '" << sub << "'\n";
        return usage(err);
    }

    QCommandLineParser parser;
    parser.setSingleDashWordOptionMode(QCommandLineParser::ParseAsLongOptions);
    parser.addOptions(historyCommand().options);
    if (!parser.parse(QStringList{QStringLiteral("glosa-cli history")} + args.mid(1))) {
        err << "glosa-cli history: " << parser.errorText() << '\n';
        return usage(err);
    }
    const QStringList positional = parser.positionalArguments();

    HistoryFilter filter;
    if (parser.isSet("kind")) {
        filter.kind = historyKindFromName(parser.value("kind"));
        if (!filter.kind) {
            err << "glosa-cli history: unknown kind '" << parser.value("kind")
                << "' (translation, caption, comparison, document, evaluation)\n";
            return 2;
        }
    }
    filter.modelId = parser.value("model");
    for (const auto &[option, target] :
         {std::pair{"since", &filter.from}, std::pair{"until", &filter.to}}) {
        if (!parser.isSet(option))
            continue;
        const std::optional<QDateTime> t = parseDate(parser.value(option));
        if (!t) {
            err << "glosa-cli history: '" << parser.value(option) << "' is not an ISO 8601 date\n";
            return 2;
        }
        *target = *t;
    }
    filter.starredOnly = parser.isSet("starred");
    bool limitOk = false, offsetOk = false;
    const int limit = parser.value("limit").toInt(&limitOk);
    const int offset = parser.value("offset").toInt(&offsetOk);
    if (!limitOk || !offsetOk || limit < 0 || offset < 0) {
        err << "glosa-cli history: --limit and --offset take a number >= 0\n";
        return 2;
    }
    const auto idArgument = [&]() -> qint64 {
        bool ok = false;
        const qint64 id = positional.size() == 1 ? positional.first().toLongLong(&ok) : 0;
        return ok && id > 0 ? id : 0;
    };

    try {
        HistoryStore::Options options;
        options.retention = historyRetentionFromSettings(); // the app's Settings ▸ History
        HistoryStore store(options);
        // Reading needs no write access: a read-only folder or file still lists (issue #33).
        static const QStringList reading = {"list", "search", "show", "export"};
        const HistoryOpenResult opened =
            reading.contains(sub) ? store.openForReading(historyPath) : store.open(historyPath);
        if (opened.status != HistoryOpenResult::Status::Opened &&
            opened.status != HistoryOpenResult::Status::Created && sub != QLatin1String("repair"))
            err << "glosa-cli: warning: " << opened.message << '\n';

        if (sub == QLatin1String("list")) {
            const HistoryPage page = store.recent(filter, offset, limit);
            for (const HistorySummary &s : page.items)
                printSummary(out, s, false);
            if (page.hasMore)
                err << "(more: --offset " << offset + limit << ")\n";
            return reportDamage(err, page.damaged);
        }
        if (sub == QLatin1String("search")) {
            if (positional.isEmpty()) {
                err << "glosa-cli history search: QUERY is missing\n";
                return 2;
            }
            HistorySearchOptions options;
            if (parser.isSet("relevance"))
                options.order = HistorySearchOptions::Order::Relevance;
            const HistoryPage page =
                store.search(positional.join(QLatin1Char(' ')), filter, offset, limit, options);
            for (const HistorySummary &s : page.items)
                printSummary(out, s, true);
            if (page.hasMore)
                err << "(more: --offset " << offset + limit << ")\n";
            const int damage = reportDamage(err, page.damaged);
            // As grep: nothing found is said, and is exit code 1.
            if (page.items.isEmpty() && page.damaged.isEmpty()) {
                err << "glosa-cli history search: no entries match '"
                    << positional.join(QLatin1Char(' ')) << "'"
                    << (offset > 0 ? QStringLiteral(" after the first %1").arg(offset) : QString())
                    << "\n";
                return 1;
            }
            return damage;
        }
        if (sub == QLatin1String("show")) {
            const qint64 id = idArgument();
            std::optional<HistoryEntry> e;
            try {
                e = id ? store.entry(id) : std::nullopt;
            } catch (const HistoryError &error) {
                if (error.code() != HistoryError::Code::Corrupt)
                    throw;
                return reportDamage(err, {{id, sqliteReason(error)}});
            }
            if (!e) {
                err << "glosa-cli history show: no entry '" << positional.join(' ') << "'\n";
                return 1;
            }
            out << QJsonDocument(e->toJson()).toJson(QJsonDocument::Indented);
            return 0;
        }
        if (sub == QLatin1String("export")) {
            const std::optional<HistoryExportFormat> format =
                historyExportFormatFromName(parser.value("format"));
            if (!format) {
                err << "glosa-cli history export: --format must be jsonl, csv or tmx\n";
                return 2;
            }
            HistoryExport done;
            if (parser.isSet("output") && parser.value("output") != QLatin1String("-")) {
                // QSaveFile: a failed export never leaves a truncated file behind.
                if (const QString problem =
                        historyExportTargetProblem(store, parser.value("output"));
                    !problem.isEmpty()) {
                    err << "glosa-cli history export: " << problem << '\n';
                    return 1;
                }
                SaveFile file(parser.value("output"));
                if (!file.open(QIODevice::WriteOnly)) {
                    err << "glosa-cli history export: cannot write " << file.fileName() << ": "
                        << file.errorString() << '\n';
                    return 1;
                }
                done = exportHistory(store, *format, file, filter);
                if (!file.commit()) {
                    err << "glosa-cli history export: cannot write " << file.fileName() << ": "
                        << file.errorString() << '\n';
                    return 1;
                }
            } else {
                out.flush();
                QFile stdoutFile;
                stdoutFile.open(stdout, QIODevice::WriteOnly);
                done = exportHistory(store, *format, stdoutFile, filter);
            }
            err << "exported " << done.records << (done.records == 1 ? " record\n" : " records\n");
            // The file holds every readable entry; the damaged ones are named, exit code 1.
            return reportDamage(err, done.damaged);
        }
        if (sub == QLatin1String("star") || sub == QLatin1String("unstar") ||
            sub == QLatin1String("delete")) {
            const qint64 id = idArgument();
            const bool done = id && (sub == QLatin1String("delete")
                                         ? store.removeEntry(id)
                                         : store.setStarred(id, sub == QLatin1String("star")));
            if (!done) {
                err << "glosa-cli history " << sub << ": no entry '" << positional.join(' ')
                    << "'\n";
                return 1;
            }
            return 0;
        }
        if (sub == QLatin1String("repair")) {
            if (opened.status == HistoryOpenResult::Status::Recovered) { // open() just rebuilt it
                err << opened.message << '\n';
                return 0;
            }
            // A file that open() did not find damaged gets the full check first: rebuilding a
            // sound file would only shuffle it into a backup.
            if (opened.status != HistoryOpenResult::Status::Damaged &&
                store.integrityCheck().isEmpty()) {
                err << "glosa-cli history repair: " << historyPath
                    << " is not damaged (integrity_check found nothing); nothing to do\n";
                return 0;
            }
            err << store.repair().message << '\n';
            return 0;
        }
        if (sub == QLatin1String("clear")) {
            if (!parser.isSet("yes")) {
                err << "glosa-cli history clear: this removes every entry, starred ones too; "
                       "add --yes to confirm\n";
                return 2;
            }
            err << "removed " << store.clear() << " entries\n";
            return 0;
        }
    } catch (const HistoryError &e) {
        err << "glosa-cli history: " << e.message() << '\n';
        return 1;
    }
    return usage(err);
}

qint64 saveToHistory(const HistoryEntry &entry, const QString &historyPath, QTextStream &err)
{
    // The app's recorder, so that the retention chosen in Settings ▸ History applies here too.
    // Batch: --save-history is an explicit request (recorded even with the app's recording
    // switched off) that may wait for another process's lock but cannot be retried later.
    HistoryRecorder recorder(HistoryRecorder::Mode::Batch);
    QObject::connect(&recorder, &HistoryRecorder::warning,
                     [&err](const QString &message) { err << "glosa-cli: " << message << '\n'; });
    if (!recorder.open(historyPath)) {
        err << "glosa-cli: not saved to the history: " << recorder.openError() << '\n';
        return 0;
    }
    if (recorder.openResult().status == HistoryOpenResult::Status::Recovered ||
        recorder.openResult().status == HistoryOpenResult::Status::Damaged)
        err << "glosa-cli: warning: " << recorder.openResult().message << '\n';
    return recorder.record(entry);
}

} // namespace glosa::cli
