// HistoryPresenter: the History tab without its widgets. It owns what the tab is looking at —
// the search words and the filters (kind, model, period, starred), the entry selected and read in
// full — and does what the tab's commands ask of the history the recorder keeps: star, delete,
// clear, export what the list shows (the search and the filters), repair a damaged file and
// apply the retention settings. Failures are reported as what failed and SQLite's or the file's
// reason (failed()); the view words them. The list itself is HistoryModel (app/gui/views), which
// runs query() a page at a time.
//
// Basic usage:
//     HistoryPresenter history(context.history());
//     connect(&history, &HistoryPresenter::queryChanged, ...);   // the list runs query() again
//     history.setSearch(QStringLiteral("buenos"));
//     history.select(id);                                        // then current()
//     const HistoryPresenter::Exported done = history.exportTo(path, QStringLiteral("jsonl"));
#pragma once

#include "app/core/history/entry.h"

#include <QObject>
#include <QPointer>

#include <optional>

namespace glosa {

class HistoryRecorder;
class HistoryStore;

class HistoryPresenter : public QObject
{
    Q_OBJECT
public:
    // What failed, for the view to say (the reason comes with it).
    enum class Action { Read, ReadEntry, Star, Delete, Clear, Export };
    Q_ENUM(Action)

    // The period filter's choices: entries of the last `days` days (0: any time).
    static constexpr int kPeriods[] = {0, 1, 7, 30, 365};

    // Works on what `recorder` records (it may go first; the presenter then has no store).
    explicit HistoryPresenter(HistoryRecorder *recorder, QObject *parent = nullptr);

    HistoryRecorder *recorder() const;
    HistoryStore *store() const;

    // --- What the list shows --------------------------------------------------------------
    const QString &search() const { return m_search; }
    const HistoryFilter &filter() const { return m_filter; }
    // The filter of the tab's choices: a kind (or any), a model id ("" any), the last `days`
    // days counted from the start of today (0: any time), starred entries only.
    static HistoryFilter makeFilter(std::optional<HistoryKind> kind, const QString &modelId,
                                    int days, bool starredOnly);
    void setSearch(const QString &text);
    void setFilter(const HistoryFilter &filter);
    // How many entries the filters select; nullopt with a search (the list shows its hits) or
    // when the store cannot say.
    std::optional<qint64> count() const;

    // --- The entry on the right ------------------------------------------------------------
    const std::optional<HistoryEntry> &current() const { return m_current; }
    qint64 currentId() const { return m_current ? m_current->id : 0; }
    // A document's translation is shown here only: no view restores or re-runs a whole
    // document. An evaluation opens in the Evaluate dialog as stored; re-running one takes
    // minutes and is the dialog's own Evaluate.
    bool canOpen() const;
    bool canRerun() const;
    // Reads entry `id` in full; false (failed(ReadEntry)) when it cannot be read.
    bool select(qint64 id);
    void clearCurrent();

    // --- Commands --------------------------------------------------------------------------
    bool toggleStarCurrent();
    bool deleteCurrent();
    // Every entry, starred ones too (the view asks first). Returns how many; -1 on failure.
    qint64 clearAll();

    struct Exported
    {
        qint64 entries = -1; // history entries written; -1: none (failed() said why)
        qint64 records = -1; // lines, CSV rows or TMX units (HistoryExport::records)
        QList<HistoryDamage> damaged; // entries a damaged file kept back
    };
    // Writes what the list shows — the filters' entries the search finds — to `path` as
    // `formatName` ("jsonl", "csv", "tmx"). A failed export leaves an earlier file as it was.
    Exported exportTo(const QString &path, const QString &formatName);
    // The format an export dialog's choice means: the file's suffix when it names one, else
    // `chosen` ("jsonl", "csv" or "tmx").
    static QString exportFormat(const QString &path, const QString &chosen);

signals:
    // The search or the filters changed: the list runs the query again.
    void queryChanged();
    // The entry on the right changed, or its star did.
    void currentChanged();
    void entryRemoved(qint64 id);
    void cleared(qint64 removed);
    void failed(glosa::HistoryPresenter::Action action, const QString &reason);

private:
    void fail(Action action, const std::exception &error);

    QPointer<HistoryRecorder> m_recorder;
    QString m_search;
    HistoryFilter m_filter;
    std::optional<HistoryEntry> m_current;
};

} // namespace glosa
