#include "app/core/history/sessionpolicy.h"

#include <QJsonDocument>

#include <algorithm>

namespace glosa {

bool sameTextEdited(const QString &a, const QString &b)
{
    const qsizetype shorter = std::min(a.size(), b.size());
    qsizetype prefix = 0, suffix = 0;
    while (prefix < shorter && a[prefix] == b[prefix])
        ++prefix;
    while (suffix < shorter && a[a.size() - 1 - suffix] == b[b.size() - 1 - suffix])
        ++suffix;
    return shorter > 0 && 2 * std::max(prefix, suffix) >= shorter;
}

QString historyEntryKey(const HistoryEntry &e)
{
    return QStringList{historyKindName(e.kind), e.modelId, e.inputText, e.imagePath,
                       QString::fromUtf8(QJsonDocument(e.settings).toJson(QJsonDocument::Compact))}
        .join(QChar(0));
}

bool SessionPolicy::hold(const QString &text, qint64 now)
{
    const bool another = m_held && !sameTextEdited(m_held->text, text);
    m_held = Held{text, now};
    return another;
}

std::optional<qint64> SessionPolicy::settlesAt() const
{
    if (!m_held)
        return std::nullopt;
    return m_held->since + kSettleMs;
}

bool SessionPolicy::takeSettled(qint64 now)
{
    if (!m_held || now < m_held->since + kSettleMs)
        return false;
    m_held.reset();
    return true;
}

bool SessionPolicy::release()
{
    const bool held = m_held.has_value();
    m_held.reset();
    return held;
}

void SessionPolicy::recorded(const QString &key, qint64 id)
{
    m_lastKey = key;
    m_lastId = id;
}

void SessionPolicy::enterSession(const QString &text)
{
    if (m_sessionText.isEmpty() || !sameTextEdited(m_sessionText, text))
        m_sessionEntries.clear();
    m_sessionText = text;
}

qint64 SessionPolicy::replaceInSession(const QString &modelId, qint64 id)
{
    const qint64 previous = m_sessionEntries.value(modelId, 0);
    m_sessionEntries.insert(modelId, id);
    return previous > 0 && previous != id ? previous : 0;
}

void SessionPolicy::opened(const QString &key, qint64 id)
{
    recorded(key, id);
    m_sessionText.clear();
    m_sessionEntries.clear();
}

} // namespace glosa
