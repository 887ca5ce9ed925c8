// SmallTmpfs: a 2 MiB tmpfs mounted in a temporary folder for the full-disk tests,
// unmounted at the end. Mounting needs root or CAP_SYS_ADMIN (CI runs as root); where it is not
// allowed, isMounted() is false and why() says so, for the test's QSKIP.
#pragma once

#include <QDir>
#include <QFile>
#include <QString>
#include <QStringList>
#include <QTemporaryDir>

#include <algorithm>
#include <cerrno>

#include <sys/mount.h>
#include <sys/statvfs.h>

namespace glosa::test {

// fill() takes every free block.
class SmallTmpfs
{
public:
    SmallTmpfs()
    {
        if (::mount("tmpfs", QFile::encodeName(m_dir.path()).constData(), "tmpfs", 0, "size=2m") ==
            0)
            m_mounted = true;
        else
            m_why = QStringLiteral("cannot mount a tmpfs here (%1): the full-disk tests need "
                                   "root or CAP_SYS_ADMIN")
                        .arg(qt_error_string(errno));
    }
    ~SmallTmpfs()
    {
        if (m_mounted)
            ::umount2(QFile::encodeName(m_dir.path()).constData(), MNT_DETACH);
    }
    SmallTmpfs(const SmallTmpfs &) = delete;
    SmallTmpfs &operator=(const SmallTmpfs &) = delete;

    bool isMounted() const { return m_mounted; }
    const QString &why() const { return m_why; }
    QString filePath(const QString &name) const { return m_dir.filePath(name); }

    // Writes a file over every free block but `leave` bytes; true when that is what is left.
    bool fill(qint64 leave = 0) const
    {
        QFile file(filePath(QStringLiteral("fill")));
        if (!file.open(QIODevice::WriteOnly | QIODevice::Unbuffered))
            return false;
        const QByteArray block(4096, '\0');
        while (file.write(block) == block.size()) {
        }
        if (leave > 0 && !file.resize(std::max<qint64>(0, file.size() - leave)))
            return false;
        struct statvfs info;
        return ::statvfs(QFile::encodeName(m_dir.path()).constData(), &info) == 0 &&
               qint64(info.f_bavail * info.f_bsize) == leave;
    }

    // The names in the folder but `fill` and `keep`: what a failed write left behind.
    QStringList leftovers(const QStringList &keep) const
    {
        QStringList names = QDir(m_dir.path()).entryList(QDir::Files | QDir::Hidden);
        names.removeAll(QStringLiteral("fill"));
        for (const QString &name : keep)
            names.removeAll(name);
        return names;
    }

private:
    QTemporaryDir m_dir;
    bool m_mounted = false;
    QString m_why;
};

} // namespace glosa::test
