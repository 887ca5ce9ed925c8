// One document reader on arbitrary bytes, built once per format (GLOSA_FUZZ_FORMAT: txt, md,
// html, srt, docx, odt, pdf). With GLOSA_FUZZ_MEMBER the bytes are the XML layer instead: they
// become that member (word/document.xml, content.xml) of an otherwise valid archive.
//
// Besides not crashing, the round-trip property: with no translation, render() gives
// the input back byte for byte; for .docx/.odt the members that hold no text come back as they
// were and the rewritten text parts read back to the same segments. PDF is read only, through
// the entry point the app uses: the glosa-pdftext child process, with a 3 s limit here (libFuzzer times out at 10 s).
#include "app/core/documents/document.h"
#include "app/core/documents/formats.h"
#include "app/core/documents/formats/entrypoints.h"
#include "app/core/documents/layout.h"
#include "app/core/documents/textencoding.h"
#include "app/core/documents/ziparchive.h"
#include "tests/fuzz/fuzzutil.h"

#include <algorithm>
#include <chrono>
#include <map>
#include <optional>

namespace {

using namespace glosa::documents;

std::map<QString, QByteArray> members(const QByteArray &zip)
{
    std::map<QString, QByteArray> out;
    for (ZipEntry &entry : readZip(zip, QStringLiteral("fuzz")))
        out[entry.name] = std::move(entry.data);
    return out;
}

QByteArray input(const std::uint8_t *data, std::size_t size)
{
    const QByteArray bytes(reinterpret_cast<const char *>(data), qsizetype(size));
#ifdef GLOSA_FUZZ_MEMBER
    return glosa::fuzz::archiveWithMember(QStringLiteral(GLOSA_FUZZ_FORMAT),
                                          QStringLiteral(GLOSA_FUZZ_MEMBER), bytes);
#else
    return bytes;
#endif
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    glosa::fuzz::ensureApp();
    const QString format = QStringLiteral(GLOSA_FUZZ_FORMAT);
    const QByteArray bytes = input(data, size);
    Document doc;
    try {
        if (!findFormat(format)->parse) { // read from a file only (PDF)
            // The app's own entry point, the child process included: pdfium can loop for an
            // hour on some files (tests/data/hostile/pdfium-slow.pdf) and nothing can interrupt
            // it in-process, so the app bounds it in glosa-pdftext, and a harness that ran the
            // extraction here would report that known, handled case as a hang. The cost: about
            // ten inputs a second, and no coverage feedback from inside pdfium.
            (void)plainText(formats::readPdf(
                glosa::fuzz::writeInput(data, size, ("." + format.toStdString()).c_str()),
                std::chrono::seconds(3)));
            return 0;
        }
        doc = parseDocument(bytes, format, QStringLiteral("fuzz.") + format);
    } catch (const DocumentError &) {
        return 0;
    }
    // What the Documents view shows formatted (documents/layout.h): one entry a segment, each
    // styled stretch inside its segment's text, each cell at a place in its table.
    const std::vector<SegmentLayout> layout = describeLayout(doc);
    if (layout.size() != doc.segments.size())
        glosa::fuzz::finding("describeLayout() gives another number of entries than segments");
    for (std::size_t i = 0; i < layout.size() && i < doc.segments.size(); ++i) {
        for (const StyledRange &styled : layout[i].styles)
            if (styled.range.begin < 0 || styled.range.begin > styled.range.end ||
                styled.range.end > doc.segments[i].text.size())
                glosa::fuzz::finding("a styled range of segment " + std::to_string(i) +
                                     " lies outside its text");
        const BlockRole &role = layout[i].role;
        if (role.kind == BlockRole::Kind::TableCell &&
            (role.table < 0 || role.row < 0 || role.column < 0))
            glosa::fuzz::finding("segment " + std::to_string(i) + " is a cell of no place");
    }
    QByteArray out = doc.render();
    // Parts and segments hold UTF-8; a .txt, .srt or .md read in another encoding is written
    // back in it (writeDocument), so that is what must equal the input.
    if (doc.encoding != QLatin1String("UTF-8"))
        if (const std::optional<QByteArray> encoded = encodeText(out, doc.encoding))
            out = *encoded;
    // GLOSA_FUZZ_ROUNDTRIP=0 fuzzes for crashes only (while round-trip findings are open).
    static const bool roundTrip = qEnvironmentVariable("GLOSA_FUZZ_ROUNDTRIP") != "0";
    // UTF-8 with a few stray bytes is read with U+FFFD in their place (and says so in a
    // notice): by design it does not come back byte for byte.
    if (!roundTrip || !doc.notices.isEmpty())
        return 0;
    if (doc.archive.empty()) {
        if (out != bytes) {
            qsizetype at = 0;
            while (at < out.size() && at < bytes.size() && out[at] == bytes[at])
                ++at;
            const qsizetype from = std::max<qsizetype>(0, at - 20);
            glosa::fuzz::finding("render() of the untranslated document differs from the input "
                                 "at byte " + std::to_string(at) + ": input '" +
                                 bytes.mid(from, 60).toStdString() + "', output '" +
                                 out.mid(from, 60).toStdString() + "'");
        }
        return 0;
    }
    // .docx/.odt: the other members come back as they were; the text parts are rewritten (a
    // Word run is split at its tabs and breaks, <w:t> gains xml:space), so for them the property
    // is that reading the output gives the same text, segment for segment.
    std::map<QString, QByteArray> before = members(bytes), after = members(out);
    for (const Document::Part &part : doc.parts)
        if (!part.entry.isEmpty())
            before.erase(part.entry), after.erase(part.entry);
    for (const auto &[name, data] : before) {
        const auto found = after.find(name);
        if (found == after.end() || found->second != data)
            glosa::fuzz::finding("member '" + std::string(name.toUtf8().constData()) +
                                 "' (not text) changed after render()");
    }
    if (before.size() != after.size())
        glosa::fuzz::finding("render() added archive members");
    Document again;
    try {
        again = parseDocument(out, format, QStringLiteral("rendered"));
    } catch (const DocumentError &error) {
        glosa::fuzz::finding("the rendered document cannot be read back: " +
                             error.message().toStdString());
    }
    if (again.segments.size() != doc.segments.size())
        glosa::fuzz::finding("reading the rendered document gives another number of segments");
    for (std::size_t i = 0; i < doc.segments.size(); ++i)
        if (again.segments[i].text != doc.segments[i].text)
            glosa::fuzz::finding("segment " + std::to_string(i) + " reads back differently");
    return 0;
}
