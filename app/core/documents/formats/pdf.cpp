// PDF, read only: the boxes of each page's text, made into headings, lists, tables and paragraphs
// (pdflayout.h). QtPdf runs in the glosa-pdftext
// helper process under time and memory limits (formats/pdftext.h says why); this file starts it,
// waits for it and turns whatever becomes of it into the document or a DocumentError. What a
// PDF is written as instead is the PDF row of the format table (formats.cpp).
#include "app/core/documents/formats/entrypoints.h"
#include "app/core/documents/formats/pdflayout.h"
#include "app/core/documents/formats/pdftext.h"
#include "app/core/platform/executabledir.h"
#include "app/core/limits.h"

#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>

#include <algorithm>

#include <cerrno>
#include <csignal>
#include <cstring>

#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

namespace glosa::documents::formats {

namespace {

const QString kHelperName = QStringLiteral("glosa-pdftext");
// How often the wait for the helper looks at the cancel flag: what a Cancel waits at most.
constexpr int kWaitSliceMs = 50;
// How long a killed helper is waited for before it is left a zombie.
constexpr int kKillWaitMs = 5000;

// Next to the running binary (build/bin, an installed bin/), or in ../bin for the build tree's
// other executables (build/tests, build-sanitize/fuzz), as plugins are found in ../plugins.
QString helperPath()
{
    const QString dir = executableDir();
    for (const QString &candidate :
         {dir + QLatin1Char('/') + kHelperName, dir + QStringLiteral("/../bin/") + kHelperName}) {
        if (QFileInfo(candidate).isExecutable())
            return QFileInfo(candidate).absoluteFilePath();
    }
    return {};
}

QString seconds(std::chrono::milliseconds time)
{
    return QString::number(double(time.count()) / 1000.0);
}


// glosa-pdftext as a child process: started with posix_spawn, its stdout read through a pipe.
// Why not QProcess: Qt 6.4 starts children with clone(CLONE_VM | CLONE_VFORK) through libc's
// clone(), which ThreadSanitizer's interceptor (clang 14) takes for a fork: its bookkeeping in
// the child, which shares the parent's memory, broke the parent's ("CHECK failed:
// tsan_rtl.cpp:234", then "allocator is out of memory"), and tst_documentsview died under
// scripts/test-tsan. glibc's posix_spawn makes the same vfork-like clone inside libc, where no
// interceptor sees it. What a QProcess did here is a pipe, a poll and a waitpid anyway: no event
// loop was used (the wait runs on whichever thread calls readPdf).
struct Helper
{
    pid_t pid = -1;
    int out = -1; // the read end of its stdout
    int error = 0; // errno of a failed start
    int status = 0; // waitpid's, once it has ended
    bool ended = false;
    QByteArray output;

    Helper(const QString &program, const QString &argument)
    {
        int pipeFds[2];
        if (::pipe2(pipeFds, O_CLOEXEC) != 0) {
            error = errno;
            return;
        }
        out = pipeFds[0];
        posix_spawn_file_actions_t actions;
        posix_spawn_file_actions_init(&actions);
        posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
        posix_spawn_file_actions_adddup2(&actions, pipeFds[1], STDOUT_FILENO);
        // stderr is ours: QtPdf's own warnings reach it as they did when it ran in this process.
        posix_spawnattr_t attributes;
        posix_spawnattr_init(&attributes);
        sigset_t all, none;
        sigfillset(&all);
        sigemptyset(&none);
        posix_spawnattr_setsigdefault(&attributes, &all); // not the app's ignored SIGPIPE
        posix_spawnattr_setsigmask(&attributes, &none);
        posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK);
        QByteArray programBytes = QFile::encodeName(program);
        QByteArray argumentBytes = QFile::encodeName(argument);
        char *argv[] = {programBytes.data(), argumentBytes.data(), nullptr};
        error = posix_spawn(&pid, programBytes.constData(), &actions, &attributes, argv, environ);
        posix_spawnattr_destroy(&attributes);
        posix_spawn_file_actions_destroy(&actions);
        ::close(pipeFds[1]);
        if (error != 0)
            pid = -1;
    }
    ~Helper()
    {
        kill();
        if (out >= 0)
            ::close(out);
    }
    Helper(const Helper &) = delete;
    Helper &operator=(const Helper &) = delete;

    // Reads what it writes until it closes its stdout, then reaps it; false while it runs on
    // after `ms`.
    bool waitForFinished(int ms)
    {
        QElapsedTimer clock;
        clock.start();
        while (out >= 0) {
            pollfd readable{out, POLLIN, 0};
            const int left = int(std::max<qint64>(0, ms - clock.elapsed()));
            const int ready = ::poll(&readable, 1, left);
            if (ready < 0 && errno != EINTR)
                break; // cannot happen for one valid descriptor; the reap below decides
            if (ready <= 0) {
                if (clock.elapsed() >= ms)
                    return false;
                continue;
            }
            char buffer[65536];
            const ssize_t n = ::read(out, buffer, sizeof buffer);
            if (n > 0) {
                output.append(buffer, n);
            } else if (n == 0 || errno != EINTR) {
                ::close(out);
                out = -1;
            }
        }
        // Its stdout is closed: it is ending (or it closed stdout and runs on: still bounded).
        while (!reap(WNOHANG)) {
            if (clock.elapsed() >= ms)
                return false;
            ::usleep(1000);
        }
        return true;
    }

    // SIGKILL (pdfium has no way to be asked), then reap it: a killed process is gone as soon
    // as the kernel has torn it down, so this wait is short; it is bounded all the same, and a
    // helper still there after it is left a zombie until this process ends.
    void kill()
    {
        if (pid <= 0 || ended)
            return;
        ::kill(pid, SIGKILL);
        QElapsedTimer clock;
        clock.start();
        while (!reap(WNOHANG) && clock.elapsed() < kKillWaitMs)
            ::usleep(1000);
    }

private:
    bool reap(int options)
    {
        if (ended || pid <= 0)
            return true;
        pid_t done;
        do
            done = ::waitpid(pid, &status, options);
        while (done < 0 && errno == EINTR);
        ended = done == pid || (done < 0 && errno == ECHILD);
        return ended;
    }
};
} // namespace

Document readPdf(const QString &path, const std::atomic<bool> *cancelled)
{
    return readPdf(path, std::chrono::seconds(limits::kMaxPdfReadSeconds), cancelled);
}

Document readPdf(const QString &path, std::chrono::milliseconds timeLimit,
                 const std::atomic<bool> *cancelled)
{
    const QString &name = path;
    const auto isCancelled = [cancelled] { return cancelled && cancelled->load(); };
    if (isCancelled()) // a cancel that came before the job started
        throw DocumentCancelled();
    const QString helper = helperPath();
    if (helper.isEmpty())
        throw DocumentError(QStringLiteral("cannot read %1: the PDF reader %2 is missing from %3 "
                                           "(a broken installation?)")
                                .arg(name, kHelperName, executableDir()));
    QElapsedTimer clock;
    clock.start();
    Helper process(helper, path);
    if (process.error != 0)
        throw DocumentError(QStringLiteral("cannot read %1: the PDF reader %2 did not start: %3")
                                .arg(name, helper, qt_error_string(process.error)));
    // The wait in short slices, so that the owner's cancel (the Documents view's Cancel, its
    // window closing) is seen within a slice instead of at the time limit.
    bool timedOut = false;
    while (!process.waitForFinished(kWaitSliceMs)) {
        if (isCancelled()) {
            process.kill();
            throw DocumentCancelled();
        }
        if (clock.elapsed() >= timeLimit.count()) {
            timedOut = true;
            break;
        }
    }
    if (timedOut) {
        process.kill();
        throw DocumentError(QStringLiteral("%1: reading the PDF took longer than the limit of %2 s "
                                           "and was stopped (a damaged or hostile file?)")
                                .arg(name, seconds(timeLimit)));
    }
    if (WIFSIGNALED(process.status)) {
        const int signal = WTERMSIG(process.status);
        const QString what = QString::fromLocal8Bit(strsignal(signal));
        if (signal == SIGXCPU)
            throw DocumentError(QStringLiteral("%1: reading the PDF used more than the limit of "
                                               "%2 s of processor time and was stopped")
                                    .arg(name)
                                    .arg(limits::kMaxPdfReadSeconds));
        throw DocumentError(QStringLiteral("%1: the PDF reader (QtPdf) stopped on signal %2 (%3) "
                                           "while reading it: a damaged or hostile file, or one "
                                           "that needs more memory than the limit of %4 MiB")
                                .arg(name)
                                .arg(signal)
                                .arg(what)
                                .arg(limits::kMaxPdfReaderBytes >> 20));
    }
    const std::optional<PdfTextFrame> frame = readPdfTextFrame(process.output);
    if (!frame)
        throw DocumentError(QStringLiteral("cannot read %1: the PDF reader %2 ended (exit code "
                                           "%3) without an answer")
                                .arg(name, helper)
                                .arg(WEXITSTATUS(process.status)));
    if (frame->isError)
        throw DocumentError(QString::fromUtf8(frame->payload));
    return pdfDocument(parsePdfPages(frame->payload), name);
}

} // namespace glosa::documents::formats
