// HistoryStore in one process: schema, round trips, queries, retention, export, damaged files.
// The multi-process guarantees (crash, concurrent writers, disk full) are in
// tst_historyrobustness.cpp.
#include "app/core/history/export.h"
#include "app/core/history/store.h"

#include "tests/support/historytestutil.h"

#include <QBuffer>
#include <QCryptographicHash>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QXmlStreamReader>
#include <QtTest>

#include <sqlite3.h>

using namespace glosa;
using glosa::test::makeTranslation;

namespace {

// Runs one SQL statement on a separate raw connection and returns the first column of every row.
QStringList rawQuery(const QString &path, const char *sql)
{
    sqlite3 *db = nullptr;
    QStringList rows;
    if (sqlite3_open(QFile::encodeName(path).constData(), &db) != SQLITE_OK) {
        sqlite3_close(db);
        return {QStringLiteral("cannot open")};
    }
    sqlite3_stmt *stmt = nullptr;
    if (sqlite3_prepare_v2(db, sql, -1, &stmt, nullptr) == SQLITE_OK) {
        while (sqlite3_step(stmt) == SQLITE_ROW)
            rows.append(
                QString::fromUtf8(reinterpret_cast<const char *>(sqlite3_column_text(stmt, 0))));
    } else {
        rows.append(QStringLiteral("error: ") + QString::fromUtf8(sqlite3_errmsg(db)));
    }
    sqlite3_finalize(stmt);
    sqlite3_close(db);
    return rows;
}

// Runs `sql` (any number of statements) on a separate raw connection; the error, or "".
QString rawExec(const QString &path, const char *sql)
{
    sqlite3 *db = nullptr;
    QString error;
    if (sqlite3_open(QFile::encodeName(path).constData(), &db) != SQLITE_OK)
        error = QStringLiteral("cannot open");
    else if (char *message = nullptr;
             sqlite3_exec(db, sql, nullptr, nullptr, &message) != SQLITE_OK) {
        error = QString::fromUtf8(message);
        sqlite3_free(message); // LeakSanitizer found it (88 bytes, the CHECK message)
    }
    sqlite3_close(db);
    return error;
}

// The file at `path` as an older schema version wrote it: `entries` rebuilt with that version's
// CHECK on `kind` (`kinds`, the only difference from today's table), the same rows, indexes,
// triggers and AUTOINCREMENT counter (ids already handed out stay handed out).
QString rewriteAsVersion(const QString &path, int version, const char *kinds)
{
    const QByteArray sql = QStringLiteral(R"sql(
PRAGMA foreign_keys = OFF;
BEGIN;
CREATE TABLE old_rows AS SELECT * FROM entries;
CREATE TABLE old_sequence AS SELECT seq FROM sqlite_sequence WHERE name = 'entries';
DROP TABLE entries;
CREATE TABLE entries (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    kind TEXT NOT NULL CHECK (kind IN (%1)),
    created_ms INTEGER NOT NULL, model_id TEXT NOT NULL DEFAULT '',
    model_version TEXT NOT NULL DEFAULT '', source_language TEXT NOT NULL DEFAULT '',
    target_language TEXT NOT NULL DEFAULT '', settings TEXT NOT NULL DEFAULT '{}',
    input_text TEXT NOT NULL DEFAULT '', image_path TEXT NOT NULL DEFAULT '',
    image_hash TEXT NOT NULL DEFAULT '', thumbnail BLOB, elapsed_ms REAL NOT NULL DEFAULT 0,
    starred INTEGER NOT NULL DEFAULT 0, edited_text TEXT NOT NULL DEFAULT '');
INSERT INTO entries SELECT * FROM old_rows;
DROP TABLE old_rows;
UPDATE sqlite_sequence SET seq = (SELECT seq FROM old_sequence) WHERE name = 'entries';
DROP TABLE old_sequence;
CREATE INDEX entries_by_time ON entries (created_ms, id);
CREATE INDEX entries_by_kind ON entries (kind, created_ms);
CREATE INDEX entries_by_model ON entries (model_id, created_ms);
CREATE INDEX entries_starred ON entries (created_ms) WHERE starred;
CREATE TRIGGER entries_after_insert AFTER INSERT ON entries BEGIN
    UPDATE meta SET value = value + 1 WHERE key = 'entry_count';
END;
CREATE TRIGGER entries_after_delete AFTER DELETE ON entries BEGIN
    UPDATE meta SET value = value - 1 WHERE key = 'entry_count';
    DELETE FROM entries_fts WHERE rowid = old.id;
END;
PRAGMA user_version = %2;
COMMIT;
)sql")
                              .arg(QLatin1String(kinds))
                              .arg(version)
                              .toUtf8();
    return rawExec(path, sql.constData());
}

QList<qint64> ids(const HistoryPage &page)
{
    QList<qint64> out;
    for (const HistorySummary &s : page.items)
        out.append(s.id);
    return out;
}

} // namespace

class TestHistoryStore : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    QString dbPath() const { return m_dir.filePath(QStringLiteral("history.sqlite")); }

private slots:
    void init()
    {
        QVERIFY(m_dir.isValid());
        QFile::remove(dbPath());
    }
    void cleanup()
    {
        const QStringList files = QDir(m_dir.path()).entryList(QDir::Files);
        for (const QString &f : files)
            QFile::remove(m_dir.filePath(f));
    }

    void createsSchemaWithWalAndFts5()
    {
        HistoryStore store;
        const HistoryOpenResult r = store.open(dbPath());
        QCOMPARE(r.status, HistoryOpenResult::Status::Created);
        QCOMPARE(r.migratedFrom, 0);
        QVERIFY(store.isOpen());
        QCOMPARE(rawQuery(dbPath(), "PRAGMA user_version"),
                 QStringList{QString::number(HistoryStore::kSchemaVersion)});
        QCOMPARE(rawQuery(dbPath(), "PRAGMA journal_mode"), QStringList{QStringLiteral("wal")});
        QCOMPARE(rawQuery(dbPath(), "SELECT sqlite_compileoption_used('ENABLE_FTS5')"),
                 QStringList{QStringLiteral("1")});
        QCOMPARE(rawQuery(dbPath(), "SELECT name FROM sqlite_schema WHERE name = 'entries_fts'"),
                 QStringList{QStringLiteral("entries_fts")});
        store.close();

        // Reopening neither migrates nor recreates.
        HistoryStore again;
        const HistoryOpenResult r2 = again.open(dbPath());
        QCOMPARE(r2.status, HistoryOpenResult::Status::Opened);
        QCOMPARE(r2.migratedFrom, -1);
    }

    void migratesAnEmptyVersionZeroDatabase()
    {
        QCOMPARE(rawQuery(dbPath(), "CREATE TABLE unrelated (x)"), QStringList());
        HistoryStore store;
        const HistoryOpenResult r = store.open(dbPath());
        QCOMPARE(r.status, HistoryOpenResult::Status::Opened);
        QCOMPARE(r.migratedFrom, 0);
        QVERIFY(store.addEntry(makeTranslation(QStringLiteral("hello"), {QStringLiteral("hola")})) >
                0);
    }

    void refusesANewerSchemaWithoutTouchingIt()
    {
        {
            HistoryStore store;
            store.open(dbPath());
            store.addEntry(makeTranslation(QStringLiteral("keep me"), {QStringLiteral("x")}));
        }
        QCOMPARE(rawQuery(dbPath(), "PRAGMA user_version = 99"), QStringList());
        HistoryStore store;
        try {
            store.open(dbPath());
            QFAIL("open() accepted schema 99");
        } catch (const HistoryError &e) {
            QCOMPARE(e.code(), HistoryError::Code::NewerVersion);
            QVERIFY2(e.message().contains(QLatin1String("newer")), qPrintable(e.message()));
        }
        QVERIFY(!store.isOpen());
        QCOMPARE(QDir(m_dir.path()).entryList({QStringLiteral("*.corrupt-*")}), QStringList());
        QCOMPARE(rawQuery(dbPath(), "SELECT input_text FROM entries"),
                 QStringList{QStringLiteral("keep me")});
    }

    // Schema 2 knew no documents (a CHECK on `kind`); opening such a file lets them in and keeps
    // every entry, output, index row and the ids already handed out.
    void migratesVersionTwoKeepingEverything()
    {
        qint64 kept = 0, removed = 0;
        {
            HistoryStore store;
            store.open(dbPath());
            kept = store.addEntry(
                makeTranslation(QStringLiteral("the red car"), {QStringLiteral("el coche rojo")}));
            QVERIFY(store.setEditedText(kept, QStringLiteral("el auto rojo")));
            removed = store.addEntry(makeTranslation(QStringLiteral("gone"), {}));
            QVERIFY(store.removeEntry(removed));
        }
        // The file as version 2 wrote it: `entries` with the CHECK of that version.
        QCOMPARE(rewriteAsVersion(dbPath(), 2, "'translation', 'caption', 'comparison'"), QString());
        QVERIFY(rawExec(dbPath(), "INSERT INTO entries (kind, created_ms) VALUES ('document', 0)")
                    .contains(QStringLiteral("CHECK")));

        HistoryStore store;
        QCOMPARE(store.open(dbPath()).migratedFrom, 2);
        QCOMPARE(store.count(), 1);
        const std::optional<HistoryEntry> entry = store.entry(kept);
        QVERIFY(entry.has_value());
        QCOMPARE(entry->inputText, QStringLiteral("the red car"));
        QCOMPARE(entry->bestOutput()->text, QStringLiteral("el coche rojo")); // outputs kept
        QCOMPARE(entry->editedText, QStringLiteral("el auto rojo"));
        QCOMPARE(ids(store.search(QStringLiteral("auto"))), QList<qint64>{kept});
        QCOMPARE(store.integrityCheck(), QStringList());
        HistoryEntry document =
            makeTranslation(QStringLiteral("one\ntwo"), {QStringLiteral("uno\ndos")});
        document.kind = HistoryKind::Document;
        const qint64 added = store.addEntry(document);
        QVERIFY(added > removed); // a deleted id is never handed out again
        QCOMPARE(store.entry(added)->kind, HistoryKind::Document);
        HistoryFilter documents;
        documents.kind = HistoryKind::Document;
        QCOMPARE(ids(store.recent(documents)), QList<qint64>{added});
        // Foreign keys are on again: deleting an entry deletes its outputs.
        QVERIFY(store.removeEntry(kept));
        const QByteArray outputs =
            "SELECT count(*) FROM outputs WHERE entry_id = " + QByteArray::number(kept);
        QCOMPARE(rawQuery(dbPath(), outputs.constData()), QStringList{"0"});
    }

    // Schema 3 knew no evaluations: opening such a file lets them in (the CHECK on `kind`
    // loosened in place, as from 2 to 3) and keeps every entry, document included.
    void migratesVersionThreeKeepingEverything()
    {
        qint64 kept = 0, document = 0;
        {
            HistoryStore store;
            store.open(dbPath());
            kept = store.addEntry(
                makeTranslation(QStringLiteral("the red car"), {QStringLiteral("el coche rojo")}));
            HistoryEntry d = makeTranslation(QStringLiteral("one\ntwo"), {QStringLiteral("uno\ndos")});
            d.kind = HistoryKind::Document;
            document = store.addEntry(d);
        }
        // The file as version 3 wrote it: `entries` with the CHECK of that version.
        QCOMPARE(rewriteAsVersion(dbPath(), 3, "'translation', 'caption', 'comparison', 'document'"),
                 QString());
        QVERIFY(rawExec(dbPath(), "INSERT INTO entries (kind, created_ms) VALUES ('evaluation', 0)")
                    .contains(QStringLiteral("CHECK")));

        HistoryStore store;
        QCOMPARE(store.open(dbPath()).migratedFrom, 3);
        QCOMPARE(store.count(), 2);
        QCOMPARE(store.entry(kept)->bestOutput()->text, QStringLiteral("el coche rojo"));
        QCOMPARE(store.entry(document)->kind, HistoryKind::Document);
        QCOMPARE(ids(store.search(QStringLiteral("coche"))), QList<qint64>{kept});
        QCOMPARE(store.integrityCheck(), QStringList());
        HistoryEntry evaluation;
        evaluation.kind = HistoryKind::Evaluation;
        evaluation.modelId = QStringLiteral("transformer-en-es");
        evaluation.inputText = QStringLiteral("tatoeba-sample");
        evaluation.outputs.append(
            {.label = QStringLiteral("transformer-en-es"),
             .text = QStringLiteral("transformer-en-es  BLEU 42.81  chrF2 60.65"),
             .score = 42.81});
        const qint64 added = store.addEntry(evaluation);
        QVERIFY(added > document);
        QCOMPARE(store.entry(added)->kind, HistoryKind::Evaluation);
        HistoryFilter evaluations;
        evaluations.kind = HistoryKind::Evaluation;
        QCOMPARE(ids(store.recent(evaluations)), QList<qint64>{added});
        QCOMPARE(ids(store.search(QStringLiteral("tatoeba"))), QList<qint64>{added});
        // Other kinds are still refused: the constraint was loosened, not dropped.
        QVERIFY(rawExec(dbPath(), "INSERT INTO entries (kind, created_ms) VALUES ('poem', 0)")
                    .contains(QStringLiteral("CHECK")));
        QCOMPARE(rawQuery(dbPath(), "PRAGMA user_version"),
                 QStringList{QString::number(HistoryStore::kSchemaVersion)});
    }

    void roundTripsEveryField()
    {
        HistoryStore store;
        store.open(dbPath());
        HistoryEntry e;
        e.kind = HistoryKind::Comparison;
        e.time = QDateTime(QDate(2026, 3, 14), QTime(15, 9, 26, 535), Qt::UTC);
        e.modelId = QStringLiteral("rnn-en-es");
        e.modelVersion = QStringLiteral("0.3");
        e.sourceLanguage = QStringLiteral("en");
        e.targetLanguage = QStringLiteral("es");
        e.settings = QJsonObject{{QStringLiteral("columns"),
                                  QJsonArray{QStringLiteral("greedy"), QStringLiteral("beam")}},
                                 {QStringLiteral("temperature"), 0.7}};
        e.inputText = QStringLiteral("The cat sleeps.\nÜber “quotes”, 'apostrophes' ✓");
        e.elapsedMs = 42.25;
        e.starred = true;
        QImage image(40, 20, QImage::Format_RGB32);
        image.fill(Qt::red);
        e.thumbnailPng = HistoryEntry::makeThumbnail(image, 16);
        e.imagePath = QStringLiteral("/tmp/cat.png");
        e.imageHash = QStringLiteral("ab12");
        for (int column = 0; column < 2; ++column) {
            for (int rank = 0; rank < 2; ++rank) {
                HistoryOutput o;
                o.column = column;
                o.rank = rank;
                o.label = column == 0 ? QStringLiteral("greedy") : QStringLiteral("beam 4");
                o.text = QStringLiteral("El gato duerme %1/%2.").arg(column).arg(rank);
                if (rank == 0)
                    o.score = -1.0 / 3.0;
                o.alignment.rows = 3;
                o.alignment.cols = 4;
                for (int i = 0; i < 12; ++i)
                    o.alignment.weights.append(float(i) / 11.0f + 0.001f * column);
                o.alignment.sourceTokens = {QStringLiteral("▁The"), QStringLiteral("▁cat"),
                                            QStringLiteral("▁sleeps"), QStringLiteral(".")};
                o.alignment.targetTokens = {QStringLiteral("▁El"), QStringLiteral("▁gato"),
                                            QStringLiteral("▁duerme")};
                e.outputs.append(o);
            }
        }
        const qint64 id = store.addEntry(e);
        QVERIFY(id > 0);
        const std::optional<HistoryEntry> got = store.entry(id);
        QVERIFY(got.has_value());
        QCOMPARE(got->id, id);
        QCOMPARE(got->kind, e.kind);
        QCOMPARE(got->time, e.time);
        QCOMPARE(got->modelId, e.modelId);
        QCOMPARE(got->modelVersion, e.modelVersion);
        QCOMPARE(got->sourceLanguage, e.sourceLanguage);
        QCOMPARE(got->targetLanguage, e.targetLanguage);
        QCOMPARE(got->settings, e.settings);
        QCOMPARE(got->inputText, e.inputText);
        QCOMPARE(got->imagePath, e.imagePath);
        QCOMPARE(got->imageHash, e.imageHash);
        QCOMPARE(got->thumbnailPng, e.thumbnailPng);
        QCOMPARE(QImage::fromData(got->thumbnailPng).size(), QSize(16, 8));
        QCOMPARE(got->elapsedMs, e.elapsedMs);
        QCOMPARE(got->starred, true);
        QCOMPARE(got->outputs.size(), 4);
        for (int i = 0; i < 4; ++i) {
            const HistoryOutput &a = e.outputs[i];
            const HistoryOutput &b = got->outputs[i];
            QCOMPARE(b.column, a.column);
            QCOMPARE(b.rank, a.rank);
            QCOMPARE(b.label, a.label);
            QCOMPARE(b.text, a.text);
            QCOMPARE(b.score.has_value(), a.score.has_value());
            if (a.score)
                QCOMPARE(*b.score, *a.score);
            QCOMPARE(b.alignment.rows, 3);
            QCOMPARE(b.alignment.cols, 4);
            QCOMPARE(b.alignment.sourceTokens, a.alignment.sourceTokens);
            QCOMPARE(b.alignment.targetTokens, a.alignment.targetTokens);
            QCOMPARE(b.alignment.weights.size(), 12);
            for (int k = 0; k < 12; ++k) {
                // float16 keeps 11 significant bits: relative error below 2^-11.
                QVERIFY2(std::abs(b.alignment.weights[k] - a.alignment.weights[k]) <=
                             std::abs(a.alignment.weights[k]) / 2048.0f + 1e-7f,
                         qPrintable(QStringLiteral("%1 vs %2")
                                        .arg(b.alignment.weights[k])
                                        .arg(a.alignment.weights[k])));
            }
        }
        QCOMPARE(got->bestOutput(1)->label, QStringLiteral("beam 4"));
        QVERIFY(!store.entry(id + 1000).has_value());
    }

    void alignmentBlobIsHalfPrecision()
    {
        HistoryAlignment a;
        a.rows = 2;
        a.cols = 3;
        a.weights = {0.0f, 1.0f, -2.0f, 0.5f, 65504.0f, 1.0f / 3.0f};
        const QByteArray blob = a.toHalfBlob();
        QCOMPARE(blob.size(), 12);
        // 1.0 = 0x3c00, little-endian.
        QCOMPARE(quint8(blob[2]), quint8(0x00));
        QCOMPARE(quint8(blob[3]), quint8(0x3c));
        const QList<float> back = HistoryAlignment::weightsFromHalfBlob(2, 3, blob);
        QCOMPARE(back[4], 65504.0f);
        QCOMPARE(back[2], -2.0f);
        QVERIFY(std::abs(back[5] - 1.0f / 3.0f) < 1e-3f);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                                 HistoryAlignment::weightsFromHalfBlob(2, 2, blob));
        a.rows = 4;
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, a.toHalfBlob());

        HistoryStore store;
        store.open(dbPath());
        HistoryEntry bad = makeTranslation(QStringLiteral("x"), {QStringLiteral("y")});
        bad.outputs[0].alignment = a; // 6 weights for [4, 3]
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, store.addEntry(bad));
        QCOMPARE(store.count(), 0); // nothing half-written
    }

    void imageFromFile()
    {
        QImage image(300, 150, QImage::Format_RGB32);
        image.fill(Qt::blue);
        const QString file = m_dir.filePath(QStringLiteral("photo.png"));
        QVERIFY(image.save(file));
        QFile f(file);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray bytes = f.readAll();

        HistoryEntry e;
        QVERIFY(e.setImageFromFile(file));
        QCOMPARE(e.imagePath, file);
        QCOMPARE(e.imageHash,
                 QString::fromLatin1(
                     QCryptographicHash::hash(bytes, QCryptographicHash::Sha256).toHex()));
        const QImage thumb = QImage::fromData(e.thumbnailPng, "PNG");
        QCOMPARE(thumb.size(), QSize(96, 48));
        QCOMPARE(thumb.pixelColor(10, 10), QColor(Qt::blue));
        QVERIFY(!e.setImageFromFile(m_dir.filePath(QStringLiteral("missing.png"))));
        QVERIFY(e.imageHash.isEmpty() && e.thumbnailPng.isEmpty());
    }

    void recentPagesNewestFirst()
    {
        HistoryStore store;
        store.open(dbPath());
        const QDateTime base(QDate(2026, 1, 1), QTime(12, 0), Qt::UTC);
        QList<HistoryEntry> entries;
        for (int i = 0; i < 25; ++i) {
            HistoryEntry e = makeTranslation(QStringLiteral("sentence %1").arg(i),
                                             {QStringLiteral("frase %1").arg(i)});
            e.time = base.addSecs(60 * ((i * 7) % 25)); // times out of insertion order
            entries.append(e);
        }
        const QList<qint64> added = store.addEntries(entries);
        QCOMPARE(added.size(), 25);
        QCOMPARE(store.count(), 25);

        QList<qint64> seen;
        QDateTime previous;
        for (int offset = 0;; offset += 10) {
            const HistoryPage page = store.recent({}, offset, 10);
            for (const HistorySummary &s : page.items) {
                if (previous.isValid())
                    QVERIFY(s.time < previous);
                previous = s.time;
                seen.append(s.id);
                QCOMPARE(s.outputPreview, QStringLiteral("frase ") + s.inputPreview.mid(9));
            }
            QCOMPARE(page.hasMore, offset + 10 < 25);
            if (!page.hasMore)
                break;
        }
        QCOMPARE(seen.size(), 25);
        QCOMPARE(QSet<qint64>(seen.begin(), seen.end()), QSet<qint64>(added.begin(), added.end()));
    }

    void filters_data()
    {
        QTest::addColumn<int>("kind"); // -1 = any
        QTest::addColumn<QString>("model");
        QTest::addColumn<int>("fromDay"); // 0 = unbounded
        QTest::addColumn<int>("toDay");
        QTest::addColumn<bool>("starredOnly");
        QTest::addColumn<QStringList>("expected"); // inputs, newest first

        // Fixture (see filters()): day d in March, kind, model, starred.
        QTest::newRow("none") << -1 << QString() << 0 << 0 << false
                              << QStringList{"e5", "e4", "e3", "e2", "e1"};
        QTest::newRow("captions") << int(HistoryKind::Caption) << QString() << 0 << 0 << false
                                  << QStringList{"e4", "e2"};
        QTest::newRow("comparisons")
            << int(HistoryKind::Comparison) << QString() << 0 << 0 << false << QStringList{"e5"};
        QTest::newRow("model") << -1 << "m2" << 0 << 0 << false << QStringList{"e5", "e3"};
        QTest::newRow("from day 2")
            << -1 << QString() << 2 << 0 << false << QStringList{"e5", "e4", "e3", "e2"};
        QTest::newRow("days [2, 4)")
            << -1 << QString() << 2 << 4 << false << QStringList{"e3", "e2"};
        QTest::newRow("starred") << -1 << QString() << 0 << 0 << true << QStringList{"e4", "e1"};
        QTest::newRow("caption+starred+from 3")
            << int(HistoryKind::Caption) << QString() << 3 << 0 << true << QStringList{"e4"};
        QTest::newRow("model+kind, none")
            << int(HistoryKind::Caption) << "m2" << 0 << 0 << false << QStringList();
    }

    void filters()
    {
        QFETCH(int, kind);
        QFETCH(QString, model);
        QFETCH(int, fromDay);
        QFETCH(int, toDay);
        QFETCH(bool, starredOnly);
        QFETCH(QStringList, expected);

        HistoryStore store;
        store.open(dbPath());
        const struct
        {
            HistoryKind kind;
            const char *model;
            bool starred;
        } rows[] = {
            {HistoryKind::Translation, "m1", true},  {HistoryKind::Caption, "m1", false},
            {HistoryKind::Translation, "m2", false}, {HistoryKind::Caption, "m1", true},
            {HistoryKind::Comparison, "m2", false},
        };
        for (int i = 0; i < 5; ++i) {
            HistoryEntry e = makeTranslation(QStringLiteral("e%1 common").arg(i + 1),
                                             {QStringLiteral("salida común")},
                                             QString::fromLatin1(rows[i].model));
            e.kind = rows[i].kind;
            e.time = QDateTime(QDate(2026, 3, i + 1), QTime(10, 0), Qt::UTC);
            const qint64 id = store.addEntry(e);
            if (rows[i].starred)
                QVERIFY(store.setStarred(id, true));
        }
        HistoryFilter filter;
        if (kind >= 0)
            filter.kind = HistoryKind(kind);
        filter.modelId = model;
        if (fromDay > 0)
            filter.from = QDateTime(QDate(2026, 3, fromDay), QTime(0, 0), Qt::UTC);
        if (toDay > 0)
            filter.to = QDateTime(QDate(2026, 3, toDay), QTime(0, 0), Qt::UTC);
        filter.starredOnly = starredOnly;

        QStringList got;
        for (const HistorySummary &s : store.recent(filter, 0, 100).items)
            got.append(s.inputPreview.section(QLatin1Char(' '), 0, 0));
        QCOMPARE(got, expected);
        QCOMPARE(store.count(filter), qint64(expected.size()));
        // The same filter applies to a search that matches every entry.
        got.clear();
        for (const HistorySummary &s : store.search(QStringLiteral("común"), filter, 0, 100).items)
            got.append(s.inputPreview.section(QLatin1Char(' '), 0, 0));
        QCOMPARE(got, expected);
    }

    void search_data()
    {
        QTest::addColumn<QString>("query");
        QTest::addColumn<QStringList>("expected"); // inputs of the hits, newest first
        QTest::addColumn<QString>("snippetPart");  // in the first hit's snippet

        QTest::newRow("input word") << "morning" << QStringList{"Good morning."} << "[morning]";
        QTest::newRow("output word") << "gato" << QStringList{"The cat sleeps."} << "[gato]";
        QTest::newRow("n-best output")
            << "dormita" << QStringList{"The cat sleeps."} << "[dormita]";
        QTest::newRow("accents folded") << "dias" << QStringList{"Good morning."} << "[días]";
        QTest::newRow("case folded") << "GOOD" << QStringList{"Good morning."} << "[Good]";
        QTest::newRow("prefix") << "slee" << QStringList{"The cat sleeps."} << "[sleeps]";
        QTest::newRow("prefix, last word")
            << "cat slee" << QStringList{"The cat sleeps."} << "[sleeps]";
        QTest::newRow("earlier words exact") << "slee cat" << QStringList() << QString();
        QTest::newRow("short last word exact") << "the ca" << QStringList() << QString();
        QTest::newRow("all words") << "cat duerme" << QStringList{"The cat sleeps."} << "]";
        QTest::newRow("words in both")
            << "the" << QStringList{"", "The dog (barks) AND \"bites\"", "The cat sleeps."}
            << "on [the] sand";
        QTest::newRow("no hit") << "elephant" << QStringList() << QString();
        QTest::newRow("FTS syntax is literal")
            << "\"bites\" AND (barks) -x NEAR/2 *" << QStringList() << QString();
        QTest::newRow("quotes and parens")
            << "(barks) \"bites" << QStringList{"The dog (barks) AND \"bites\""} << "[barks]";
        QTest::newRow("column-like word") << "input:morning" << QStringList() << QString();
        QTest::newRow("caption by file name") << "beach" << QStringList{""} << "[beach]";
    }

    void search()
    {
        QFETCH(QString, query);
        QFETCH(QStringList, expected);
        QFETCH(QString, snippetPart);

        HistoryStore store;
        store.open(dbPath());
        store.addEntry(makeTranslation(
            QStringLiteral("The cat sleeps."),
            {QStringLiteral("El gato duerme."), QStringLiteral("El gato dormita.")}));
        store.addEntry(
            makeTranslation(QStringLiteral("Good morning."), {QStringLiteral("Buenos días.")}));
        store.addEntry(makeTranslation(QStringLiteral("The dog (barks) AND \"bites\""),
                                       {QStringLiteral("El perro ladra y muerde")}));
        HistoryEntry caption;
        caption.kind = HistoryKind::Caption;
        caption.imagePath = QStringLiteral("/photos/beach-2025.jpg");
        caption.outputs.append({.text = QStringLiteral("two people walk on the sand")});
        store.addEntry(caption);

        const HistoryPage page = store.search(query);
        QStringList got;
        for (const HistorySummary &s : page.items)
            got.append(s.inputPreview);
        QCOMPARE(got, expected);
        if (!expected.isEmpty())
            QVERIFY2(page.items.first().snippet.contains(snippetPart),
                     qPrintable(page.items.first().snippet));
    }

    void searchOrderAndMarkers()
    {
        HistoryStore store;
        store.open(dbPath());
        const qint64 weak = store.addEntry(makeTranslation(
            QStringLiteral("apple and a long sentence about many other things entirely"),
            {QStringLiteral("manzana")}));
        const qint64 strong = store.addEntry(
            makeTranslation(QStringLiteral("apple apple apple"), {QStringLiteral("manzana")}));
        const qint64 newest = store.addEntry(makeTranslation(
            QStringLiteral("one apple among a great many unrelated words in a row here"),
            {QStringLiteral("x")}));
        QCOMPARE(ids(store.search(QStringLiteral("apple"))), (QList<qint64>{newest, strong, weak}));
        HistorySearchOptions options;
        options.order = HistorySearchOptions::Order::Relevance;
        options.highlightBegin = QStringLiteral("<b>");
        options.highlightEnd = QStringLiteral("</b>");
        const HistoryPage page = store.search(QStringLiteral("apple"), {}, 0, 10, options);
        QCOMPARE(page.items.first().id, strong);
        QCOMPARE(page.items.first().snippet,
                 QStringLiteral("<b>apple</b> <b>apple</b> <b>apple</b>"));
        // Paging a search.
        const HistoryPage first = store.search(QStringLiteral("apple"), {}, 0, 2);
        QCOMPARE(first.items.size(), 2);
        QVERIFY(first.hasMore);
        const HistoryPage second = store.search(QStringLiteral("apple"), {}, 2, 2);
        QCOMPARE(ids(second), QList<qint64>{weak});
        QVERIFY(!second.hasMore);
        // No words: the same as recent().
        QCOMPARE(ids(store.search(QStringLiteral(" -- "))), ids(store.recent()));
    }

    void starDeleteClear()
    {
        HistoryStore store;
        store.open(dbPath());
        const qint64 a = store.addEntry(makeTranslation(
            QStringLiteral("alpha"), {QStringLiteral("alfa"), QStringLiteral("alfa2")}));
        const qint64 b =
            store.addEntry(makeTranslation(QStringLiteral("beta"), {QStringLiteral("beta")}));
        QVERIFY(store.setStarred(a, true));
        QVERIFY(store.entry(a)->starred);
        QVERIFY(store.setStarred(a, false));
        QVERIFY(!store.entry(a)->starred);
        QVERIFY(!store.setStarred(9999, true));

        QVERIFY(store.removeEntry(a));
        QVERIFY(!store.removeEntry(a));
        QVERIFY(!store.entry(a).has_value());
        QCOMPARE(store.count(), 1);
        QCOMPARE(store.search(QStringLiteral("alpha")).items.size(), 0);
        // The outputs and the index row went with it (foreign key cascade, trigger).
        QCOMPARE(rawQuery(dbPath(), "SELECT count(*) FROM outputs"), QStringList{"1"});
        QCOMPARE(rawQuery(dbPath(), "SELECT count(*) FROM entries_fts"), QStringList{"1"});
        // Ids are never reused.
        const qint64 c = store.addEntry(makeTranslation(QStringLiteral("gamma"), {}));
        QVERIFY(c > b);

        QVERIFY(store.setStarred(b, true));
        QCOMPARE(store.clear(), 2);
        QCOMPARE(store.count(), 0);
        QCOMPARE(store.recent().items.size(), 0);
        QCOMPARE(rawQuery(dbPath(), "SELECT count(*) FROM outputs"), QStringList{"0"});
        QCOMPARE(rawQuery(dbPath(), "SELECT count(*) FROM entries_fts"), QStringList{"0"});
        QCOMPARE(store.integrityCheck(), QStringList());
        QVERIFY(store.addEntry(makeTranslation(QStringLiteral("delta"), {})) > c);
        QCOMPARE(store.count(), 1);
    }

    void retention()
    {
        HistoryStore store;
        store.open(dbPath());
        const QDateTime now = QDateTime::currentDateTimeUtc();
        QList<HistoryEntry> entries;
        for (int i = 0; i < 10; ++i) {
            HistoryEntry e = makeTranslation(QStringLiteral("old %1").arg(i), {});
            e.time = now.addDays(-(10 - i)).addSecs(3600); // days -10 .. -1, plus an hour
            entries.append(e);
        }
        const QList<qint64> added = store.addEntries(entries);
        store.setStarred(added[0], true); // the oldest, starred: survives everything

        // Age: entries older than 6 days go (days -10..-7), except the starred one.
        QCOMPARE(store.applyRetention({.maxEntries = 0, .maxAgeDays = 6}), 3);
        QCOMPARE(store.count(), 7);
        QVERIFY(store.entry(added[0]).has_value());
        QVERIFY(!store.entry(added[1]).has_value());
        QVERIFY(!store.entry(added[3]).has_value());
        QVERIFY(store.entry(added[4]).has_value());

        // Count: keep 3, removing the oldest unstarred first.
        QCOMPARE(store.applyRetention({.maxEntries = 3}), 4);
        QCOMPARE(ids(store.recent()), (QList<qint64>{added[9], added[8], added[0]}));

        // On insert.
        store.setRetention({.maxEntries = 3});
        const qint64 fresh = store.addEntry(makeTranslation(QStringLiteral("new"), {}));
        QCOMPARE(ids(store.recent()), (QList<qint64>{fresh, added[9], added[0]}));
        QCOMPARE(store.count(), 3);
        QCOMPARE(store.applyRetention({}), 0);
        QCOMPARE(store.integrityCheck(), QStringList());
    }

    // "Keep the history file under N MB": the oldest unstarred entries go while the pages in
    // use hold more; the freed pages are reused, so the file itself stays about that size.
    void retentionBySize()
    {
        const qint64 limit = 2 * 1024 * 1024;
        HistoryStore::Options options;
        options.retention.maxBytes = limit;
        HistoryStore store(options);
        store.open(dbPath());
        QList<qint64> added;
        for (int i = 0; i < 40; ++i) {
            HistoryEntry e = makeTranslation(QStringLiteral("entry %1").arg(i),
                                             {QStringLiteral("entrada %1").arg(i)});
            HistoryAlignment &a = e.outputs[0].alignment; // 250 × 400 float16: 200 KB
            a.rows = 250;
            a.cols = 400;
            for (int k = 0; k < a.rows * a.cols; ++k)
                a.weights << float((k * 7919 + i) % 1000) / 1000.0f;
            added << store.addEntry(e);
            if (i == 0)
                QVERIFY(store.setStarred(added[0], true)); // kept whatever the size
        }
        const qint64 kept = store.count();
        QVERIFY2(kept > 3 && kept < 20, qPrintable(QString::number(kept)));
        QVERIFY(store.entry(added[0]).has_value());  // starred
        QVERIFY(store.entry(added[39]).has_value()); // the newest
        QVERIFY(!store.entry(added[1]).has_value()); // the oldest unstarred went first
        QCOMPARE(store.integrityCheck(), QStringList());
        store.close(); // checkpoints the WAL into the file
        const qint64 bytes = QFileInfo(dbPath()).size();
        QVERIFY2(bytes <= limit + 300 * 1024, qPrintable(QString::number(bytes)));
    }

    // Sparse rows (block-diagonal alignments) are stored as such and read back exactly.
    void sparseAlignmentRoundTrip()
    {
        HistoryAlignment a;
        a.rows = 4;
        a.cols = 6;
        a.weights = {0.5f,  0.5f,  0, 0,      0,      0,    //
                     0.25f, 0.75f, 0, 0,      0,      0,    //
                     0,     0,     0, 0.125f, 0.375f, 0.5f, //
                     0,     0,     0, 1.0f,   0,      0};
        const QList<float> dense = a.weights;
        a.sparsify();
        QVERIFY(a.isSparse());
        QCOMPARE(a.rowStarts, (QList<int>{0, 0, 3, 3}));
        QCOMPARE(a.rowLengths, (QList<int>{2, 2, 3, 1}));
        QCOMPARE(a.denseWeights(), dense);
        HistoryEntry e = makeTranslation(QStringLiteral("two sentences"), {QStringLiteral("dos")});
        e.outputs[0].alignment = a;
        HistoryStore store;
        store.open(dbPath());
        const qint64 id = store.addEntry(e);
        const HistoryAlignment back = store.entry(id)->outputs[0].alignment;
        QCOMPARE(back.rowStarts, a.rowStarts);
        QCOMPARE(back.rowLengths, a.rowLengths);
        QCOMPARE(back.denseWeights(), dense); // all exact in float16
        // A matrix with few zeros stays dense.
        HistoryAlignment full{.rows = 2, .cols = 2, .weights = {0.5f, 0.5f, 0.0f, 1.0f}};
        full.sparsify();
        QVERIFY(!full.isSparse());
        // Spans outside the matrix are refused.
        a.rowLengths[3] = 4;
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, a.validate());
    }

    void exportJsonLines()
    {
        HistoryStore store;
        store.open(dbPath());
        HistoryEntry e = makeTranslation(QStringLiteral("line one\nline \"two\""),
                                         {QStringLiteral("uno"), QStringLiteral("dos")});
        e.outputs[0].alignment = {.rows = 1, .cols = 2, .weights = {0.25f, 0.75f}};
        const qint64 a = store.addEntry(e);
        HistoryEntry c;
        c.kind = HistoryKind::Caption;
        c.imagePath = QStringLiteral("/img/a.png");
        c.imageHash = QStringLiteral("ff00");
        c.thumbnailPng = QByteArray("\x89PNG fake", 9);
        c.outputs.append({.text = QStringLiteral("a dog")});
        const qint64 b = store.addEntry(c);

        QBuffer buffer;
        buffer.open(QIODevice::WriteOnly);
        QCOMPARE(exportHistory(store, HistoryExportFormat::JsonLines, buffer).records, 2);
        const QList<QByteArray> lines = buffer.data().trimmed().split('\n');
        QCOMPARE(lines.size(), 2);
        const QJsonObject first = QJsonDocument::fromJson(lines[0]).object();
        QCOMPARE(first.value("id").toInteger(), a);
        QCOMPARE(first.value("kind").toString(), QStringLiteral("translation"));
        QCOMPARE(first.value("input").toString(), e.inputText);
        QCOMPARE(first.value("settings").toObject(), e.settings);
        const QJsonArray outs = first.value("outputs").toArray();
        QCOMPARE(outs.size(), 2);
        QCOMPARE(outs[1].toObject().value("text").toString(), QStringLiteral("dos"));
        QCOMPARE(outs[0].toObject().value("score").toDouble(), -0.25);
        QCOMPARE(outs[0].toObject().value("alignment").toObject().value("weights").toArray(),
                 (QJsonArray{0.25, 0.75}));
        const QJsonObject second = QJsonDocument::fromJson(lines[1]).object();
        QCOMPARE(second.value("id").toInteger(), b);
        QCOMPARE(second.value("image").toObject().value("sha256").toString(),
                 QStringLiteral("ff00"));
        QCOMPARE(QByteArray::fromBase64(
                     second.value("image").toObject().value("thumbnailPng").toString().toLatin1()),
                 c.thumbnailPng);
    }

    void exportCsv()
    {
        HistoryStore store;
        store.open(dbPath());
        store.addEntry(makeTranslation(QStringLiteral("a, \"quoted\"\nline"),
                                       {QStringLiteral("best"), QStringLiteral("second")}));
        HistoryEntry cmp = makeTranslation(QStringLiteral("compare"), {});
        cmp.kind = HistoryKind::Comparison;
        cmp.outputs = {{.column = 0, .rank = 0, .label = "greedy", .text = "g"},
                       {.column = 1, .rank = 1, .label = "beam", .text = "b2"},
                       {.column = 1, .rank = 0, .label = "beam", .text = "b1"}};
        store.addEntry(cmp);

        QBuffer buffer;
        buffer.open(QIODevice::WriteOnly);
        QCOMPARE(exportHistory(store, HistoryExportFormat::Csv, buffer).records, 3);
        const QString csv = QString::fromUtf8(buffer.data());
        QVERIFY(csv.startsWith(QLatin1String("id,time,kind,model_id,model_version,source_language,"
                                             "target_language,column,label,input,output,score,"
                                             "elapsed_ms,starred,settings,edited\r\n")));
        QVERIFY2(csv.contains(QLatin1String(",\"a, \"\"quoted\"\"\nline\",best,-0.25,")),
                 qPrintable(csv));
        QVERIFY(!csv.contains(QLatin1String("second")));
        QVERIFY(csv.contains(QLatin1String(",comparison,")));
        QVERIFY(csv.contains(QLatin1String(",0,greedy,compare,g,")));
        QVERIFY(csv.contains(QLatin1String(",1,beam,compare,b1,")));
        QVERIFY(!csv.contains(QLatin1String("b2")));
        // Settings are one quoted JSON field.
        QVERIFY(csv.contains(QLatin1String("\"{\"\"beamSize\"\":4,")));
    }

    void exportTmx()
    {
        HistoryStore store;
        store.open(dbPath());
        store.addEntry(makeTranslation(QStringLiteral("Fish & <chips>\x01"),
                                       {QStringLiteral("Pescado y patatas")}));
        HistoryEntry caption;
        caption.kind = HistoryKind::Caption;
        caption.outputs.append({.text = QStringLiteral("a caption")});
        store.addEntry(caption);
        HistoryEntry noLanguages = makeTranslation(QStringLiteral("Hi"), {QStringLiteral("Hola")});
        noLanguages.sourceLanguage.clear();
        noLanguages.targetLanguage.clear();
        store.addEntry(noLanguages);

        QBuffer buffer;
        buffer.open(QIODevice::WriteOnly);
        QCOMPARE(exportHistory(store, HistoryExportFormat::Tmx, buffer).records, 2);
        QXmlStreamReader xml(buffer.data());
        QStringList segs, langs;
        int units = 0;
        QString version;
        while (!xml.atEnd()) {
            xml.readNext();
            if (!xml.isStartElement())
                continue;
            if (xml.name() == QLatin1String("tmx"))
                version = xml.attributes().value("version").toString();
            else if (xml.name() == QLatin1String("tu"))
                ++units;
            else if (xml.name() == QLatin1String("tuv"))
                langs.append(xml.attributes().value("xml:lang").toString());
            else if (xml.name() == QLatin1String("seg"))
                segs.append(xml.readElementText());
        }
        QVERIFY2(!xml.hasError(), qPrintable(xml.errorString()));
        QCOMPARE(version, QStringLiteral("1.4"));
        QCOMPARE(units, 2);
        QCOMPARE(langs, (QStringList{"en", "es", "und", "und"}));
        QCOMPARE(segs, (QStringList{"Fish & <chips>", "Pescado y patatas", "Hi", "Hola"}));

        QBuffer none;
        none.open(QIODevice::WriteOnly);
        QCOMPARE(
            exportHistory(store, HistoryExportFormat::Tmx, none, {.kind = HistoryKind::Caption})
                .records,
            0);
        QVERIFY(none.data().contains("</tmx>"));
    }

    void damagedFileIsMovedAside_data()
    {
        QTest::addColumn<QString>("damage");
        QTest::newRow("not a database") << "garbage";
        QTest::newRow("schema page scribbled") << "page1";
        QTest::newRow("truncated") << "truncate";
    }

    void damagedFileIsMovedAside()
    {
        QFETCH(QString, damage);
        if (damage == QLatin1String("garbage")) {
            QFile f(dbPath());
            QVERIFY(f.open(QIODevice::WriteOnly));
            QByteArray junk(16384, Qt::Uninitialized);
            QRandomGenerator rng(7);
            for (char &c : junk)
                c = char(rng.bounded(256));
            f.write(junk);
            // A -wal that belongs to the damaged file must travel with it, not be replayed.
            QFile wal(dbPath() + QStringLiteral("-wal"));
            QVERIFY(wal.open(QIODevice::WriteOnly));
            wal.write(junk.left(4096));
        } else {
            HistoryStore store;
            store.open(dbPath());
            QList<HistoryEntry> many;
            for (int i = 0; i < 300; ++i)
                many.append(makeTranslation(QStringLiteral("entry %1 ").arg(i).repeated(20),
                                            {QStringLiteral("salida %1").arg(i)}));
            store.addEntries(many);
            store.close(); // checkpoints: everything is in the main file now
            QVERIFY(!QFileInfo::exists(dbPath() + QStringLiteral("-wal")));
            QFile f(dbPath());
            QVERIFY(f.open(QIODevice::ReadWrite));
            const qint64 size = f.size();
            QVERIFY(size > 40 * 4096);
            if (damage == QLatin1String("page1")) {
                f.seek(100); // keep the 100-byte header, scribble over the schema b-tree
                f.write(QByteArray(4096 - 100, '\x5a'));
            } else {
                f.resize(size / 2);
            }
        }
        const QByteArray damaged = [&] {
            QFile f(dbPath());
            f.open(QIODevice::ReadOnly);
            return f.readAll();
        }();

        HistoryStore store;
        const HistoryOpenResult r = store.open(dbPath());
        QCOMPARE(r.status, HistoryOpenResult::Status::Recovered);
        QVERIFY(!r.message.isEmpty());
        QVERIFY2(r.message.contains(QDir::toNativeSeparators(r.backupPath)), qPrintable(r.message));
        QVERIFY(r.backupPath.startsWith(dbPath() + QStringLiteral(".corrupt-")));
        // The damaged bytes are kept as they were, the new store is empty and works.
        QFile backup(r.backupPath);
        QVERIFY(backup.open(QIODevice::ReadOnly));
        QCOMPARE(backup.readAll(), damaged);
        if (damage == QLatin1String("garbage")) {
            QFile wal(r.backupPath + QStringLiteral("-wal"));
            QVERIFY(wal.open(QIODevice::ReadOnly));
            QCOMPARE(wal.size(), 4096);
        }
        QCOMPARE(store.count(), 0);
        QVERIFY(store.addEntry(makeTranslation(QStringLiteral("after"), {QStringLiteral("x")})) >
                0);
        QCOMPARE(store.integrityCheck(), QStringList());
        QCOMPARE(store.search(QStringLiteral("after")).items.size(), 1);
    }

    // Without the check on open, damage inside the file is met by a query. Here every page but
    // the schema is scribbled over, indexes too, so not even the ids can be listed: the query
    // fails with Corrupt (an empty list would pass for an empty history). The next open() checks
    // the file and says it is damaged, but leaves it in place (the user may still want a tool
    // of their own on it); repair() rebuilds it.
    void damageFoundLaterIsReportedAtNextOpen()
    {
        {
            HistoryStore store;
            store.open(dbPath());
            QList<HistoryEntry> many;
            for (int i = 0; i < 300; ++i)
                many.append(makeTranslation(QStringLiteral("entry %1 ").arg(i).repeated(20),
                                            {QStringLiteral("salida %1").arg(i)}));
            store.addEntries(many);
        }
        {
            QFile f(dbPath());
            QVERIFY(f.open(QIODevice::ReadWrite));
            for (qint64 page = 1; page * 4096 < f.size(); ++page) { // all but the schema page
                f.seek(page * 4096);
                f.write(QByteArray(4096, '\xa5'));
            }
        }
        const QString marker = dbPath() + QStringLiteral(".needs-check");
        {
            HistoryStore store;
            QCOMPARE(store.open(dbPath()).status, HistoryOpenResult::Status::Opened);
            try {
                store.recent();
                QFAIL("read a damaged file without an error");
            } catch (const HistoryError &e) {
                QCOMPARE(e.code(), HistoryError::Code::Corrupt);
            }
            QVERIFY(QFileInfo::exists(marker));
        }
        HistoryStore store;
        const HistoryOpenResult damaged = store.open(dbPath());
        QCOMPARE(damaged.status, HistoryOpenResult::Status::Damaged);
        QVERIFY2(damaged.message.contains(dbPath()), qPrintable(damaged.message));
        QVERIFY(QFileInfo::exists(marker)); // every open says so until it is repaired
        QCOMPARE(QDir(m_dir.path()).entryList({QStringLiteral("*.corrupt-*")}), QStringList());
        const HistoryOpenResult r = store.repair();
        QCOMPARE(r.status, HistoryOpenResult::Status::Recovered);
        QVERIFY(QFileInfo::exists(r.backupPath));
        QVERIFY(!QFileInfo::exists(marker));
        QCOMPARE(store.count(), 0);
        // A healthy file with a stale marker is checked once and opens normally.
        store.addEntry(makeTranslation(QStringLiteral("fine"), {}));
        store.close();
        QFile(marker).open(QIODevice::WriteOnly);
        QCOMPARE(store.open(dbPath()).status, HistoryOpenResult::Status::Opened);
        QVERIFY(!QFileInfo::exists(marker));
        QCOMPARE(store.count(), 1);
    }

    void notOpenThrows()
    {
        HistoryStore store;
        try {
            store.recent();
            QFAIL("no exception");
        } catch (const HistoryError &e) {
            QCOMPARE(e.code(), HistoryError::Code::NotOpen);
        }
    }

    void busyErrorIsFriendly()
    {
        HistoryStore::Options options;
        options.busyTimeoutMs = 100;
        HistoryStore store(options);
        store.open(dbPath());
        sqlite3 *other = nullptr;
        QCOMPARE(sqlite3_open(QFile::encodeName(dbPath()).constData(), &other), SQLITE_OK);
        QCOMPARE(sqlite3_exec(other, "BEGIN IMMEDIATE", nullptr, nullptr, nullptr), SQLITE_OK);
        QElapsedTimer timer;
        timer.start();
        try {
            store.addEntry(makeTranslation(QStringLiteral("blocked"), {}));
            QFAIL("the write went through a held lock");
        } catch (const HistoryError &e) {
            QCOMPARE(e.code(), HistoryError::Code::Busy);
            QVERIFY2(!e.message().contains(QLatin1String("locked")), qPrintable(e.message()));
            QVERIFY(!QString::fromUtf8(e.what()).contains(QLatin1String("locked")));
            QVERIFY(e.details().contains(QLatin1String("locked"))); // for the log
        }
        QVERIFY(timer.elapsed() >= 4 * 100); // every attempt waited its timeout
        QCOMPARE(sqlite3_exec(other, "COMMIT", nullptr, nullptr, nullptr), SQLITE_OK);
        sqlite3_close(other);
        QVERIFY(store.addEntry(makeTranslation(QStringLiteral("free"), {})) > 0);
        QCOMPARE(store.count(), 1);
    }

    void diskQuotaIsDiskFull()
    {
        HistoryStore::Options options;
        options.maxDatabaseBytes = 256 * 1024;
        HistoryStore store(options);
        store.open(dbPath());
        int added = 0;
        QList<qint64> ids;
        try {
            for (; added < 1000; ++added)
                ids.append(store.addEntry(makeTranslation(QStringLiteral("big %1 ").arg(added) +
                                                              QString(3000, QLatin1Char('y')),
                                                          {QStringLiteral("grande")})));
            QFAIL("the quota was never reached");
        } catch (const HistoryError &e) {
            QCOMPARE(e.code(), HistoryError::Code::DiskFull);
            QVERIFY2(e.message().contains(QLatin1String("disk space")), qPrintable(e.message()));
        }
        QVERIFY(added > 10);
        // Nothing half-written, the store keeps working, and space freed is reused.
        QCOMPARE(store.count(), qint64(added));
        QCOMPARE(store.integrityCheck(), QStringList());
        QCOMPARE(store.recent({}, 0, 5).items.size(), 5);
        for (int i = 0; i < 5; ++i)
            QVERIFY(store.removeEntry(ids[i]));
        QVERIFY(store.addEntry(makeTranslation(QStringLiteral("small"), {})) > 0);
        QCOMPARE(store.count(), qint64(added - 4));
        QCOMPARE(store.integrityCheck(), QStringList());
    }
};

QTEST_GUILESS_MAIN(TestHistoryStore)
#include "tst_historystore.moc"
