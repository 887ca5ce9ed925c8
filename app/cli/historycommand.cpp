#include "app/cli/historycommand.h"

#include "app/core/history/export.h"
#include "app/core/history/recorder.h"
#include "app/core/history/retention.h"
#include "app/core/history/store.h"
#include "app/core/platform/savefile.h"

#include <QCommandLineParser>
#include <QFile>
#include <QJsonDocument>
#include <QTextStream>

#include <algorithm>
#include <iterator>
#include <variant>

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

namespace {

// What every subcommand reads from the command line, checked once before the file is opened.
struct HistoryRequest
{
    QString sub;
    QStringList positional;
    HistoryFilter filter;
    int limit = 20;
    int offset = 0;
    const QCommandLineParser *parser = nullptr; // the subcommands' own options

    // The entry id of show, star, unstar and delete: 0 when it is missing or not a number > 0.
    qint64 id() const
    {
        bool ok = false;
        const qint64 value = positional.size() == 1 ? positional.first().toLongLong(&ok) : 0;
        return ok && value > 0 ? value : 0;
    }
};

// The parsed request, or the exit code of a mistake already reported.
std::variant<HistoryRequest, int> parseRequest(const QStringList &args, QCommandLineParser &parser,
                                               QTextStream &err)
{
    HistoryRequest request;
    request.sub = args.first();
    request.parser = &parser;
    parser.setSingleDashWordOptionMode(QCommandLineParser::ParseAsLongOptions);
    parser.addOptions(historyCommand().options);
    if (!parser.parse(QStringList{QStringLiteral("glosa-cli history")} + args.mid(1))) {
        err << "glosa-cli history: " << parser.errorText() << '\n';
        return usage(err);
    }
    request.positional = parser.positionalArguments();
    HistoryFilter &filter = request.filter;
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
    request.limit = parser.value("limit").toInt(&limitOk);
    request.offset = parser.value("offset").toInt(&offsetOk);
    if (!limitOk || !offsetOk || request.limit < 0 || request.offset < 0) {
        err << "glosa-cli history: --limit and --offset take a number >= 0\n";
        return 2;
    }
    return request;
}

int listEntries(HistoryStore &store, const HistoryOpenResult &, const HistoryRequest &request,
                const CommandIo &io)
{
    const HistoryPage page = store.recent(request.filter, request.offset, request.limit);
    for (const HistorySummary &s : page.items)
        printSummary(io.out, s, false);
    if (page.hasMore)
        io.err << "(more: --offset " << request.offset + request.limit << ")\n";
    return reportDamage(io.err, page.damaged);
}

int searchEntries(HistoryStore &store, const HistoryOpenResult &, const HistoryRequest &request,
                  const CommandIo &io)
{
    QTextStream &err = io.err;
    if (request.positional.isEmpty()) {
        err << "glosa-cli history search: QUERY is missing\n";
        return 2;
    }
    HistorySearchOptions options;
    if (request.parser->isSet("relevance"))
        options.order = HistorySearchOptions::Order::Relevance;
    const QString query = request.positional.join(QLatin1Char(' '));
    const HistoryPage page =
        store.search(query, request.filter, request.offset, request.limit, options);
    for (const HistorySummary &s : page.items)
        printSummary(io.out, s, true);
    if (page.hasMore)
        err << "(more: --offset " << request.offset + request.limit << ")\n";
    const int damage = reportDamage(err, page.damaged);
    // As grep: nothing found is said, and is exit code 1.
    if (page.items.isEmpty() && page.damaged.isEmpty()) {
        err << "glosa-cli history search: no entries match '" << query << "'"
            << (request.offset > 0 ? QStringLiteral(" after the first %1").arg(request.offset)
                                   : QString())
            << "\n";
        return 1;
    }
    return damage;
}

int showEntry(HistoryStore &store, const HistoryOpenResult &, const HistoryRequest &request,
              const CommandIo &io)
{
    const qint64 id = request.id();
    std::optional<HistoryEntry> e;
    try {
        e = id ? store.entry(id) : std::nullopt;
    } catch (const HistoryError &error) {
        if (error.code() != HistoryError::Code::Corrupt)
            throw;
        return reportDamage(io.err, {{id, sqliteReason(error)}});
    }
    if (!e) {
        io.err << "glosa-cli history show: no entry '" << request.positional.join(' ') << "'\n";
        return 1;
    }
    io.out << QJsonDocument(e->toJson()).toJson(QJsonDocument::Indented);
    return 0;
}

int exportEntries(HistoryStore &store, const HistoryOpenResult &, const HistoryRequest &request,
                  const CommandIo &io)
{
    QTextStream &err = io.err;
    const QCommandLineParser &parser = *request.parser;
    const std::optional<HistoryExportFormat> format =
        historyExportFormatFromName(parser.value("format"));
    if (!format) {
        err << "glosa-cli history export: --format must be jsonl, csv or tmx\n";
        return 2;
    }
    HistoryExport done;
    if (parser.isSet("output") && parser.value("output") != QLatin1String("-")) {
        // SaveFile: a failed export never leaves a truncated file behind.
        if (const QString problem = historyExportTargetProblem(store, parser.value("output"));
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
        done = exportHistory(store, *format, file, request.filter);
        if (!file.commit()) {
            err << "glosa-cli history export: cannot write " << file.fileName() << ": "
                << file.errorString() << '\n';
            return 1;
        }
    } else {
        io.out.flush();
        QFile stdoutFile;
        stdoutFile.open(stdout, QIODevice::WriteOnly);
        done = exportHistory(store, *format, stdoutFile, request.filter);
    }
    err << "exported " << done.records << (done.records == 1 ? " record\n" : " records\n");
    // The file holds every readable entry; the damaged ones are named, exit code 1.
    return reportDamage(err, done.damaged);
}

// star, unstar and delete: one entry by id.
int markEntry(HistoryStore &store, const HistoryOpenResult &, const HistoryRequest &request,
              const CommandIo &io)
{
    const qint64 id = request.id();
    const bool done = id && (request.sub == QLatin1String("delete")
                                 ? store.removeEntry(id)
                                 : store.setStarred(id, request.sub == QLatin1String("star")));
    if (!done) {
        io.err << "glosa-cli history " << request.sub << ": no entry '"
               << request.positional.join(' ') << "'\n";
        return 1;
    }
    return 0;
}

int repairFile(HistoryStore &store, const HistoryOpenResult &opened, const HistoryRequest &,
               const CommandIo &io)
{
    if (opened.status == HistoryOpenResult::Status::Recovered) { // open() just rebuilt it
        io.err << opened.message << '\n';
        return 0;
    }
    // A file that open() did not find damaged gets the full check first: rebuilding a sound
    // file would only shuffle it into a backup.
    if (opened.status != HistoryOpenResult::Status::Damaged && store.integrityCheck().isEmpty()) {
        io.err << "glosa-cli history repair: " << io.historyPath
               << " is not damaged (integrity_check found nothing); nothing to do\n";
        return 0;
    }
    io.err << store.repair().message << '\n';
    return 0;
}

int clearEntries(HistoryStore &store, const HistoryOpenResult &, const HistoryRequest &request,
                 const CommandIo &io)
{
    if (!request.parser->isSet("yes")) {
        io.err << "glosa-cli history clear: this removes every entry, starred ones too; add "
                  "--yes to confirm\n";
        return 2;
    }
    io.err << "removed " << store.clear() << " entries\n";
    return 0;
}

struct Subcommand
{
    const char *name;
    // Reading needs no write access: a read-only folder or file still lists.
    bool readsOnly;
    int (*run)(HistoryStore &, const HistoryOpenResult &, const HistoryRequest &,
               const CommandIo &);
};

constexpr Subcommand kSubcommands[] = {
    {"list", true, listEntries},     {"search", true, searchEntries},
    {"show", true, showEntry},       {"export", true, exportEntries},
    {"star", false, markEntry},      {"unstar", false, markEntry},
    {"delete", false, markEntry},    {"clear", false, clearEntries},
    {"repair", false, repairFile},
};

} // namespace

int runHistoryCommand(const QStringList &args, const CommandIo &io)
{
    QTextStream &err = io.err;
    if (args.isEmpty())
        return usage(err);
    const auto sub = std::find_if(std::begin(kSubcommands), std::end(kSubcommands),
                                  [&](const Subcommand &c) { return args.first() == c.name; });
    if (sub == std::end(kSubcommands)) { // before open(): a typo must not create a database
        err << "glosa-cli history: unknown subcommand '" << args.first() << "'\n";
        return usage(err);
    }
    QCommandLineParser parser;
    const std::variant<HistoryRequest, int> parsed = parseRequest(args, parser, err);
    if (const int *exitCode = std::get_if<int>(&parsed))
        return *exitCode;
    const HistoryRequest &request = std::get<HistoryRequest>(parsed);
    try {
        HistoryStore::Options options;
        options.retention = historyRetentionFromSettings(); // the app's Settings ▸ History
        HistoryStore store(options);
        const HistoryOpenResult opened =
            sub->readsOnly ? store.openForReading(io.historyPath) : store.open(io.historyPath);
        if (opened.status != HistoryOpenResult::Status::Opened &&
            opened.status != HistoryOpenResult::Status::Created && sub->run != repairFile)
            err << "glosa-cli: warning: " << opened.message << '\n';
        return sub->run(store, opened, request, io);
    } catch (const HistoryError &e) {
        err << "glosa-cli history: " << e.message() << '\n';
        return 1;
    }
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
