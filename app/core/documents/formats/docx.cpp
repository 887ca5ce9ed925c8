// Word (WordprocessingML): the paragraphs of the document, notes, headers and footers; runs
// become tile spans so that their formatting is split over the translation (formats.h).
#include "app/core/documents/formats/blockxml.h"
#include "app/core/documents/formats/entrypoints.h"
#include "app/core/documents/formats/markup.h"
#include "app/core/documents/formats/textlines.h"
#include "app/core/limits.h"

#include <QRegularExpression>

#include <algorithm>
#include <memory>

namespace glosa::documents::formats {

namespace {

QByteArray tagNameAt(const QByteArray &raw, qsizetype i)
{
    qsizetype k = i + 1;
    if (k < raw.size() && raw[k] == '/')
        ++k;
    const qsizetype start = k;
    while (k < raw.size() && !isSpace(raw[k]) && raw[k] != '>' && raw[k] != '/')
        ++k;
    return raw.mid(start, k - start);
}

// The end of the element whose start tag is at `i` (just after its end tag), or -1.
qsizetype elementEnd(const QByteArray &raw, qsizetype i)
{
    qsizetype end = tagEnd(raw, i);
    if (end < 0 || raw[end - 2] == '/')
        return end;
    int depth = 1;
    while (depth > 0) {
        const qsizetype next = raw.indexOf('<', end);
        if (next < 0)
            return -1;
        end = tagEnd(raw, next);
        if (end < 0)
            return -1;
        if (raw[next + 1] == '/')
            --depth;
        else if (raw[next + 1] != '?' && raw[next + 1] != '!' && raw[end - 2] != '/')
            ++depth;
    }
    return end;
}

// The first start tag named `name` in [from, to), or -1; `unclosed` is set to where a tag
// without its '>' starts (all that follows is inside it), else -1. Tags are found as
// elementEnd() finds them, from the end of one to the next '<' with quotes respected, so that
// every part of the reader agrees on what the elements are: a search for the bytes "<w:p" also
// finds them inside an attribute value, where the paragraph around them sees no element, and
// what was written back from the one reading no longer parsed as it had.
qsizetype findStartTag(const QByteArray &raw, QByteArrayView name, qsizetype from, qsizetype to,
                       qsizetype *unclosed = nullptr)
{
    if (unclosed)
        *unclosed = -1;
    qsizetype k = from;
    while (true) {
        const qsizetype next = raw.indexOf('<', k);
        if (next < 0 || next >= to)
            return -1;
        if (next + 1 < raw.size() && raw[next + 1] != '/' && tagNameAt(raw, next) == name)
            return next;
        k = tagEnd(raw, next);
        if (k < 0) {
            if (unclosed)
                *unclosed = next;
            return -1;
        }
    }
}

QByteArray decodeXmlText(const QByteArray &raw)
{
    QByteArray out;
    for (qsizetype i = 0; i < raw.size(); ++i) {
        if (raw[i] == '&') {
            const qsizetype semicolon = raw.indexOf(';', i);
            if (semicolon > i) {
                const QByteArray decoded = decodeEntity(raw.mid(i + 1, semicolon - i - 1));
                if (!decoded.isEmpty()) {
                    out += decoded;
                    i = semicolon;
                    continue;
                }
            }
        }
        out += raw[i];
    }
    return out;
}

// Word paragraphs (<w:p>) of one part (document, footnotes, endnotes, headers, footers) as
// segments. A text run becomes one tile span per <w:t> (the run's properties repeated), so the
// translation can be split among the source's runs by the alignment; hyperlinks (and smart tags,
// tracked insertions) are spans around their runs; anything else inside the paragraph (tabs,
// breaks, bookmarks, fields, drawings) is kept whole at its place. A text box (<w:txbxContent>,
// in DrawingML and in its VML fallback) is kept whole too, its paragraphs read as nested
// segments.
class DocxReader
{
public:
    // `boxes`: how many text boxes this markup is nested in.
    DocxReader(const QByteArray &xml, Document &doc, int boxes = 0)
        : m_xml(xml), m_doc(doc), m_boxes(boxes)
    {
        if (boxes > limits::kMaxBoxDepth)
            throw DocumentError(QStringLiteral("text boxes nest deeper than the limit of %1")
                                    .arg(limits::kMaxBoxDepth));
    }

    void read()
    {
        qsizetype i = 0;
        while (i < m_xml.size()) {
            qsizetype unclosed = -1;
            const qsizetype p = findStartTag(m_xml, "w:p", i, m_xml.size(), &unclosed);
            if (unclosed >= 0)
                throw DocumentError(
                    QStringLiteral("the tag '<%1' at offset %2 is not closed with '>'")
                        .arg(QString::fromUtf8(tagNameAt(m_xml, unclosed)))
                        .arg(unclosed));
            if (p < 0) {
                m_doc.appendSkeleton(m_xml.mid(i));
                return;
            }
            m_doc.appendSkeleton(m_xml.mid(i, p - i));
            const qsizetype end = elementEnd(m_xml, p);
            if (end < 0)
                throw DocumentError(QStringLiteral("a <w:p> at offset %1 is not closed").arg(p));
            paragraph(m_xml.mid(p, end - p));
            i = end;
        }
    }

private:
    void paragraph(const QByteArray &raw)
    {
        const qsizetype open = tagEnd(raw, 0);
        const qsizetype close = raw.lastIndexOf("</w:p>");
        if (raw[open - 2] == '/' || close < open ||
            (findStartTag(raw, "w:p", open, raw.size()) >= 0 &&
             findStartTag(raw, "w:txbxContent", 0, raw.size()) < 0)) {
            m_doc.appendSkeleton(raw);
            return;
        }
        m_segment = Segment();
        m_items.clear();
        children(raw, open, close, 1);
        // Leading and trailing items without text stay outside the segment.
        std::size_t first = 0, last = m_items.size();
        while (first < last && !m_items[first].text)
            ++first;
        while (last > first && !m_items[last - 1].text)
            --last;
        const bool boxes = std::any_of(m_items.begin(), m_items.end(),
                                       [](const Item &item) { return item.inner != nullptr; });
        if (first == last) {
            if (!boxes) {
                m_doc.appendSkeleton(raw);
            } else {
                m_doc.appendSkeleton(raw.left(open));
                appendOutside(0, m_items.size());
                m_doc.appendSkeleton(raw.mid(close));
            }
            return;
        }
        m_doc.appendSkeleton(raw.left(open));
        appendOutside(0, first);
        readItems(first, last);
        protectSpans(m_segment.text, m_segment.spans);
        m_doc.appendSegment(std::move(m_segment));
        appendOutside(last, m_items.size());
        m_doc.appendSkeleton(raw.mid(close));
    }

    // Items outside the segment: skeleton, but a text box keeps its paragraphs' slots.
    void appendOutside(std::size_t from, std::size_t to)
    {
        for (std::size_t k = from; k < to; ++k) {
            if (m_items[k].inner)
                m_doc.appendParts(Document(*m_items[k].inner));
            else
                m_doc.appendSkeleton(m_items[k].raw);
        }
    }

    // Items [first, last) as the segment's text and spans. Containers (<w:hyperlink>) opened or
    // closed outside [first, last) stay whole there.
    void readItems(std::size_t first, std::size_t last)
    {
        std::vector<std::pair<qsizetype, std::size_t>> containers; // text position, item
        int order = 0;
        for (std::size_t k = first; k < last; ++k) {
            const Item &item = m_items[k];
            const qsizetype at = m_segment.text.size();
            ++order;
            if (item.kind == Item::Text) {
                m_segment.text += item.decoded;
                m_segment.spans.push_back(
                    {{at, m_segment.text.size()}, item.raw, item.close, false, order, order, true});
            } else if (item.kind == Item::ContainerOpen) {
                containers.push_back({at, k});
                m_segment.spans.push_back({{at, at}, item.raw, {}, false, order, order});
                containers.back().second = m_segment.spans.size() - 1;
            } else if (item.kind == Item::ContainerClose && !containers.empty()) {
                InlineSpan &span = m_segment.spans[containers.back().second];
                span.range.end = at;
                span.close = item.raw;
                span.closeOrder = order;
                containers.pop_back();
            } else if (item.inner) {
                InlineSpan span{{at, at}, {}, {}, false, order, order};
                m_doc.nestInto(Document(*item.inner), span);
                m_segment.spans.push_back(std::move(span));
            } else {
                m_segment.spans.push_back({{at, at}, item.raw, {}, false, order, order});
                if (item.separates && !m_segment.text.isEmpty() && !m_segment.text.endsWith(' '))
                    separateLastRun();
            }
        }
    }

    // A tab or a line break separates words: the run before it gets a space, and what came after
    // that run (this item, and markup such as a bookmark between them) moves past the space, out
    // of the run's text.
    void separateLastRun()
    {
        for (auto span = m_segment.spans.rbegin(); span != m_segment.spans.rend(); ++span) {
            if (!span->tile)
                continue;
            const qsizetype end = m_segment.text.size();
            if (span->range.end == end) {
                m_segment.text += ' ';
                ++span->range.end;
                // A hyperlink that closed with the run takes the space too: spans nest, never
                // cross.
                for (auto around = m_segment.spans.begin(); around != std::prev(span.base());
                     ++around)
                    if (!around->tile && around->range.begin < end && around->range.end == end)
                        ++around->range.end;
                for (auto after = span.base(); after != m_segment.spans.end(); ++after) {
                    if (after->range.begin == end)
                        ++after->range.begin;
                    if (after->range.end == end)
                        ++after->range.end;
                }
            }
            return;
        }
    }

    struct Item
    {
        enum Kind { Text, ContainerOpen, ContainerClose, Other } kind = Other;
        QByteArray raw;         // the markup (for Text: run start, properties and <w:t>)
        QByteArray close;       // Text: </w:t></w:r>
        QByteArray decoded;     // Text: the text
        bool text = false;      // holds text, directly or inside
        bool separates = false; // a tab or break inside a run
        // A text box's markup read on its own: skeleton and its paragraphs' segments.
        std::shared_ptr<const Document> inner;
    };

    void children(const QByteArray &raw, qsizetype from, qsizetype to, int depth)
    {
        if (depth > limits::kMaxMarkupDepth)
            throw DocumentError(QStringLiteral("elements nest deeper than the limit of %1")
                                    .arg(limits::kMaxMarkupDepth));
        qsizetype i = from;
        while (i < to) {
            const qsizetype next = raw.indexOf('<', i);
            if (next < 0 || next >= to)
                break; // white space between elements
            const QByteArray name = tagNameAt(raw, next);
            const qsizetype end = elementEnd(raw, next);
            if (end < 0 || end > to)
                throw DocumentError(
                    QStringLiteral("a <%1> is not closed").arg(QString::fromUtf8(name)));
            // A view: a copy at every level of nesting costs the depth times the size.
            const QByteArrayView element(raw.constData() + next, end - next);
            if (findStartTag(raw, "w:txbxContent", next, end) >= 0) {
                const QByteArray whole = raw.mid(i, end - i);
                auto inner = std::make_shared<Document>();
                inner->escaping = m_doc.escaping;
                DocxReader(whole, *inner, m_boxes + 1).read();
                m_items.push_back({Item::Other, whole});
                m_items.back().inner = std::move(inner);
            } else if (name == "w:r" && element.contains("<w:t")) {
                run(element.toByteArray());
            } else if ((name == "w:hyperlink" || name == "w:smartTag" || name == "w:ins") &&
                       raw[tagEnd(raw, next) - 2] != '/') {
                const qsizetype openEnd = tagEnd(raw, next);
                const qsizetype closeStart = raw.lastIndexOf('<', end - 1);
                const std::size_t start = m_items.size();
                m_items.push_back({Item::ContainerOpen, raw.mid(next, openEnd - next)});
                children(raw, openEnd, closeStart, depth + 1);
                bool text = false;
                for (std::size_t k = start + 1; k < m_items.size(); ++k)
                    text = text || m_items[k].text;
                m_items[start].text = text;
                m_items.push_back({Item::ContainerClose, raw.mid(closeStart, end - closeStart)});
                m_items.back().text = text;
            } else {
                m_items.push_back({Item::Other, raw.mid(i, end - i)});
            }
            i = end;
        }
    }

    void run(const QByteArray &element)
    {
        const qsizetype openEnd = tagEnd(element, 0);
        const qsizetype closeStart = element.lastIndexOf("</w:r>");
        QByteArray head = element.left(openEnd);
        qsizetype i = openEnd;
        const qsizetype properties = element.indexOf("<w:rPr", openEnd);
        if (properties >= 0 && element.left(properties).mid(openEnd).trimmed().isEmpty()) {
            const qsizetype end = elementEnd(element, properties);
            head = element.left(end);
            i = end;
        }
        std::vector<Item> items;
        // A damaged run (text outside its elements, a <w:t> holding markup or without its own
        // </w:t>) is kept whole, as it was: its pieces would not be written back as they were.
        bool damaged = i < 0 || closeStart < i;
        while (!damaged && i < closeStart) {
            const qsizetype next = element.indexOf('<', i);
            if (next < 0 || next >= closeStart) {
                damaged = !element.sliced(i, closeStart - i).trimmed().isEmpty();
                break;
            }
            const qsizetype end = elementEnd(element, next);
            damaged =
                end < 0 || end > closeStart || !element.sliced(i, next - i).trimmed().isEmpty();
            if (damaged)
                break;
            const QByteArray name = tagNameAt(element, next);
            if (name == "w:t") {
                const qsizetype textStart = tagEnd(element, next);
                QByteArray tag = element.mid(next, textStart - next);
                if (tag.endsWith("/>")) {
                    i = end;
                    continue;
                }
                const qsizetype textEnd = element.indexOf('<', textStart);
                damaged = QByteArrayView(element).sliced(textEnd, end - textEnd) != "</w:t>";
                if (damaged)
                    break;
                // Spaces at the ends of a translated run matter: keep them.
                if (!tag.contains("xml:space"))
                    tag = "<w:t xml:space=\"preserve\">";
                items.push_back({Item::Text, head + tag, "</w:t></w:r>",
                                 decodeXmlText(element.mid(textStart, textEnd - textStart)), true});
            } else {
                items.push_back({Item::Other, head + element.mid(next, end - next) + "</w:r>"});
                items.back().separates = name == "w:tab" || name == "w:br" || name == "w:cr";
            }
            i = end;
        }
        if (damaged)
            m_items.push_back({Item::Other, element});
        else
            m_items.insert(m_items.end(), items.begin(), items.end());
    }

    const QByteArray &m_xml;
    Document &m_doc;
    const int m_boxes;
    Segment m_segment;
    std::vector<Item> m_items;
};

} // namespace

Document parseDocx(const QByteArray &bytes, const QString &name)
{
    Document doc;
    doc.format = QStringLiteral("docx");
    doc.escaping = TextEscaping::Xml;
    doc.archive = openArchive(bytes, name);
    if (!findEntry(doc.archive, QStringLiteral("[Content_Types].xml")) ||
        !findEntry(doc.archive, QStringLiteral("word/document.xml")))
        throw DocumentError(
            QStringLiteral("%1 is not a Word document (no word/document.xml)").arg(name));
    static const QRegularExpression parts(
        QStringLiteral(R"(^word/(document|footnotes|endnotes|header\d*|footer\d*)\.xml$)"));
    for (const ZipEntry &entry : doc.archive) {
        if (!parts.match(entry.name).hasMatch())
            continue;
        const QString label = name + QLatin1Char(':') + entry.name;
        checkMemberUtf8(entry.data, label);
        doc.parts.push_back({{}, -1, entry.name});
        try {
            DocxReader(entry.data, doc).read();
        } catch (const DocumentError &error) {
            throw DocumentError(QStringLiteral("%1 is corrupt: %2").arg(label, error.message()));
        }
    }
    if (doc.segments.empty())
        throw DocumentError(QStringLiteral("%1 is empty: there is no text to translate").arg(name));
    return doc;
}

namespace {

// Word's own names for what the written document uses: Heading1…6, a list paragraph, a table
// with its grid lines. Sizes in half-points.
QByteArray docxStyles()
{
    QByteArray styles =
        "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>\n"
        "<w:styles xmlns:w=\"http://schemas.openxmlformats.org/wordprocessingml/2006/main\">"
        "<w:style w:type=\"paragraph\" w:default=\"1\" w:styleId=\"Normal\"><w:name w:val=\"Normal\"/>"
        "<w:pPr><w:spacing w:after=\"120\"/></w:pPr></w:style>";
    const int sizes[] = {36, 30, 26, 24, 22, 22};
    for (int level = 1; level <= 6; ++level)
        styles += "<w:style w:type=\"paragraph\" w:styleId=\"Heading" + QByteArray::number(level) +
                  "\"><w:name w:val=\"heading " + QByteArray::number(level) +
                  "\"/><w:basedOn w:val=\"Normal\"/><w:next w:val=\"Normal\"/><w:qFormat/>"
                  "<w:pPr><w:keepNext/><w:spacing w:before=\"240\" w:after=\"60\"/>"
                  "<w:outlineLvl w:val=\"" + QByteArray::number(level - 1) +
                  "\"/></w:pPr><w:rPr><w:b/><w:sz w:val=\"" + QByteArray::number(sizes[level - 1]) +
                  "\"/></w:rPr></w:style>";
    return styles +
           "<w:style w:type=\"paragraph\" w:styleId=\"ListParagraph\"><w:name w:val=\"List "
           "Paragraph\"/><w:basedOn w:val=\"Normal\"/><w:pPr><w:spacing w:after=\"0\"/></w:pPr>"
           "</w:style><w:style w:type=\"table\" w:styleId=\"TableGrid\"><w:name w:val=\"Table "
           "Grid\"/><w:tblPr><w:tblBorders><w:top w:val=\"single\" w:sz=\"4\"/><w:left "
           "w:val=\"single\" w:sz=\"4\"/><w:bottom w:val=\"single\" w:sz=\"4\"/><w:right "
           "w:val=\"single\" w:sz=\"4\"/><w:insideH w:val=\"single\" w:sz=\"4\"/><w:insideV "
           "w:val=\"single\" w:sz=\"4\"/></w:tblBorders></w:tblPr></w:style></w:styles>\n";
}

// Two lists, bulleted (numId 1) and numbered (numId 2), nine levels each.
QByteArray docxNumbering()
{
    QByteArray numbering =
        "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>\n"
        "<w:numbering xmlns:w=\"http://schemas.openxmlformats.org/wordprocessingml/2006/main\">";
    for (int ordered = 0; ordered < 2; ++ordered) {
        numbering += "<w:abstractNum w:abstractNumId=\"" + QByteArray::number(ordered) + "\">";
        for (int level = 0; level < 9; ++level)
            numbering += "<w:lvl w:ilvl=\"" + QByteArray::number(level) +
                         "\"><w:start w:val=\"1\"/><w:numFmt w:val=\"" +
                         (ordered ? "decimal" : "bullet") + "\"/><w:lvlText w:val=\"" +
                         (ordered ? "%" + QByteArray::number(level + 1) + "." : "\xE2\x80\xA2") +
                         "\"/><w:lvlJc w:val=\"left\"/><w:pPr><w:ind w:left=\"" +
                         QByteArray::number(720 * (level + 1)) +
                         "\" w:hanging=\"360\"/></w:pPr></w:lvl>";
        numbering += "</w:abstractNum>";
    }
    return numbering +
           "<w:num w:numId=\"1\"><w:abstractNumId w:val=\"0\"/></w:num>"
           "<w:num w:numId=\"2\"><w:abstractNumId w:val=\"1\"/></w:num></w:numbering>\n";
}

BlockXml docxBlocks()
{
    BlockXml xml;
    xml.paragraph = [](const BlockRole &role, const QByteArray &runs) {
        QByteArray properties;
        if (role.kind == BlockRole::Kind::Heading)
            properties = "<w:pStyle w:val=\"Heading" +
                         QByteArray::number(std::clamp(role.level, 1, 6)) + "\"/>";
        else if (role.kind == BlockRole::Kind::ListItem)
            properties = "<w:pStyle w:val=\"ListParagraph\"/><w:numPr><w:ilvl w:val=\"" +
                         QByteArray::number(std::clamp(role.level, 0, 8)) +
                         "\"/><w:numId w:val=\"" + (role.ordered ? "2" : "1") +
                         "\"/></w:numPr>";
        return "<w:p>" + (properties.isEmpty() ? QByteArray() : "<w:pPr>" + properties + "</w:pPr>") +
               runs + "</w:p>\n";
    };
    xml.run = [](const QByteArray &text) {
        return "<w:r><w:t xml:space=\"preserve\">" + text + "</w:t></w:r>";
    };
    xml.mark = [](const QByteArray &text) {
        return "<w:r><w:rPr><w:vertAlign w:val=\"superscript\"/></w:rPr><w:t>" + text +
               "</w:t></w:r>";
    };
    xml.tableOpen = [](int columns) {
        QByteArray grid;
        for (int column = 0; column < columns; ++column)
            grid += "<w:gridCol w:w=\"" + QByteArray::number(9000 / std::max(1, columns)) + "\"/>";
        return "<w:tbl><w:tblPr><w:tblStyle w:val=\"TableGrid\"/><w:tblW w:w=\"5000\" "
               "w:type=\"pct\"/></w:tblPr><w:tblGrid>" +
               grid + "</w:tblGrid>\n";
    };
    xml.tableClose = "</w:tbl>\n";
    xml.rowOpen = "<w:tr>";
    xml.rowClose = "</w:tr>\n";
    xml.cellOpen = "<w:tc>";
    xml.cellClose = "</w:tc>";
    xml.emptyCell = "<w:p/>";
    return xml;
}

} // namespace

// A minimal WordprocessingML document (content types, relationships, the document part, its
// styles and numbering) with the document's headings, paragraphs, lists and tables.
QByteArray writeDocxBlocks(const Document &document)
{
    QByteArray body = blocksAsXml(document, docxBlocks());
    if (body.isEmpty() || body.endsWith("</w:tbl>\n"))
        body += "<w:p/>"; // Word's body ends with a paragraph
    body = "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>\n"
           "<w:document xmlns:w=\"http://schemas.openxmlformats.org/wordprocessingml/2006/main\">"
           "<w:body>" +
           body + "</w:body></w:document>\n";
    const QByteArray part = "application/vnd.openxmlformats-officedocument.wordprocessingml.";
    const QByteArray types =
        "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>\n"
        "<Types xmlns=\"http://schemas.openxmlformats.org/package/2006/content-types\">"
        "<Default Extension=\"rels\" "
        "ContentType=\"application/vnd.openxmlformats-package.relationships+xml\"/>"
        "<Default Extension=\"xml\" ContentType=\"application/xml\"/>"
        "<Override PartName=\"/word/document.xml\" ContentType=\"" + part + "document.main+xml\"/>"
        "<Override PartName=\"/word/styles.xml\" ContentType=\"" + part + "styles+xml\"/>"
        "<Override PartName=\"/word/numbering.xml\" ContentType=\"" + part + "numbering+xml\"/>"
        "</Types>\n";
    const QByteArray relationships = "http://schemas.openxmlformats.org/officeDocument/2006/"
                                     "relationships/";
    const QByteArray rels =
        "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>\n"
        "<Relationships xmlns=\"http://schemas.openxmlformats.org/package/2006/relationships\">"
        "<Relationship Id=\"rId1\" Type=\"" + relationships + "officeDocument\" "
        "Target=\"word/document.xml\"/></Relationships>\n";
    const QByteArray documentRels =
        "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>\n"
        "<Relationships xmlns=\"http://schemas.openxmlformats.org/package/2006/relationships\">"
        "<Relationship Id=\"rId1\" Type=\"" + relationships + "styles\" Target=\"styles.xml\"/>"
        "<Relationship Id=\"rId2\" Type=\"" + relationships + "numbering\" "
        "Target=\"numbering.xml\"/></Relationships>\n";
    return writeZip({{QStringLiteral("[Content_Types].xml"), types, false},
                     {QStringLiteral("_rels/.rels"), rels, false},
                     {QStringLiteral("word/document.xml"), body, false},
                     {QStringLiteral("word/_rels/document.xml.rels"), documentRels, false},
                     {QStringLiteral("word/styles.xml"), docxStyles(), false},
                     {QStringLiteral("word/numbering.xml"), docxNumbering(), false}});
}

} // namespace glosa::documents::formats
