#include "app/gui/views/historymodel.h"

#include "app/core/history/store.h"

#include <QLocale>

#include <algorithm>

namespace glosa {

namespace {
// Private-use characters (practically never in real text, unlike "[" and "]") mark the hits until
// the snippet is escaped for HTML.
const QString kHitBegin = QStringLiteral("\uE000");
const QString kHitEnd = QStringLiteral("\uE001");
} // namespace

HistoryModel::HistoryModel(QObject *parent) : QAbstractListModel(parent) {}

QString HistoryModel::kindLabel(HistoryKind kind)
{
    switch (kind) {
    case HistoryKind::Translation:
        return tr("Translation");
    case HistoryKind::Caption:
        return tr("Caption");
    case HistoryKind::Comparison:
        return tr("Comparison");
    case HistoryKind::Document:
        return tr("Document");
    case HistoryKind::Evaluation:
        return tr("Evaluation");
    }
    return QString();
}

void HistoryModel::setStore(HistoryStore *store)
{
    beginResetModel();
    m_store = store;
    m_rows.clear();
    m_hasMore = false;
    endResetModel();
}

void HistoryModel::setQuery(const QString &search, const HistoryFilter &filter)
{
    m_search = search;
    m_filter = filter;
    reload();
}

void HistoryModel::reload()
{
    HistoryPage first;
    if (m_store && m_store->isOpen())
        first = page(0); // may throw: the list stays as it was
    beginResetModel();
    m_rows = first.items;
    m_hasMore = first.hasMore;
    endResetModel();
    m_damaged.clear();
    noteDamage(first.damaged);
}

void HistoryModel::noteDamage(const QList<HistoryDamage> &damaged)
{
    bool found = false;
    for (const HistoryDamage &damage : damaged) {
        if (std::any_of(m_damaged.cbegin(), m_damaged.cend(),
                        [&](const HistoryDamage &d) { return d.id == damage.id; }))
            continue; // met again by the next page
        m_damaged.append(damage);
        found = true;
    }
    if (found)
        emit damageFound();
}

HistoryPage HistoryModel::page(int offset) const
{
    if (m_search.trimmed().isEmpty())
        return m_store->recent(m_filter, offset, kPageSize);
    HistorySearchOptions options;
    options.highlightBegin = kHitBegin;
    options.highlightEnd = kHitEnd;
    return m_store->search(m_search, m_filter, offset, kPageSize, options);
}

int HistoryModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

bool HistoryModel::canFetchMore(const QModelIndex &parent) const
{
    return !parent.isValid() && m_hasMore && m_store && m_store->isOpen();
}

void HistoryModel::fetchMore(const QModelIndex &parent)
{
    if (!canFetchMore(parent))
        return;
    HistoryPage next;
    try {
        next = page(int(m_rows.size()));
    } catch (const std::exception &) {
        m_hasMore = false; // the view reports store errors when it queries; stop asking here
        return;
    }
    m_hasMore = next.hasMore;
    noteDamage(next.damaged);
    if (next.items.isEmpty())
        return;
    beginInsertRows(QModelIndex(), int(m_rows.size()), int(m_rows.size() + next.items.size() - 1));
    m_rows += next.items;
    endInsertRows();
}

QString HistoryModel::snippetHtml(const QString &snippet)
{
    QString html = snippet.toHtmlEscaped();
    html.replace(kHitBegin, QStringLiteral("<b>"));
    html.replace(kHitEnd, QStringLiteral("</b>"));
    return html;
}

QVariant HistoryModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= m_rows.size())
        return {};
    const HistorySummary &s = m_rows.at(index.row());
    switch (role) {
    case Qt::DisplayRole:
    case Qt::AccessibleTextRole:
        return QStringLiteral("%1: %2 → %3").arg(kindLabel(s.kind), s.inputPreview, s.outputPreview);
    case Qt::ToolTipRole:
        return s.inputPreview;
    case IdRole:
        return s.id;
    case StarredRole:
        return s.starred;
    case SnippetRole:
        return s.snippet.isEmpty() ? QString() : snippetHtml(s.snippet);
    case HtmlRole: {
        const QString when = QLocale().toString(s.time.toLocalTime(), QLocale::ShortFormat);
        QString header = QStringLiteral("%1%2 · %3 · %4")
                             .arg(s.starred ? QStringLiteral("★ ") : QString(), kindLabel(s.kind),
                                  s.modelId.toHtmlEscaped(), when.toHtmlEscaped());
        QString input = s.inputPreview.toHtmlEscaped();
        if (s.kind == HistoryKind::Caption && input.isEmpty())
            input = tr("(image)");
        // A hit shows on the line of the side it is in: the input's or the output's.
        const QString body = s.inputSnippet.isEmpty() ? input : snippetHtml(s.inputSnippet);
        const QString output = s.outputSnippet.isEmpty() ? s.outputPreview.toHtmlEscaped()
                                                         : snippetHtml(s.outputSnippet);
        return QStringLiteral("<small>%1</small><br>%2<br><span class='output'>→ %3</span>")
            .arg(header, body, output);
    }
    default:
        return {};
    }
}

int HistoryModel::rowOf(qint64 id) const
{
    for (int i = 0; i < m_rows.size(); ++i)
        if (m_rows[i].id == id)
            return i;
    return -1;
}

void HistoryModel::setStarred(int row, bool starred)
{
    if (row < 0 || row >= m_rows.size())
        return;
    m_rows[row].starred = starred;
    emit dataChanged(index(row), index(row));
}

void HistoryModel::removeRowOf(qint64 id)
{
    const int row = rowOf(id);
    if (row < 0)
        return;
    beginRemoveRows(QModelIndex(), row, row);
    m_rows.removeAt(row);
    endRemoveRows();
}

} // namespace glosa
