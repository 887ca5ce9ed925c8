// Resource limits on the files people open: documents and images. Each is checked before the
// memory it guards is allocated, and a violation is an error naming the limit and the file,
// never a crash, a hang or gigabytes of memory. docs/robustness.md lists them with the reasons
// for each value; the engine's own limits (tensors, model packages, decoding) are in
// engine/limits.h.
#pragma once

#include <cstdint>

namespace glosa::limits {

// A .docx/.odt is a zip archive: what one member (word/document.xml, content.xml, a picture)
// and the whole archive may inflate to. A zip bomb stops at the first byte over.
inline constexpr std::int64_t kMaxZipMemberBytes = std::int64_t(128) << 20;
inline constexpr std::int64_t kMaxZipTotalBytes = std::int64_t(384) << 20;

// HTML/XML: elements open inside one another (inline markup, hyperlinks, notes, text boxes).
// Real documents stay below 30; recursion and per-level copies make deeper input costly.
inline constexpr int kMaxMarkupDepth = 100;
// Text boxes (and notes) inside text boxes: each level is read on its own from a copy of its
// markup, so the depth multiplies memory. Word and LibreOffice make one level; a few are allowed.
inline constexpr int kMaxBoxDepth = 4;

// Streaming .txt/.srt (glosa-cli translate-doc, the Documents view): the most bytes read past a
// chunk's size to reach the end of its paragraph. A longer paragraph is cut there (at a line end
// when it has one) with a notice.
inline constexpr std::int64_t kMaxChunkBytes = std::int64_t(1) << 20;

// A document read whole (every format but .txt and .srt in UTF-8, which are streamed): its
// file's size, checked before reading and again while reading (a file that grows, or a /proc
// file that reports no size). The readers hold several copies of the text, and 256 MiB of HTML
// or Markdown is far more than any document a person translates.
inline constexpr std::int64_t kMaxDocumentBytes = std::int64_t(256) << 20;

// glosa-cli translate: the longest input line translated (a line is one request). 32 KiB
// already take seconds to decode on one core; a 1 MB line without spaces took 19 minutes. Longer
// lines are reported and skipped without reading them into memory whole.
inline constexpr std::int64_t kMaxLineBytes = 32 * 1024;

// Documents: the longest run of text without white space that is translated, as long as
// translate's longest line (such a run has nowhere to be cut either). A paragraph with a longer
// run is kept as it is, with a notice, and no spans are looked for in it: a 1 MB "word" in a .txt
// took 185 s and 1.4 GB to translate with the toy model (64 KB 35 s with transformer-en-es), and
// 3.7 s to read (ICU's regular expression of the span rules at every byte).
inline constexpr std::int64_t kMaxUnbrokenBytes = kMaxLineBytes;

// PDF: QtPdf (pdfium) cannot be interrupted, so it runs in the glosa-pdftext helper process
// (app/core/documents/formats/pdftext.h), which readPdf kills after this long (wall clock). Real
// PDFs of hundreds of pages take a few seconds; a fuzzed 1 KB file kept pdfium busy for minutes.
inline constexpr int kMaxPdfReadSeconds = 30;
// The helper's address space (RLIMIT_AS): QtPdf and its libraries map 70-100 MB of it before
// reading a byte, and pdfium keeps a page's objects at a time. Beyond it allocations fail and the
// helper reports it (or dies, which readPdf reports) instead of taking the machine's memory.
inline constexpr std::int64_t kMaxPdfReaderBytes = std::int64_t(2) << 30;

// Images: width x height, read from the header before decoding. QImageReader's own allocation
// limit (256 MB) is raised to match, so that it never fires first with a vaguer message.
inline constexpr std::int64_t kMaxImagePixels = 50'000'000;

// The settings file (app/core/settings/settingsfile.h): lists and maps inside one another. The
// app's own values nest 3 deep (a preset map in the presets map); QDataStream reads them by
// recursion, and 50,000 nested lists (450 KB) overflowed the stack at every start.
inline constexpr int kMaxSettingsDepth = 64;

} // namespace glosa::limits
