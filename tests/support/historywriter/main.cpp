// glosa-historywriter: writes history entries for tests/core/tst_historyrobustness.cpp, reporting
// every committed id on stdout ("committed <id>") right after its transaction commits, each line
// with a single write(2) so a SIGKILL can never leave half a line.
//
//   glosa-historywriter insert DB TAG COUNT   add COUNT entries (0 = until killed), then "done";
//                                             "waiting" each time a write finds the lock held
//   glosa-historywriter fill DB BYTES         limit files to BYTES (RLIMIT_FSIZE, SIGXFSZ
//                                             ignored), add entries until the disk is "full",
//                                             then check that the store still works
//
// Exit codes: 0 success, 2 usage, 3 an unexpected HistoryError, 4 a check failed.
#include "app/core/history/store.h"

#include <QCoreApplication>
#include <QJsonObject>

#include <csignal>
#include <cstdio>
#include <sys/resource.h>
#include <unistd.h>

namespace {

void say(const QString &line)
{
    const QByteArray bytes = line.toUtf8() + '\n';
    [[maybe_unused]] const ssize_t n = ::write(STDOUT_FILENO, bytes.constData(), bytes.size());
}

// Three n-best outputs with alignments, so a torn write would show as a partial entry.
glosa::HistoryEntry makeEntry(const QString &tag, int seq, int payloadChars)
{
    glosa::HistoryEntry e;
    e.kind = glosa::HistoryKind::Translation;
    e.modelId = QStringLiteral("writer-model");
    e.modelVersion = QStringLiteral("1");
    e.sourceLanguage = QStringLiteral("en");
    e.targetLanguage = QStringLiteral("es");
    e.settings = QJsonObject{{QStringLiteral("beamSize"), 3}, {QStringLiteral("seq"), seq}};
    e.inputText =
        QStringLiteral("%1 entry %2 ").arg(tag).arg(seq) + QString(payloadChars, QLatin1Char('x'));
    e.elapsedMs = seq;
    for (int rank = 0; rank < 3; ++rank) {
        glosa::HistoryOutput o;
        o.rank = rank;
        o.text = QStringLiteral("%1 salida %2 rango %3").arg(tag).arg(seq).arg(rank);
        o.score = -0.5 * (rank + 1);
        o.alignment.rows = 8;
        o.alignment.cols = 6;
        for (int i = 0; i < 48; ++i)
            o.alignment.weights.append(float((i + rank + seq) % 7) / 7.0f);
        e.outputs.append(o);
    }
    return e;
}

QString codeName(glosa::HistoryError::Code code)
{
    using C = glosa::HistoryError::Code;
    switch (code) {
    case C::Busy:
        return QStringLiteral("Busy");
    case C::DiskFull:
        return QStringLiteral("DiskFull");
    case C::Corrupt:
        return QStringLiteral("Corrupt");
    case C::NewerVersion:
        return QStringLiteral("NewerVersion");
    case C::CannotOpen:
        return QStringLiteral("CannotOpen");
    case C::Io:
        return QStringLiteral("Io");
    case C::NotOpen:
        return QStringLiteral("NotOpen");
    case C::Internal:
        return QStringLiteral("Internal");
    }
    return QStringLiteral("?");
}

int insert(const QString &db, const QString &tag, int count)
{
    glosa::HistoryStore::Options options;
    options.onLockWait = [] { say(QStringLiteral("waiting")); };
    glosa::HistoryStore store(options);
    store.open(db);
    say(QStringLiteral("ready"));
    for (int seq = 0; count == 0 || seq < count; ++seq) {
        const qint64 id = store.addEntry(makeEntry(tag, seq, 40));
        say(QStringLiteral("committed %1").arg(id));
    }
    say(QStringLiteral("done"));
    return 0;
}

int fill(const QString &db, qint64 limitBytes)
{
    // Without SIG_IGN the kernel would kill us at the limit; ignored, write(2) fails with EFBIG,
    // which is what a full disk looks like to SQLite.
    std::signal(SIGXFSZ, SIG_IGN);
    const rlimit limit{rlim_t(limitBytes), rlim_t(limitBytes)};
    if (setrlimit(RLIMIT_FSIZE, &limit) != 0) {
        say(QStringLiteral("setrlimit failed"));
        return 4;
    }
    glosa::HistoryStore store;
    store.open(db);
    say(QStringLiteral("ready"));
    int seq = 0;
    try {
        for (; seq < 100000; ++seq) {
            const qint64 id = store.addEntry(makeEntry(QStringLiteral("fill"), seq, 3000));
            say(QStringLiteral("committed %1").arg(id));
        }
        say(QStringLiteral("never full"));
        return 4;
    } catch (const glosa::HistoryError &e) {
        say(QStringLiteral("full %1 %2")
                .arg(codeName(e.code()),
                     e.message() + QStringLiteral(" (") + e.details() + QLatin1Char(')')));
        if (e.code() != glosa::HistoryError::Code::DiskFull)
            return 4;
    }
    // The store must still answer: reads, the integrity check, and a write that either fits or
    // fails the same clean way.
    const glosa::HistoryPage page = store.recent({}, 0, 10);
    say(QStringLiteral("read-ok %1").arg(page.items.size()));
    const QStringList problems = store.integrityCheck();
    if (!problems.isEmpty()) {
        say(QStringLiteral("integrity %1").arg(problems.join(QStringLiteral("; "))));
        return 4;
    }
    say(QStringLiteral("integrity-ok"));
    try {
        const qint64 id = store.addEntry(makeEntry(QStringLiteral("fill"), seq + 1, 0));
        say(QStringLiteral("committed %1").arg(id));
    } catch (const glosa::HistoryError &e) {
        if (e.code() != glosa::HistoryError::Code::DiskFull) {
            say(QStringLiteral("second error %1").arg(codeName(e.code())));
            return 4;
        }
    }
    say(QStringLiteral("store-usable"));
    return 0;
}

} // namespace

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    const QStringList args = app.arguments();
    try {
        if (args.size() == 5 && args[1] == QLatin1String("insert"))
            return insert(args[2], args[3], args[4].toInt());
        if (args.size() == 4 && args[1] == QLatin1String("fill"))
            return fill(args[2], args[3].toLongLong());
    } catch (const glosa::HistoryError &e) {
        say(QStringLiteral("error %1 %2")
                .arg(codeName(e.code()),
                     e.message() + QStringLiteral(" (") + e.details() + QLatin1Char(')')));
        return 3;
    }
    std::fprintf(stderr, "usage: glosa-historywriter insert DB TAG COUNT | fill DB BYTES\n");
    return 2;
}
