#include "app/core/history/schema.h"

#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>

#include <stdexcept>
#include <string>

namespace glosa::history {

namespace {

// released step; append a new one and bump kSchemaVersion.
const char *const kMigrations[] = {
    // 0 -> 1
    R"sql(
CREATE TABLE entries (
    id INTEGER PRIMARY KEY AUTOINCREMENT, -- AUTOINCREMENT: a deleted id is never handed out again
    kind TEXT NOT NULL CHECK (kind IN ('translation', 'caption', 'comparison')),
    created_ms INTEGER NOT NULL,           -- UTC, milliseconds since the epoch
    model_id TEXT NOT NULL DEFAULT '',
    model_version TEXT NOT NULL DEFAULT '',
    source_language TEXT NOT NULL DEFAULT '',
    target_language TEXT NOT NULL DEFAULT '',
    settings TEXT NOT NULL DEFAULT '{}',   -- JSON object
    input_text TEXT NOT NULL DEFAULT '',
    image_path TEXT NOT NULL DEFAULT '',
    image_hash TEXT NOT NULL DEFAULT '',   -- hex SHA-256 of the image file
    thumbnail BLOB,                        -- PNG
    elapsed_ms REAL NOT NULL DEFAULT 0,
    starred INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX entries_by_time ON entries (created_ms, id);
CREATE INDEX entries_by_kind ON entries (kind, created_ms);
CREATE INDEX entries_by_model ON entries (model_id, created_ms);
CREATE INDEX entries_starred ON entries (created_ms) WHERE starred;

CREATE TABLE outputs (
    id INTEGER PRIMARY KEY,
    entry_id INTEGER NOT NULL REFERENCES entries (id) ON DELETE CASCADE,
    column_index INTEGER NOT NULL,
    rank INTEGER NOT NULL,
    label TEXT NOT NULL DEFAULT '',
    text TEXT NOT NULL,
    score REAL,
    align_rows INTEGER NOT NULL DEFAULT 0,
    align_cols INTEGER NOT NULL DEFAULT 0,
    align_weights BLOB,                    -- [rows, cols] little-endian float16
    align_source_tokens TEXT,              -- JSON array or NULL
    align_target_tokens TEXT,
    UNIQUE (entry_id, column_index, rank)
);

-- Keeps its own copy of the text (not contentless) because snippet() needs it.
CREATE VIRTUAL TABLE entries_fts USING fts5 (
    input, outputs, tokenize = 'unicode61 remove_diacritics 2');

-- entry_count makes the retention check O(1) on every insert.
CREATE TABLE meta (key TEXT PRIMARY KEY, value INTEGER NOT NULL) WITHOUT ROWID;
INSERT INTO meta (key, value) VALUES ('entry_count', 0);

CREATE TRIGGER entries_after_insert AFTER INSERT ON entries BEGIN
    UPDATE meta SET value = value + 1 WHERE key = 'entry_count';
END;
CREATE TRIGGER entries_after_delete AFTER DELETE ON entries BEGIN
    UPDATE meta SET value = value - 1 WHERE key = 'entry_count';
    DELETE FROM entries_fts WHERE rowid = old.id;
END;
)sql",
    // 1 -> 2: sparse alignments (HistoryAlignment::rowStarts / rowLengths). NULL: align_weights
    // is the dense [rows, cols]; else rows × (int32 first column, int32 count), little-endian,
    // and align_weights holds those spans one after another.
    // And the user's own version of a translation (HistoryEntry::editedText).
    R"sql(
ALTER TABLE outputs ADD COLUMN align_row_spans BLOB;
ALTER TABLE entries ADD COLUMN edited_text TEXT NOT NULL DEFAULT '';
)sql",
    // 2 -> 3: documents (HistoryKind::Document), one more kind the CHECK on `kind` allows.
    // SQLite cannot ALTER a CHECK constraint. Rebuilding `entries` would copy every entry on the
    // first open (and, with `outputs` cascading from it, needs foreign keys off); a constraint
    // that only gets looser may instead be edited in sqlite_schema, the way SQLite documents for
    // this (lang_altertable.html, "the simpler procedure"): every row already satisfies it.
    // RESET reloads this connection's schema; migrate() bumps the schema cookie for the others.
    R"sql(
PRAGMA writable_schema = ON;
UPDATE sqlite_schema SET sql = replace(sql, '''comparison'')', '''comparison'', ''document'')')
    WHERE type = 'table' AND name = 'entries';
PRAGMA writable_schema = RESET;
)sql",
    // 3 -> 4: evaluations (HistoryKind::Evaluation), loosened the same way as 2 -> 3.
    R"sql(
PRAGMA writable_schema = ON;
UPDATE sqlite_schema SET sql = replace(sql, '''document'')', '''document'', ''evaluation'')')
    WHERE type = 'table' AND name = 'entries';
PRAGMA writable_schema = RESET;
)sql",
};
static_assert(std::size(kMigrations) == kSchemaVersion);

QString jsonArrayText(const QStringList &list)
{
    return QString::fromUtf8(
        QJsonDocument(QJsonArray::fromStringList(list)).toJson(QJsonDocument::Compact));
}

QStringList stringListFromJson(const QString &text)
{
    QStringList out;
    if (text.isEmpty())
        return out;
    const QJsonArray array = QJsonDocument::fromJson(text.toUtf8()).array();
    for (const QJsonValue &v : array)
        out.append(v.toString());
    return out;
}

} // namespace

int migrate(Connection &d)
{
    return d.writeTransaction([&] {
        // Read inside the write transaction: two processes opening a new file at once must not
        // both run step 0.
        const int version = d.userVersion();
        if (version > kSchemaVersion) {
            throw HistoryError(
                HistoryError::Code::NewerVersion,
                QStringLiteral("The history file %1 was written by a newer version of Glosa "
                               "(schema %2; this version knows up to %3).")
                    .arg(d.path())
                    .arg(version)
                    .arg(kSchemaVersion));
        }
        if (version == kSchemaVersion)
            return -1;
        for (int v = version; v < kSchemaVersion; ++v)
            d.exec(kMigrations[v]);
        // Steps 2 -> 3 and 3 -> 4 edit sqlite_schema, which unlike DDL leaves the schema cookie
        // as it was: another process's connection would go on with the schema it read.
        qint64 cookie = 0;
        {
            auto s = d.prepare("PRAGMA schema_version");
            s.step();
            cookie = s.int64(0);
        }
        d.exec("PRAGMA schema_version = " + std::to_string(cookie + 1));
        d.exec("PRAGMA user_version = " + std::to_string(kSchemaVersion));
        return version;
    });
}

qint64 insertEntry(Connection &d, const HistoryEntry &e)
{
    qint64 id = 0;
    {
        auto s = d.prepare(
            "INSERT INTO entries (kind, created_ms, model_id, model_version, source_language, "
            "target_language, settings, input_text, image_path, image_hash, thumbnail, "
            "elapsed_ms, starred, edited_text) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
        s.bind(1, historyKindName(e.kind));
        s.bind(2,
               (e.time.isValid() ? e.time : QDateTime::currentDateTimeUtc()).toMSecsSinceEpoch());
        s.bind(3, e.modelId);
        s.bind(4, e.modelVersion);
        s.bind(5, e.sourceLanguage);
        s.bind(6, e.targetLanguage);
        s.bind(7, QString::fromUtf8(QJsonDocument(e.settings).toJson(QJsonDocument::Compact)));
        s.bind(8, e.inputText);
        s.bind(9, e.imagePath);
        s.bind(10, e.imageHash);
        s.bindBlob(11, e.thumbnailPng);
        s.bind(12, e.elapsedMs);
        s.bind(13, e.starred ? 1 : 0);
        s.bind(14, e.editedText);
        s.run();
        id = d.lastInsertRowid();
    }
    QStringList texts;
    for (const HistoryOutput &o : e.outputs) {
        auto s = d.prepare(
            "INSERT INTO outputs (entry_id, column_index, rank, label, text, score, align_rows, "
            "align_cols, align_weights, align_source_tokens, align_target_tokens, "
            "align_row_spans) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
        s.bind(1, id);
        s.bind(2, o.column);
        s.bind(3, o.rank);
        s.bind(4, o.label);
        s.bind(5, o.text);
        if (o.score)
            s.bind(6, *o.score);
        else
            s.bindNull(6);
        if (o.alignment.isSparse())
            s.bindBlob(12, o.alignment.rowSpansBlob());
        else
            s.bindNull(12);
        if (o.alignment.isEmpty()) {
            s.bind(7, 0);
            s.bind(8, 0);
            s.bindNull(9);
            s.bindNull(10);
            s.bindNull(11);
        } else {
            s.bind(7, o.alignment.rows);
            s.bind(8, o.alignment.cols);
            s.bindBlob(9, o.alignment.toHalfBlob());
            if (o.alignment.sourceTokens.isEmpty())
                s.bindNull(10);
            else
                s.bind(10, jsonArrayText(o.alignment.sourceTokens));
            if (o.alignment.targetTokens.isEmpty())
                s.bindNull(11);
            else
                s.bind(11, jsonArrayText(o.alignment.targetTokens));
        }
        s.run();
        if (!texts.contains(o.text))
            texts.append(o.text);
    }
    if (!e.editedText.isEmpty() && !texts.contains(e.editedText))
        texts.append(e.editedText); // found by the user's words too
    QString input = e.inputText;
    if (!e.imagePath.isEmpty()) // captions are found by their file name too
        input += QLatin1Char('\n') + QFileInfo(e.imagePath).fileName();
    auto s = d.prepare("INSERT INTO entries_fts (rowid, input, outputs) VALUES (?, ?, ?)");
    s.bind(1, id);
    s.bind(2, input);
    s.bind(3, texts.join(QLatin1Char('\n')));
    s.run();
    return id;
}

HistoryEntry readEntry(Connection &d, qint64 id, bool *found, int schemaVersion)
{
    HistoryEntry e;
    *found = false;
    const bool v2 = schemaVersion >= 2; // edited_text, align_row_spans
    {
        auto s = d.prepare(std::string("SELECT kind, created_ms, model_id, model_version, "
                                       "source_language, target_language, settings, input_text, "
                                       "image_path, image_hash, thumbnail, elapsed_ms, starred, ") +
                           (v2 ? "edited_text" : "''") + " FROM entries WHERE id = ?");
        s.bind(1, id);
        if (!s.step())
            return e;
        *found = true;
        e.id = id;
        e.kind = historyKindFromName(s.text(0)).value_or(HistoryKind::Translation);
        e.time = QDateTime::fromMSecsSinceEpoch(s.int64(1), Qt::UTC);
        e.modelId = s.text(2);
        e.modelVersion = s.text(3);
        e.sourceLanguage = s.text(4);
        e.targetLanguage = s.text(5);
        e.settings = QJsonDocument::fromJson(s.text(6).toUtf8()).object();
        e.inputText = s.text(7);
        e.imagePath = s.text(8);
        e.imageHash = s.text(9);
        e.thumbnailPng = s.blob(10);
        e.elapsedMs = s.real(11);
        e.starred = s.int64(12) != 0;
        e.editedText = s.text(13);
    }
    auto s = d.prepare(std::string("SELECT column_index, rank, label, text, score, align_rows, "
                                   "align_cols, align_weights, align_source_tokens, "
                                   "align_target_tokens, ") +
                       (v2 ? "align_row_spans" : "NULL") +
                       " FROM outputs WHERE entry_id = ? ORDER BY column_index, rank");
    s.bind(1, id);
    while (s.step()) {
        HistoryOutput o;
        o.column = int(s.int64(0));
        o.rank = int(s.int64(1));
        o.label = s.text(2);
        o.text = s.text(3);
        if (!s.isNull(4))
            o.score = s.real(4);
        if (!s.isNull(7)) {
            o.alignment.rows = int(s.int64(5));
            o.alignment.cols = int(s.int64(6));
            try {
                if (s.isNull(10)) {
                    o.alignment.weights = HistoryAlignment::weightsFromHalfBlob(
                        o.alignment.rows, o.alignment.cols, s.blob(7));
                } else {
                    o.alignment.setRowSpansFromBlob(s.blob(10));
                    qsizetype count = 0;
                    for (int length : std::as_const(o.alignment.rowLengths))
                        count += length;
                    o.alignment.weights = HistoryAlignment::floatsFromHalfBlob(count, s.blob(7));
                    o.alignment.validate();
                }
            } catch (const std::invalid_argument &error) {
                markNeedsCheck(d.path());
                throw damagedError(d.path(), QString::fromUtf8(error.what()));
            }
            o.alignment.sourceTokens = stringListFromJson(s.text(8));
            o.alignment.targetTokens = stringListFromJson(s.text(9));
        }
        e.outputs.append(o);
    }
    return e;
}

} // namespace glosa::history
