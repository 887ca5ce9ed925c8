// Reading and writing documents by file suffix: .txt, .srt, .md, .html, .odt, .docx, .pdf, as the
// format table (documentFormats(), the one list every other list of formats derives from) says.
// Each format's reader and writers are in formats/<name>.cpp.
//
// Basic usage:
//     Document doc = readDocument("talk.srt");   // DocumentError with a one-line message
//     ...translate doc.segments...
//     writeDocument(doc, "talk.es.srt");         // same format, or .txt for the plain text
//
// What each reader keeps byte-identical (the skeleton) and what it translates:
// - txt: paragraphs are runs of lines; a line continues the previous one when that one does not
//   end a sentence and it starts in lower case (hard-wrapped prose). Written back on as many
//   lines as it had. Blank lines and indentation of each paragraph's first line are kept.
// - srt: numbers, timing lines and blank lines are kept byte for byte; each cue's text is one
//   segment written back on as many lines as it had.
// - md: headings, list markers, block quotes, table pipes, fences and code blocks are kept;
//   `**bold**`, `*italic*`, `_italic_`, `[link](url)` become inline spans carried to the
//   translated words, `code` spans and images are kept verbatim.
// - html: a tokenizer (HTML is not XML) keeps every tag with its attributes, comments, doctype,
//   `<script>`, `<style>`, `<pre>` and `<textarea>` byte-identical; text between block tags is
//   one segment (white space folded, entities decoded); inline tags inside it (`<b>`, `<a>`,
//   `<code>`, `<br>`, …) become spans placed on the translated words by the alignment. The values
//   of alt, title, placeholder and aria-label are translated too (nested segments: what a reader
//   of the translated page sees as a tooltip or hears from a screen reader); plainText() leaves
//   them out.
// - odt: a zip (QuaZip) whose content.xml and styles.xml (headers, footers) are read with the
//   HTML tokenizer's rules for OpenDocument: <text:p>/<text:h> (also in lists, tables, footnotes)
//   are segments; <text:span> (bold, italic), <text:a> (links), <text:s/>, <text:tab/>,
//   bookmarks are inline spans. A <text:note> (footnote, endnote) stays in place inside its
//   paragraph, which is read as one sentence around it; the note's paragraphs are nested
//   segments and its citation is kept as it is. A <draw:frame> (text box) is read the same way.
//   Every other entry, and the entry order (mimetype first, stored), is written back as it was.
//   Encrypted (password) and truncated archives are DocumentErrors.
// - pdf (in only): the text of each page by blocks of lines, read like a .txt file; written
//   out as .txt, or as .odt, .docx or .html with one paragraph per block.
// - docx: word/document.xml, footnotes, endnotes, headers and footers; each <w:p> is a segment;
//   every <w:t> of a run becomes a tile span (the run's <w:rPr> repeated), so bold, italic and
//   styled runs are split over the translation by the alignment and still hold all of its text;
//   <w:hyperlink> wraps its runs; tabs, breaks, bookmarks, footnote references, fields and
//   drawings stay in place. A run with a tab and text is written as two runs; <w:t> gets
//   xml:space="preserve". A text box stays in place in its paragraph (DrawingML and its VML
//   fallback alike); its paragraphs are translated as nested segments.
// In every format URLs, e-mail addresses, numbers and placeholders are kept verbatim
// (protectSpans). Input is UTF-8 (a BOM is kept); .txt, .srt and .md may also be UTF-16 with a
// byte-order mark or a single-byte encoding such as Windows-1252 (documents/textencoding.h,
// Document::encoding). Empty or white-space-only input, ill-formed UTF-8, binary data and
// malformed subtitles are DocumentErrors naming the file and place.
#pragma once

#include "app/core/documents/document.h"

#include <QStringList>

#include <atomic>
#include <vector>

class QIODevice;

namespace glosa::documents {

// A document written as one format.
struct WriteAs
{
    QString format;
    QByteArray (*write)(const Document &document);
};

// One row of the format table. File dialogs, drag and drop, the CLI's checks, export choices,
// streaming and the readers and writers all ask the table, so adding a format is a
// formats/<name>.cpp and a row.
struct DocumentFormat
{
    QString name;            // Document::format, and the suffix written
    QStringList aliases;     // other suffixes read as this format, lower case
    const char *description; // for file dialogs: QT_TRANSLATE_NOOP("glosa::DocumentsView", …)
    // Reads a whole file's bytes; `name` is used in messages. Null when only readFile can.
    Document (*parse)(const QByteArray &bytes, const QString &name);
    // Reads the file at `path` itself; null when its bytes go to parse. Stops with
    // DocumentCancelled once `cancelled` (may be null) is set.
    Document (*readFile)(const QString &path, const std::atomic<bool> *cancelled);
    // A blank line always ends a paragraph, so big files are read, translated and written a chunk
    // at a time (readChunk), memory bounded by the chunk, not the file.
    bool streamable;
    // What a document read as this format can be written as, and how; the suggested one first.
    std::vector<WriteAs> writableAs;
};

// In the order the formats are listed to users.
const std::vector<DocumentFormat> &documentFormats();
// The row named `format` (not an alias), null when none.
const DocumentFormat *findFormat(const QString &format);

// Suffixes readDocument accepts (every name and alias), lower case without the dot.
QStringList supportedFormats();
// The format for a path's suffix ("htm" → "html", "markdown" → "md"), empty when unsupported.
QString formatForPath(const QString &path);

// Throws DocumentError unless `path` is a regular file (after symlinks) or does not exist (the
// open that follows says so): a FIFO can be read only once and hangs the second open, and a
// device like /dev/urandom never ends. Every reader starts with it.
void requireRegularFile(const QString &path);

// `name` is used in messages only.
Document parseDocument(const QByteArray &bytes, const QString &format,
                       const QString &name = QString());
// `cancelled`: the owner's flag, set from any thread to stop a read that can take long (a PDF,
// read in a child process): DocumentCancelled is thrown. The other formats read in well under a
// second and do not look at it.
Document readDocument(const QString &path, const std::atomic<bool> *cancelled = nullptr);

// The document's own format (doc.render()) or, for a .txt path, its segments as plain text, one
// paragraph each separated by blank lines. Text goes out in UTF-8, or in `encoding` (pass
// document.encoding to write a .txt, .srt or .md read as Windows-1252 or GB18030 back so) when
// every character fits, else in UTF-8; returns which. Throws DocumentError for suffixes
// writableFormats() does not name or when the file cannot be written.
QString writeDocument(const Document &document, const QString &path,
                      const QString &encoding = QStringLiteral("UTF-8"));
QByteArray plainText(const Document &document);

// What a document read as `format` can be written as (formats, the suggested one first): its own
// format and .txt; a PDF as .odt, .docx, .html (one paragraph each) or .txt.
QStringList writableFormats(const QString &format);

// `formats` as suffixes for people: ".txt, .srt or .md" with separator ", " and `last` " or ".
QString suffixList(const QStringList &formats, const QString &separator,
                   const QString &last = QString());

// Whether .`format` files can be read, translated and written a chunk at a time (.txt, .srt).
bool isStreamable(const QString &format);
// At least `size` bytes from `device`, then up to and including the next blank line (or the end),
// so that no paragraph or subtitle is cut; empty at the end. But never more than
// limits::kMaxChunkBytes past `size`: a longer paragraph is cut at its last line end before that,
// or at a character boundary, and *cut says so. `device` must be seekable.
QByteArray readChunk(QIODevice &device, qint64 size, bool *cut = nullptr);

} // namespace glosa::documents
