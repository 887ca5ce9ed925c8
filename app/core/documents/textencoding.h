// Text files that are not UTF-8: Latin-1 / Windows-1252 and the other single-byte encodings
// ICU's charset detector recognises, GB18030, Big5, Shift_JIS, EUC-JP and EUC-KR when it is sure
// enough, and UTF-16 (with a byte-order mark, or told by its NUL bytes). The readers work on UTF-8, so
// such a file is converted when read and converted back when written (documents/formats.h).
//
// Basic usage:
//     const QString encoding = detectEncoding(bytes);  // "UTF-8", "windows-1252", "UTF-16LE", ...
//     const QByteArray utf8 = decodeText(bytes, encoding, "notes.txt"); // DocumentError if not
//     std::optional<QByteArray> back = encodeText(utf8, encoding); // nullopt: a character does
//                                                                   // not fit (write UTF-8)
#pragma once

#include <QByteArray>
#include <QString>

#include <optional>

namespace glosa::documents {

// "UTF-8" for UTF-8 (with or without a BOM, and for `bytes` that are only the start of a file
// cut inside a character when `truncated`), "UTF-16LE" / "UTF-16BE" after a byte-order mark or
// when every NUL byte falls on one side of the 16-bit units and the text converts, else
// the most likely encoding ICU's detector (ucsdet) names that converts the text, e.g.
// "ISO-8859-1", "windows-1252" or "GB18030"; a multi-byte one only with a confidence of
// kMinMultiByteConfidence or more. Empty when none fits (binary data, or bytes no encoding
// explains). `confidence` (0-100) is the detector's, 100 for the rest.
QString detectEncoding(const QByteArray &bytes, bool truncated = false,
                       int *confidence = nullptr);

// The detector's confidence (of 100) below which a multi-byte encoding is not taken.
extern const int kMinMultiByteConfidence;

// What detectEncoding() says for UTF-8 text with a few bytes that are not (at least one
// well-formed multi-byte character, at most one bad byte in ten of them): decodeText() puts
// U+FFFD in their place, and the document is UTF-8 from then on.
extern const QString kRepairedUtf8;

// `bytes` in `encoding` (as detectEncoding names it) as UTF-8; a byte-order mark becomes UTF-8's.
// `bytes` as they are for "UTF-8". Throws DocumentError naming `name` when a byte has no
// character in the encoding or the text holds control characters. For kRepairedUtf8, `notice`
// (when given) is set to a sentence naming the lines whose bytes were replaced.
QByteArray decodeText(const QByteArray &bytes, const QString &encoding, const QString &name,
                      QString *notice = nullptr);

// UTF-8 `utf8` in `encoding`; nullopt when a character has no representation in it.
std::optional<QByteArray> encodeText(const QByteArray &utf8, const QString &encoding);

// detectEncoding() of the start of the file at `path` (64 KiB): what decides whether a .txt or
// .srt can be streamed a chunk at a time (only UTF-8 can). Empty when it cannot be read.
QString detectFileEncoding(const QString &path);

// "Windows-1252", "ISO-8859-1", "UTF-16LE": how the UI and messages name an encoding.
QString encodingDisplayName(const QString &encoding);

} // namespace glosa::documents
