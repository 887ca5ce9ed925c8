// Shared by the libFuzzer harnesses: each calls the app's real entry point for one kind of
// untrusted input (see docs/robustness.md). Only the errors the entry point documents are expected; any
// other exception, crash, sanitizer report, leak, hang or out-of-memory is a finding.
#pragma once

#include "app/core/documents/ziparchive.h"

#include <QByteArray>
#include <QCoreApplication>
#include <QFile>
#include <QString>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>
#include <unistd.h>

namespace glosa::fuzz {

// A QCoreApplication for the Qt code that needs one (plugins, image formats); made once.
inline void ensureApp()
{
    static int argc = 1;
    static char name[] = "fuzz";
    static char *argv[] = {name, nullptr};
    static QCoreApplication *app = new QCoreApplication(argc, argv);
    (void)app;
}

// A private file (per process: libFuzzer may fork workers) holding `data`, for entry points that
// read from a path. Overwritten on each call.
inline QString writeInput(const std::uint8_t *data, std::size_t size, const char *suffix)
{
    const QString path = QStringLiteral("/tmp/glosa-fuzz-%1%2").arg(getpid()).arg(suffix);
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate))
        std::abort();
    file.write(reinterpret_cast<const char *>(data), qint64(size));
    return path;
}

// A minimal .docx or .odt (`format`) whose member `member` (word/document.xml, content.xml) is
// `xml`: the harnesses that fuzz the XML layer inside a valid archive.
inline QByteArray archiveWithMember(const QString &format, const QString &member,
                                    const QByteArray &xml)
{
    using glosa::documents::ZipEntry;
    std::vector<ZipEntry> entries;
    if (format == QLatin1String("odt"))
        entries.push_back({QStringLiteral("mimetype"),
                           "application/vnd.oasis.opendocument.text", true});
    else
        entries.push_back({QStringLiteral("[Content_Types].xml"), "<Types/>", false});
    entries.push_back({member, xml, false});
    return glosa::documents::writeZip(entries);
}

// Stops the run with a message libFuzzer keeps next to the reproducer.
[[noreturn]] inline void finding(const std::string &what)
{
    fprintf(stderr, "FINDING: %s\n", what.c_str());
    std::abort();
}

} // namespace glosa::fuzz
