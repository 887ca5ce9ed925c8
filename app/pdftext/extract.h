// QtPdf's text of a PDF, inside the glosa-pdftext helper (app/core/documents/formats/pdftext.h
// says why it runs in a process of its own).
#pragma once

#include <QByteArray>
#include <QString>

namespace glosa::documents::formats {

// Every page's text as the boxes of its runs, or as lines where a page holds too much text to
// place in time: the records of the frame's text (formats/pdftext.h), which pdflayout.h makes a
// document of. Throws DocumentError naming `path`.
QByteArray extractPdfText(const QString &path);

} // namespace glosa::documents::formats
