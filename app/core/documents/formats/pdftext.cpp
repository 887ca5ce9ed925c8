// The glosa-pdftext helper's frame (pdftext.h): written by the helper, read by readPdf (pdf.cpp).
// The extraction itself, with QtPdf, is built into the helper only (app/pdftext/extract.cpp), so
// that glosa_core does not link QtPdf.
#include "app/core/documents/formats/pdftext.h"

namespace glosa::documents::formats {

namespace {
const QByteArray kFrameMagic = QByteArrayLiteral("glosa-pdftext 2\n");
} // namespace

QByteArray writePdfTextFrame(const PdfTextFrame &frame)
{
    return kFrameMagic + (frame.isError ? "error " : "text ") +
           QByteArray::number(frame.payload.size()) + '\n' + frame.payload;
}

std::optional<PdfTextFrame> readPdfTextFrame(const QByteArray &bytes)
{
    if (!bytes.startsWith(kFrameMagic))
        return std::nullopt;
    const qsizetype lineEnd = bytes.indexOf('\n', kFrameMagic.size());
    if (lineEnd < 0)
        return std::nullopt;
    const QByteArray line = bytes.mid(kFrameMagic.size(), lineEnd - kFrameMagic.size());
    const qsizetype space = line.indexOf(' ');
    const QByteArray kind = line.left(space);
    bool ok = false;
    const qint64 size = line.mid(space + 1).toLongLong(&ok);
    if (space < 0 || !ok || size < 0 || (kind != "text" && kind != "error") ||
        size != bytes.size() - (lineEnd + 1))
        return std::nullopt;
    return PdfTextFrame{kind == "error", bytes.mid(lineEnd + 1)};
}

} // namespace glosa::documents::formats
