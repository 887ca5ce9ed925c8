#include "app/core/presenters/historypresenter.h"

#include "app/core/history/export.h"
#include "app/core/history/recorder.h"
#include "app/core/history/store.h"
#include "app/core/platform/savefile.h"

#include <QCoreApplication>
#include <QFileInfo>

namespace glosa {

HistoryPresenter::HistoryPresenter(HistoryRecorder *recorder, QObject *parent)
    : QObject(parent), m_recorder(recorder)
{
}

HistoryRecorder *HistoryPresenter::recorder() const
{
    return m_recorder;
}

HistoryStore *HistoryPresenter::store() const
{
    return m_recorder ? m_recorder->store() : nullptr;
}

HistoryFilter HistoryPresenter::makeFilter(std::optional<HistoryKind> kind, const QString &modelId,
                                           int days, bool starredOnly)
{
    HistoryFilter filter;
    filter.kind = kind;
    filter.modelId = modelId;
    if (days > 0)
        filter.from = QDateTime(QDate::currentDate().addDays(1 - days), QTime(0, 0));
    filter.starredOnly = starredOnly;
    return filter;
}

void HistoryPresenter::setSearch(const QString &text)
{
    m_search = text;
    emit queryChanged();
}

void HistoryPresenter::setFilter(const HistoryFilter &filter)
{
    m_filter = filter;
    emit queryChanged();
}

std::optional<qint64> HistoryPresenter::count() const
{
    if (!store() || !store()->isOpen() || !m_search.trimmed().isEmpty())
        return std::nullopt;
    try {
        return store()->count(m_filter);
    } catch (const std::exception &) {
        return std::nullopt; // the list query reports store errors; the count is a nicety
    }
}

bool HistoryPresenter::canOpen() const
{
    return m_current && m_current->kind != HistoryKind::Document;
}

bool HistoryPresenter::canRerun() const
{
    return canOpen() && m_current->kind != HistoryKind::Evaluation;
}

void HistoryPresenter::fail(Action action, const std::exception &error)
{
    const auto *history = dynamic_cast<const HistoryError *>(&error);
    emit failed(action, history ? history->message() : QString::fromLocal8Bit(error.what()));
}

bool HistoryPresenter::select(qint64 id)
{
    if (!store() || (m_current && m_current->id == id))
        return m_current.has_value();
    try {
        m_current = store()->entry(id);
    } catch (const std::exception &e) {
        m_current.reset();
        fail(Action::ReadEntry, e);
    }
    emit currentChanged();
    return m_current.has_value();
}

void HistoryPresenter::clearCurrent()
{
    m_current.reset();
    emit currentChanged();
}

bool HistoryPresenter::toggleStarCurrent()
{
    if (!m_current || !store())
        return false;
    const bool starred = !m_current->starred;
    try {
        store()->setStarred(m_current->id, starred);
    } catch (const std::exception &e) {
        fail(Action::Star, e);
        return false;
    }
    m_current->starred = starred;
    emit currentChanged();
    return true;
}

bool HistoryPresenter::deleteCurrent()
{
    if (!m_current || !store())
        return false;
    const qint64 id = m_current->id;
    try {
        store()->removeEntry(id);
    } catch (const std::exception &e) {
        fail(Action::Delete, e);
        return false;
    }
    m_current.reset();
    emit entryRemoved(id);
    emit currentChanged();
    return true;
}

qint64 HistoryPresenter::clearAll()
{
    if (!store())
        return -1;
    qint64 removed = 0;
    try {
        removed = store()->clear();
    } catch (const std::exception &e) {
        fail(Action::Clear, e);
        return -1;
    }
    m_current.reset();
    emit currentChanged();
    emit cleared(removed);
    return removed;
}

QString HistoryPresenter::exportFormat(const QString &path, const QString &chosen)
{
    const QString suffix = QFileInfo(path).suffix().toLower();
    return historyExportFormatFromName(suffix) ? suffix : chosen;
}

HistoryPresenter::Exported HistoryPresenter::exportTo(const QString &path,
                                                      const QString &formatName)
{
    const std::optional<HistoryExportFormat> format = historyExportFormatFromName(formatName);
    if (!store() || !format)
        return {};
    const auto cannotWrite = [&](const QString &why) {
        return HistoryError(HistoryError::Code::Io,
                            QCoreApplication::translate("glosa::HistoryView", "Cannot write %1: %2")
                                .arg(path, why));
    };
    // SaveFile: a failed export (full disk) leaves an earlier file of that name as it was.
    SaveFile file(path);
    try {
        if (const QString problem = historyExportTargetProblem(*store(), path); !problem.isEmpty())
            throw HistoryError(HistoryError::Code::Io, problem);
        if (!file.open(QIODevice::WriteOnly))
            throw cannotWrite(file.errorString());
        const HistoryExport done = exportHistory(*store(), *format, file, m_filter, m_search);
        if (!file.commit())
            throw cannotWrite(file.errorString());
        return {done.entries, done.records, done.damaged};
    } catch (const std::exception &e) { // the SaveFile is not committed: the old file stays
        fail(Action::Export, e);
        return {};
    }
}

} // namespace glosa
