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

// The page's rectangles (pdfium: one a text object of a line, so a run of one font and size) in
// rows, in text order: a rectangle whose middle is inside the row so far, or holds the row's,
// joins it.
std::vector<std::vector<QRectF>> rectangleRows(const QList<QPolygonF> &bounds)
{
    std::vector<std::vector<QRectF>> rows;
    qreal top = 0, bottom = 0;
    for (const QPolygonF &bound : bounds) {
        const QRectF box = bound.boundingRect();
        const qreal middle = box.center().y(), rowMiddle = (top + bottom) / 2;
        if (!rows.empty() && ((middle >= top && middle <= bottom) ||
                              (rowMiddle >= box.top() && rowMiddle <= box.bottom()))) {
            rows.back().push_back(box);
            top = std::min(top, box.top());
            bottom = std::max(bottom, box.bottom());
        } else {
            rows.push_back({box});
            top = box.top();
            bottom = box.bottom();
        }
    }
    return rows;
}

// A small mark raised against its neighbour (a footnote's number after a word).
bool raisedAgainst(const QRectF &mark, const QRectF &other)
{
    return mark.height() < 0.75 * other.height() &&
           mark.bottom() < other.top() + 0.7 * other.height();
}

// A row's runs with the ones that only change the style merged: what the reader tells apart is
// what a gap sets apart (a bullet, a table cell) or a raised mark. Each merged run: its
// rectangle and how many of the row's rectangles it covers.
std::vector<QRectF> mergeRuns(const std::vector<QRectF> &row)
{
    // Narrower than the reader's gap between cells (half the type size; a box with a descender
    // is about the size, one without three quarters of it), so what it parts stays apart; wide
    // enough for the word spaces of justified text set as a text object a word (TeX).
    constexpr qreal kMergeGap = 0.45;
    std::vector<QRectF> runs;
    for (const QRectF &box : row) {
        if (!runs.empty()) {
            QRectF &last = runs.back();
            const qreal gap = box.left() - last.right();
            if (gap > -1 && gap < kMergeGap * std::max(box.height(), last.height()) &&
                !raisedAgainst(box, last) && !raisedAgainst(last, box)) {
                last = last.united(box);
                continue;
            }
        }
        runs.push_back(box);
    }
    return runs;
}

// A page's runs with their text. Where the rows of rectangles are the page's lines of text
// (as many), a row of one run is its line and costs nothing; otherwise each line's rectangles are
// a selection of the line. Where a line holds runs set apart, where each starts is the character
// at its left edge (a selection between two points). QtPdf loads the page's text again for every
// selection (8 ms a call on a page of 33,000 characters, more where a page holds more glyph boxes
// than characters), so the selections stop at a budget, per page and for the whole file, past
// which a page is given as lines.
class BoxedPages
{
public:
    explicit BoxedPages(QPdfDocument &pdf) : m_pdf(pdf) {}

    std::optional<QByteArray> page(int page, const QPdfSelection &selection, const QString &all)
    {
        m_page = page;
        m_cost = std::max<qint64>({1, all.size(), selection.bounds().size()});
        m_pageWork = 0;
        // Far more boxes than characters: glyphs drawn off the page (QPdfWriter wrapping a word
        // down past its end), nothing a reader of the page's text sees. Given as lines.
        if (selection.bounds().size() > 4 * std::max<qsizetype>(all.size(), 1000))
            return std::nullopt;
        const std::vector<TextLine> lines = splitPageText(all);
        std::vector<std::vector<QRectF>> rows = rectangleRows(selection.bounds());
        if (rows.size() != lines.size()) {
            rows.clear();
            for (const TextLine &line : lines) {
                if (!spend())
                    return std::nullopt;
                const QList<QPolygonF> bounds =
                    m_pdf.getSelectionAtIndex(page, int(line.start), int(line.length)).bounds();
                rows.emplace_back();
                for (const QPolygonF &bound : bounds)
                    rows.back().push_back(bound.boundingRect());
            }
        }
        std::vector<std::vector<QRectF>> runs;
        for (const std::vector<QRectF> &row : rows)
            runs.push_back(mergeRuns(row));
        QByteArray out;
        std::vector<QRectF> parted;
        for (std::size_t i = 0; i < lines.size(); ++i) {
            // A table's row alone at a page's foot or head (its other rows on the next page or
            // the one before; footnotes below it) is parted too.
            const bool cells = alignsWithNeighbour(runs, i) || i < 2 || i + 4 >= lines.size();
            parted.clear();
            for (std::size_t k = 0; k < runs[i].size(); ++k) {
                if (k == 0 || cells || partedAt(runs[i], k))
                    parted.push_back(runs[i][k]);
                else
                    parted.back() = parted.back().united(runs[i][k]);
            }
            const std::optional<QByteArray> boxes = line(lines[i], parted);
            if (!boxes)
                return std::nullopt;
            out += *boxes;
        }
        return out;
    }

private:
    // Which of a row's runs are worth the selections that part their text: what the reader can
    // make something of. A raised mark; a first run no wider than a few letters (a bullet, "1.");
    // runs that start where the runs of the row above or below do (a table's cells). The other
    // runs are merged (a word in italics or in another font, set as a text object of its own, as
    // TeX and code listings do word by word).
    static bool partedAt(const std::vector<QRectF> &row, std::size_t k)
    {
        return raisedAgainst(row[k], row[k - 1]) || raisedAgainst(row[k - 1], row[k]) ||
               (k == 1 && row[0].width() <= 2 * row[1].height());
    }
    static bool alignsWithNeighbour(const std::vector<std::vector<QRectF>> &runs, std::size_t i)
    {
        const std::vector<QRectF> &row = runs[i];
        for (const std::size_t other : {i - 1, i + 1}) {
            if (row.size() < 2 || other >= runs.size() || runs[other].size() < 2)
                continue;
            for (std::size_t k = 1; k < row.size(); ++k) {
                const qreal tolerance = std::max<qreal>(0.6 * row[k].height(), 5);
                for (const QRectF &run : runs[other])
                    if (std::abs(run.left() - row[k].left()) <= tolerance)
                        return true;
            }
        }
        return false;
    }

    static constexpr qint64 kMaxPageWork = 2'000'000;
    static constexpr qint64 kMaxWork = 40'000'000;

    bool spend()
    {
        m_pageWork += m_cost;
        m_work += m_cost;
        return m_pageWork <= kMaxPageWork && m_work <= kMaxWork;
    }

    std::optional<QByteArray> line(const TextLine &line, const std::vector<QRectF> &runs)
    {
        if (runs.empty())
            return QByteArray();
        QByteArray out;
        qsizetype from = 0; // where the current run's text starts in the line
        for (std::size_t run = 1; run < runs.size(); ++run) {
            if (!spend())
                return std::nullopt;
            const QRectF &before = runs[run - 1], &box = runs[run];
            const QPointF start(before.left() + std::min<qreal>(0.5, before.width() / 2),
                                before.center().y());
            const QPointF end(box.left() + std::min<qreal>(0.5, box.width() / 2), box.center().y());
            const qsizetype at = m_pdf.getSelection(m_page, start, end).endIndex() - line.start;
            if (at <= from || at >= line.length)
                continue; // not found: the run stays with the one before
            out += boxRecord(runs[run - 1], line.text.mid(from, at - from));
            from = at;
        }
        QRectF last = runs.back();
        if (from == 0)
            for (const QRectF &box : runs)
                last = last.united(box);
        return out + boxRecord(last, line.text.mid(from));
    }

    QPdfDocument &m_pdf;
    int m_page = 0;
    qint64 m_cost = 1;     // what one selection loads: the page's characters or glyph boxes
    qint64 m_pageWork = 0; // what the selections of this page loaded
    qint64 m_work = 0;     // and of the whole file
};

} // namespace

// Every page as the boxes of its text (pdftext.h), or where that would take too long, as its
// lines of text.
QByteArray extractPdfText(const QString &path)
{
    const QString &name = path;
    QPdfDocument pdf;
    openPdf(pdf, name);
    QByteArray payload;
    BoxedPages boxed(pdf);
    bool anyText = false;
    for (int page = 0; page < pdf.pageCount(); ++page) {
        const QPdfSelection selection = pdf.getAllText(page);
        const QString all = selection.text();
        anyText = anyText || !all.trimmed().isEmpty();
        payload += "page\n";
        if (const std::optional<QByteArray> boxes = boxed.page(page, selection, all))
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
