#include "app/core/history/store.h"

#include "app/core/history/recovery.h"
#include "app/core/history/schema.h"
#include "app/core/history/sqlite.h"

#include <QDateTime>
#include <QFileInfo>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QStandardPaths>

#include <algorithm>
#include <functional>
#include <string>

namespace glosa {

using history::Connection;
using history::insertEntry;
using history::readEntry;
using history::Statement;

namespace {

// Turns what the user typed into an FTS5 query that cannot be a syntax error: every word becomes
// a quoted phrase, so quotes, AND/OR/NOT, '-', '*', ':' and parentheses are literal; the
// tokenizer inside the quotes splits "día," into the token día. Only the last word may be a
// prefix ("buen"*), and only from 3 word characters on: measured on 100,000 entries, "to"* took
// 37 ms and "t"* 79 ms against well under 1 ms for a whole word.
QString ftsQuery(const QString &text)
{
    QStringList terms;
    qsizetype lastLength = 0;
    const QStringList words =
        text.split(QRegularExpression(QStringLiteral("\\s+")), Qt::SkipEmptyParts);
    for (const QString &word : words) {
        qsizetype wordChars = 0;
        for (QChar c : word)
            wordChars += c.isLetterOrNumber() ? 1 : 0;
        if (wordChars == 0)
            continue;
        QString quoted = word;
        quoted.replace(QLatin1Char('"'), QStringLiteral("\"\""));
        terms.append(QLatin1Char('"') + quoted + QLatin1Char('"'));
        lastLength = wordChars;
    }
    if (lastLength >= 3)
        terms.last() += QLatin1Char('*');
    return terms.join(QLatin1Char(' '));
}

// WHERE clause for a filter over `entries e`; binds start at `firstBind`.
struct FilterSql
{
    std::string where; // " AND ..." pieces
    QList<std::function<void(Statement &, int)>> binds;
};

// `timeOnly`: only the conditions the time index (created_ms, id) can answer on its own.
FilterSql filterSql(const HistoryFilter &f, bool timeOnly = false)
{
    FilterSql out;
    if (f.kind && !timeOnly) {
        out.where += " AND e.kind = ?";
        const QString k = historyKindName(*f.kind);
        out.binds.append([k](Statement &s, int i) { s.bind(i, k); });
    }
    if (!f.modelId.isEmpty() && !timeOnly) {
        out.where += " AND e.model_id = ?";
        const QString m = f.modelId;
        out.binds.append([m](Statement &s, int i) { s.bind(i, m); });
    }
    if (f.from.isValid()) {
        out.where += " AND e.created_ms >= ?";
        const qint64 t = f.from.toMSecsSinceEpoch();
        out.binds.append([t](Statement &s, int i) { s.bind(i, t); });
    }
    if (f.to.isValid()) {
        out.where += " AND e.created_ms < ?";
        const qint64 t = f.to.toMSecsSinceEpoch();
        out.binds.append([t](Statement &s, int i) { s.bind(i, t); });
    }
    if (f.starredOnly && !timeOnly)
        out.where += " AND e.starred";
    return out;
}

// ---------------------------------------------------------------------------------------------

void requireOpen(const Connection &d)
{
    if (!d.isOpen())
        throw HistoryError(HistoryError::Code::NotOpen, QStringLiteral("The history is not open."));
}

void validateEntry(const HistoryEntry &e)
{
    for (const HistoryOutput &o : e.outputs)
        o.alignment.validate();
}

qint64 applyRetentionLocked(Connection &d, const HistoryRetention &r)
{
    qint64 removed = 0;
    if (r.maxAgeDays > 0) {
        auto s = d.prepare("DELETE FROM entries WHERE NOT starred AND created_ms < ?");
        s.bind(1, QDateTime::currentDateTimeUtc().addDays(-r.maxAgeDays).toMSecsSinceEpoch());
        s.run();
        removed += d.changes();
    }
    if (r.maxEntries > 0) {
        qint64 total = 0;
        {
            auto s = d.prepare("SELECT value FROM meta WHERE key = 'entry_count'");
            total = s.step() ? s.int64(0) : 0;
        }
        const qint64 excess = total - r.maxEntries;
        if (excess > 0) {
            auto s = d.prepare("DELETE FROM entries WHERE id IN (SELECT id FROM entries WHERE NOT "
                               "starred ORDER BY created_ms, id LIMIT ?)");
            s.bind(1, excess);
            s.run();
            removed += d.changes();
        }
    }
    if (r.maxBytes > 0) {
        // Pages in use (the freed ones are reused before the file grows), oldest entry first.
        auto used = [&] {
            qint64 v[3] = {0, 0, 0};
            const char *pragmas[] = {"PRAGMA page_count", "PRAGMA freelist_count",
                                     "PRAGMA page_size"};
            for (int i = 0; i < 3; ++i) {
                auto s = d.prepare(pragmas[i]);
                v[i] = s.step() ? s.int64(0) : 0;
            }
            return (v[0] - v[1]) * v[2];
        };
        while (used() > r.maxBytes) {
            auto s = d.prepare("DELETE FROM entries WHERE id = (SELECT id FROM entries WHERE NOT "
                               "starred ORDER BY created_ms, id LIMIT 1)");
            s.run();
            if (d.changes() == 0)
                break; // only starred entries are left
            ++removed;
        }
    }
    return removed;
}

// Columns 0..9 of a summary; `e` is entries.

const char *const kSummaryColumns =
    "e.id, e.kind, e.created_ms, e.model_id, e.model_version, substr(e.input_text, 1, 200), "
    "(SELECT substr(o.text, 1, 200) FROM outputs o WHERE o.entry_id = e.id AND o.column_index = 0 "
    "ORDER BY o.rank LIMIT 1), e.starred, e.image_path <> '', e.elapsed_ms";

HistorySummary readSummary(const Statement &s)
{
    HistorySummary h;
    h.id = s.int64(0);
    h.kind = historyKindFromName(s.text(1)).value_or(HistoryKind::Translation);
    h.time = QDateTime::fromMSecsSinceEpoch(s.int64(2), Qt::UTC);
    h.modelId = s.text(3);
    h.modelVersion = s.text(4);
    h.inputPreview = s.text(5);
    h.outputPreview = s.text(6);
    h.starred = s.int64(7) != 0;
    h.hasImage = s.int64(8) != 0;
    h.elapsedMs = s.real(9);
    return h;
}

// Binds LIMIT and OFFSET from parameter `i` on, and appends the rows `read` makes of them to
// `page`, at most `limit`: the query asks for one row more, which only says that there are more.
template <typename Read>
void readPage(Statement &s, int i, int limit, int offset, HistoryPage &page, Read read)
{
    s.bind(i++, qint64(std::max(0, limit)) + 1);
    s.bind(i++, qint64(std::max(0, offset)));
    while (s.step()) {
        if (page.items.size() == std::max(0, limit)) {
            page.hasMore = true;
            break;
        }
        page.items.append(read(s));
    }
}

bool isCorrupt(const HistoryError &error)
{
    return error.code() == HistoryError::Code::Corrupt;
}

// A page read entry by entry, for a file with damaged pages: one query over many rows stops at
// the first damaged one, and that would make every entry after it unreachable. `ids`: the
// candidates in the page's order, from an index that still lists them (it lives on other pages);
// `readOne`: the summary of one id, nullopt when the filter leaves it out. A damaged entry costs
// itself only and is listed in page.damaged. Costs offset + limit lookups by id.
HistoryPage readEntryByEntry(const QList<qint64> &ids, int offset, int limit,
                             const std::function<std::optional<HistorySummary>(qint64)> &readOne)
{
    HistoryPage page;
    limit = std::max(0, limit);
    int skipped = 0;
    for (const qint64 id : ids) {
        std::optional<HistorySummary> summary;
        try {
            summary = readOne(id);
        } catch (const HistoryError &error) {
            if (!isCorrupt(error))
                throw;
            if (skipped >= offset)
                page.damaged.append({id, sqliteReason(error)});
            continue;
        }
        if (!summary)
            continue;
        if (skipped < offset) {
            ++skipped;
        } else if (page.items.size() == limit) {
            page.hasMore = true;
            break;
        } else {
            page.items.append(*summary);
        }
    }
    return page;
}

// Ids from a statement's first column; on a damaged page, whatever was read before it and false.
bool readIds(Statement &s, QList<qint64> &ids)
{
    try {
        while (s.step())
            ids.append(s.int64(0));
    } catch (const HistoryError &error) {
        if (!isCorrupt(error))
            throw;
        return false;
    }
    return true;
}

// Every id the table may hold, newest first, when no index can list them: AUTOINCREMENT keeps
// the largest id ever handed out in sqlite_sequence. Throws HistoryError::Corrupt when that is
// unreadable too: an empty list would pass for an empty history.
QList<qint64> everyIdNewestFirst(Connection &d)
{
    auto s = d.prepare("SELECT seq FROM sqlite_sequence WHERE name = 'entries'");
    const qint64 largest = s.step() ? s.int64(0) : 0;
    QList<qint64> ids;
    for (qint64 id = largest; id > 0; --id)
        ids.append(id);
    return ids;
}

// A full-text search: its SQL, how its statements are bound and how a row becomes a hit with
// its snippets, and the two ways of reading a page of hits.
class FtsSearch
{
public:
    FtsSearch(const QString &query, const HistoryFilter &filter,
              const HistorySearchOptions &options)
        : m_query(query), m_filter(filterSql(filter)), m_options(options),
          m_byRelevance(options.order == HistorySearchOptions::Order::Relevance),
          // FTS5 drives the loop; ordering by its rowid (= entries.id) or by its rank lets it
          // deliver rows already sorted, so LIMIT stops early and snippet() runs only for the
          // rows returned.
          m_from(" FROM entries_fts JOIN entries e ON e.id = entries_fts.rowid"
                 " WHERE entries_fts MATCH ?4" +
                 m_filter.where),
          m_select(std::string("SELECT ") + kSummaryColumns +
                   ", snippet(entries_fts, -1, ?1, ?2, '…', ?3)"
                   ", snippet(entries_fts, 0, ?1, ?2, '…', ?3)"
                   ", snippet(entries_fts, 1, ?1, ?2, '…', ?3)" +
                   m_from)
    {
    }

    // The page from the indexes, in one read transaction (one snapshot for both statements).
    void pageFromIndexes(Connection &d, int offset, int limit, HistoryPage &page) const
    {
        qint64 floorId = 0;
        if (m_byRelevance) {
            // The oldest id among the newest kRelevanceWindow matches (see Order::Relevance).
            auto w = d.prepare("SELECT entries_fts.rowid" + m_from +
                               " ORDER BY entries_fts.rowid DESC LIMIT 1 OFFSET ?");
            w.bind(4, m_query);
            int i = 5;
            for (const auto &bind : m_filter.binds)
                bind(w, i++);
            w.bind(i, HistorySearchOptions::kRelevanceWindow - 1);
            if (w.step())
                floorId = w.int64(0);
        }
        auto s = d.prepare(m_select +
                           (m_byRelevance ? " AND entries_fts.rowid >= ? ORDER BY entries_fts.rank"
                                          : " ORDER BY entries_fts.rowid DESC") +
                           " LIMIT ? OFFSET ?");
        int i = bindAll(s);
        if (m_byRelevance)
            s.bind(i++, floorId);
        readPage(s, i, limit, offset, page, [this](const Statement &row) { return hit(row); });
    }

    // A damaged page on the way: the matching ids from the full-text index alone (its own
    // pages), then each entry on its own. By relevance, every match is ranked here.
    HistoryPage pageEntryByEntry(Connection &d, int offset, int limit) const
    {
        HistoryPage page;
        d.readTransaction([&] {
            QList<qint64> ids;
            auto s =
                d.prepare(std::string("SELECT rowid FROM entries_fts WHERE entries_fts MATCH ?") +
                          (m_byRelevance ? " ORDER BY rank" : " ORDER BY rowid DESC"));
            s.bind(1, m_query);
            if (!readIds(s, ids))
                ids = everyIdNewestFirst(d); // the index is damaged too: every entry, by id
            page = readEntryByEntry(ids, offset, limit, [&](qint64 id) {
                std::optional<HistorySummary> summary;
                auto r = d.prepare(m_select + " AND entries_fts.rowid = ?");
                r.bind(bindAll(r), id);
                if (r.step())
                    summary = hit(r);
                return summary;
            });
        });
        return page;
    }

private:
    // Binds the snippets' markers and the query (1-4) and the filter; returns the next index.
    int bindAll(Statement &s) const
    {
        s.bind(1, m_options.highlightBegin);
        s.bind(2, m_options.highlightEnd);
        s.bind(3, std::clamp(m_options.snippetTokens, 1, 64));
        s.bind(4, m_query);
        int i = 5;
        for (const auto &bind : m_filter.binds)
            bind(s, i++);
        return i;
    }

    HistorySummary hit(const Statement &row) const
    {
        HistorySummary h = readSummary(row);
        h.snippet = row.text(10);
        const QString inInput = row.text(11), inOutputs = row.text(12);
        if (inInput.contains(m_options.highlightBegin))
            h.inputSnippet = inInput;
        if (inOutputs.contains(m_options.highlightBegin))
            h.outputSnippet = inOutputs;
        return h;
    }

    const QString m_query;
    const FilterSql m_filter;
    const HistorySearchOptions &m_options;
    const bool m_byRelevance;
    const std::string m_from;
    const std::string m_select;
};

} // namespace

HistoryStore::HistoryStore() : HistoryStore(Options()) {}

HistoryStore::HistoryStore(const Options &options)
    : m_options(options), d(std::make_unique<history::Connection>())
{
}

HistoryStore::~HistoryStore() = default;

QString HistoryStore::defaultPath()
{
    return QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) +
           QStringLiteral("/history.sqlite");
}

HistoryOpenResult HistoryStore::open(const QString &path)
{
    std::lock_guard lock(m_mutex);
    const history::ConnectionSettings settings{m_options.busyTimeoutMs, m_options.syncEveryCommit,
                                               m_options.maxDatabaseBytes, m_options.onLockWait};
    const HistoryOpenResult result =
        history::openOrRecover(*d, path, settings, m_options.checkIntegrityOnOpen);
    m_damaged = result.status == HistoryOpenResult::Status::Damaged;
    return result;
}

HistoryOpenResult HistoryStore::openForReading(const QString &path)
{
    // Where it can be written (or does not exist yet), as open(): a damaged file is recovered,
    // an older one migrated, and the -wal/-shm are SQLite's to manage as for any writer.
    if (!QFileInfo::exists(path) || history::whyNotWritable(path).isEmpty())
        return open(path);
    std::lock_guard lock(m_mutex);
    m_damaged = false;
    d->openReadOnly(path);
    const int version = d->userVersion();
    if (version != kSchemaVersion) {
        d->close();
        if (version > kSchemaVersion)
            throw HistoryError(HistoryError::Code::NewerVersion,
                               QStringLiteral("The history file %1 was written by a newer "
                                              "version of Glosa (schema %2; this version knows "
                                              "up to %3).")
                                   .arg(path)
                                   .arg(version)
                                   .arg(kSchemaVersion));
        throw HistoryError(HistoryError::Code::CannotOpen,
                           QStringLiteral("The history file %1 has an older format (schema %2) "
                                          "that needs updating, and %3.")
                               .arg(path)
                               .arg(version)
                               .arg(history::whyNotWritable(path)));
    }
    return {};
}

void HistoryStore::close()
{
    std::lock_guard lock(m_mutex);
    d->close();
}

bool HistoryStore::isOpen() const
{
    std::lock_guard lock(m_mutex);
    return d->isOpen();
}

QString HistoryStore::path() const
{
    std::lock_guard lock(m_mutex);
    return d->path();
}

void HistoryStore::setRetention(const HistoryRetention &retention)
{
    std::lock_guard lock(m_mutex);
    m_options.retention = retention;
}

qint64 HistoryStore::addEntry(const HistoryEntry &entry)
{
    std::lock_guard lock(m_mutex);
    requireOpen(*d);
    validateEntry(entry);
    return d->writeTransaction([&] {
        const qint64 id = insertEntry(*d, entry);
        if (m_options.retention.isActive())
            applyRetentionLocked(*d, m_options.retention);
        return id;
    });
}

QList<qint64> HistoryStore::addEntries(const QList<HistoryEntry> &entries)
{
    std::lock_guard lock(m_mutex);
    requireOpen(*d);
    for (const HistoryEntry &e : entries)
        validateEntry(e);
    return d->writeTransaction([&] {
        QList<qint64> ids;
        ids.reserve(entries.size());
        for (const HistoryEntry &e : entries)
            ids.append(insertEntry(*d, e));
        if (m_options.retention.isActive())
            applyRetentionLocked(*d, m_options.retention);
        return ids;
    });
}

std::optional<HistoryEntry> HistoryStore::entry(qint64 id) const
{
    std::lock_guard lock(m_mutex);
    requireOpen(*d);
    HistoryEntry e;
    bool found = false;
    d->readTransaction([&] { e = readEntry(*d, id, &found); });
    if (!found)
        return std::nullopt;
    return e;
}

HistoryPage HistoryStore::recent(const HistoryFilter &filter, int offset, int limit) const
{
    std::lock_guard lock(m_mutex);
    requireOpen(*d);
    const FilterSql f = filterSql(filter);
    const std::string sql = std::string("SELECT ") + kSummaryColumns + " FROM entries e WHERE 1" +
                            f.where + " ORDER BY e.created_ms DESC, e.id DESC LIMIT ? OFFSET ?";
    if (!m_damaged) {
        try {
            HistoryPage page;
            auto s = d->prepare(sql);
            int i = 1;
            for (const auto &bind : f.binds)
                bind(s, i++);
            readPage(s, i, limit, offset, page, readSummary);
            return page;
        } catch (const HistoryError &error) {
            if (!isCorrupt(error))
                throw;
            m_damaged = true;
        }
    }
    // A damaged page on the way: the ids in the same order from the time index alone (it holds
    // created_ms and id: no table row is read), then each entry on its own.
    const FilterSql byTime = filterSql(filter, true);
    const std::string one =
        std::string("SELECT ") + kSummaryColumns + " FROM entries e WHERE e.id = ?" + f.where;
    HistoryPage page;
    d->readTransaction([&] {
        QList<qint64> ids;
        auto s = d->prepare("SELECT e.id FROM entries e INDEXED BY entries_by_time WHERE 1" +
                            byTime.where + " ORDER BY e.created_ms DESC, e.id DESC");
        int i = 1;
        for (const auto &bind : byTime.binds)
            bind(s, i++);
        if (!readIds(s, ids))
            ids = everyIdNewestFirst(*d); // the index is damaged too: by id
        page = readEntryByEntry(ids, offset, limit, [&](qint64 id) {
            std::optional<HistorySummary> summary;
            auto r = d->prepare(one);
            r.bind(1, id);
            int b = 2;
            for (const auto &bind : f.binds)
                bind(r, b++);
            if (r.step())
                summary = readSummary(r);
            return summary;
        });
    });
    return page;
}

HistoryPage HistoryStore::search(const QString &text, const HistoryFilter &filter, int offset,
                                 int limit, const HistorySearchOptions &options) const
{
    std::lock_guard lock(m_mutex);
    requireOpen(*d);
    const QString query = ftsQuery(text);
    if (query.isEmpty())
        return recent(filter, offset, limit);
    const FtsSearch search(query, filter, options);
    if (!m_damaged) {
        try {
            HistoryPage page;
            d->readTransaction([&] { search.pageFromIndexes(*d, offset, limit, page); });
            return page;
        } catch (const HistoryError &error) {
            if (!isCorrupt(error))
                throw;
            m_damaged = true;
        }
    }
    return search.pageEntryByEntry(*d, offset, limit);
}

qint64 HistoryStore::count(const HistoryFilter &filter) const
{
    std::lock_guard lock(m_mutex);
    requireOpen(*d);
    const FilterSql f = filterSql(filter);
    if (f.binds.isEmpty() && !filter.starredOnly) {
        auto s = d->prepare("SELECT value FROM meta WHERE key = 'entry_count'");
        return s.step() ? s.int64(0) : 0;
    }
    auto s = d->prepare("SELECT count(*) FROM entries e WHERE 1" + f.where);
    int i = 1;
    for (const auto &bind : f.binds)
        bind(s, i++);
    return s.step() ? s.int64(0) : 0;
}

bool HistoryStore::setStarred(qint64 id, bool starred)
{
    std::lock_guard lock(m_mutex);
    requireOpen(*d);
    return d->writeTransaction([&] {
        auto s = d->prepare("UPDATE entries SET starred = ? WHERE id = ?");
        s.bind(1, starred ? 1 : 0);
        s.bind(2, id);
        s.run();
        return d->changes() > 0;
    });
}

bool HistoryStore::setEditedText(qint64 id, const QString &text)
{
    std::lock_guard lock(m_mutex);
    requireOpen(*d);
    return d->writeTransaction([&] {
        auto s = d->prepare("UPDATE entries SET edited_text = ? WHERE id = ?");
        s.bind(1, text);
        s.bind(2, id);
        s.run();
        if (d->changes() == 0)
            return false;
        // The search finds the user's words as well as the model's.
        auto f = d->prepare("UPDATE entries_fts SET outputs = (SELECT group_concat(text, char(10)) "
                            "FROM (SELECT DISTINCT text FROM outputs WHERE entry_id = ?1 "
                            "UNION SELECT edited_text FROM entries WHERE id = ?1 AND "
                            "edited_text <> '')) WHERE rowid = ?1");
        f.bind(1, id);
        f.run();
        return true;
    });
}

bool HistoryStore::removeEntry(qint64 id)
{
    std::lock_guard lock(m_mutex);
    requireOpen(*d);
    return d->writeTransaction([&] {
        auto s = d->prepare("DELETE FROM entries WHERE id = ?");
        s.bind(1, id);
        s.run();
        return d->changes() > 0;
    });
}

qint64 HistoryStore::clear()
{
    std::lock_guard lock(m_mutex);
    requireOpen(*d);
    return d->writeTransaction([&] {
        // Emptying the index first makes the per-row delete trigger cheap.
        d->exec("DELETE FROM entries_fts");
        d->exec("DELETE FROM outputs");
        d->exec("DELETE FROM entries");
        return d->changes();
    });
}

qint64 HistoryStore::applyRetention(const HistoryRetention &retention)
{
    std::lock_guard lock(m_mutex);
    requireOpen(*d);
    if (!retention.isActive())
        return 0;
    return d->writeTransaction([&] { return applyRetentionLocked(*d, retention); });
}

QList<HistoryDamage> HistoryStore::forEachEntry(
    const HistoryFilter &filter, const std::function<bool(const HistoryEntry &)> &visit) const
{
    std::lock_guard lock(m_mutex);
    requireOpen(*d);
    const FilterSql f = filterSql(filter);
    const std::string sql =
        "SELECT e.id FROM entries e WHERE e.id > ?" + f.where + " ORDER BY e.id LIMIT 256";
    const std::string matches = "SELECT 1 FROM entries e WHERE e.id = ?" + f.where;
    QList<HistoryDamage> damaged;
    // One entry; a damaged one costs itself only (its id goes into `damaged`, whatever the filter:
    // its kind cannot be read either). False when `visit` asks to stop.
    const auto visitOne = [&](qint64 id, bool checkFilter) {
        bool found = false;
        HistoryEntry e;
        try {
            if (checkFilter) {
                auto s = d->prepare(matches);
                s.bind(1, id);
                int i = 2;
                for (const auto &bind : f.binds)
                    bind(s, i++);
                if (!s.step())
                    return true;
            }
            e = readEntry(*d, id, &found);
        } catch (const HistoryError &error) {
            if (!isCorrupt(error))
                throw;
            m_damaged = true;
            damaged.append({id, sqliteReason(error)});
            return true;
        }
        return !found || visit(e);
    };
    d->readTransaction([&] {
        qint64 last = 0;
        for (;;) {
            // Ids in batches: the entry reads below reuse other statements, so this one must be
            // reset before they run.
            QList<qint64> ids;
            bool listed = true;
            {
                auto s = d->prepare(sql);
                s.bind(1, last);
                int i = 2;
                for (const auto &bind : f.binds)
                    bind(s, i++);
                listed = readIds(s, ids);
            }
            for (qint64 id : ids) {
                if (!visitOne(id, false))
                    return;
            }
            if (!listed) {
                // A damaged page under the listing: every id the table may hold after the last
                // one listed, each entry on its own, so that the damage costs its entries only.
                QList<qint64> rest = everyIdNewestFirst(*d);
                std::reverse(rest.begin(), rest.end());
                const qint64 after = ids.isEmpty() ? last : ids.last();
                for (qint64 id : rest) {
                    if (id > after && !visitOne(id, true))
                        return;
                }
                return;
            }
            if (ids.isEmpty())
                return;
            last = ids.last();
        }
    });
    return damaged;
}

HistoryOpenResult HistoryStore::repair()
{
    std::lock_guard lock(m_mutex);
    requireOpen(*d);
    const history::ConnectionSettings settings{m_options.busyTimeoutMs, m_options.syncEveryCommit,
                                               m_options.maxDatabaseBytes, m_options.onLockWait};
    const HistoryOpenResult result = history::repair(*d, settings);
    m_damaged = false;
    return result;
}

QStringList HistoryStore::integrityCheck() const
{
    std::lock_guard lock(m_mutex);
    requireOpen(*d);
    QStringList problems;
    try {
        auto s = d->prepare("PRAGMA integrity_check");
        while (s.step()) {
            const QString line = s.text(0);
            if (line != QLatin1String("ok"))
                problems.append(line);
        }
    } catch (const HistoryError &e) {
        // A page so damaged that the check stops there: a finding, not a failure to check.
        if (!isCorrupt(e))
            throw;
        problems.append(sqliteReason(e));
    }
    // Checks the full-text index against its content; fails with SQLITE_CORRUPT_VTAB if not.
    try {
        d->writeTransaction(
            [&] { d->exec("INSERT INTO entries_fts (entries_fts) VALUES ('integrity-check')"); });
    } catch (const HistoryError &e) {
        if (e.code() != HistoryError::Code::Corrupt)
            throw;
        problems.append(QStringLiteral("full-text index: ") + e.details());
    }
    return problems;
}

} // namespace glosa
