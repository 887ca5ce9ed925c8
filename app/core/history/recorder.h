// HistoryRecorder: records translations, captions and comparisons into the history, for the app
// (shared by its presenters) and for glosa-cli's --save-history. It owns the
// HistoryStore and the policy around writing to it; the views only render what it reports.
//
// Basic usage:
//     glosa::HistoryRecorder recorder;                 // Mode::Interactive
//     connect(&recorder, &glosa::HistoryRecorder::warning, banner, &QLabel::setText);
//     recorder.open(glosa::HistoryStore::defaultPath());
//     const qint64 id = recorder.record(entry);        // > 0, kQueued, or 0 (not recorded)
//
// The policy:
//   - Retention: the limits the user chose in Settings ▸ History (historyRetentionFromSettings:
//     entries, age, and the file's size) are applied when the store opens, whenever
//     applyRetentionSettings() is called, and inside every insert's transaction.
//   - Never blocking the GUI thread for long: Mode::Interactive opens the store with a short busy
//     timeout (defaultOptions), so a write that meets another process's lock gives up after
//     about half a second; the entry then waits in a queue, in order, and is written when the
//     lock is free — retried after kRetryFirstMs, doubling up to kRetryMaxMs, and once more when
//     the store is closed or the recorder destroyed — rather than lost. At most kMaxQueued
//     entries wait; beyond that the oldest is dropped, and that is reported.
//   - Failures never stop the caller: a full disk, a damaged or unwritable file make record()
//     return 0 and emit warning() with a sentence for the user; the store stays usable and the
//     next record() tries again (the store's own guarantees are in store.h).
//   - Recording can be turned off (Settings ▸ History); Mode::Batch, an explicit request such as
//     glosa-cli --save-history, records regardless, waits the store's full busy timeout and
//     never queues: in a process about to exit a failure is final.
//
// Threads: the recorder lives on the thread that created it (the GUI thread in the app); the
// retry timer needs that thread's event loop, Mode::Batch needs none.
#pragma once

#include "app/core/history/entry.h"
#include "app/core/history/store.h"

#include <QList>
#include <QObject>
#include <QString>

#include <memory>

class QTimer;

namespace glosa {

class HistoryRecorder : public QObject
{
    Q_OBJECT
public:
    enum class Mode { Interactive, Batch };

    static constexpr qint64 kQueued = -1;
    static constexpr int kRetryFirstMs = 1000;
    static constexpr int kRetryMaxMs = 30000;
    static constexpr int kMaxQueued = 200;

    explicit HistoryRecorder(Mode mode = Mode::Interactive, QObject *parent = nullptr);
    // A last, silent try for the entries still waiting. No signal: listeners holding store() must
    // watch destroyed().
    ~HistoryRecorder() override;

    Mode mode() const { return m_mode; }
    // The store options open() uses. Interactive: a write waits 4 × 100 ms at most for another
    // process's lock, not the store's default 4 × 5 s (an insert itself takes ~0.1 ms, and another
    // process's writes hold the lock for well under a millisecond each). Batch: the defaults.
    static HistoryStore::Options defaultOptions(Mode mode = Mode::Interactive);

    // Closes the current store (see close()), then opens (or creates) the database at `path`,
    // recovering a damaged file (openResult()), and applies the retention settings. Returns whether
    // a store is open; when not, openError() says why and nothing is recorded. Emits
    // storeChanged().
    bool open(const QString &path);
    bool open(const QString &path, const HistoryStore::Options &options);
    // The entries still waiting get a last try; those that cannot be written are reported
    // (statusMessage) and dropped. Emits storeChanged().
    void close();
    // Rebuilds a damaged file in place (HistoryStore::repair: the old file is kept beside it, the
    // readable entries carried over); openResult() becomes the repair's result (Recovered, with
    // its message). Emits storeChanged(). False, with warning(), when it fails.
    bool repair();
    HistoryStore *store() const { return m_store.get(); }
    const HistoryOpenResult &openResult() const { return m_openResult; }
    QString openError() const { return m_openError; }

    // Adds an entry when recording is on; returns its id, kQueued (Interactive: another process
    // holds the lock, or earlier entries still wait for it), or 0 when it was not recorded (off,
    // no store, or a store error, reported through warning()).
    qint64 record(const HistoryEntry &entry);
    int queuedCount() const { return int(m_queued.size()); }
    // Writes the waiting entries now (what the retry timer does); returns how many still wait.
    int retryQueued();
    // When the next retry of the queue is due, in ms from the last attempt; 0 when none is.
    int retryDelayMs() const;
    // Settings ▸ History's switch (on by default); always true in Mode::Batch.
    bool isRecording() const;

    // The retention from QSettings (settings::historyMax*, history/retention.h) for every later
    // insert, and applied now; returns how many entries went.
    qint64 applyRetentionSettings();

signals:
    // open() or close() replaced the store; store() may be null.
    void storeChanged();
    // Entries were written. writesWork: every write of this round succeeded, so an earlier write
    // error is over.
    void entriesAdded(bool writesWork);
    // A failure the user should see until it is over (a lost or delayed entry, failed retention).
    void warning(const QString &message);
    // A passing note.
    void statusMessage(const QString &message);

private:
    void reportError(const QString &what, const std::exception &error);

    const Mode m_mode;
    std::unique_ptr<HistoryStore> m_store;
    HistoryOpenResult m_openResult;
    QString m_openError;
    QList<HistoryEntry> m_queued; // kept out by another process's lock, oldest first
    QTimer *m_retry = nullptr;
};

} // namespace glosa
