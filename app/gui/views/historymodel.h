// HistoryModel: the History view's list, one row per HistorySummary of a query (recent entries or
// a full-text search, with filters), loaded a page at a time as the list scrolls
// (canFetchMore / fetchMore), so that a history of 100,000 entries opens as fast as one of ten.
#pragma once

#include "app/core/history/entry.h"

#include <QAbstractListModel>

namespace glosa {

class HistoryStore;

class HistoryModel : public QAbstractListModel
{
    Q_OBJECT
public:
    enum Role {
        IdRole = Qt::UserRole + 1,
        HtmlRole,    // rich text for the delegate: header line, snippet or input, output
        SnippetRole, // search hits as HTML, each wrapped in <b>…</b>; empty without a search
        StarredRole,
    };
    static constexpr int kPageSize = 100;

    explicit HistoryModel(QObject *parent = nullptr);

    // The store must outlive the model (or be cleared with setStore(nullptr)).
    void setStore(HistoryStore *store);
    // Runs the query again from its first page. Throws HistoryError when the store does.
    void setQuery(const QString &search, const HistoryFilter &filter);
    void reload();
    QString search() const { return m_search; }
    const HistoryFilter &filter() const { return m_filter; }

    int rowCount(const QModelIndex &parent = QModelIndex()) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    bool canFetchMore(const QModelIndex &parent) const override;
    void fetchMore(const QModelIndex &parent) override;

    const HistorySummary &summary(int row) const { return m_rows.at(row); }
    int rowOf(qint64 id) const;
    // Keep the list in step with a change made through the store.
    void setStarred(int row, bool starred);
    void removeRowOf(qint64 id);

    // Entries of the query that could not be read (a damaged file), as far as the list has been
    // loaded, each once; damageFound() says when more turn up.
    const QList<HistoryDamage> &damaged() const { return m_damaged; }

    // "Translation", "Caption", "Comparison" in the UI language.
    static QString kindLabel(HistoryKind kind);
    // The store's snippet markers turned into escaped HTML with <b> around the hits.
    static QString snippetHtml(const QString &snippet);

signals:
    void damageFound();

private:
    HistoryPage page(int offset) const;
    void noteDamage(const QList<HistoryDamage> &damaged);

    HistoryStore *m_store = nullptr;
    QString m_search;
    HistoryFilter m_filter;
    QList<HistorySummary> m_rows;
    bool m_hasMore = false;
    QList<HistoryDamage> m_damaged;
};

} // namespace glosa
