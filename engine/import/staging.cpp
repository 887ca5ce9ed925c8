#include "engine/import/staging.h"

#include "engine/packageerror.h"

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <string>

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

namespace glosa::engine {

namespace fs = std::filesystem;

namespace {

constexpr const char *kPrefix = ".import-";
constexpr const char *kOwnerSuffix = ".owner";
// A staging folder without an owner file is either from before the lock (gone for good) or one
// whose import is between mkdtemp and taking its lock (microseconds): an hour tells them apart.
constexpr auto kUnlockedAge = std::chrono::hours(1);

fs::path ownerFile(const fs::path &folder)
{
    return fs::path(folder.string() + kOwnerSuffix);
}

void removeQuietly(const fs::path &path)
{
    std::error_code ignored;
    fs::remove_all(path, ignored);
}

// Whether the folder's import has ended: its owner file's lock can be taken (and is then held
// until the folder is gone), or it has no owner file and is old.
bool abandoned(const fs::path &folder, int &lockedOwner)
{
    const fs::path owner = ownerFile(folder);
    const int fd = ::open(owner.c_str(), O_RDWR | O_CLOEXEC | O_NONBLOCK | O_NOFOLLOW);
    if (fd < 0) {
        if (errno != ENOENT)
            return false;
        std::error_code error;
        const auto written = fs::last_write_time(folder, error);
        return !error && fs::file_time_type::clock::now() - written > kUnlockedAge;
    }
    if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
        ::close(fd);
        return false; // its import is running
    }
    lockedOwner = fd;
    return true;
}

} // namespace

StagingFolder::StagingFolder(const fs::path &root)
{
    std::string name = (root / (std::string(kPrefix) + "XXXXXX")).string();
    if (!::mkdtemp(name.data()))
        throw PackageError(root.string(), {},
                           std::string("cannot create a staging folder: ") + std::strerror(errno));
    m_path = name;
    const fs::path owner = ownerFile(m_path);
    m_owner = ::open(owner.c_str(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600);
    if (m_owner < 0 || ::flock(m_owner, LOCK_EX | LOCK_NB) != 0) {
        const int error = errno;
        removeQuietly(m_path);
        throw PackageError(owner.string(), {},
                           std::string("cannot create the staging lock: ") + std::strerror(error));
    }
    const std::string pid = std::to_string(::getpid()) + "\n";
    [[maybe_unused]] const ssize_t written = ::write(m_owner, pid.data(), pid.size());
}

StagingFolder::~StagingFolder()
{
    if (!m_committed)
        removeQuietly(m_path);
    if (m_owner >= 0) {
        std::error_code ignored;
        fs::remove(ownerFile(m_path), ignored); // while locked: no cleaner takes it meanwhile
        ::close(m_owner);
    }
}

void StagingFolder::commit(const fs::path &destination)
{
    std::error_code error;
    fs::rename(m_path, destination, error);
    if (error)
        throw PackageError(destination.string(), {},
                           "cannot move the imported package into place: " + error.message());
    m_committed = true;
}

int removeAbandonedStaging(const fs::path &root)
{
    int removed = 0;
    std::error_code error;
    for (fs::directory_iterator it(root, error), end; !error && it != end; it.increment(error)) {
        const std::string name = it->path().filename().string();
        if (name.rfind(kPrefix, 0) != 0 || name.size() < std::strlen(kOwnerSuffix))
            continue;
        const bool isOwner = name.compare(name.size() - std::strlen(kOwnerSuffix),
                                          std::string::npos, kOwnerSuffix) == 0;
        std::error_code statError;
        if (isOwner) {
            // An owner file whose folder is gone (its import was killed between the two
            // removals): removed once its lock is free.
            const fs::path folder = name.substr(0, name.size() - std::strlen(kOwnerSuffix));
            int lock = -1;
            if (!fs::exists(fs::symlink_status(it->path().parent_path() / folder, statError)) &&
                abandoned(it->path().parent_path() / folder, lock)) {
                std::error_code ignored;
                fs::remove(it->path(), ignored);
            }
            if (lock >= 0)
                ::close(lock);
            continue;
        }
        if (!fs::is_directory(fs::symlink_status(it->path(), statError)))
            continue;
        int lock = -1;
        if (!abandoned(it->path(), lock))
            continue;
        removeQuietly(it->path());
        std::error_code ignored;
        fs::remove(ownerFile(it->path()), ignored);
        if (lock >= 0)
            ::close(lock);
        ++removed;
    }
    return removed;
}

} // namespace glosa::engine
