// StallMeter: the longest stretch the GUI thread spent without coming back to its event loop, as
// wall time and as the thread's own CPU time, sampled by a 5 ms timer on the thread that makes it.
// The CPU time is the stall our code causes; the wall time also holds what the shared machine
// gave to other processes (gaps of 200-500 ms with under 1 ms of our CPU in them here), so tests
// check the CPU time and report the wall time.
//
// Basic usage (GUI thread):
//     glosa::test::StallMeter meter;
//     view->translateNow();  ...wait for the result...
//     QVERIFY(meter.worstCpuMs() < 50);
#pragma once

#include "tests/support/testutil.h"

#include <QElapsedTimer>
#include <QObject>
#include <QTimer>

#include <algorithm>

namespace glosa::test {

// The sanitizer build's instrumented code runs the same GUI work about 4x slower (tst_longinput:
// 187 ms of GUI-thread CPU comparing 5,000 words, 47 ms in Release): bounds on the GUI thread's
// CPU time are multiplied by this, so that the sanitizer suite checks memory, not speed.
#ifdef GLOSA_SANITIZED
constexpr double kSanitizerSlowdown = 4;
#else
constexpr double kSanitizerSlowdown = 1;
#endif

class StallMeter : public QObject
{
public:
    StallMeter()
    {
        m_tick.setInterval(5);
        connect(&m_tick, &QTimer::timeout, this, [this] {
            const double cpu = threadCpuMs();
            const qint64 now = m_clock.elapsed();
            if (cpu - m_lastCpu > m_worstCpu) {
                m_worstCpu = cpu - m_lastCpu;
                m_worstCpuWall = now - m_lastWall;
            }
            m_worstWall = std::max(m_worstWall, now - m_lastWall);
            m_lastWall = now;
            m_lastCpu = cpu;
        });
        restart();
        m_tick.start();
    }
    // Forgets what was measured so far: what comes next is timed.
    void restart()
    {
        m_clock.start();
        m_lastWall = m_worstWall = 0;
        m_lastCpu = threadCpuMs();
        m_worstCpu = m_worstCpuWall = 0;
    }
    qint64 worstWallMs() const { return m_worstWall; }
    double worstCpuMs() const { return m_worstCpu; }
    // The wall time of the stretch with the most CPU time.
    qint64 worstCpuWallMs() const { return m_worstCpuWall; }

private:
    QTimer m_tick;
    QElapsedTimer m_clock;
    qint64 m_lastWall = 0, m_worstWall = 0, m_worstCpuWall = 0;
    double m_lastCpu = 0, m_worstCpu = 0;
};

} // namespace glosa::test
