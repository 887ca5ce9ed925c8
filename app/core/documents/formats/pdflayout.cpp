// A PDF's headings, lists, tables and footnote markers from the boxes of its text (pdflayout.h).
#include "app/core/documents/formats/pdflayout.h"

#include "app/core/documents/formats/entrypoints.h"
#include "app/core/documents/formats/textlines.h"

#include <QRegularExpression>

#include <algorithm>
#include <cmath>
#include <optional>

namespace glosa::documents::formats {

namespace {

// A footnote's mark: after a word (raised, small) or before the note's own text.
const QRegularExpression kNoteMark(QStringLiteral("^(\\d{1,3}|[*\u2020\u2021\u00a7]{1,3})$"));
// A numbered list's marker set apart: "1.", "12)", "b.", "iv)".
const QRegularExpression kNumberMark(QStringLiteral("^(\\d{1,3}|[a-zA-Z]|[ivxIVX]{1,5})[.)]$"));
// The same at the start of a run's text, followed by the item's text.
const QRegularExpression kNumberPrefix(QStringLiteral("^(\\d{1,3}|[a-zA-Z])[.)]\\s+(?=\\p{Lu})"));

bool isBullet(const QString &text)
{
    static const QString bullets = QStringLiteral(
        "\u2022\u25e6\u25aa\u25ab\u25cf\u25cb\u25a0\u25a1\u2023\u2043\u2219\u00b7\u2013\u2014-*"
        "\u27a2\u2713\u2714\uf0b7\uf0a7\uf0d8");
    return text.size() == 1 && bullets.contains(text.front());
}

// The type size a box's height implies. pdfium's boxes are the glyphs' own, so a box is as tall
// as its tallest letter above the baseline and its deepest below. Measured on LibreOffice's PDFs
// (Liberation Serif and Sans; DejaVu is within a few percent): a capital or an ascender reaches
// 0.77 of the size above the baseline, an accented lower-case letter 0.81, an accented capital
// 0.90, an x 0.54; a descender 0.21 below.
qreal typeSize(const PdfBox &box)
{
    qreal reach = 0.54;
    bool deep = false;
    for (const QChar c : box.text) {
        if (c.unicode() > 0x7f && c.isLetter())
            reach = std::max(reach, c.isLower() ? 0.81 : 0.90);
        else if (c.isUpper() || c.isDigit() || QStringView(u"bdfhklt/()[]{}|!?'\"").contains(c))
            reach = std::max(reach, 0.77);
        if (QStringView(u"gjpqyQ,;()[]{}|@").contains(c))
            deep = true;
    }
    return box.height / (reach + (deep ? 0.21 : 0.0));
}

// Text with the footnote marks that were raised after its words, at UTF-16 offsets.
struct Marked
{
    QString text;
    std::vector<std::pair<qsizetype, QString>> notes;

    void append(const QString &more, bool spaced)
    {
        if (spaced && !text.isEmpty() && !more.isEmpty() && !text.back().isSpace() &&
            !more.front().isSpace())
            text += QLatin1Char(' ');
        text += more;
    }
    void append(const Marked &more, bool spaced)
    {
        if (more.text.isEmpty() && more.notes.empty())
            return;
        append(more.text, spaced);
        const qsizetype shift = text.size() - more.text.size();
        for (const auto &[at, mark] : more.notes)
            notes.push_back({at + shift, mark});
    }
};

struct Cell
{
    qreal left = 0, right = 0;
    Marked text;
};

// One row of a page's text: its runs side by side, in cells where wide gaps part them.
struct Line
{
    qreal top = 0, bottom = 0, size = 0;
    std::vector<Cell> cells;
    enum class Mark { None, Bullet, Number, Note } mark = Mark::None;
    QString markText;
    qreal markLeft = 0; // where the marker stands
    qreal left() const { return cells.front().left; }
    qreal right() const { return cells.back().right; }
};

bool sameRow(const PdfBox &box, qreal top, qreal bottom)
{
    const qreal middle = box.y + box.height / 2;
    return (middle >= top && middle <= bottom) ||
           ((top + bottom) / 2 >= box.y && (top + bottom) / 2 <= box.y + box.height);
}

// The boxes of a page in rows, each row's boxes from left to right.
std::vector<std::vector<PdfBox>> rowsOf(const PdfPage &page)
{
    std::vector<std::vector<PdfBox>> rows;
    qreal top = 0, bottom = 0;
    for (const PdfBox &box : page.boxes) {
        if (box.text.trimmed().isEmpty() || !(box.width > 0) || !(box.height > 0) ||
            !std::isfinite(box.x + box.y + box.width + box.height))
            continue;
        if (!rows.empty() && sameRow(box, top, bottom)) {
            rows.back().push_back(box);
            top = std::min(top, box.y);
            bottom = std::max(bottom, box.y + box.height);
        } else {
            rows.push_back({box});
            top = box.y;
            bottom = box.y + box.height;
        }
    }
    for (auto &row : rows)
        std::stable_sort(row.begin(), row.end(),
                         [](const PdfBox &a, const PdfBox &b) { return a.x < b.x; });
    return rows;
}

// A small, raised mark after a word, against the row's main run.
bool isRaisedMark(const PdfBox &box, const PdfBox &main)
{
    return kNoteMark.match(box.text.trimmed()).hasMatch() && box.height < 0.75 * main.height &&
           box.y + box.height < main.y + 0.7 * main.height;
}

// The row's cells: its runs, a new cell where the gap before a run is wider than a few spaces.
Line lineOf(const std::vector<PdfBox> &row)
{
    Line line;
    const PdfBox *main = &row.front();
    for (const PdfBox &box : row)
        if (box.text.trimmed().size() > main->text.trimmed().size())
            main = &box;
    line.size = typeSize(*main);
    line.top = main->y;
    line.bottom = main->y + main->height;
    const qreal cellGap = std::max(0.5 * line.size, 4.0);
    for (std::size_t i = 0; i < row.size(); ++i) {
        const PdfBox &box = row[i];
        if (i > 0 && isRaisedMark(box, *main) && !line.cells.back().text.text.isEmpty()) {
            Marked &text = line.cells.back().text;
            while (!text.text.isEmpty() && text.text.back().isSpace())
                text.text.chop(1);
            text.notes.push_back({text.text.size(), box.text.trimmed()});
            line.cells.back().right = std::max(line.cells.back().right, box.x + box.width);
            continue;
        }
        line.top = std::min(line.top, box.y);
        line.bottom = std::max(line.bottom, box.y + box.height);
        if (line.cells.empty() || box.x - line.cells.back().right > cellGap) {
            line.cells.push_back({box.x, box.x + box.width, {}});
            line.cells.back().text.text = box.text;
            while (!line.cells.back().text.text.isEmpty() &&
                   line.cells.back().text.text.front().isSpace())
                line.cells.back().text.text.remove(0, 1);
            continue;
        }
        Cell &cell = line.cells.back();
        const bool spaced = box.x - cell.right > 0.15 * line.size;
        cell.text.append(box.text, spaced);
        cell.right = std::max(cell.right, box.x + box.width);
    }
    for (Cell &cell : line.cells)
        cell.text.text = cell.text.text.trimmed(); // the marks sit before the trailing space
    return line;
}

// A list marker or a note's number at the start of the line, taken out of its text.
void findMark(Line &line)
{
    Cell &first = line.cells.front();
    const QString head = first.text.text;
    if (line.cells.size() >= 2 && first.text.notes.empty()) {
        const Line::Mark mark = isBullet(head)                       ? Line::Mark::Bullet
                                : kNumberMark.match(head).hasMatch() ? Line::Mark::Number
                                : kNoteMark.match(head).hasMatch()   ? Line::Mark::Note
                                                                     : Line::Mark::None;
        if (mark != Line::Mark::None) {
            line.mark = mark;
            line.markText = head;
            line.markLeft = first.left;
            line.cells.erase(line.cells.begin());
            return;
        }
    }
    qsizetype cut = 0;
    if (head.size() > 2 && isBullet(head.left(1)) && head.at(1).isSpace()) {
        line.mark = Line::Mark::Bullet;
        cut = 1;
    } else if (const QRegularExpressionMatch match = kNumberPrefix.match(head); match.hasMatch()) {
        line.mark = Line::Mark::Number;
        cut = match.capturedEnd();
    } else {
        return;
    }
    line.markText = head.left(cut).trimmed();
    line.markLeft = first.left;
    first.text.text = head.mid(cut).trimmed();
    for (auto &[at, mark] : first.text.notes)
        at = std::max<qsizetype>(0, at - (head.size() - first.text.text.size()));
}

// A marked line's cells are one text (a list item's text is not a table).
Marked joinedCells(const Line &line)
{
    Marked all;
    for (const Cell &cell : line.cells)
        all.append(cell.text, true);
    return all;
}

} // namespace

std::vector<PdfPage> parsePdfPages(const QByteArray &payload)
{
    std::vector<PdfPage> pages;
    for (const QByteArray &record : payload.split('\n')) {
        if (record == "page") {
            pages.emplace_back();
            continue;
        }
        if (pages.empty())
            continue;
        if (record.startsWith("text ")) {
            pages.back().lines << QString::fromUtf8(record.mid(5));
        } else if (record.startsWith("box ")) {
            const QList<QByteArray> fields = record.split(' ');
            if (fields.size() < 6)
                continue;
            PdfBox box;
            bool ok[4];
            box.x = fields[1].toDouble(&ok[0]);
            box.y = fields[2].toDouble(&ok[1]);
            box.width = fields[3].toDouble(&ok[2]);
            box.height = fields[4].toDouble(&ok[3]);
            if (!(ok[0] && ok[1] && ok[2] && ok[3]))
                continue;
            qsizetype at = 0;
            for (int field = 0; field < 5; ++field)
                at = record.indexOf(' ', at) + 1;
            box.text = QString::fromUtf8(record.mid(at));
            pages.back().boxes.push_back(std::move(box));
        }
    }
    return pages;
}

namespace {

// A block of the document being built: a heading, paragraph, list item, note or table.
struct Block
{
    enum class Kind { Paragraph, Heading, ListItem, Note, Table } kind = Kind::Paragraph;
    Marked text;
    int lines = 1;
    std::vector<qsizetype> breaks; // UTF-16 offsets of the spaces that were line breaks
    qreal size = 0;
    qreal left = 0, right = 0, textLeft = 0, lastTop = 0, lastRight = 0;
    int level = 0;
    bool ordered = false;
    QString mark;                                          // a note's number
    std::vector<std::vector<std::pair<int, Marked>>> rows; // a table's: (column, text)
    std::vector<qreal> columns;                            // and where its columns start
};

class Builder
{
public:
    explicit Builder(const std::vector<PdfPage> &pages) : m_pages(pages) {}

    std::vector<Block> run(const QString &name)
    {
        std::vector<std::vector<Line>> pageLines;
        std::vector<std::pair<qreal, qsizetype>> sizes; // (size, characters) of every line
        for (const PdfPage &page : m_pages) {
            std::vector<Line> lines;
            for (const auto &row : rowsOf(page)) {
                lines.push_back(lineOf(row));
                findMark(lines.back());
                qsizetype chars = 0;
                for (const Cell &cell : lines.back().cells)
                    chars += cell.text.text.size();
                if (lines.back().cells.empty() || chars == 0)
                    lines.pop_back();
                else
                    sizes.push_back({lines.back().size, chars});
            }
            pageLines.push_back(std::move(lines));
        }
        m_body = bodySize(sizes);
        m_pitch = usualPitch(pageLines);
        for (std::size_t page = 0; page < m_pages.size(); ++page) {
            // A paragraph, a list or a table goes on over a page break: a paragraph when its
            // last line ran to the edge and the page's first starts where its lines did.
            m_pageStart = m_blocks.size();
            if (m_pages[page].boxes.empty()) {
                m_open = m_carry = -1;
                plainPage(m_pages[page], name);
            } else {
                boxedPage(pageLines[page]);
            }
        }
        loneRows();
        rankHeadings();
        return std::move(m_blocks);
    }

private:
    // The body text's size: half of all characters are in lines of this size or smaller.
    static qreal bodySize(std::vector<std::pair<qreal, qsizetype>> sizes)
    {
        if (sizes.empty())
            return 12;
        std::sort(sizes.begin(), sizes.end());
        qsizetype total = 0, seen = 0;
        for (const auto &size : sizes)
            total += size.second;
        for (const auto &[size, chars] : sizes)
            if ((seen += chars) * 2 >= total)
                return size;
        return sizes.back().first;
    }

    bool isHeading(const Line &line) const
    {
        // 14 pt over 12 is 1.17; sizes read from boxes vary by a few percent.
        return line.mark == Line::Mark::None && line.size >= 1.12 * m_body;
    }
    qreal tolerance() const { return std::max(0.6 * m_body, 5.0); }

    void plainPage(const PdfPage &page, const QString &name)
    {
        QByteArray text = page.lines.join(QLatin1Char('\n')).toUtf8();
        if (text.trimmed().isEmpty())
            return;
        const Document plain = readTxt(text + '\n', name);
        for (const Segment &segment : plain.segments) {
            Block block;
            block.text.text = QString::fromUtf8(segment.text);
            block.lines = segment.lines;
            for (const qsizetype at : segment.breaks)
                block.breaks.push_back(QString::fromUtf8(segment.text.left(at)).size());
            block.size = m_body;
            m_blocks.push_back(std::move(block));
        }
    }

    // The usual distance from a line's top to the next one's, over the document: the lower
    // quartile of those between lines of one size (most lines are inside paragraphs), within
    // reason of the body's size. A document of a few lines says little: then no more than
    // single spacing.
    qreal usualPitch(const std::vector<std::vector<Line>> &pages) const
    {
        std::vector<qreal> pitches;
        for (const std::vector<Line> &lines : pages)
            for (std::size_t i = 1; i < lines.size(); ++i)
                if (lines[i].top > lines[i - 1].top &&
                    std::abs(lines[i].size - lines[i - 1].size) <= 0.15 * lines[i].size)
                    pitches.push_back(lines[i].top - lines[i - 1].top);
        std::sort(pitches.begin(), pitches.end());
        qreal usual = pitches.empty() ? 1.2 * m_body : pitches[pitches.size() / 4];
        if (pitches.size() < 8)
            usual = std::min(usual, 1.3 * m_body);
        return std::clamp(usual, 1.0 * m_body, 2.5 * m_body);
    }

    // The page's notes: a footnote (its number set apart, or text smaller than the body's) or
    // a page number, which the page's flow of text goes on past.
    bool isNote(const Line &line) const
    {
        if (line.mark == Line::Mark::Note || line.size < 0.9 * m_body)
            return true;
        const QString text = joinedCells(line).text;
        return std::all_of(text.begin(), text.end(), [](QChar c) { return c.isDigit(); });
    }
    bool onlyNotesAfter(const std::vector<Line> &lines, std::size_t from) const
    {
        return std::all_of(lines.begin() + qsizetype(from), lines.end(),
                           [this](const Line &line) { return isNote(line); });
    }

    // The block of this page the next page's first line or table may continue: its last one
    // that is not a note.
    int carried() const
    {
        for (std::size_t block = m_blocks.size(); block-- > m_pageStart;) {
            const Block &b = m_blocks[block];
            const bool digits = std::all_of(b.text.text.begin(), b.text.text.end(),
                                            [](QChar c) { return c.isDigit(); });
            if (b.kind == Block::Kind::Table ||
                (b.kind != Block::Kind::Note && b.size >= 0.9 * m_body && !digits))
                return int(block);
        }
        return -1;
    }

    void boxedPage(const std::vector<Line> &lines)
    {
        m_open = m_carry >= 0 && m_blocks[std::size_t(m_carry)].kind != Block::Kind::Table ? m_carry
                                                                                           : -1;
        for (std::size_t i = 0; i < lines.size();) {
            // A row alone at the page's end may be a table's first, the rest on the next page
            // (single rows left so are paragraphs again: loneRows()).
            if (const std::size_t rows = tableRows(lines, i);
                rows >= 2 || (rows == 1 && onlyNotesAfter(lines, i + 1))) {
                table(lines, i, rows);
                i += rows;
                continue;
            }
            place(lines[i]);
            ++i;
        }
        m_carry = carried();
    }

    // How many lines from `first` on make a table: rows of two cells or more whose cells start
    // where the first row's do (a new column may start in a later row), close together.
    std::size_t tableRows(const std::vector<Line> &lines, std::size_t first)
    {
        auto candidate = [&](std::size_t i) {
            return lines[i].mark == Line::Mark::None && lines[i].cells.size() >= 2;
        };
        if (!candidate(first))
            return 0;
        m_columns.clear();
        for (const Cell &cell : lines[first].cells)
            m_columns.push_back(cell.left);
        std::size_t end = first + 1;
        for (; end < lines.size() && candidate(end); ++end) {
            if (lines[end].top - lines[end - 1].top > 3 * std::max(lines[end].size, m_body))
                break;
            int matched = 0;
            for (const Cell &cell : lines[end].cells)
                matched += columnOf(cell.left) >= 0;
            if (matched < 2)
                break;
            for (const Cell &cell : lines[end].cells)
                if (columnOf(cell.left) < 0 && m_columns.size() < kMaxColumns) {
                    m_columns.push_back(cell.left);
                    std::sort(m_columns.begin(), m_columns.end());
                }
        }
        return end - first;
    }

    // More columns than a page can hold are runs that line up by chance.
    static constexpr std::size_t kMaxColumns = 32;

    int columnOf(qreal left) const
    {
        for (std::size_t c = 0; c < m_columns.size(); ++c)
            if (std::abs(m_columns[c] - left) <= tolerance())
                return int(c);
        return -1;
    }

    int nearestColumn(qreal left) const
    {
        int nearest = 0;
        for (std::size_t c = 1; c < m_columns.size(); ++c)
            if (std::abs(m_columns[c] - left) < std::abs(m_columns[std::size_t(nearest)] - left))
                nearest = int(c);
        return nearest;
    }

    void table(const std::vector<Line> &lines, std::size_t first, std::size_t rows)
    {
        endList();
        Block block;
        block.kind = Block::Kind::Table;
        block.size = m_body;
        block.columns = m_columns;
        for (std::size_t i = first; i < first + rows; ++i) {
            std::vector<std::pair<int, Marked>> row;
            for (const Cell &cell : lines[i].cells) {
                const int column = nearestColumn(cell.left);
                if (!row.empty() && row.back().first >= column)
                    row.back().second.append(cell.text, true);
                else
                    row.push_back({column, cell.text});
            }
            block.rows.push_back(std::move(row));
        }
        m_open = -1;
        // The rest of the table that ended the page before: the first block here, the same
        // columns.
        Block *carried = m_blocks.size() == m_pageStart && m_carry >= 0
                             ? &m_blocks[std::size_t(m_carry)]
                             : nullptr;
        if (carried && carried->kind == Block::Kind::Table &&
            carried->columns.size() == m_columns.size() &&
            std::equal(m_columns.begin(), m_columns.end(), carried->columns.begin(),
                       [this](qreal a, qreal b) { return std::abs(a - b) <= tolerance(); })) {
            for (auto &row : block.rows)
                carried->rows.push_back(std::move(row));
            return;
        }
        m_blocks.push_back(std::move(block));
    }

    // A line goes on the open block when it continues it, else it starts one.
    void place(const Line &line)
    {
        const Marked text = joinedCells(line);
        if (m_open >= 0 && continues(m_blocks[m_open], line)) {
            Block &open = m_blocks[m_open];
            open.breaks.push_back(open.text.text.size());
            open.text.append(text, true);
            ++open.lines;
            open.right = std::max(open.right, line.right());
            open.lastRight = line.right();
            open.lastTop = line.top;
            return;
        }
        Block block;
        block.text = text;
        block.size = line.size;
        block.left = block.textLeft = line.left();
        block.right = block.lastRight = line.right();
        block.lastTop = line.top;
        if (line.mark == Line::Mark::Bullet || line.mark == Line::Mark::Number) {
            block.kind = Block::Kind::ListItem;
            block.ordered = line.mark == Line::Mark::Number;
            block.level = listLevel(line.markLeft);
        } else {
            if (line.mark != Line::Mark::Note && line.size >= 0.9 * m_body)
                endList(); // a page's footnotes come between a list's items on two pages
            if (line.mark == Line::Mark::Note) {
                block.kind = Block::Kind::Note;
                block.mark = line.markText;
            } else if (isHeading(line)) {
                block.kind = Block::Kind::Heading;
            }
        }
        m_blocks.push_back(std::move(block));
        m_open = int(m_blocks.size()) - 1;
    }

    bool continues(const Block &block, const Line &line) const
    {
        if (line.mark != Line::Mark::None || block.kind == Block::Kind::Table)
            return false;
        const qreal pitch = line.top - block.lastTop;
        // Sizes read from boxes vary by a few percent with the letters a line holds.
        if (std::abs(line.size - block.size) > 0.15 * block.size)
            return false;
        const QByteArray last = block.text.text.right(4).toUtf8();
        if (m_blocks.size() == m_pageStart) // the page's first line, the block the last page's
            return (!endsSentence(last) ||
                    (block.lines > 1 && block.right - block.lastRight <= 2 * m_body)) &&
                   block.kind != Block::Kind::Heading && !isHeading(line) &&
                   std::abs(line.left() - block.textLeft) <= tolerance();
        if (pitch <= 0)
            return false;
        if (block.kind == Block::Kind::Heading)
            return pitch <= 1.6 * line.size;
        if (pitch > 1.4 * m_pitch || isHeading(line))
            return false;
        if (block.kind == Block::Kind::ListItem || block.kind == Block::Kind::Note)
            return std::abs(line.left() - block.textLeft) <= tolerance();
        // A line that ended a sentence well short of the column's right edge (the block's, or
        // this line's) ended a paragraph.
        return !(endsSentence(last) &&
                 std::max(block.right, line.right()) - block.lastRight > 2 * m_body);
    }

    // A table of one row is a line with a gap in it: a paragraph.
    void loneRows()
    {
        for (Block &block : m_blocks)
            if (block.kind == Block::Kind::Table && block.rows.size() == 1) {
                for (const auto &[column, text] : block.rows.front())
                    block.text.append(text, true);
                block.rows.clear();
                block.kind = Block::Kind::Paragraph;
            }
    }

    // Nested by where the marker stands: deeper than the list's last marker by more than the
    // tolerance is one level down, back at an earlier one's place is that level.
    int listLevel(qreal markLeft)
    {
        while (!m_markers.empty() && markLeft < m_markers.back() - tolerance())
            m_markers.pop_back();
        if (m_markers.empty() || markLeft > m_markers.back() + tolerance())
            m_markers.push_back(markLeft);
        return int(m_markers.size()) - 1;
    }
    void endList() { m_markers.clear(); }

    // Headings are ranked by size: the largest is level 1, sizes within 8% share a level.
    void rankHeadings()
    {
        std::vector<qreal> sizes;
        for (const Block &block : m_blocks)
            if (block.kind == Block::Kind::Heading)
                sizes.push_back(block.size);
        std::sort(sizes.begin(), sizes.end(), std::greater<>());
        std::vector<qreal> levels;
        for (const qreal size : sizes)
            if (levels.empty() || size < levels.back() * 0.92)
                levels.push_back(size);
        for (Block &block : m_blocks)
            if (block.kind == Block::Kind::Heading) {
                int level = 1;
                while (level < int(levels.size()) && block.size < levels[level - 1] * 0.92)
                    ++level;
                block.level = std::min(level, 6);
            }
    }

    const std::vector<PdfPage> &m_pages;
    std::vector<Block> m_blocks;
    int m_open = -1;             // the block the next line may continue
    std::size_t m_pageStart = 0; // the first block of the page being read
    int m_carry = -1;            // the last page's block that this page may continue (carried())
    qreal m_body = 12;
    qreal m_pitch = 14;
    std::vector<qreal> m_columns;
    std::vector<qreal> m_markers;
};

// The segment of a block's text: its footnote marks as empty spans whose markup is the mark.
Segment segmentOf(const Marked &text, int lines, const std::vector<qsizetype> &breaks)
{
    Segment segment;
    segment.text = text.text.toUtf8();
    const std::vector<qsizetype> bytes = utf16ToBytes(text.text);
    segment.lines = lines;
    for (const qsizetype at : breaks)
        segment.breaks.push_back(
            bytes[std::size_t(std::clamp<qsizetype>(at, 0, text.text.size()))]);
    for (const auto &[at, mark] : text.notes) {
        InlineSpan span;
        const qsizetype byte = bytes[std::size_t(std::clamp<qsizetype>(at, 0, text.text.size()))];
        span.range = {byte, byte};
        span.open = "<sup>" + mark.toHtmlEscaped().toUtf8() + "</sup>";
        segment.spans.push_back(std::move(span));
    }
    protectSpans(segment.text, segment.spans);
    return segment;
}

// The blocks as HTML around their segments; lists nest by level.
class Writer
{
public:
    explicit Writer(Document &doc) : m_doc(doc) {}

    void write(const std::vector<Block> &blocks)
    {
        m_doc.appendSkeleton("<!DOCTYPE html>\n<html>\n<head><meta charset=\"utf-8\"></head>\n"
                             "<body>\n");
        for (const Block &block : blocks) {
            if (block.kind != Block::Kind::ListItem)
                closeLists(0);
            switch (block.kind) {
            case Block::Kind::Heading: {
                const QByteArray level = QByteArray::number(std::clamp(block.level, 1, 6));
                wrap("<h" + level + ">", block, "</h" + level + ">\n");
                break;
            }
            case Block::Kind::ListItem:
                closeLists(std::size_t(block.level) + 1);
                if (m_lists.size() == std::size_t(block.level) + 1 &&
                    m_lists.back() != block.ordered)
                    closeLists(std::size_t(block.level));
                while (m_lists.size() < std::size_t(block.level) + 1) {
                    m_lists.push_back(block.ordered);
                    m_doc.appendSkeleton(block.ordered ? "<ol>\n" : "<ul>\n");
                }
                wrap("<li>", block, "</li>\n");
                break;
            case Block::Kind::Note:
                wrap("<p class=\"footnote\"><sup>" + block.mark.toHtmlEscaped().toUtf8() +
                         "</sup> ",
                     block, "</p>\n");
                break;
            case Block::Kind::Table:
                table(block);
                break;
            case Block::Kind::Paragraph:
                wrap("<p>", block, "</p>\n");
                break;
            }
        }
        closeLists(0);
        m_doc.appendSkeleton("</body>\n</html>\n");
    }

private:
    void wrap(const QByteArray &open, const Block &block, const QByteArray &close)
    {
        m_doc.appendSkeleton(open);
        m_doc.appendSegment(segmentOf(block.text, block.lines, block.breaks));
        m_doc.appendSkeleton(close);
    }

    void closeLists(std::size_t keep)
    {
        while (m_lists.size() > keep) {
            m_doc.appendSkeleton(m_lists.back() ? "</ol>\n" : "</ul>\n");
            m_lists.pop_back();
        }
    }

    void table(const Block &block)
    {
        int columns = 0;
        for (const auto &row : block.rows)
            for (const auto &[column, text] : row)
                columns = std::max(columns, column + 1);
        m_doc.appendSkeleton("<table>\n");
        for (const auto &row : block.rows) {
            m_doc.appendSkeleton("<tr>");
            auto cell = row.begin();
            for (int column = 0; column < columns; ++column) {
                m_doc.appendSkeleton("<td>");
                if (cell != row.end() && cell->first == column)
                    m_doc.appendSegment(segmentOf((cell++)->second, 1, {}));
                m_doc.appendSkeleton("</td>");
            }
            m_doc.appendSkeleton("</tr>\n");
        }
        m_doc.appendSkeleton("</table>\n");
    }

    Document &m_doc;
    std::vector<bool> m_lists; // the open lists, outermost first: numbered or not
};

} // namespace

Document pdfDocument(const std::vector<PdfPage> &pages, const QString &name)
{
    const std::vector<Block> blocks = Builder(pages).run(name);
    Document doc;
    doc.format = QStringLiteral("pdf");
    doc.escaping = TextEscaping::Xml;
    Writer(doc).write(blocks);
    if (doc.segments.empty())
        throw DocumentError(QStringLiteral("%1 has no text to translate (a scanned PDF needs text "
                                           "recognition first)")
                                .arg(name));
    return doc;
}

} // namespace glosa::documents::formats
