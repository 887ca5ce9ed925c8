#include "app/cli/interrupt.h"

#include <csignal>

namespace glosa::cli {

namespace {

std::atomic<bool> flag = false;
static_assert(std::atomic<bool>::is_always_lock_free);

extern "C" void cancelOnSignal(int)
{
    flag = true; // only an atomic: async-signal-safe
}

} // namespace

std::atomic<bool> &interrupted()
{
    return flag;
}

CancelOnInterrupt::CancelOnInterrupt()
{
    flag = false;
    m_previous = std::signal(SIGINT, cancelOnSignal);
}

CancelOnInterrupt::~CancelOnInterrupt()
{
    std::signal(SIGINT, m_previous);
}

} // namespace glosa::cli
