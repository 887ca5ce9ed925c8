// OpenDocument text: content.xml and styles.xml read with the markup reader's ODF rules; every
// other archive entry is written back as it was.
#include "app/core/documents/formats/entrypoints.h"
#include "app/core/documents/formats/markup.h"

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

// A minimal OpenDocument text (ODF 1.2 package: mimetype stored first, manifest, content) with one
// <text:p> per paragraph; LibreOffice and Word open it.
QByteArray writeOdtParagraphs(const Document &document)
{
    const QByteArray content = paragraphsAsXml(
        document,
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        "<office:document-content "
        "xmlns:office=\"urn:oasis:names:tc:opendocument:xmlns:office:1.0\" "
        "xmlns:text=\"urn:oasis:names:tc:opendocument:xmlns:text:1.0\" office:version=\"1.2\">"
        "<office:body><office:text>",
        "<text:p>", "</text:p>\n", "</office:text></office:body></office:document-content>\n");
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
