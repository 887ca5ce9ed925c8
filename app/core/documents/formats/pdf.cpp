// PDF, read only: the text of each page, read like a .txt file. QtPdf runs in the glosa-pdftext
// helper process under time and memory limits (formats/pdftext.h says why); this file starts it,
// waits for it and turns whatever becomes of it into the document or a DocumentError. What a
// PDF is written as instead is the PDF row of the format table (formats.cpp).
#include "app/core/documents/formats/entrypoints.h"
#include "app/core/documents/formats/pdftext.h"
#include "app/core/executabledir.h"
#include "app/core/limits.h"

#include <QElapsedTimer>
#include <QFileInfo>
#include <QProcess>

#include <csignal>
#include <cstring>

namespace glosa::documents::formats {

namespace {

const QString kHelperName = QStringLiteral("glosa-pdftext");
// How often the wait for the helper looks at the cancel flag: what a Cancel waits at most.
constexpr int kWaitSliceMs = 50;
// How long a killed helper is waited for before ~QProcess is left to reap it.
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
    // No event loop is needed (or used): waitForStarted/waitForFinished poll the pipes and the
    // child's exit themselves, on whichever thread calls readPdf (glosa-cli's main thread, the
    // Documents view's worker), and the QProcess never leaves that thread.
    QProcess process;
    process.setProgram(helper);
    process.setArguments({path});
    process.setStandardInputFile(QProcess::nullDevice());
    // QtPdf's own warnings reach our stderr as they did when it ran in this process.
    process.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    QElapsedTimer clock;
    clock.start();
    process.start(QIODevice::ReadOnly);
    if (!process.waitForStarted(int(timeLimit.count())))
        throw DocumentError(QStringLiteral("cannot read %1: the PDF reader %2 did not start: %3")
                                .arg(name, helper, process.errorString()));
    // SIGKILL (pdfium has no way to be asked), then reap it: a killed process is gone as soon as
    // the kernel has torn it down, so this wait is short; it is bounded all the same, and a
    // helper still there after it is reaped by ~QProcess.
    const auto stop = [&process] {
        process.kill();
        process.waitForFinished(kKillWaitMs);
    };
    // The wait in short slices, so that the owner's cancel (the Documents view's Cancel, its
    // window closing) is seen within a slice instead of at the time limit.
    bool timedOut = false;
    while (!process.waitForFinished(kWaitSliceMs) && process.state() != QProcess::NotRunning) {
        if (isCancelled()) {
            stop();
            throw DocumentCancelled();
        }
        if (clock.elapsed() >= timeLimit.count()) {
            timedOut = true;
            break;
        }
    }
    if (timedOut) {
        stop();
        throw DocumentError(QStringLiteral("%1: reading the PDF took longer than the limit of %2 s "
                                           "and was stopped (a damaged or hostile file?)")
                                .arg(name, seconds(timeLimit)));
    }
    if (process.exitStatus() == QProcess::CrashExit) {
        // Qt gives the signal's number as the exit code of a process a signal ended.
        const int signal = process.exitCode();
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
    const std::optional<PdfTextFrame> frame = readPdfTextFrame(process.readAllStandardOutput());
    if (!frame)
        throw DocumentError(QStringLiteral("cannot read %1: the PDF reader %2 ended (exit code "
                                           "%3) without an answer")
                                .arg(name, helper)
                                .arg(process.exitCode()));
    if (frame->isError)
        throw DocumentError(QString::fromUtf8(frame->payload));
    Document doc = readTxt(frame->payload, name);
    doc.format = QStringLiteral("pdf");
    return doc;
}

} // namespace glosa::documents::formats
