#include "app/core/documents/layout.h"

#include "app/core/documents/formats/markup.h"

#include <QHash>

#include <algorithm>
#include <cctype>

namespace glosa::documents {

namespace {

bool isBlank(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

// One start or end tag: its lower-case name ("w:pstyle", "text:list-item", "td") and its bytes.
struct Tag
{
    QByteArray name;
    QByteArray raw;
    bool closing = false;
    bool selfClosing = false;

    // The value of attribute `attribute` (lower case), empty when absent.
    QByteArray value(const char *attribute) const
    {
        const QByteArray lower = raw.toLower();
        const QByteArray key(attribute);
        for (qsizetype at = lower.indexOf(key); at >= 0; at = lower.indexOf(key, at + 1)) {
            qsizetype k = at + key.size();
            if (at == 0 || !isBlank(lower[at - 1]))
                continue;
            while (k < lower.size() && isBlank(lower[k]))
                ++k;
            if (k >= lower.size() || lower[k] != '=')
                continue;
            ++k;
            while (k < lower.size() && isBlank(lower[k]))
                ++k;
            if (k >= lower.size() || (lower[k] != '"' && lower[k] != '\''))
                return {};
            const qsizetype end = lower.indexOf(lower[k], k + 1);
            return end < 0 ? QByteArray() : raw.mid(k + 1, end - k - 1);
        }
        return {};
    }
};

// Calls `onTag` for every tag of `bytes`, skipping comments, declarations and the content of
// HTML's raw elements (<script>, <style>), which may hold text that looks like tags. A tag that
// `bytes` does not close is a tag whose attribute value is a segment (alt, title): the rest of
// it comes after the segment's slot. It is reported with what is there (its name), and the
// rest, which holds no tag, is not read again: a tag of 20,000 translated attributes would
// otherwise be read 20,000 times. Linear in `bytes`.
template <typename OnTag> void forEachTag(const QByteArray &bytes, OnTag onTag)
{
    const qsizetype n = bytes.size();
    QByteArray lower; // made once, at the first raw element
    qsizetype i = bytes.indexOf('<');
    while (i >= 0 && i < n) {
        qsizetype next = i + 1;
        if (bytes.mid(i, 4) == "<!--") {
            const qsizetype end = bytes.indexOf("-->", i + 4);
            next = end < 0 ? n : end + 3;
        } else if (i + 1 < n && (bytes[i + 1] == '!' || bytes[i + 1] == '?')) {
            const qsizetype end = bytes.indexOf('>', i);
            next = end < 0 ? n : end + 1;
        } else {
            const bool closing = i + 1 < n && bytes[i + 1] == '/';
            qsizetype k = i + (closing ? 2 : 1);
            const qsizetype nameStart = k;
            while (k < n && (std::isalnum(uchar(bytes[k])) || bytes[k] == ':' || bytes[k] == '-' ||
                             bytes[k] == '_'))
                ++k;
            if (k > nameStart) {
                const qsizetype end = formats::tagEnd(bytes, i);
                Tag tag{bytes.mid(nameStart, k - nameStart).toLower(),
                        bytes.mid(i, end < 0 ? n - i : end - i), closing,
                        end > 0 && bytes[end - 2] == '/'};
                next = end < 0 ? n : end;
                if (!closing && end > 0 && (tag.name == "script" || tag.name == "style")) {
                    if (lower.isEmpty())
                        lower = bytes.toLower();
                    const qsizetype close = lower.indexOf("</" + tag.name, end);
                    next = close < 0 ? n : close;
                }
                onTag(tag);
            }
        }
        i = next < n ? bytes.indexOf('<', next) : -1;
    }
}

bool isOff(const QByteArray &value)
{
    const QByteArray v = value.toLower();
    return v == "0" || v == "false" || v == "off" || v == "none";
}

// What an ODF <style:text-properties> makes of text.
int odfTextStyles(const Tag &tag)
{
    int styles = 0;
    const QByteArray weight = tag.value("fo:font-weight").toLower();
    if (weight == "bold" || weight.toInt() >= 600)
        styles |= Bold;
    const QByteArray style = tag.value("fo:font-style").toLower();
    if (style == "italic" || style == "oblique")
        styles |= Italic;
    const QByteArray underline = tag.value("style:text-underline-style");
    if (!underline.isEmpty() && !isOff(underline))
        styles |= Underline;
    const QByteArray strike = tag.value("style:text-line-through-style");
    if (!strike.isEmpty() && !isOff(strike))
        styles |= StrikeOut;
    return styles;
}

// The styles a span's markup gives its text: HTML (and subtitle) tags, Word's run properties,
// ODF's spans (through the automatic styles read so far) and links.
int tagStyles(const QByteArray &open, const QHash<QByteArray, int> &odfStyles)
{
    int styles = 0;
    forEachTag(open, [&](const Tag &tag) {
        if (tag.closing)
            return;
        const QByteArray &name = tag.name;
        // HTML written by office suites and editors styles inline: <span style="font-weight:
        // bold">. Any element's style counts.
        if (const QByteArray css = tag.value("style").toLower().replace(' ', ""); !css.isEmpty()) {
            if (css.contains("font-weight:bold") || css.contains("font-weight:600") ||
                css.contains("font-weight:700") || css.contains("font-weight:800") ||
                css.contains("font-weight:900"))
                styles |= Bold;
            if (css.contains("font-style:italic") || css.contains("font-style:oblique"))
                styles |= Italic;
            if (css.contains("underline"))
                styles |= Underline;
            if (css.contains("line-through"))
                styles |= StrikeOut;
        }
        if (name == "b" || name == "strong")
            styles |= Bold;
        else if (name == "i" || name == "em" || name == "cite" || name == "dfn" || name == "var")
            styles |= Italic;
        else if (name == "u" || name == "ins")
            styles |= Underline;
        else if (name == "s" || name == "strike" || name == "del")
            styles |= StrikeOut;
        else if (name == "code" || name == "kbd" || name == "samp" || name == "tt")
            styles |= Code;
        else if ((name == "a" && !tag.value("href").isEmpty()) || name == "text:a" ||
                 name == "w:hyperlink")
            styles |= Link;
        else if (name == "w:b" || name == "w:i" || name == "w:strike" || name == "w:dstrike" ||
                 name == "w:u") {
            if (isOff(tag.value("w:val"))) // <w:b w:val="0"/>, <w:u w:val="none"/>
                return;
            styles |= name == "w:b"   ? Bold
                      : name == "w:i" ? Italic
                      : name == "w:u" ? Underline
                                      : StrikeOut;
        } else if (name == "w:rstyle") {
            // LibreOffice's and Word's character styles for the same things.
            const QByteArray style = tag.value("w:val").toLower();
            if (style == "strong" || style == "strongemphasis")
                styles |= Bold;
            else if (style == "emphasis")
                styles |= Italic;
            else if (style.contains("link"))
                styles |= Link;
        } else if (name == "text:span") {
            const QByteArray style = tag.value("text:style-name");
            styles |= odfStyles.value(style);
            // LibreOffice's common styles, defined in styles.xml rather than beside the text.
            if (style == "Strong_20_Emphasis")
                styles |= Bold;
            else if (style == "Emphasis")
                styles |= Italic;
        }
    });
    return styles;
}

// Markdown's emphasis, code and link markers (markdownSegment's spans), and inline HTML.
int markdownStyles(const QByteArray &open)
{
    if (open.startsWith('<'))
        return tagStyles(open, {});
    if (open.startsWith('`'))
        return Code;
    if (open.startsWith('['))
        return Link;
    if (open.startsWith("~~"))
        return StrikeOut;
    if (open.startsWith("***") || open.startsWith("___"))
        return Bold | Italic;
    if (open.startsWith("**") || open.startsWith("__"))
        return Bold;
    if (open.startsWith('*') || open.startsWith('_'))
        return Italic;
    return 0;
}

class Describer
{
public:
    explicit Describer(const Document &document)
        : m_doc(document), m_layout(document.segments.size()),
          m_markdown(document.format == QLatin1String("md"))
    {
    }

    std::vector<SegmentLayout> run() &&
    {
        // A PDF is read as HTML of the structure its boxes show (formats/pdflayout.h).
        const bool tagged = m_doc.format == QLatin1String("html") ||
                            m_doc.format == QLatin1String("pdf") ||
                            m_doc.format == QLatin1String("odt") ||
                            m_doc.format == QLatin1String("docx");
        QByteArray skeleton; // since the last slot
        for (const Document::Part &part : m_doc.parts) {
            if (!part.entry.isEmpty()) {
                newEntry();
                skeleton.clear();
            }
            if (part.segment < 0) {
                skeleton += part.bytes;
                continue;
            }
            if (tagged)
                readTags(skeleton);
            else if (m_markdown)
                readLines(skeleton);
            skeleton.clear();
            if (std::size_t(part.segment) < m_layout.size())
                slot(part.segment, tagged       ? taggedRole()
                                   : m_markdown ? markdownRole()
                                                : BlockRole());
        }
        return std::move(m_layout);
    }

private:
    struct Table
    {
        int id = -1;
        int row = -1;
        int column = -1;
        int repeated = 0; // ODF cells the last one stands for besides itself
        bool inCell = false;
    };
    struct List
    {
        bool ordered = false;
        bool inItem = false;
    };

    void newEntry()
    {
        // Tags do not cross archive entries; table numbers go on.
        m_tables.clear();
        m_lists.clear();
        m_heading = 0;
        m_wordHeading = 0;
        m_wordList = -1;
        m_odfStyles.clear();
        m_odfStyleName.clear();
        m_listStyleName.clear();
        m_indent = 0;
        m_prefix.clear();
        m_started = false;
        m_pipes = 0;
        m_previous = 0;
        m_lastCell = BlockRole();
    }

    // Segment `index` (and its nested segments) is at a slot with `role`.
    void slot(int index, const BlockRole &role)
    {
        SegmentLayout &layout = m_layout[std::size_t(index)];
        layout.role = role;
        const Segment &segment = m_doc.segments[std::size_t(index)];
        for (std::size_t s = 0; s < segment.spans.size(); ++s) {
            const InlineSpan &span = segment.spans[s];
            if (span.range.size() > 0 && !span.open.isEmpty()) {
                const int styles =
                    m_markdown ? markdownStyles(span.open) : tagStyles(span.open, m_odfStyles);
                // Word writes a link's run inside its <w:hyperlink>: one stretch, not two.
                if (styles != 0 && !layout.styles.empty() &&
                    layout.styles.back().range == span.range)
                    layout.styles.back().styles |= styles;
                else if (styles != 0)
                    layout.styles.push_back({span.range, styles, int(s)});
            }
            for (const NestedSegment &nested : span.nested)
                if (nested.segment >= 0 && std::size_t(nested.segment) < m_layout.size() &&
                    nested.segment != index)
                    slot(nested.segment,
                         role.kind == BlockRole::Kind::TableCell ? role : BlockRole());
        }
    }

    // HTML, OpenDocument and Word: the tags before the slot update where we are.
    void readTags(const QByteArray &bytes)
    {
        forEachTag(bytes, [this](const Tag &tag) { onTag(tag); });
    }

    void onTag(const Tag &tag)
    {
        if (!tableTag(tag) && !headingOrListTag(tag))
            propertiesTag(tag);
    }

    // A table, row or cell tag: where in which table we are. False for any other tag.
    bool tableTag(const Tag &tag)
    {
        const QByteArray &name = tag.name;
        const bool start = !tag.closing;
        if (name == "table" || name == "table:table" || name == "w:tbl") {
            if (start && !tag.selfClosing)
                m_tables.push_back({m_tables.empty() ? m_nextTable++ : -1});
            else if (tag.closing && !m_tables.empty())
                m_tables.pop_back();
            if (m_tables.empty())
                m_lastCell = BlockRole();
        } else if (name == "tr" || name == "table:table-row" || name == "w:tr") {
            if (start && !m_tables.empty()) {
                Table &table = m_tables.back();
                ++table.row;
                table.column = -1;
                table.repeated = 0;
                table.inCell = false;
            }
        } else if (name == "td" || name == "th" || name == "table:table-cell" ||
                   name == "table:covered-table-cell" || name == "w:tc") {
            if (m_tables.empty())
                return true;
            Table &table = m_tables.back();
            if (start) {
                table.row = std::max(table.row, 0);
                table.column += 1 + table.repeated;
                const int repeated = tag.value("table:number-columns-repeated").toInt();
                table.repeated = std::max(0, repeated - 1);
                table.inCell = !tag.selfClosing;
            } else {
                table.inCell = false;
            }
        } else {
            return false;
        }
        return true;
    }

    // An HTML or OpenDocument heading, list or list item tag. False for any other tag.
    bool headingOrListTag(const Tag &tag)
    {
        const QByteArray &name = tag.name;
        const bool start = !tag.closing;
        if ((name.size() == 2 && name[0] == 'h' && name[1] >= '1' && name[1] <= '6') ||
            name == "text:h") {
            if (start && !tag.selfClosing)
                m_heading = name == "text:h"
                                ? std::clamp(tag.value("text:outline-level").toInt(), 1, 6)
                                : name[1] - '0';
            else
                m_heading = 0;
        } else if (name == "ul" || name == "ol" || name == "text:list") {
            if (start && !tag.selfClosing) {
                bool ordered = name == "ol";
                if (name == "text:list") {
                    const QByteArray style = tag.value("text:style-name");
                    ordered = m_orderedLists.contains(style)
                                  ? m_orderedLists.value(style)
                                  : !m_lists.empty() && m_lists.back().ordered;
                }
                m_lists.push_back({ordered, false});
            } else if (tag.closing && !m_lists.empty()) {
                m_lists.pop_back();
            }
        } else if (name == "li" || name == "text:list-item" || name == "text:list-header") {
            if (!m_lists.empty())
                m_lists.back().inItem = start && !tag.selfClosing;
        } else {
            return false;
        }
        return true;
    }

    // Word's paragraph properties (its heading and list levels) and OpenDocument's styles (which
    // text styles are bold or italic, which list styles are numbered).
    void propertiesTag(const Tag &tag)
    {
        const QByteArray &name = tag.name;
        const bool start = !tag.closing;
        if (name == "w:p") {
            if (start) { // a paragraph's properties start afresh
                m_wordHeading = 0;
                m_wordList = -1;
            }
        } else if (name == "w:pstyle" && start) {
            const QByteArray style = tag.value("w:val").toLower();
            if (style == "title")
                m_wordHeading = 1;
            else if (style.startsWith("heading") && style.size() > 7)
                m_wordHeading = std::clamp(style.mid(7).toInt(), 1, 6);
        } else if (name == "w:outlinelvl" && start) {
            m_wordHeading = std::clamp(tag.value("w:val").toInt() + 1, 1, 6);
        } else if (name == "w:numpr" && start) {
            m_wordList = std::max(m_wordList, 0);
        } else if (name == "w:ilvl" && start) {
            m_wordList = std::max(0, tag.value("w:val").toInt());
        } else if (name == "style:style" && start) {
            m_odfStyleName = tag.value("style:name");
        } else if (name == "style:text-properties" && start && !m_odfStyleName.isEmpty()) {
            m_odfStyles[m_odfStyleName] |= odfTextStyles(tag);
        } else if (name == "text:list-style" && start) {
            m_listStyleName = tag.value("style:name");
        } else if ((name == "text:list-level-style-number" ||
                    name == "text:list-level-style-bullet") &&
                   start && tag.value("text:level") == "1" && !m_listStyleName.isEmpty()) {
            m_orderedLists[m_listStyleName] = name == "text:list-level-style-number";
        }
    }

    BlockRole taggedRole()
    {
        BlockRole role;
        if (!m_tables.empty()) {
            const Table &outer = m_tables.front();
            if (outer.inCell || m_tables.size() > 1) {
                role.kind = BlockRole::Kind::TableCell;
                role.table = outer.id;
                role.row = std::max(outer.row, 0);
                role.column = std::max(outer.column, 0);
                m_lastCell = role;
            } else if (m_lastCell.table == outer.id) {
                role = m_lastCell; // between cells (a row's attribute): kept in the table
            }
            return role;
        }
        const int heading = m_heading > 0 ? m_heading : m_wordHeading;
        if (heading > 0) {
            role.kind = BlockRole::Kind::Heading;
            role.level = heading;
        } else if (!m_lists.empty() && m_lists.back().inItem) {
            role.kind = BlockRole::Kind::ListItem;
            role.level = int(m_lists.size()) - 1;
            role.ordered = m_lists.back().ordered;
        } else if (m_wordList >= 0) {
            role.kind = BlockRole::Kind::ListItem;
            role.level = m_wordList;
        }
        return role;
    }

    // Markdown: the line so far (its indentation, its first bytes and its pipes before the slot)
    // says what the segment is. Kept as counts and a short prefix, not the line: a table row of
    // 20,000 cells is 20,000 slots on one line.
    void readLines(const QByteArray &bytes)
    {
        for (const char c : bytes) {
            if (c == '\n') {
                m_previousLineWasTable = m_prefix.startsWith('|');
                m_indent = 0;
                m_prefix.clear();
                m_started = false;
                m_pipes = 0;
                m_previous = 0;
                ++m_lineNumber;
                continue;
            }
            if (!m_started && isBlank(c)) {
                m_indent += c == '\t' ? 4 : 1;
                continue;
            }
            m_started = true;
            if (m_prefix.size() < kPrefixBytes)
                m_prefix += c;
            if (c == '|' && m_previous != '\\')
                ++m_pipes;
            m_previous = c;
        }
    }

    BlockRole markdownRole()
    {
        BlockRole role;
        const QByteArray line = m_prefix;
        // The segment is the line's text from here: later slots of the line are table cells.
        m_started = true;
        if (m_prefix.size() < kPrefixBytes)
            m_prefix += '\x01';
        if (line.startsWith('|')) {
            if (m_lineNumber != m_cellLine) {
                // A row of the table above when the line before is one of its lines (a row or
                // the rule under the header), else a new table.
                if (m_previousLineWasTable && m_cellLine >= 0) {
                    ++m_mdRow;
                } else {
                    m_mdRow = 0;
                    m_mdTable = m_nextTable++;
                }
                m_cellLine = m_lineNumber;
            }
            role.kind = BlockRole::Kind::TableCell;
            role.table = m_mdTable;
            role.row = m_mdRow;
            role.column = std::max(0, m_pipes - 1);
            return role;
        }
        m_cellLine = -1;
        qsizetype hashes = 0;
        while (hashes < line.size() && line[hashes] == '#')
            ++hashes;
        if (hashes >= 1 && hashes <= 6 && hashes < line.size() && isBlank(line[hashes])) {
            role.kind = BlockRole::Kind::Heading;
            role.level = int(hashes);
            return role;
        }
        qsizetype k = 0;
        while (k < line.size() && (line[k] == '>' || isBlank(line[k])))
            ++k; // block quote markers
        const char c = k < line.size() ? line[k] : 0;
        if (c == '-' || c == '*' || c == '+') {
            role.kind = BlockRole::Kind::ListItem;
        } else if (std::isdigit(uchar(c))) {
            role.kind = BlockRole::Kind::ListItem;
            role.ordered = true;
        }
        if (role.kind == BlockRole::Kind::ListItem)
            role.level = std::min(m_indent / 2, 8);
        return role;
    }

    const Document &m_doc;
    std::vector<SegmentLayout> m_layout;
    const bool m_markdown;
    int m_nextTable = 0;
    // HTML, OpenDocument, Word
    std::vector<Table> m_tables;
    std::vector<List> m_lists;
    BlockRole m_lastCell;
    int m_heading = 0;                      // inside <hN> or <text:h>
    int m_wordHeading = 0;                  // the <w:p> being read has a heading style
    int m_wordList = -1;                    // the <w:p> being read is a list item at this level
    QHash<QByteArray, int> m_odfStyles;     // automatic text style → TextStyle flags
    QHash<QByteArray, bool> m_orderedLists; // ODF list style → numbered
    QByteArray m_odfStyleName;              // the <style:style> being read
    QByteArray m_listStyleName;             // the <text:list-style> being read
    // Markdown
    static constexpr qsizetype kPrefixBytes = 64; // of a line: markers, quotes, hashes
    int m_indent = 0;                             // the line's leading blank columns (a tab is 4)
    QByteArray m_prefix;    // its first bytes from the first that is not blank
    bool m_started = false; // past its indentation
    int m_pipes = 0;        // its pipes so far, not counting "\|"
    char m_previous = 0;
    int m_lineNumber = 0;
    bool m_previousLineWasTable = false;
    int m_cellLine = -1; // the line of the last table cell
    int m_mdTable = -1;
    int m_mdRow = -1;
};

} // namespace

std::vector<SegmentLayout> describeLayout(const Document &document)
{
    return Describer(document).run();
}

} // namespace glosa::documents
