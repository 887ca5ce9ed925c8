// Hand-overs between threads: a call queued to another thread's event loop, or a job started on
// the global thread pool. Every cross-thread hand-over in the app goes through these two, so that
// the ThreadSanitizer build can see them.
//
// Basic usage:
//     glosa::postCall(guiObject, [result] { emit ...; });        // runs on guiObject's thread
//     glosa::startOnPool([path] { ... });                         // runs on QThreadPool's thread
//
// Why not QMetaObject::invokeMethod / QThreadPool::start directly: Qt's event queue and thread
// pool synchronise inside libQt6Core, through futexes and atomics ThreadSanitizer cannot see (Debian's
// Qt is not instrumented), so every capture read on the receiving thread looked like a data race
// with its write on the sending one: 425 reports over the GUI tests, none in our code
// (docs/robustness.md, "Sanitizers"). Under TSan the hand-over also passes through one mutex the
// sender holds while posting and the receiver takes before running the call: a real
// happens-before edge that TSan sees, from everything the sender wrote (the captures, and the
// closure Qt allocated) to everything the receiver reads. Elsewhere the helpers are the plain
// Qt calls.
#pragma once

#include <QMetaObject>
#include <QObject>
#include <QThreadPool>

#include <utility>

#if defined(__SANITIZE_THREAD__)
#define GLOSA_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define GLOSA_TSAN 1
#endif
#endif

#ifdef GLOSA_TSAN
#include <mutex>
#endif

namespace glosa {

#ifdef GLOSA_TSAN
namespace detail {
// One for the process: a receiver must reach it without reading its closure first (reading a
// capture before the edge exists would itself be the race). Held for the posting only.
inline std::mutex &handoffMutex()
{
    static std::mutex mutex;
    return mutex;
}
template <typename F> auto afterHandoff(F f)
{
    return [f = std::move(f)]() mutable {
        { std::lock_guard lock(handoffMutex()); }
        f();
    };
}
} // namespace detail
#endif

// Runs `f` on `context`'s thread, from its event loop (Qt::QueuedConnection: also when `context`
// lives on this thread, after the caller's code has returned). Dropped if `context` is destroyed
// first.
template <typename F> void postCall(QObject *context, F &&f)
{
#ifdef GLOSA_TSAN
    std::lock_guard lock(detail::handoffMutex());
    QMetaObject::invokeMethod(context, detail::afterHandoff(std::forward<F>(f)),
                              Qt::QueuedConnection);
#else
    QMetaObject::invokeMethod(context, std::forward<F>(f), Qt::QueuedConnection);
#endif
}

// Runs `f` on a thread of QThreadPool::globalInstance().
template <typename F> void startOnPool(F &&f)
{
#ifdef GLOSA_TSAN
    std::lock_guard lock(detail::handoffMutex());
    QThreadPool::globalInstance()->start(detail::afterHandoff(std::forward<F>(f)));
#else
    QThreadPool::globalInstance()->start(std::forward<F>(f));
#endif
}

} // namespace glosa
