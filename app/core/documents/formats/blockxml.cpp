// A document's blocks as word-processor XML (blockxml.h).
#include "app/core/documents/formats/blockxml.h"

#include <algorithm>
#include <map>

namespace glosa::documents::formats {

namespace {

QByteArray escaped(const QByteArray &text)
{
    Segment plain;
    plain.text = text;
    return renderSegment(plain, TextEscaping::Xml);
}

// A segment's runs: its text (translated, else as read) with the footnote marks (spans whose
// markup is "<sup>…</sup>", empty) where the alignment put them.
QByteArray runsOf(const Segment &segment, const BlockXml &xml)
{
    QByteArray text = segment.text;
    std::vector<ByteRange> ranges;
    for (const InlineSpan &span : segment.spans)
        ranges.push_back(span.range);
    if (segment.translation) {
        SegmentTranslation translation = *segment.translation;
        ranges = projectSpans(segment, translation);
        text = translation.text;
    }
    std::multimap<qsizetype, QByteArray> marks;
    for (std::size_t i = 0; i < segment.spans.size() && i < ranges.size(); ++i) {
        const QByteArray &open = segment.spans[i].open;
        if (open.startsWith("<sup>") && open.endsWith("</sup>"))
            marks.insert({std::clamp<qsizetype>(ranges[i].end, 0, text.size()),
                          open.mid(5, open.size() - 11)});
    }
    QByteArray runs;
    qsizetype at = 0;
    for (const auto &[where, mark] : marks) {
        if (where > at)
            runs += xml.run(escaped(text.mid(at, where - at)));
        runs += xml.mark(mark); // already escaped: it was HTML
        at = std::max(at, where);
    }
    if (at < text.size() || runs.isEmpty())
        runs += xml.run(escaped(text.mid(at)));
    return runs;
}

class Walker
{
public:
    Walker(const Document &document, const BlockXml &xml)
        : m_doc(document), m_xml(xml), m_layout(describeLayout(document))
    {
    }

    QByteArray run()
    {
        for (std::size_t i = 0; i < m_layout.size(); ++i) {
            if (m_doc.segments[i].attribute)
                continue;
            const BlockRole &role = m_layout[i].role;
            if (role.kind == BlockRole::Kind::TableCell) {
                closeLists(0);
                i = table(i) - 1;
                continue;
            }
            if (role.kind == BlockRole::Kind::ListItem) {
                item(role);
                m_out += m_xml.paragraph(role, runsOf(m_doc.segments[i], m_xml));
                continue;
            }
            closeLists(0);
            m_out += m_xml.paragraph(role, runsOf(m_doc.segments[i], m_xml));
        }
        closeLists(0);
        return m_out;
    }

private:
    // Lists as elements: close the deeper ones, a new item at this level (a new list where the
    // kind changes), open lists down to it inside the current item.
    void item(const BlockRole &role)
    {
        if (!m_xml.listOpen)
            return;
        const std::size_t depth = std::size_t(std::clamp(role.level, 0, 8)) + 1;
        closeLists(depth);
        if (m_lists.size() == depth && m_lists.back() != role.ordered)
            closeLists(depth - 1);
        if (m_lists.size() == depth)
            m_out += m_xml.itemClose + m_xml.itemOpen;
        while (m_lists.size() < depth) {
            m_lists.push_back(role.ordered);
            m_out += m_xml.listOpen(role.ordered) + m_xml.itemOpen;
        }
    }
    void closeLists(std::size_t keep)
    {
        while (m_lists.size() > keep) {
            m_out += m_xml.itemClose + m_xml.listClose;
            m_lists.pop_back();
        }
    }

    // The table whose first cell is segment `first`, as a full grid; returns the segment after.
    std::size_t table(std::size_t first)
    {
        const int id = m_layout[first].role.table;
        std::map<std::pair<int, int>, QByteArray> cells;
        int rows = 0, columns = 0;
        std::size_t end = first;
        for (; end < m_layout.size() && m_layout[end].role.kind == BlockRole::Kind::TableCell &&
               m_layout[end].role.table == id;
             ++end) {
            const BlockRole &role = m_layout[end].role;
            rows = std::max(rows, role.row + 1);
            columns = std::max(columns, role.column + 1);
            cells[{role.row, role.column}] +=
                m_xml.paragraph(role, runsOf(m_doc.segments[end], m_xml));
        }
        // A grid mostly empty (cells far apart in a damaged file) is written as paragraphs, as
        // the Documents view shows it: a full grid could be millions of empty cells.
        if (qint64(rows) * columns > std::max<qint64>(256, 4 * qint64(cells.size()))) {
            for (const auto &[place, paragraph] : cells)
                m_out += paragraph;
            return end;
        }
        m_out += m_xml.tableOpen(columns);
        for (int row = 0; row < rows; ++row) {
            m_out += m_xml.rowOpen;
            for (int column = 0; column < columns; ++column) {
                const auto cell = cells.find({row, column});
                m_out += m_xml.cellOpen + (cell == cells.end() ? m_xml.emptyCell : cell->second) +
                         m_xml.cellClose;
            }
            m_out += m_xml.rowClose;
        }
        m_out += m_xml.tableClose;
        return end;
    }

    const Document &m_doc;
    const BlockXml &m_xml;
    const std::vector<SegmentLayout> m_layout;
    std::vector<bool> m_lists; // open lists, outermost first: numbered or not
    QByteArray m_out;
};

} // namespace

QByteArray blocksAsXml(const Document &document, const BlockXml &xml)
{
    return Walker(document, xml).run();
}

} // namespace glosa::documents::formats
