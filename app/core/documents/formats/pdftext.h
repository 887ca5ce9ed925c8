// Reading a PDF's text with QtPdf (pdfium), and the frame the glosa-pdftext helper (app/pdftext)
// hands it back in. pdfium cannot be interrupted from outside, and a hostile file can keep it
// busy for minutes or make it allocate without bound (abandoning a thread inside it
// would leave it burning CPU and memory), so the app never runs it in its own process: readPdf
// (pdf.cpp) runs the helper under time and memory limits, as browsers do, and reads its frame.
// The extraction (app/pdftext/extract.h) is built into the helper only.
//
// The frame on the helper's stdout: the line "glosa-pdftext 2", then "text N" or "error N" on a
// line, then exactly N bytes of UTF-8 (the text, or a DocumentError's message) and nothing after.
// A helper killed while writing leaves a frame that is short or missing, never one that reads as
// complete. The text is one record a line (formats/pdflayout.h reads it):
//     page                          a page starts
//     box X Y WIDTH HEIGHT TEXT     a run of text (pdfium's rectangle: one text object of a line),
//                                   in points from the page's top left, in the page's text order
//     text LINE                     a line of a page given as lines (too much text to place box
//                                   by box in time); an empty one ends a block
// TEXT and LINE hold no line break or tab.
#pragma once

#include <QByteArray>
#include <QString>

#include <optional>

namespace glosa::documents::formats {

struct PdfTextFrame
{
    bool isError = false; // payload is a DocumentError's message, not the text
    QByteArray payload;
};

QByteArray writePdfTextFrame(const PdfTextFrame &frame);
// nullopt when `bytes` is not exactly one whole frame.
std::optional<PdfTextFrame> readPdfTextFrame(const QByteArray &bytes);

} // namespace glosa::documents::formats
