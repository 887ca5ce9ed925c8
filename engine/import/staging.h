// The hidden staging folder an import writes a package into before renaming it into place
// (`<root>/.import-XXXXXX`), and the cleaning of those an interrupted import left behind.
//
// An error or a cancellation removes the folder (the destructor), and glosa-cli turns Ctrl+C and
// SIGTERM into a cancellation. A SIGKILL (or a power cut) leaves the folder; so that the next
// import or listing can tell it from one a running import is writing, each staging folder has an
// owner file beside it (`<folder>.owner`, holding the pid for people to read) that the importing
// process holds an flock(2) on for as long as it lives. The kernel drops the lock with the
// process, however it ends: removeAbandonedStaging() removes every staging folder whose lock it
// can take, and those without an owner file (from before the lock) once they are an hour old.
//
// Basic usage:
//     removeAbandonedStaging(root);
//     StagingFolder staging(root);              // throws PackageError naming root
//     ... write into staging.path() ...
//     staging.commit(root / id);                 // rename; throws PackageError with the reason
#pragma once

#include <filesystem>

namespace glosa::engine {

class StagingFolder
{
public:
    explicit StagingFolder(const std::filesystem::path &root);
    ~StagingFolder(); // removes the folder unless committed
    StagingFolder(const StagingFolder &) = delete;
    StagingFolder &operator=(const StagingFolder &) = delete;

    const std::filesystem::path &path() const { return m_path; }
    // Renames the folder to `destination` and lets the lock go.
    void commit(const std::filesystem::path &destination);

private:
    std::filesystem::path m_path;
    int m_owner = -1; // the locked owner file
    bool m_committed = false;
};

// Removes the staging folders under `root` whose importing process is gone; returns how many.
int removeAbandonedStaging(const std::filesystem::path &root);

} // namespace glosa::engine
