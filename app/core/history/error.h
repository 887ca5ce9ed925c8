// HistoryError: the one exception type of app/core/history (the store, its recovery, the exports).
#pragma once

#include <QString>

#include <stdexcept>

namespace glosa {

// What every failing HistoryStore method throws. what() and message() are one sentence for the
// user (never SQLite's wording, so never "database is locked"); details() carries SQLite's own
// message and the statement for logs.
class HistoryError : public std::runtime_error
{
public:
    enum class Code {
        Busy,         // another process kept the database locked past the busy timeout
        DiskFull,     // no space left (or a file-size limit / quota was reached)
        Corrupt,      // the file is damaged (only after open(); open() recovers on its own)
        NewerVersion, // the file was written by a newer Glosa with a schema we do not know
        CannotOpen,   // missing permissions, a directory in the way, a read-only medium
        Io,           // any other I/O error
        NotOpen,      // a method was called before open() or after close()
        Internal,     // a bug or an unexpected SQLite error
    };

    HistoryError(Code code, const QString &message, const QString &details = QString(),
                 int sqliteCode = 0)
        : std::runtime_error(message.toStdString()), m_code(code), m_message(message),
          m_details(details), m_sqliteCode(sqliteCode)
    {
    }

    Code code() const { return m_code; }
    QString message() const { return m_message; }
    QString details() const { return m_details; }
    int sqliteCode() const { return m_sqliteCode; } // extended result code; 0 when none

private:
    Code m_code;
    QString m_message;
    QString m_details;
    int m_sqliteCode;
};

// SQLite's own words for the error's result code, with the code: "database disk image is
// malformed [sqlite 11]" (details() also holds the statement, too long to show per entry).
QString sqliteReason(const HistoryError &error);

} // namespace glosa
