// QtPdf's text of a PDF, inside the glosa-pdftext helper (app/core/documents/formats/pdftext.h
// says why it runs in a process of its own).
#pragma once

#include <QByteArray>
#include <QString>

namespace glosa::documents::formats {

// The text of every page by blocks of lines (pages and blocks end with a blank line), UTF-8,
// ending with a newline: what readTxt makes paragraphs of. Throws DocumentError naming `path`.
QByteArray extractPdfText(const QString &path);

} // namespace glosa::documents::formats
