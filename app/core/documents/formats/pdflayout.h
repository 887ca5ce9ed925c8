// A PDF's structure recovered from where its text sits: what the glosa-pdftext helper
// (formats/pdftext.h) reports of each page, the boxes of its text runs, made into a Document of
// headings, paragraphs, list items and tables. PDF text has no structure of its own; what it gives
// is each run's box (pdfium: one a text object of a line, so one font and size) and its text:
// - the size of the type, from a box's height and which letters it holds (ascenders, descenders);
//   rows larger than the body text are headings, ranked by size (the largest is level 1);
// - a bullet glyph (•, ◦, ▪, -, …) or a number ("1.", "b)") set apart at a row's start: a list
//   item, nested by the marker's indentation; the rows under its text continue it;
// - rows of runs set apart by wide gaps whose starts line up down the rows: a table;
// - a small, raised number (or *, †) after a word: a footnote marker, kept out of the text the
//   model reads and put back after the translated word;
// - rows close together, of one size: one paragraph (on as many lines as the page had).
// What it cannot give: bold and italic (QtPdf 6.4 reports no font), a table cell's wrapped lines
// (each row of text is a row of the table).
//
// The Document is HTML (format "pdf"): its skeleton holds <h1>, <ul>/<ol>/<li>, <table> and <p>
// around the segments, and a marker is an empty span whose markup is <sup>1</sup>, so that
// describeLayout() reads the roles as it does a web page's, and writing it as .html is render().
#pragma once

#include "app/core/documents/document.h"

#include <QByteArray>
#include <QString>

#include <vector>

namespace glosa::documents::formats {

// One run of text on a page, in points from the page's top left.
struct PdfBox
{
    qreal x = 0, y = 0, width = 0, height = 0;
    QString text;
};

struct PdfPage
{
    std::vector<PdfBox> boxes; // in pdfium's text order
    // A page the helper could not place box by box (too much text to search in time): its lines,
    // with an empty line between blocks.
    QStringList lines;
};

// The helper's payload (pdftext.h) as pages; lines it does not know are skipped.
std::vector<PdfPage> parsePdfPages(const QByteArray &payload);

// The pages as a document (format "pdf"); throws DocumentError naming `name` when there is no
// text.
Document pdfDocument(const std::vector<PdfPage> &pages, const QString &name);

} // namespace glosa::documents::formats
