// ExplicitRecorder: how a presenter records what the user asked for and was shown at once — a
// comparison, a caption, a translated caption, a re-run — unlike the Translate tab's
// translate-as-you-type, which SessionPolicy settles first (TranslatePresenter). Each result
// becomes one entry as soon as it is shown; an entry that repeats the last one recorded or opened
// (pressing Compare twice, captioning again an entry just opened from the history) is not
// recorded again (SessionPolicy's duplicates).
//
// Basic usage (a member of the presenter, which is `receiver`):
//     ExplicitRecorder m_history{context.history(), this};
//     m_history.record(isSlowHistoryEntry(columns), [=] { return comparisonHistoryEntry(...); },
//                      [this](qint64 id) { emit entryRecorded(id); });
//     m_history.opened(entry); // History ▸ Open showed `entry` again
#pragma once

#include "app/core/history/entry.h"
#include "app/core/history/sessionpolicy.h"

#include <QPointer>

#include <functional>

class QObject;

namespace glosa {

class HistoryRecorder;

class ExplicitRecorder
{
public:
    // Records through `recorder` (null, or gone: nothing is recorded); entries made on the thread
    // pool come back on `receiver`'s thread (the GUI's) and are dropped when it is gone.
    ExplicitRecorder(HistoryRecorder *recorder, QObject *receiver);

    // Makes an entry with `make` — on the thread pool when `slow` (makeHistoryEntry) — and
    // records it unless it repeats the last one. `done` then gets the entry's id: > 0,
    // HistoryRecorder::kQueued (another process holds the lock), 0 (not recorded: recording off,
    // or a failure the recorder reported), or the repeated entry's id.
    void record(bool slow, std::function<HistoryEntry()> make,
                std::function<void(qint64)> done = {});
    // `entry` was opened from the history and is shown again: the same result is not recorded.
    void opened(const HistoryEntry &entry);

private:
    qint64 recordOnce(const HistoryEntry &entry);

    QPointer<HistoryRecorder> m_recorder;
    QObject *m_receiver;
    SessionPolicy m_policy;
};

} // namespace glosa
