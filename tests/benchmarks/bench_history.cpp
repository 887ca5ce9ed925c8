// bench_history: how fast the history store adds an entry and searches 100,000 of them.
//
//   build/bin/bench_history [--entries N] [--adds N] [--file PATH]
//
// Fills a fresh database with N translations (default 100,000; Tatoeba English–Spanish pairs from
// $GLOSA_DATA/tatoeba-en-es/train.tsv when present, else generated sentences), each with a 4-best
// list, scores and a float16 alignment, then measures single addEntry calls (each its own
// transaction, with and without an fsync per commit), full-text searches, recent() pages and open()
// with its quick_check. Targets: adding < 5 ms, searching 100,000 entries < 50 ms.
// Results go to docs/benchmarks.md.
#include "app/core/history/store.h"

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QTextStream>

#include <algorithm>
#include <cstdio>
#include <functional>

using namespace glosa;

namespace {

QString sharedDataDir()
{
    const QByteArray env = qgetenv("GLOSA_DATA");
    return QDir::cleanPath(env.isEmpty() ? QStringLiteral(GLOSA_DATA_DEFAULT)
                                         : QString::fromLocal8Bit(env));
}

struct Pair
{
    QString source;
    QString target;
};

QList<Pair> loadPairs(qsizetype wanted, QString *origin)
{
    QList<Pair> pairs;
    QFile file(sharedDataDir() + QStringLiteral("/tatoeba-en-es/train.tsv"));
    if (file.open(QIODevice::ReadOnly)) {
        *origin = file.fileName();
        while (!file.atEnd() && pairs.size() < wanted) {
            const QStringList cols = QString::fromUtf8(file.readLine()).trimmed().split('\t');
            if (cols.size() >= 2)
                pairs.append({cols[0], cols[1]});
        }
    }
    if (pairs.isEmpty()) {
        *origin = QStringLiteral("generated sentences");
        static const char *const words[] = {"the",   "cat",   "house",  "river",   "small",
                                            "green", "runs",  "sleeps", "quickly", "yesterday",
                                            "we",    "they",  "book",   "window",  "elephant",
                                            "music", "bread", "city"};
        QRandomGenerator rng(1);
        for (qsizetype i = 0; i < wanted; ++i) {
            QStringList s, t;
            for (int w = 0, n = 3 + rng.bounded(10); w < n; ++w) {
                const char *word =
                    words[std::min<int>(17, int(rng.bounded(18) * rng.generateDouble()))];
                s.append(QString::fromLatin1(word));
                t.append(QString::fromLatin1(word).toUpper());
            }
            pairs.append({s.join(' '), t.join(' ')});
        }
    }
    return pairs;
}

HistoryEntry makeEntry(const QList<Pair> &pairs, qsizetype i, const QDateTime &time)
{
    const Pair &p = pairs[i % pairs.size()];
    HistoryEntry e;
    e.kind = HistoryKind::Translation;
    e.time = time;
    e.modelId = (i % 3 == 0) ? QStringLiteral("rnn-en-es") : QStringLiteral("transformer-en-es");
    e.modelVersion = QStringLiteral("1.0");
    e.sourceLanguage = QStringLiteral("en");
    e.targetLanguage = QStringLiteral("es");
    e.settings = QJsonObject{{QStringLiteral("search"), QStringLiteral("beam")},
                             {QStringLiteral("beamSize"), 4},
                             {QStringLiteral("lengthPenalty"), 0.6},
                             {QStringLiteral("noRepeatNgramSize"), 3}};
    e.inputText = p.source;
    e.elapsedMs = 20.0 + double(i % 50);
    const int srcTokens = int(p.source.count(' ')) + 2;
    for (int rank = 0; rank < 4; ++rank) {
        HistoryOutput o;
        o.rank = rank;
        o.text = rank == 0 ? p.target : pairs[(i + 7919 * rank) % pairs.size()].target;
        o.score = -0.3 * (rank + 1);
        const int tgtTokens = int(o.text.count(' ')) + 2;
        o.alignment.rows = tgtTokens;
        o.alignment.cols = srcTokens;
        o.alignment.weights.resize(qsizetype(tgtTokens) * srcTokens);
        for (qsizetype k = 0; k < o.alignment.weights.size(); ++k)
            o.alignment.weights[k] = float((k * 37 + i) % 101) / 101.0f;
        e.outputs.append(o);
    }
    return e;
}

double median(QList<double> v)
{
    std::sort(v.begin(), v.end());
    return v.isEmpty() ? 0.0 : v[v.size() / 2];
}

double percentile(QList<double> v, double q)
{
    std::sort(v.begin(), v.end());
    return v.isEmpty() ? 0.0 : v[std::min<qsizetype>(v.size() - 1, qsizetype(q * v.size()))];
}

// Median milliseconds of `repeats` calls (after one warm-up call).
double timeMedian(int repeats, const std::function<void()> &f)
{
    f();
    QList<double> ms;
    for (int r = 0; r < repeats; ++r) {
        QElapsedTimer t;
        t.start();
        f();
        ms.append(double(t.nsecsElapsed()) / 1e6);
    }
    return median(ms);
}

} // namespace

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    QTextStream out(stdout);
    qsizetype entries = 100000;
    int adds = 300;
    QString file;
    const QStringList args = app.arguments();
    for (qsizetype i = 1; i + 1 < args.size(); i += 2) {
        if (args[i] == QLatin1String("--entries"))
            entries = args[i + 1].toLongLong();
        else if (args[i] == QLatin1String("--adds"))
            adds = args[i + 1].toInt();
        else if (args[i] == QLatin1String("--file"))
            file = args[i + 1];
    }
    QTemporaryDir dir;
    if (file.isEmpty())
        file = dir.filePath(QStringLiteral("history.sqlite"));
    QFile::remove(file);

    try {
        QString origin;
        const QList<Pair> pairs = loadPairs(std::max<qsizetype>(entries, 1000), &origin);
        out << "# bench_history: " << entries << " entries from " << origin << "\n"
            << "# database: " << file << "\n";
        out.flush();

        const QDateTime now = QDateTime::currentDateTimeUtc();
        {
            HistoryStore store;
            store.open(file);
            QElapsedTimer fill;
            fill.start();
            for (qsizetype done = 0; done < entries;) {
                QList<HistoryEntry> batch;
                for (; done < entries && batch.size() < 1000; ++done)
                    batch.append(
                        makeEntry(pairs, done, now.addSecs(-qint64(entries - done) * 300)));
                store.addEntries(batch);
            }
            out << "fill: " << entries << " entries in batches of 1000: " << fill.elapsed()
                << " ms\n";
        }
        out << "file size: " << QFileInfo(file).size() / (1024 * 1024) << " MiB\n";

        for (const bool check : {true, false}) {
            HistoryStore::Options o;
            o.checkIntegrityOnOpen = check;
            const double ms = timeMedian(3, [&] {
                HistoryStore s(o);
                s.open(file);
            });
            out << "open (" << (check ? "with" : "without")
                << " quick_check): " << QString::number(ms, 'f', 1) << " ms\n";
        }

        out << "\n| operation | median ms | p90 ms |\n|---|---|---|\n";
        for (const bool sync : {false, true}) {
            HistoryStore::Options o;
            o.syncEveryCommit = sync;
            o.checkIntegrityOnOpen = false;
            HistoryStore store(o);
            store.open(file);
            QList<double> ms;
            for (int i = 0; i < adds; ++i) {
                const HistoryEntry e = makeEntry(pairs, entries + i, QDateTime());
                QElapsedTimer t;
                t.start();
                store.addEntry(e);
                ms.append(double(t.nsecsElapsed()) / 1e6);
            }
            out << "| addEntry, 4-best + alignments, "
                << (sync ? "syncEveryCommit (synchronous=FULL)" : "default (synchronous=NORMAL)")
                << " | " << QString::number(median(ms), 'f', 2) << " | "
                << QString::number(percentile(ms, 0.9), 'f', 2) << " |\n";
        }

        HistoryStore::Options o;
        o.checkIntegrityOnOpen = false;
        HistoryStore store(o);
        store.open(file);
        const qint64 total = store.count();
        const struct
        {
            const char *query;
            const char *what;
        } queries[] = {
            {"the", "very common word"},
            {"house", "common word"},
            {"elephant", "rare word"},
            {"I want to", "three words"},
            {"dias", "accent-folded (días)"},
            {"transl", "prefix"},
            {"zzqx", "no match"},
        };
        const HistoryFilter byModel{.modelId = QStringLiteral("rnn-en-es")};
        for (const auto &q : queries) {
            qsizetype hits = 0;
            const double newest = timeMedian(15, [&] {
                hits = store.search(QString::fromUtf8(q.query), {}, 0, 50).items.size();
            });
            HistorySearchOptions relevance;
            relevance.order = HistorySearchOptions::Order::Relevance;
            const double ranked = timeMedian(
                15, [&] { store.search(QString::fromUtf8(q.query), {}, 0, 50, relevance); });
            const double filtered =
                timeMedian(15, [&] { store.search(QString::fromUtf8(q.query), byModel, 0, 50); });
            out << "| search \"" << q.query << "\" (" << q.what << "), first 50 of " << total
                << ", newest first | " << QString::number(newest, 'f', 2) << " | |\n"
                << "| same, by relevance (BM25) | " << QString::number(ranked, 'f', 2) << " | |\n"
                << "| same, newest first, filtered to one model | "
                << QString::number(filtered, 'f', 2) << " | |\n";
            if (hits == 0 && qstrcmp(q.query, "zzqx") != 0)
                out << "|   (no hits for this query in this data) | | |\n";
        }
        out << "| recent(), first page of 50 | "
            << QString::number(timeMedian(15, [&] { store.recent({}, 0, 50); }), 'f', 2) << " | |\n"
            << "| recent(), page at offset 50,000 | "
            << QString::number(timeMedian(15, [&] { store.recent({}, 50000, 50); }), 'f', 2)
            << " | |\n"
            << "| entry(id), full entry with alignments | "
            << QString::number(timeMedian(50, [&] { store.entry(total / 2); }), 'f', 3) << " | |\n";
    } catch (const std::exception &e) {
        std::fprintf(stderr, "bench_history: %s\n", e.what());
        return 1;
    }
    return 0;
}
