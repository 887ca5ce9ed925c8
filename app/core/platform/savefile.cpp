#include "app/core/platform/savefile.h"

#include <QFile>
#include <QFileInfo>
#include <QRandomGenerator>

#include <cerrno>
#include <optional>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace glosa {

namespace {

// Writes gathered below this size go out together.
constexpr qsizetype kBufferBytes = 64 * 1024;

QByteArray folderOf(const QByteArray &path)
{
    const qsizetype slash = path.lastIndexOf('/');
    return slash < 0 ? QByteArray(".") : slash == 0 ? QByteArray("/") : path.left(slash);
}

// The data reach the disk before the name does, and the name before commit() returns: after a
// crash or a power cut either the old file or the whole new one is there.
void syncFolder(const QByteArray &folder)
{
    const int fd = ::open(folder.constData(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd >= 0) {
        ::fsync(fd); // some file systems cannot sync a folder; the rename is done either way
        ::close(fd);
    }
}

} // namespace

SaveFile::SaveFile(const QString &path) : m_path(path) {}

SaveFile::~SaveFile()
{
    discard();
}

void SaveFile::discard()
{
    if (m_fd >= 0)
        ::close(m_fd);
    m_fd = -1;
    if (!m_temporary.isEmpty())
        ::unlink(m_temporary.constData());
    m_temporary.clear();
    m_buffer.clear();
}

bool SaveFile::open(OpenMode mode)
{
    if (isOpen() || (mode & ReadOnly) || !(mode & WriteOnly) || (mode & Append)) {
        setErrorString(QStringLiteral("SaveFile opens files for writing from the start only"));
        return false;
    }
    m_errno = 0;
    const QFileInfo info(m_path);
    // A symlink's target is the file replaced (the link stays a link).
    const QString target = info.isSymLink()
                               ? (info.exists() ? info.canonicalFilePath() : info.symLinkTarget())
                               : m_path;
    m_target = QFile::encodeName(target);
    struct stat existing;
    const bool exists = ::stat(m_target.constData(), &existing) == 0;
    if (exists && !S_ISREG(existing.st_mode)) {
        m_fd = ::open(m_target.constData(), O_WRONLY | O_TRUNC | O_CLOEXEC);
    } else {
        const QByteArray stem = m_target + '.';
        for (int attempt = 0; attempt < 100 && m_fd < 0; ++attempt) {
            m_temporary =
                stem + QByteArray::number(QRandomGenerator::global()->generate() & 0xFFFFFF, 36);
            // 0666 less the umask, as a new file gets; an existing file's mode is kept below.
            m_fd = ::open(m_temporary.constData(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
            if (m_fd < 0 && errno != EEXIST)
                break;
        }
        if (m_fd >= 0 && exists)
            ::fchmod(m_fd, existing.st_mode & 07777);
        if (m_fd < 0)
            m_temporary.clear();
    }
    if (m_fd < 0) {
        setErrorString(qt_error_string(errno));
        return false;
    }
    return QIODevice::open(WriteOnly | Unbuffered);
}

void SaveFile::fail(int error)
{
    if (hasFailed())
        return; // the first failure is the one to report
    m_errno = error != 0 ? error : EIO;
    setErrorString(qt_error_string(m_errno));
}

bool SaveFile::flushBuffer()
{
    const char *data = m_buffer.constData();
    qsizetype left = m_buffer.size();
    while (left > 0 && !hasFailed()) {
        const ssize_t written = ::write(m_fd, data, std::size_t(left));
        if (written < 0 && errno == EINTR)
            continue;
        if (written <= 0) {
            fail(written < 0 ? errno : EIO);
            break;
        }
        data += written;
        left -= written;
    }
    m_buffer.clear();
    return !hasFailed();
}

qint64 SaveFile::writeData(const char *data, qint64 size)
{
    if (m_fd < 0 || hasFailed())
        return -1;
    m_buffer.append(data, qsizetype(size));
    if (m_buffer.size() >= kBufferBytes && !flushBuffer())
        return -1;
    return size;
}

bool SaveFile::commit(const QString &as)
{
    if (m_fd < 0 || !isOpen()) {
        setErrorString(QStringLiteral("%1 is not open").arg(m_path));
        return false;
    }
    flushBuffer();
    const bool direct = m_temporary.isEmpty();
    if (!hasFailed() && !direct && ::fsync(m_fd) != 0)
        fail(errno);
    if (::close(m_fd) != 0 && !direct)
        fail(errno); // NFS and the like report a failed write-back at close
    m_fd = -1;
    if (!direct && !hasFailed()) {
        const QByteArray destination = as.isEmpty() ? m_target : QFile::encodeName(as);
        if (::rename(m_temporary.constData(), destination.constData()) != 0)
            fail(errno);
        else {
            m_temporary.clear();
            syncFolder(folderOf(destination));
        }
    }
    const bool done = !hasFailed();
    const QString why = errorString();
    discard();
    QIODevice::close();
    if (!done)
        setErrorString(why);
    return done;
}

bool saveFile(const QString &path, const QByteArray &bytes, QString *error)
{
    SaveFile file(path);
    if (file.open(QIODevice::WriteOnly) && file.write(bytes) == bytes.size() && file.commit())
        return true;
    if (error)
        *error = QStringLiteral("cannot write %1: %2").arg(path, file.errorString());
    return false;
}

namespace {

struct FileId
{
    dev_t device = 0;
    ino_t inode = 0;
    QString name; // set when the file does not exist: its name in the folder `device`/`inode`
    bool operator==(const FileId &) const = default;
};

std::optional<FileId> fileId(const QString &path)
{
    struct stat info;
    if (::stat(QFile::encodeName(path).constData(), &info) == 0)
        return FileId{info.st_dev, info.st_ino, {}};
    const QFileInfo file(path);
    if (::stat(QFile::encodeName(file.absolutePath()).constData(), &info) != 0)
        return std::nullopt;
    return FileId{info.st_dev, info.st_ino, file.fileName()};
}

} // namespace

QString nonRegularFileKind(const QString &path)
{
    struct stat info;
    if (::stat(QFile::encodeName(path).constData(), &info) != 0 || S_ISREG(info.st_mode))
        return {};
    return S_ISFIFO(info.st_mode)   ? QStringLiteral("a FIFO (named pipe)")
           : S_ISCHR(info.st_mode)  ? QStringLiteral("a character device")
           : S_ISBLK(info.st_mode)  ? QStringLiteral("a block device")
           : S_ISDIR(info.st_mode)  ? QStringLiteral("a folder")
           : S_ISSOCK(info.st_mode) ? QStringLiteral("a socket")
                                    : QStringLiteral("not a regular file");
}

bool isSameFile(const QString &a, const QString &b)
{
    const std::optional<FileId> first = fileId(a), second = fileId(b);
    return first && second && *first == *second;
}

} // namespace glosa
