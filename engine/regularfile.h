// Opening a file by name when the name comes from a folder we do not control (a model folder, a
// download, the settings, a document): the open never blocks and only a regular file is read.
//
// open(2) of a FIFO waits for a writer, and reading a character device (/dev/zero, a tty) never
// ends, so a `config.json` that is a FIFO hung every command that looked at the folder. The file
// is opened with O_NONBLOCK (a FIFO's open then returns at once), fstat'ed on the descriptor (no
// window between the check and the read) and refused unless it is a regular file; the descriptor
// then goes back to blocking reads. Symbolic links are followed: the caller decides where they
// may lead.
//
// Basic usage (the engine throws PackageError with error(); the app wraps fd() in a QFile):
//     RegularFile file(path);
//     if (!file.ok()) throw PackageError(path, {}, file.error()); // "not a regular file (a FIFO)"
//     std::string text;
//     if (!file.readAll(text, maxBytes)) throw PackageError(path, {}, file.error());
#pragma once

#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <string>

namespace glosa::engine {

class RegularFile
{
public:
    explicit RegularFile(const std::string &path);
    ~RegularFile();
    RegularFile(const RegularFile &) = delete;
    RegularFile &operator=(const RegularFile &) = delete;

    bool ok() const { return m_fd >= 0; }
    // Why it is not ok(): the system's words when the open failed ("No such file or directory",
    // "Permission denied"), else "not a regular file (a FIFO)"; or why readAll() failed.
    const std::string &error() const { return m_error; }
    // The open itself failed (error() is then strerror's), and whether it was ENOENT: readers
    // that said "file not found" or "cannot open: ..." before keep their words.
    bool openFailed() const { return m_openErrno != 0; }
    bool missing() const { return m_openErrno == ENOENT; }
    int fd() const { return m_fd; }
    std::uint64_t size() const { return m_size; }
    // Hands the descriptor over (QFile::open(fd, ..., AutoCloseHandle) closes it then).
    int release();

    // Reads the whole file into `out` when it holds at most maxBytes, also when it grows while it
    // is read; false with error() set otherwise ("N bytes is more than the limit of M for this
    // file", a read error's words).
    bool readAll(std::string &out, std::uint64_t maxBytes);

private:
    int m_fd = -1;
    int m_openErrno = 0;
    std::uint64_t m_size = 0;
    std::string m_error;
};

// "a FIFO", "a character device", "a folder", ... for a stat mode that is not a regular file.
std::string fileKindName(unsigned mode);

// The text of readAll's size refusal, for readers that check a size on their own.
std::string sizeLimitText(std::uint64_t size, std::uint64_t maxBytes);

} // namespace glosa::engine

namespace glosa::engine {

// Writing a file (created or truncated) with the system's own reason on failure: every write,
// the fsync and the close are checked, so that a full disk says "No space left on device" and
// the path rather than a stream's guess or libstdc++'s "Input/output error" for a short copy.
//
//     FileWriter out(path);
//     out.write(header.data(), header.size());
//     if (const std::string why = out.finish(); !why.empty()) throw PackageError(path, {}, why);
class FileWriter
{
public:
    // Append continues a file (a partial download): it must be a regular file or not exist yet,
    // and size() starts at its length. Neither mode follows a symbolic link.
    enum class Mode { Truncate, Append };
    explicit FileWriter(const std::string &path, Mode mode = Mode::Truncate);
    ~FileWriter();
    FileWriter(const FileWriter &) = delete;
    FileWriter &operator=(const FileWriter &) = delete;

    // After the first failure, writes do nothing and finish() returns that failure.
    void write(const void *data, std::size_t size);
    // Syncs and closes: empty when every byte is on disk, else "cannot write: <strerror>".
    std::string finish();

    bool ok() const { return m_error.empty(); }
    const std::string &error() const { return m_error; }
    // The errno of the first failure (ENOSPC for a full disk), 0 while there is none.
    int errorNumber() const { return m_errno; }
    // The file's length: what was there (Append) and what was written since.
    std::uint64_t size() const { return m_size; }

private:
    void fail(const char *what);

    int m_fd = -1;
    std::uint64_t m_size = 0;
    int m_errno = 0;
    std::string m_error;
};

// Copies the regular file `from` to `to` through RegularFile and FileWriter: empty, or why not
// (naming neither path: the caller knows which it was).
std::string copyRegularFile(const std::string &from, const std::string &to);

} // namespace glosa::engine
