#include "engine/regularfile.h"

#include <algorithm>
#include <cerrno>
#include <cstring>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace glosa::engine {

std::string fileKindName(unsigned mode)
{
    switch (mode & S_IFMT) {
    case S_IFIFO:
        return "a FIFO";
    case S_IFCHR:
        return "a character device";
    case S_IFBLK:
        return "a block device";
    case S_IFDIR:
        return "a folder";
    case S_IFSOCK:
        return "a socket";
    case S_IFLNK:
        return "a link to nothing that can be read";
    default:
        return "a special file";
    }
}

std::string sizeLimitText(std::uint64_t size, std::uint64_t maxBytes)
{
    return std::to_string(size) + " bytes is more than the limit of " + std::to_string(maxBytes) +
           " for this file";
}

RegularFile::RegularFile(const std::string &path)
{
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
    if (fd < 0) {
        m_openErrno = errno;
        m_error = std::strerror(errno);
        return;
    }
    struct stat info = {};
    if (::fstat(fd, &info) != 0) {
        m_openErrno = errno;
        m_error = std::strerror(errno);
        ::close(fd);
        return;
    }
    if (!S_ISREG(info.st_mode)) {
        m_error = "not a regular file (" + fileKindName(info.st_mode) + ")";
        ::close(fd);
        return;
    }
    // A regular file never blocks, but readers that treat EAGAIN as an error should never see it.
    const int flags = ::fcntl(fd, F_GETFL);
    if (flags >= 0)
        ::fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
    m_fd = fd;
    m_size = static_cast<std::uint64_t>(info.st_size);
}

RegularFile::~RegularFile()
{
    if (m_fd >= 0)
        ::close(m_fd);
}

int RegularFile::release()
{
    const int fd = m_fd;
    m_fd = -1;
    return fd;
}

bool RegularFile::readAll(std::string &out, std::uint64_t maxBytes)
{
    out.clear();
    if (m_fd < 0)
        return false;
    if (m_size > maxBytes) {
        m_error = sizeLimitText(m_size, maxBytes);
        return false;
    }
    out.resize(static_cast<std::size_t>(m_size));
    std::size_t done = 0;
    for (;;) {
        if (done == out.size()) // a file that grew: read on, one byte past the limit at most
            out.resize(std::min<std::uint64_t>(maxBytes + 1, out.size() + 65536));
        if (done == out.size())
            break;
        const ssize_t n = ::read(m_fd, out.data() + done, out.size() - done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            m_error = std::string("cannot read the file: ") + std::strerror(errno);
            return false;
        }
        if (n == 0)
            break;
        done += static_cast<std::size_t>(n);
    }
    out.resize(done);
    if (done > maxBytes) {
        m_error = "more than the limit of " + std::to_string(maxBytes) +
                  " bytes for this file (it grew while it was read)";
        return false;
    }
    return true;
}

} // namespace glosa::engine

namespace glosa::engine {

FileWriter::FileWriter(const std::string &path, Mode mode)
{
    // Never through a symbolic link: every file written here is one the program named itself
    // (a staging folder's file, a partial download), and a link planted there is not one.
    const int flags = O_WRONLY | O_CREAT | O_CLOEXEC | O_NOCTTY | O_NOFOLLOW;
    m_fd = ::open(path.c_str(), mode == Mode::Append ? flags : flags | O_TRUNC, 0644);
    if (m_fd < 0) {
        fail("cannot create: ");
        return;
    }
    if (mode == Mode::Truncate)
        return;
    struct stat st {};
    if (::fstat(m_fd, &st) != 0)
        fail("cannot write: ");
    else if (!S_ISREG(st.st_mode)) {
        m_errno = EINVAL;
        m_error = "cannot write: not a regular file";
    } else if (::lseek(m_fd, 0, SEEK_END) < 0)
        fail("cannot write: ");
    else
        m_size = static_cast<std::uint64_t>(st.st_size);
}

FileWriter::~FileWriter()
{
    if (m_fd >= 0)
        ::close(m_fd);
}

void FileWriter::fail(const char *what)
{
    m_errno = errno;
    m_error = std::string(what) + std::strerror(m_errno);
}

void FileWriter::write(const void *data, std::size_t size)
{
    const char *bytes = static_cast<const char *>(data);
    while (size > 0 && m_error.empty()) {
        const ssize_t n = ::write(m_fd, bytes, size);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            fail("cannot write: ");
            return;
        }
        bytes += n; // a short write: the next one says why (ENOSPC) or goes on
        size -= static_cast<std::size_t>(n);
        m_size += static_cast<std::uint64_t>(n);
    }
}

std::string FileWriter::finish()
{
    if (m_error.empty() && m_fd >= 0 && ::fsync(m_fd) != 0)
        fail("cannot write: ");
    if (m_fd >= 0 && ::close(m_fd) != 0 && m_error.empty())
        fail("cannot write: ");
    m_fd = -1;
    return m_error;
}

std::string copyRegularFile(const std::string &from, const std::string &to)
{
    RegularFile in(from);
    if (!in.ok())
        return in.error();
    FileWriter out(to);
    std::string block(std::size_t(1) << 20, '\0');
    for (;;) {
        const ssize_t n = ::read(in.fd(), block.data(), block.size());
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return std::string("cannot read: ") + std::strerror(errno);
        if (n == 0)
            break;
        out.write(block.data(), static_cast<std::size_t>(n));
    }
    return out.finish();
}

} // namespace glosa::engine
