#include "app/core/history/explicitrecorder.h"

#include "app/core/history/recorder.h"
#include "app/core/history/entrykinds.h"

namespace glosa {

ExplicitRecorder::ExplicitRecorder(HistoryRecorder *recorder, QObject *receiver)
    : m_recorder(recorder), m_receiver(receiver)
{
}

void ExplicitRecorder::record(bool slow, std::function<HistoryEntry()> make,
                              std::function<void(qint64)> done)
{
    // The receiver owns this recorder: while it lives (makeHistoryEntry's guard), so does this.
    makeHistoryEntry(m_receiver, slow, std::move(make),
                     [this, done = std::move(done)](const HistoryEntry &entry) {
                         const qint64 id = recordOnce(entry);
                         if (done)
                             done(id);
                     });
}

qint64 ExplicitRecorder::recordOnce(const HistoryEntry &entry)
{
    const QString key = historyEntryKey(entry);
    if (m_policy.isDuplicate(key))
        return m_policy.lastId(); // the same as the last one: that entry
    if (!m_recorder)
        return 0;
    const qint64 id = m_recorder->record(entry);
    if (id != 0) // saved, or waiting for another process's lock
        m_policy.recorded(key, id);
    return id;
}

void ExplicitRecorder::opened(const HistoryEntry &entry)
{
    m_policy.opened(historyEntryKey(entry), entry.id);
}

} // namespace glosa
