// Ctrl+C (SIGINT) during a long command (translate-doc, models get): the command polls a flag
// instead of dying, so that it can keep what is finished (the translated part, the partial
// download to resume) and exit with a message.
#pragma once

#include <atomic>

namespace glosa::cli {

// Set by SIGINT while a CancelOnInterrupt lives; kept until the command ends, so that a Ctrl+C
// between two units of work is not lost.
std::atomic<bool> &interrupted();

// Installs the handler for its lifetime; the previous handler is back however the command ends.
class CancelOnInterrupt
{
public:
    CancelOnInterrupt();
    ~CancelOnInterrupt();
    CancelOnInterrupt(const CancelOnInterrupt &) = delete;
    CancelOnInterrupt &operator=(const CancelOnInterrupt &) = delete;

private:
    void (*m_previous)(int);
};

} // namespace glosa::cli
