// The in-process half of reading a PDF: QtPdf's page text, built into glosa-pdftext only
// (app/core/documents/formats/pdftext.h says why PDFs are read in a process of their own).
#include "app/pdftext/extract.h"

#include "app/core/documents/document.h"

#include <QFileInfo>
#include <QPdfDocument>
#include <QPdfSelection>

#include <algorithm>
#include <optional>
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



QPdfDocument::Error openPdf(QPdfDocument &pdf, const QString &name)
{
    if (const QFileInfo file(name); file.exists() && file.size() == 0) // QtPdf: "invalid"
        throw DocumentError(QStringLiteral("%1 is empty (0 bytes)").arg(name));
    const QPdfDocument::Error error = pdf.load(name);
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
    return error;
}

// A line of the page's text as pdfium gave it: where it starts in the page's text and its text.
struct TextLine
{
    QString text;
    qsizetype start, length;
    qreal top = 0;
};

std::vector<TextLine> splitPageText(const QString &all)
{
    std::vector<TextLine> lines;
    qsizetype start = 0;
    while (start <= all.size()) {
        qsizetype end = all.indexOf(QLatin1Char('\n'), start);
        if (end < 0)
            end = all.size();
        QString line = all.mid(start, end - start);
        if (line.endsWith(QLatin1Char('\r')))
            line.chop(1);
        if (!line.trimmed().isEmpty())
            lines.push_back({line, start, line.size()});
        start = end + 1;
    }
    return lines;
}

// One line of the payload (pdftext.h): its tag, then text without line breaks or tabs.
QByteArray record(const char *tag, QString text)
{
    text.remove(QChar(0x0002)); // pdfium's soft hyphen marker
    for (QChar &c : text)
        if (c == QLatin1Char('\n') || c == QLatin1Char('\r') || c == QLatin1Char('\t'))
            c = QLatin1Char(' ');
    return QByteArray(tag) + ' ' + text.toUtf8() + '\n';
}

// The page as lines of text with blank lines between blocks (a gap well above the usual line
// spacing ends one), for a page whose boxes cost too much to place one by one.
QByteArray plainPage(QPdfDocument &pdf, int page, const QPdfSelection &selection,
                     const QString &all)
{
    std::vector<TextLine> lines = splitPageText(all);
    placeLines(pdf, page, selection, lines, all.size());
    std::vector<qreal> gaps;
    for (std::size_t i = 1; i < lines.size(); ++i)
        gaps.push_back(lines[i].top - lines[i - 1].top);
    std::vector<qreal> sorted = gaps;
    std::sort(sorted.begin(), sorted.end());
    // The usual spacing: the lower quartile (most gaps in a page are between lines).
    const qreal usual = sorted.empty() ? 0 : sorted[sorted.size() / 4];
    QByteArray out;
    for (std::size_t i = 0; i < lines.size(); ++i) {
        if (i > 0 && usual > 0 && gaps[i - 1] > 1.5 * usual)
            out += "text \n";
        out += record("text", lines[i].text.trimmed());
    }
    return out;
}

QByteArray boxRecord(const QRectF &box, const QString &text)
{
    return record(QStringLiteral("box %1 %2 %3 %4")
                      .arg(box.x(), 0, 'f', 2)
                      .arg(box.y(), 0, 'f', 2)
                      .arg(box.width(), 0, 'f', 2)
                      .arg(box.height(), 0, 'f', 2)
                      .toLatin1()
                      .constData(),
                  text);
}

// pdfium's rectangles of a page's text are one a text object of a line: a run of one font and
// size (a bold word, a superscript, a bullet, a table cell). Their text is found line by line: a
// line of one rectangle is its text; in a line of several, where each one starts is the shortest
// prefix of the line with that many rectangles (a binary search, a selection a step). Every
// selection loads the page's text again (8 ms on a page of 33,000 characters): past
// kMaxSelectionWork characters loaded in all the page is given as plain lines instead.
std::optional<QByteArray> boxedPage(QPdfDocument &pdf, int page, const QString &all)
{
    constexpr qint64 kMaxSelectionWork = 4'000'000;
    const std::vector<TextLine> lines = splitPageText(all);
    const qint64 pageChars = std::max<qint64>(1, all.size());
    if (qint64(lines.size()) * pageChars > kMaxSelectionWork)
        return std::nullopt;
    qint64 work = qint64(lines.size()) * pageChars;
    QByteArray out;
    for (const TextLine &line : lines) {
        const QList<QPolygonF> bounds =
            pdf.getSelectionAtIndex(page, int(line.start), int(line.length)).bounds();
        if (bounds.size() <= 1) {
            if (bounds.size() == 1)
                out += boxRecord(bounds.front().boundingRect(), line.text);
            continue;
        }
        qsizetype from = 0; // where the current rectangle's text starts in the line
        for (qsizetype box = 1; box < bounds.size(); ++box) {
            qsizetype low = from + 1, high = line.length; // the first prefix with box + 1
            while (low < high) {
                const qsizetype middle = (low + high) / 2;
                work += pageChars;
                if (work > kMaxSelectionWork)
                    return std::nullopt;
                if (pdf.getSelectionAtIndex(page, int(line.start), int(middle)).bounds().size() >
                    box)
                    high = middle;
                else
                    low = middle + 1;
            }
            const qsizetype next = std::max(from, low - 1); // the new rectangle's first character
            out += boxRecord(bounds[box - 1].boundingRect(), line.text.mid(from, next - from));
            from = next;
        }
        out += boxRecord(bounds.back().boundingRect(), line.text.mid(from));
    }
    return out;
}

} // namespace

// Every page as the boxes of its text (pdftext.h), or where that would take too long, as its
// lines of text.
QByteArray extractPdfText(const QString &path)
{
    const QString &name = path;
    QPdfDocument pdf;
    openPdf(pdf, name);
    QByteArray payload;
    bool anyText = false;
    for (int page = 0; page < pdf.pageCount(); ++page) {
        const QPdfSelection selection = pdf.getAllText(page);
        const QString all = selection.text();
        anyText = anyText || !all.trimmed().isEmpty();
        payload += "page\n";
        if (const std::optional<QByteArray> boxes = boxedPage(pdf, page, all))
            payload += *boxes;
        else
            payload += plainPage(pdf, page, selection, all);
    }
    if (!anyText)
        throw DocumentError(QStringLiteral("%1 has no text to translate (a scanned PDF needs text "
                                           "recognition first)")
                                .arg(name));
    return payload;
}

} // namespace glosa::documents::formats
