// glosa-pdftext: the process in which Glosa reads a PDF (app/core/documents/formats/pdftext.h says
// why not in its own). Run by readPdf, not by hand:
//     glosa-pdftext FILE.pdf     # writes one frame (the text, or the error) to stdout
// It limits itself before QtPdf sees a byte, so that a hostile file costs at most this process.
#include "app/core/documents/document.h"
#include "app/core/documents/formats/pdftext.h"
#include "app/pdftext/extract.h"
#include "app/core/limits.h"

#include <QCoreApplication>
#include <QFile>

#include <csignal>
#include <cstdio>
#include <new>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <unistd.h>

// AddressSanitizer (scripts/test-sanitize) and ThreadSanitizer (scripts/test-tsan) reserve
// terabytes of address space for their shadow memory: under an address-space limit their own
// mappings fail (TSan: "allocator is out of memory", the helper dead before reading).
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define GLOSA_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define GLOSA_ASAN 1
#endif
#endif

namespace {

void limitSelf()
{
#ifndef GLOSA_ASAN
    // Address space: pdfium's allocations fail past it (bad_alloc, or pdfium's own abort), where
    // without it a bomb of a PDF could take all the machine's memory.
    const rlim_t bytes = rlim_t(glosa::limits::kMaxPdfReaderBytes);
    const rlimit memory{bytes, bytes};
    setrlimit(RLIMIT_AS, &memory);
#endif
    // Processor time: readPdf kills us at its wall-clock limit; this only ends a helper whose
    // parent is gone and could not (SIGXCPU at the soft limit, SIGKILL a little later).
    const rlim_t cpu = rlim_t(glosa::limits::kMaxPdfReadSeconds);
    const rlimit time{cpu, cpu + 5};
    setrlimit(RLIMIT_CPU, &time);
    // Die with the thread that started us (a closed app, a killed glosa-cli) instead of running
    // on; if it is already gone (we were reparented), stop now.
    const pid_t parent = getppid();
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent || parent == 1)
        _exit(1);
}

bool writeAll(const QByteArray &bytes)
{
    qsizetype done = 0;
    while (done < bytes.size()) {
        const ssize_t n = write(STDOUT_FILENO, bytes.constData() + done, bytes.size() - done);
        if (n < 0)
            return false;
        done += n;
    }
    return true;
}

} // namespace

int main(int argc, char **argv)
{
    limitSelf();
    if (argc != 2) {
        fprintf(stderr, "usage: glosa-pdftext FILE.pdf (Glosa runs it to read a PDF)\n");
        return 2;
    }
    const QCoreApplication app(argc, argv);
    const QString path = QFile::decodeName(argv[1]);
    using namespace glosa::documents;
    formats::PdfTextFrame frame;
    try {
        frame.payload = formats::extractPdfText(path);
    } catch (const DocumentError &error) {
        frame = {true, error.message().toUtf8()};
    } catch (const std::bad_alloc &) {
        frame = {true, QStringLiteral("%1: reading the PDF needs more memory than the limit of "
                                      "%2 MiB")
                           .arg(path)
                           .arg(glosa::limits::kMaxPdfReaderBytes >> 20)
                           .toUtf8()};
    }
    return writeAll(formats::writePdfTextFrame(frame)) ? 0 : 1;
}
