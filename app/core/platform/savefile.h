// SaveFile: a file replaced only once it is complete and on disk. Every path that writes a
// user's file goes through it: documents (glosa-cli translate-doc, the Documents view's Export),
// history exports, imported model packages.
//
// Basic usage:
//     SaveFile file(path);
//     if (!file.open(QIODevice::WriteOnly)) ...   // errorString() says why
//     file.write(bytes);                          // any number of writes
//     if (!file.commit()) ...                     // the old file is still there, untouched
//
// Why not QSaveFile (Qt 6.4, measured on a full tmpfs): a write that stops short with ENOSPC
// after some bytes returns the short count without an error, a flush that fails in close() is
// not reported by commit(), and fsync errors are ignored, so a full disk renamed a truncated
// file over the old one and reported success (with "Unknown error" where an error came through
// at all). And as root it renames its temporary file over a device node: a QSaveFile on
// /dev/full replaced /dev/full with a regular file. SaveFile writes the temporary file itself,
// keeps the first error with its errno, fsyncs before the rename, and renames only when all of
// that went through; the message is then the system's ("No space left on device").
//
// A target that exists and is not a regular file (/dev/null, a FIFO, /dev/stdout) is written
// directly, as there is no file to keep. A symlink is followed: its target is replaced.
#pragma once

#include <QIODevice>
#include <QString>

namespace glosa {

class SaveFile final : public QIODevice
{
public:
    explicit SaveFile(const QString &path);
    ~SaveFile() override; // without commit(): the temporary file is removed, the old one stays

    const QString &fileName() const { return m_path; }
    // Only WriteOnly (Truncate implied). False with errorString() set.
    bool open(OpenMode mode) override;
    // Writes what is buffered, fsyncs and renames the file into place, or to `as` instead when
    // given (a partial result written beside the file it would have replaced). False
    // (errorString() set, the temporary file removed, the old file untouched) if that or any
    // write before failed.
    bool commit(const QString &as = QString());
    // Whether a write has failed so far (commit() will then fail).
    bool hasFailed() const { return m_errno != 0; }

protected:
    qint64 readData(char *, qint64) override { return -1; }
    qint64 writeData(const char *data, qint64 size) override;

private:
    bool flushBuffer();
    void fail(int error);
    void discard();

    QString m_path;
    QByteArray m_target;    // the file replaced: m_path with symlinks resolved (encoded)
    QByteArray m_temporary; // beside it; empty when writing the target directly
    int m_fd = -1;
    QByteArray m_buffer; // small writes, gathered
    int m_errno = 0;     // the first failure's
};

// Writes `bytes` to `path` through a SaveFile. False with `*error` set ("cannot write PATH:
// No space left on device") when it failed; the old file is then untouched.
bool saveFile(const QString &path, const QByteArray &bytes, QString *error);

// Whether `a` and `b` are the same file: the same device and inode, so that "./x", "x" and a
// symlink to it are one file, and two names of one hard link too. A name that does not exist
// yet is the same as another when both lie in the same folder (by inode) under the same name.
bool isSameFile(const QString &a, const QString &b);

// What `path` is when it exists but is not a regular file (symlinks followed): "a FIFO (named
// pipe)", "a character device", "a folder", ...; empty for a regular file or no file at all.
QString nonRegularFileKind(const QString &path);

} // namespace glosa
