// Document: a file read as a sequence of translatable segments (plain text with inline markup
// spans) inside an untouched skeleton, so that writing it back changes only the text.
//
// Basic usage:
//     Document doc = readDocument("in.html");          // formats.h; throws DocumentError
//     DocumentTranslator(translator).translate(doc, options); // documenttranslator.h
//     writeDocument(doc, "out.html");                   // skeleton + translated segments
//
// A segment's `text` is what the model reads: one paragraph, heading, table cell or subtitle of
// plain UTF-8 (entities decoded, line breaks folded to spaces). Its `spans` say where markup
// sat in that text (`<b>`…`</b>`, `**`…`**`, `[`…`](url)`) and which parts must come out
// verbatim (URLs, e-mail addresses, numbers, code spans, placeholders such as `%1$s`, `{name}`).
// After translation, SegmentTranslation::links (target piece → its most attended source piece)
// carry every span to the target words it was translated into: inline markup is kept in place
// and protected text is put back verbatim where the model changed it.
#pragma once

#include "app/core/documents/ziparchive.h"

#include <QByteArray>
#include <QString>
#include <QStringList>

#include <cstddef>
#include <optional>
#include <stdexcept>
#include <vector>

namespace glosa::documents {

// A document that cannot be read or written: message() is one sentence for the user ("x.srt:
// line 7: '00:01 -> 00:02' is not a subtitle timing").
class DocumentError : public std::runtime_error
{
public:
    explicit DocumentError(const QString &message)
        : std::runtime_error(message.toStdString()), m_message(message)
    {
    }
    const QString &message() const { return m_message; }

private:
    QString m_message;
};

// A read stopped because its owner's cancel flag was set (readDocument's `cancelled`): not a
// failure to report, the caller's own cancel path (as engine::DecodingCancelled is for a
// translation). Not a DocumentError, so that no handler shows it as one.
class DocumentCancelled : public std::runtime_error
{
public:
    DocumentCancelled() : std::runtime_error("reading cancelled") {}
};

// Byte range [begin, end) in a segment's text (or its translation).
struct ByteRange
{
    qsizetype begin = 0;
    qsizetype end = 0;
    qsizetype size() const { return end - begin; }
    bool operator==(const ByteRange &) const = default;
};

// A segment of the document written inside another's markup: at byte `at` of a span's `open`.
struct NestedSegment
{
    qsizetype at = 0;
    int segment = -1; // in Document::segments
};

struct InlineSpan
{
    ByteRange range;  // the text the markup wraps (empty for `<br>`, `<img>`)
    QByteArray open;  // written before the range, as is (`<a href="x">`, `**`)
    QByteArray close; // written after it, as is (`</a>`, `**`); empty for a void element
    // The range's text must appear unchanged in the translation (URL, number, code, `{name}`).
    bool verbatim = false;
    // Where `open` and `close` came in the source's markup (counting every tag of the segment),
    // -1 when unknown: tells whether an empty span at another's edge was inside it (`<b>x<br></b>`
    // or `<b>x</b><br>`), which ranges alone cannot.
    int openOrder = -1;
    int closeOrder = -1;
    // The tile spans of a segment hold all of its text between them (Word's runs: text outside a
    // <w:r><w:t> is not allowed). After projection they are stretched to cover the whole
    // translation, and the other spans (links, empty markup) are moved onto their edges.
    bool tile = false;
    // Text inside the markup that is translated on its own, as segments of the document (which
    // have no slot of their own in Document::parts): an ODF footnote kept inside its paragraph,
    // an HTML alt or title attribute. Sorted by `at`.
    std::vector<NestedSegment> nested;
};

// One source piece and the target piece that attends to it most.
struct AlignmentLink
{
    ByteRange source; // in Segment::text
    ByteRange target; // in SegmentTranslation::text
};

// One sentence (or chunk of a long one) as the model translated it: where it is in the segment's
// text and where its translation is in SegmentTranslation::text, so that a viewer can highlight
// a sentence and its translation together.
// A source word of a sentence that the translation gave little attention in all, below
// engine::CoverageOptions's threshold (engine/decoding/coverage.h): likely left out.
struct CoverageWarning
{
    ByteRange source; // in Segment::text
    float mass = 0.0f;
    float threshold = 0.0f;
};

struct SentencePair
{
    ByteRange source;
    ByteRange target;
    std::vector<CoverageWarning> omissions; // empty for a model without attention
};

struct SegmentTranslation
{
    QByteArray text; // plain UTF-8, no markup
    std::vector<AlignmentLink> links;
    std::vector<SentencePair> sentences; // in order
};

struct Segment
{
    QByteArray text;               // plain UTF-8 the model reads (no line breaks)
    std::vector<InlineSpan> spans; // sorted by range.begin; markup spans nest, never cross
    // Write the translation on this many lines (subtitles, hard-wrapped text); 1: one line.
    int lines = 1;
    // Where the source broke its lines (the spaces of `text` that were line breaks), so that an
    // untranslated segment is written back exactly as it was read.
    std::vector<qsizetype> breaks;
    // Pieces of `text` that the source wrote otherwise, and how: a space that stood for a line
    // break and indentation inside an HTML paragraph, a space a <br> added (""), a decoded
    // entity ("&copy;"). Written instead of those bytes while the segment is untranslated.
    std::vector<std::pair<ByteRange, QByteArray>> asRead;
    std::optional<SegmentTranslation> translation; // empty until translated (or cancelled)
    // An attribute value (HTML alt, title): both quotes are escaped when written, and it is not
    // a paragraph of plainText().
    bool attribute = false;
};

enum class TextEscaping { None, Xml };

struct Document
{
    // A piece of the file in order: bytes copied as they are, or the slot of segment `segment`.
    struct Part
    {
        QByteArray bytes;
        int segment = -1;
        // Office formats: this part and those after it, up to the next part naming an entry,
        // are the text of archive entry `entry` (content.xml, styles.xml).
        QString entry;
    };

    QString format; // "txt", "srt", "md", "html"
    TextEscaping escaping = TextEscaping::None;
    QByteArray lineBreak = "\n"; // what wrapped segments break lines with ("\r\n" in CRLF files)
    // The file's text encoding (documents/textencoding.h): parts and segments hold UTF-8 and
    // writeDocument() converts back. "UTF-8" for every format but .txt, .srt and .md.
    QString encoding = QStringLiteral("UTF-8");
    // What the reader wants the user to know about how it read the file (bytes it replaced),
    // one sentence each naming the file.
    QStringList notices;
    // The language of the translations (BCP 47, set by DocumentTranslator), for the lang
    // attribute of HTML written from the document.
    QString targetLanguage;
    std::vector<Part> parts;
    std::vector<Segment> segments;
    // Office formats: every entry of the zip archive as read; render() writes them back in order
    // with the entries named by parts replaced.
    std::vector<ZipEntry> archive;

    // Appends skeleton bytes (merged with a preceding skeleton part).
    void appendSkeleton(const QByteArray &bytes);
    // Appends a segment and its slot; a white-space-only segment goes to the skeleton instead
    // (with slots for its spans' nested segments).
    void appendSegment(Segment segment);
    // Appends a segment without a slot, for a span's `nested`; returns its index.
    int appendNested(Segment segment);
    // Moves the parts and segments of `inner` (a piece of markup read on its own) into `span`:
    // its skeleton bytes are appended to span.open and its segment slots become nested segments.
    void nestInto(Document &&inner, InlineSpan &span);
    // Moves the parts and segments of `inner` to the end of this document.
    void appendParts(Document &&inner);

    // The file with every translated segment in place (untranslated ones as in the source); for
    // office formats the whole zip archive.
    QByteArray render() const;
    std::size_t translatedCount() const;
};

// The longest run of bytes of `text` without white space (ASCII space, tab, line or page break).
// A segment with one over limits::kMaxUnbrokenBytes is not translated (DocumentTranslator leaves
// it as it was read; the readers say so, noteOverlongRuns()) and protectSpans() skips it.
qsizetype longestUnbrokenRun(const QByteArray &text);
bool hasOverlongRun(const QByteArray &text);
// Adds a notice to `document` for its segments with an overlong run (`name` names the file).
void noteOverlongRuns(Document &document, const QString &name);

// Sorts `spans` (by start, the outermost first), then marks what the engine protects
// (engine::SpanProtector: URLs, e-mail addresses, numbers, placeholders such as `%1$s` or `{name}`,
// tag-like text, typographic marks) in `text` as verbatim spans, skipping what would cross a span
// already there or lie over verbatim text; keeps `spans` sorted. O((spans + matches) log spans).
// Nothing is marked in a text with an overlong run (hasOverlongRun): it is not translated.
void protectSpans(const QByteArray &text, std::vector<InlineSpan> &spans);

// The UTF-8 byte offset of every UTF-16 position of `text` (QString positions; size() + 1
// entries, the low half of a surrogate pair at its pair's offset).
std::vector<qsizetype> utf16ToBytes(const QString &text);

// Subtitle-style inline tags (`<i>`, `<b>`, `<u>`, `<font …>`, `{\an8}`) of `raw` as markup
// spans of the returned segment, whose text is `raw` without them.
Segment taggedSegment(const QByteArray &raw);

// Where each span lands in `translation`: verbatim text the model changed is put back over the
// target pieces aligned to it (`translation.text`, its links and sentences are updated), then
// markup spans
// are carried to the target pieces aligned to their source pieces, kept nested and disjoint as
// in the source. Returns one range per span, in `segment.spans` order.
std::vector<ByteRange> projectSpans(const Segment &segment, SegmentTranslation &translation);

// Post-editing: sentence `sentence` of `translation` becomes the user's `text`, and the rest of
// the translation (its words, links and sentences) stays as it was, shifted. The links into the
// sentence follow the user's words (a word-level diff of the old and the new sentence): a word the
// user kept keeps its links, a rewritten stretch takes the links of the words it replaced, and
// links into deleted words go; so projectSpans() puts markup over a kept or corrected word back
// on it, and the other sentences' markup is untouched. Out of range: nothing changes.
void replaceSentence(SegmentTranslation &translation, std::size_t sentence, const QByteArray &text);

// The segment written out: its translation (else its text), wrapped on `lines` lines, escaped,
// with every span's markup around its range. Nested segments are rendered from `document`
// (required when a span has any).
QByteArray renderSegment(const Segment &segment, TextEscaping escaping,
                         const QByteArray &lineBreak = "\n", const Document *document = nullptr);

// Breaks `text` at spaces into `lines` lines of similar length (fewer when it has fewer spaces).
QByteArray wrapLines(const QByteArray &text, int lines);

} // namespace glosa::documents
