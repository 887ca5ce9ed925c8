// The in-process half of reading a PDF: QtPdf's page text, built into glosa-pdftext only
// (app/core/documents/formats/pdftext.h says why PDFs are read in a process of their own).
#include "app/pdftext/extract.h"

#include "app/core/documents/document.h"

#include <QFileInfo>
#include <QPdfDocument>
#include <QPdfSelection>

#include <algorithm>
#include <vector>

namespace glosa::documents::formats {

namespace {

// Where each line sits (Line::top), for the gaps that end a block. First from the page's own
// text rectangles (getAllText's bounds, in text order): pdfium gives one a line, or several
// side by side, so rows of rectangles are the lines when there are as many. Otherwise a
// selection a line, as before; but QtPdf loads the page's whole text again for each
// getSelectionAtIndex (8 ms a call on a page of 33,000 characters), so a page of many lines of
// many characters (a 1 MB word wrapped over thousands of lines) was quadratic: 16 KB 0.75 s,
// 32 KB 3.2 s, 1 MB past the helper's 30 s. Past kMaxSelectionWork the tops stay unknown and the
// lines are joined as text alone (readTxt's rules), which costs nothing.
template <typename Line>
void placeLines(QPdfDocument &pdf, int page, const QPdfSelection &selection,
                std::vector<Line> &lines, qsizetype pageChars)
{
    std::vector<qreal> rows;
    qreal rowTop = 0, rowBottom = 0;
    for (const QPolygonF &bound : selection.bounds()) {
        const QRectF box = bound.boundingRect();
        const qreal middle = box.center().y();
        if (rows.empty() || middle < rowTop || middle > rowBottom) {
            rows.push_back(box.top());
            rowTop = box.top();
            rowBottom = box.bottom();
        } else {
            rows.back() = std::min(rows.back(), box.top());
        }
    }
    if (rows.size() == lines.size()) {
        for (std::size_t i = 0; i < lines.size(); ++i)
            lines[i].top = rows[i];
        return;
    }
    // What the selections load in all, lines x the page's characters or glyph boxes (a page can
    // hold far more glyphs than text: 65,549 boxes for 1,276 characters where QPdfWriter wrapped
    // a long word down past the page's end). Measured 0.12-1.7 µs each: at most a few seconds,
    // where a real page (50 lines of 3,000 characters) loads 150,000.
    constexpr qint64 kMaxSelectionWork = 2'000'000;
    if (qint64(lines.size()) * std::max<qint64>(pageChars, selection.bounds().size()) >
        kMaxSelectionWork)
        return;
    for (Line &line : lines)
        line.top = pdf.getSelectionAtIndex(page, int(line.start), int(line.length))
                       .boundingRectangle()
                       .top();
}

} // namespace

// Lines as pdfium gives them, read like a .txt file: lines join into paragraphs when they do
// not end a sentence and the next starts in lower case; pages are separated by a blank line.
QByteArray extractPdfText(const QString &path)
{
    const QString &name = path;
    if (const QFileInfo file(path); file.exists() && file.size() == 0) // QtPdf: "invalid"
        throw DocumentError(QStringLiteral("%1 is empty (0 bytes)").arg(name));
    QPdfDocument pdf;
    const QPdfDocument::Error error = pdf.load(path);
    switch (error) {
    case QPdfDocument::Error::None:
        break;
    case QPdfDocument::Error::FileNotFound:
        throw DocumentError(QStringLiteral("cannot open %1: no such file").arg(name));
    case QPdfDocument::Error::IncorrectPassword:
    case QPdfDocument::Error::UnsupportedSecurityScheme:
        throw DocumentError(QStringLiteral("%1 is password-protected (encrypted); save it without "
                                           "a password first")
                                .arg(name));
    case QPdfDocument::Error::InvalidFileFormat:
        throw DocumentError(QStringLiteral("%1 is corrupt: not a readable PDF").arg(name));
    default:
        throw DocumentError(QStringLiteral("%1 cannot be read as a PDF (QtPdf error %2)")
                                .arg(name)
                                .arg(int(error)));
    }
    QByteArray text;
    for (int page = 0; page < pdf.pageCount(); ++page) {
        const QPdfSelection selection = pdf.getAllText(page);
        const QString all = selection.text();
        // Lines with where they sit; a gap well above the usual line spacing ends a block.
        struct Line
        {
            QString text;
            qsizetype start, length; // in the page's text, as pdfium gave the line
            qreal top = 0;
        };
        std::vector<Line> lines;
        qsizetype start = 0;
        while (start <= all.size()) {
            qsizetype end = all.indexOf(QLatin1Char('\n'), start);
            if (end < 0)
                end = all.size();
            QString line = all.mid(start, end - start);
            if (line.endsWith(QLatin1Char('\r')))
                line.chop(1);
            line.remove(QChar(0x0002)); // pdfium's soft hyphen marker
            if (!line.trimmed().isEmpty())
                lines.push_back({line.trimmed(), start, line.size()});
            start = end + 1;
        }
        placeLines(pdf, page, selection, lines, all.size());
        std::vector<qreal> gaps;
        for (std::size_t i = 1; i < lines.size(); ++i)
            gaps.push_back(lines[i].top - lines[i - 1].top);
        std::vector<qreal> sorted = gaps;
        std::sort(sorted.begin(), sorted.end());
        // The usual spacing: the lower quartile (most gaps in a page are between lines).
        const qreal usual = sorted.empty() ? 0 : sorted[sorted.size() / 4];
        if (!text.isEmpty() && !lines.empty())
            text += "\n\n";
        for (std::size_t i = 0; i < lines.size(); ++i) {
            if (i > 0)
                text += usual > 0 && gaps[i - 1] > 1.5 * usual ? "\n\n" : "\n";
            text += lines[i].text.toUtf8();
        }
    }
    if (text.trimmed().isEmpty())
        throw DocumentError(QStringLiteral("%1 has no text to translate (a scanned PDF needs text "
                                           "recognition first)")
                                .arg(name));
    return text + '\n';
}

} // namespace glosa::documents::formats
