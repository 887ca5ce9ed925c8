// Helpers shared by the tests of app/core/history.
#pragma once

#include "app/core/history/entry.h"

#include <QFile>
#include <QJsonObject>
#include <QStringList>

#include <sqlite3.h>

namespace glosa::test {

// A translation entry with one output per `nbest` text, rank 0 first.
inline HistoryEntry makeTranslation(const QString &input, const QStringList &nbest,
                                    const QString &model = QStringLiteral("transformer-en-es"))
{
    HistoryEntry e;
    e.kind = HistoryKind::Translation;
    e.modelId = model;
    e.modelVersion = QStringLiteral("1.2");
    e.sourceLanguage = QStringLiteral("en");
    e.targetLanguage = QStringLiteral("es");
    e.settings = QJsonObject{{QStringLiteral("search"), QStringLiteral("beam")},
                             {QStringLiteral("beamSize"), 4},
                             {QStringLiteral("lengthPenalty"), 0.6}};
    e.inputText = input;
    e.elapsedMs = 12.5;
    for (int rank = 0; rank < nbest.size(); ++rank) {
        HistoryOutput o;
        o.rank = rank;
        o.text = nbest[rank];
        o.score = -0.25 * (rank + 1);
        e.outputs.append(o);
    }
    return e;
}

// Another process holding the history's write lock: a connection of its own inside BEGIN
// IMMEDIATE, until release() or the end of the scope.
class WriteLock
{
public:
    explicit WriteLock(const QString &path)
    {
        if (sqlite3_open(QFile::encodeName(path).constData(), &m_db) == SQLITE_OK)
            m_held = sqlite3_exec(m_db, "BEGIN IMMEDIATE", nullptr, nullptr, nullptr) == SQLITE_OK;
    }
    WriteLock(const WriteLock &) = delete;
    WriteLock &operator=(const WriteLock &) = delete;
    ~WriteLock() { release(); }

    bool isHeld() const { return m_held; }
    void release()
    {
        if (m_held)
            sqlite3_exec(m_db, "COMMIT", nullptr, nullptr, nullptr);
        m_held = false;
        sqlite3_close(m_db);
        m_db = nullptr;
    }

private:
    sqlite3 *m_db = nullptr;
    bool m_held = false;
};

} // namespace glosa::test
