#include "app/core/history/recorder.h"

#include "app/core/history/retention.h"

#include <QSignalBlocker>
#include <QTimer>

#include <algorithm>

namespace glosa {

HistoryRecorder::HistoryRecorder(Mode mode, QObject *parent) : QObject(parent), m_mode(mode)
{
    m_retry = new QTimer(this);
    m_retry->setSingleShot(true);
    connect(m_retry, &QTimer::timeout, this, &HistoryRecorder::retryQueued);
}

HistoryRecorder::~HistoryRecorder()
{
    // Silently: whoever shows the messages may be half destroyed already (the main window, when
    // its children go).
    const QSignalBlocker quiet(this);
    retryQueued();
}

HistoryStore::Options HistoryRecorder::defaultOptions(Mode mode)
{
    HistoryStore::Options options;
    if (mode == Mode::Interactive)
        options.busyTimeoutMs = 100;
    return options;
}

bool HistoryRecorder::open(const QString &path)
{
    return open(path, defaultOptions(m_mode));
}

bool HistoryRecorder::open(const QString &path, const HistoryStore::Options &options)
{
    close();
    auto store = std::make_unique<HistoryStore>(options);
    try {
        m_openResult = store->open(path);
    } catch (const std::exception &e) {
        const auto *history = dynamic_cast<const HistoryError *>(&e);
        m_openError = history ? history->message() : QString::fromLocal8Bit(e.what());
        emit storeChanged();
        return false;
    }
    m_store = std::move(store);
    applyRetentionSettings(); // also sets the store's retention for every later insert
    emit storeChanged();
    return true;
}

bool HistoryRecorder::repair()
{
    if (!m_store)
        return false;
    try {
        m_openResult = m_store->repair();
    } catch (const std::exception &e) {
        reportError(tr("The history could not be repaired:"), e);
        return false;
    }
    emit storeChanged();
    return true;
}

void HistoryRecorder::close()
{
    // Entries still waiting belong to the database being closed: a last try, then say so.
    if (retryQueued() > 0) {
        const QString message = tr("%n entry(s) could not be saved to the history before it was "
                                   "closed.",
                                   nullptr, int(m_queued.size()));
        m_queued.clear();
        m_retry->stop();
        emit statusMessage(message);
    }
    const bool hadStore = m_store || !m_openError.isEmpty();
    m_store.reset();
    m_openResult = {};
    m_openError.clear();
    if (hadStore)
        emit storeChanged();
}

bool HistoryRecorder::isRecording() const
{
    return m_mode == Mode::Batch || settings::historyEnabled.value();
}

void HistoryRecorder::reportError(const QString &what, const std::exception &error)
{
    const auto *history = dynamic_cast<const HistoryError *>(&error);
    const QString why = history ? history->message() : QString::fromLocal8Bit(error.what());
    emit warning(QStringLiteral("%1 %2").arg(what, why));
}

qint64 HistoryRecorder::record(const HistoryEntry &entry)
{
    if (!m_store || !isRecording())
        return 0;
    if (!m_queued.isEmpty()) { // behind the entries already waiting, to keep their order
        if (m_queued.size() >= kMaxQueued) {
            m_queued.removeFirst();
            emit warning(tr("The history has been locked by another program for a long time; the "
                            "oldest unsaved entry was dropped."));
        }
        m_queued.append(entry);
        return kQueued;
    }
    qint64 id = 0;
    try {
        id = m_store->addEntry(entry);
    } catch (const HistoryError &e) {
        if (e.code() == HistoryError::Code::Busy && m_mode == Mode::Interactive) {
            m_queued.append(entry);
            m_retry->start(kRetryFirstMs);
            emit warning(tr("Not saved to the history yet: %1 Glosa will save it when the "
                            "history is free.")
                             .arg(e.message()));
            return kQueued;
        }
        // DiskFull, Io: the entry is lost, the caller and the store carry on.
        reportError(tr("Not saved to the history:"), e);
        return 0;
    } catch (const std::exception &e) {
        reportError(tr("Not saved to the history:"), e);
        return 0;
    }
    emit entriesAdded(true);
    return id;
}

int HistoryRecorder::retryQueued()
{
    int saved = 0;
    bool locked = false, failed = false;
    while (!m_queued.isEmpty() && m_store && !locked) {
        try {
            m_store->addEntry(m_queued.first());
            ++saved;
        } catch (const HistoryError &e) {
            locked = e.code() == HistoryError::Code::Busy;
            if (locked)
                break; // still locked: back off and try again
            failed = true;
            reportError(tr("Not saved to the history:"), e);
        } catch (const std::exception &e) {
            failed = true;
            reportError(tr("Not saved to the history:"), e);
        }
        m_queued.removeFirst();
    }
    if (locked)
        m_retry->start(std::clamp(2 * m_retry->interval(), kRetryFirstMs, kRetryMaxMs));
    else
        m_retry->stop();
    if (saved > 0)
        emit entriesAdded(!locked && !failed);
    return int(m_queued.size());
}

int HistoryRecorder::retryDelayMs() const
{
    return m_retry->isActive() ? m_retry->interval() : 0;
}

qint64 HistoryRecorder::applyRetentionSettings()
{
    if (!m_store)
        return 0;
    const HistoryRetention retention = historyRetentionFromSettings();
    m_store->setRetention(retention);
    if (!retention.isActive())
        return 0;
    try {
        return m_store->applyRetention(retention);
    } catch (const std::exception &e) {
        reportError(tr("Old entries could not be removed:"), e);
        return 0;
    }
}

} // namespace glosa
