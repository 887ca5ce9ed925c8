// OpenDocument text: content.xml and styles.xml read with the markup reader's ODF rules; every
// other archive entry is written back as it was.
#include "app/core/documents/formats/blockxml.h"
#include "app/core/documents/formats/entrypoints.h"
#include "app/core/documents/formats/markup.h"

#include <algorithm>

namespace glosa::documents::formats {

namespace {

// OpenDocument text (content.xml, styles.xml): paragraphs and headings are blocks, spans, links,
// spaces, tabs, line breaks, bookmarks and note references are inline.
const MarkupRules &odfRules()
{
    static const MarkupRules rules{
        {"text:span", "text:a", "text:s", "text:tab", "text:line-break", "text:soft-page-break",
         "text:bookmark", "text:bookmark-start", "text:bookmark-end", "text:reference-mark",
         "text:reference-mark-start", "text:reference-mark-end", "text:note-ref", "text:sequence",
         "text:ruby", "text:ruby-base"},
        {},
        // A note's citation is its number or mark ("1", "*"): not text to translate.
        {"text:tracked-changes", "office:font-face-decls", "office:automatic-styles",
         "office:scripts", "text:note-citation"},
        {},
        {"text:s", "text:tab", "text:line-break"},
        // Footnotes and frames (text boxes) stay where they are in the sentence.
        {"text:note", "draw:frame"},
        {}};
    return rules;
}

} // namespace

Document parseOdt(const QByteArray &bytes, const QString &name)
{
    Document doc;
    doc.format = QStringLiteral("odt");
    doc.escaping = TextEscaping::Xml;
    doc.archive = openArchive(bytes, name);
    const ZipEntry *mimetype = findEntry(doc.archive, QStringLiteral("mimetype"));
    if (!mimetype || !mimetype->data.startsWith("application/vnd.oasis.opendocument.text"))
        throw DocumentError(QStringLiteral("%1 is not an OpenDocument text (mimetype '%2')")
                                .arg(name, mimetype ? QString::fromUtf8(mimetype->data.left(80))
                                                    : QStringLiteral("missing")));
    const ZipEntry *manifest = findEntry(doc.archive, QStringLiteral("META-INF/manifest.xml"));
    if (manifest && manifest->data.contains("encryption-data"))
        throw DocumentError(QStringLiteral("%1 is password-protected (encrypted); save it "
                                           "without a password first")
                                .arg(name));
    const ZipEntry *content = findEntry(doc.archive, QStringLiteral("content.xml"));
    if (!content)
        throw DocumentError(QStringLiteral("%1 is corrupt: it has no content.xml").arg(name));
    for (const QString &entryName : {QStringLiteral("content.xml"), QStringLiteral("styles.xml")}) {
        const ZipEntry *entry = findEntry(doc.archive, entryName);
        if (!entry)
            continue;
        const QString label = name + QLatin1Char(':') + entryName;
        checkMemberUtf8(entry->data, label);
        doc.parts.push_back({{}, -1, entryName});
        readMarkup(entry->data, label, odfRules(), doc, false);
    }
    if (doc.segments.empty())
        throw DocumentError(QStringLiteral("%1 is empty: there is no text to translate").arg(name));
    return doc;
}

namespace {

// The automatic styles the written content uses: raised footnote marks, bulleted and numbered
// lists (nine levels), and table cells with their grid lines.
QByteArray odtStyles()
{
    QByteArray styles =
        "<office:automatic-styles><style:style style:name=\"Glosa_sup\" style:family=\"text\">"
        "<style:text-properties style:text-position=\"super 58%\"/></style:style>"
        "<style:style style:name=\"Glosa_cell\" style:family=\"table-cell\">"
        "<style:table-cell-properties fo:border=\"0.5pt solid #000000\" fo:padding=\"0.05in\"/>"
        "</style:style>";
    for (const char *kind : {"ul", "ol"}) {
        const bool ordered = kind[0] == 'o';
        styles += QByteArray("<text:list-style style:name=\"Glosa_") + kind + "\">";
        for (int level = 1; level <= 9; ++level) {
            const QByteArray n = QByteArray::number(level);
            styles += (ordered ? "<text:list-level-style-number text:level=\"" + n +
                                     "\" style:num-suffix=\".\" style:num-format=\"1\">"
                               : "<text:list-level-style-bullet text:level=\"" + n +
                                     "\" text:bullet-char=\"\xE2\x80\xA2\">") +
                      "<style:list-level-properties text:space-before=\"" +
                      QByteArray::number(0.25 * level) +
                      "in\" text:min-label-width=\"0.25in\"/>" +
                      (ordered ? "</text:list-level-style-number>"
                               : "</text:list-level-style-bullet>");
        }
        styles += "</text:list-style>";
    }
    return styles + "</office:automatic-styles>";
}

BlockXml odtBlocks()
{
    BlockXml xml;
    xml.paragraph = [](const BlockRole &role, const QByteArray &runs) {
        if (role.kind != BlockRole::Kind::Heading)
            return "<text:p>" + runs + "</text:p>\n";
        const QByteArray level = QByteArray::number(std::clamp(role.level, 1, 6));
        return "<text:h text:style-name=\"Heading_20_" + level + "\" text:outline-level=\"" +
               level + "\">" + runs + "</text:h>\n";
    };
    xml.run = [](const QByteArray &text) { return text; };
    xml.mark = [](const QByteArray &text) {
        return "<text:span text:style-name=\"Glosa_sup\">" + text + "</text:span>";
    };
    xml.listOpen = [](bool ordered) {
        return QByteArray("<text:list text:style-name=\"") + (ordered ? "Glosa_ol" : "Glosa_ul") +
               "\">\n";
    };
    xml.listClose = "</text:list>\n";
    xml.itemOpen = "<text:list-item>";
    xml.itemClose = "</text:list-item>\n";
    xml.tableOpen = [](int columns) {
        return "<table:table><table:table-column table:number-columns-repeated=\"" +
               QByteArray::number(columns) + "\"/>\n";
    };
    xml.tableClose = "</table:table>\n";
    xml.rowOpen = "<table:table-row>";
    xml.rowClose = "</table:table-row>\n";
    xml.cellOpen = "<table:table-cell table:style-name=\"Glosa_cell\" office:value-type=\"string\">";
    xml.cellClose = "</table:table-cell>";
    xml.emptyCell = "<text:p/>";
    return xml;
}

} // namespace

// A minimal OpenDocument text (ODF 1.2 package: mimetype stored first, manifest, content) with
// the document's headings, paragraphs, lists and tables; LibreOffice and Word open it.
QByteArray writeOdtBlocks(const Document &document)
{
    const QByteArray content =
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        "<office:document-content "
        "xmlns:office=\"urn:oasis:names:tc:opendocument:xmlns:office:1.0\" "
        "xmlns:style=\"urn:oasis:names:tc:opendocument:xmlns:style:1.0\" "
        "xmlns:text=\"urn:oasis:names:tc:opendocument:xmlns:text:1.0\" "
        "xmlns:table=\"urn:oasis:names:tc:opendocument:xmlns:table:1.0\" "
        "xmlns:fo=\"urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0\" "
        "office:version=\"1.2\">" +
        odtStyles() + "<office:body><office:text>\n" + blocksAsXml(document, odtBlocks()) +
        "</office:text></office:body></office:document-content>\n";
    const QByteArray manifest =
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        "<manifest:manifest xmlns:manifest=\"urn:oasis:names:tc:opendocument:xmlns:manifest:1.0\" "
        "manifest:version=\"1.2\">"
        "<manifest:file-entry manifest:full-path=\"/\" manifest:version=\"1.2\" "
        "manifest:media-type=\"application/vnd.oasis.opendocument.text\"/>"
        "<manifest:file-entry manifest:full-path=\"content.xml\" manifest:media-type=\"text/xml\"/>"
        "</manifest:manifest>\n";
    return writeZip({{QStringLiteral("mimetype"), "application/vnd.oasis.opendocument.text", true},
                     {QStringLiteral("META-INF/manifest.xml"), manifest, false},
                     {QStringLiteral("content.xml"), content, false}});
}

} // namespace glosa::documents::formats
