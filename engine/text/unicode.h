// Unicode helpers for UTF-8 text: validation with the offending byte offset, NFC normalisation
// that remembers how to map offsets back to the caller's original string, and conversion of byte
// offsets into code point and UTF-16 offsets (the positions a QString uses).
//
// Basic usage:
//     glosa::engine::validateUtf8(text);                  // throws InvalidUtf8Error
//     glosa::engine::NormalizedText nfc(text);            // validates, then NFC
//     TextSpan original = nfc.toOriginal({3, 5});        // bytes of nfc.text() → bytes of text
//     glosa::engine::Utf8Offsets offsets(text);
//     std::size_t qtPosition = offsets.utf16(original.begin);
//
// Everything here is ICU-based and Qt-free; the engine never hands ICU types to its callers.
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace glosa::engine {

// A half-open range [begin, end) of offsets into a string (bytes, code points or UTF-16 units,
// as the owner says).
struct TextSpan
{
    std::size_t begin = 0;
    std::size_t end = 0;

    std::size_t size() const { return end - begin; }
    bool empty() const { return begin == end; }
    bool operator==(const TextSpan &) const = default;
};

// Thrown for ill-formed UTF-8. offset() is the byte offset of the first byte of the ill-formed
// sequence.
class InvalidUtf8Error : public std::invalid_argument
{
public:
    InvalidUtf8Error(const std::string &message, std::size_t offset)
        : std::invalid_argument(message), m_offset(offset)
    {
    }
    std::size_t offset() const { return m_offset; }

private:
    std::size_t m_offset;
};

// The byte offset of the first ill-formed UTF-8 sequence (overlong forms, surrogates, code
// points above U+10FFFF, stray or missing continuation bytes, truncation), or npos when `text`
// is well-formed. Embedded NUL bytes are well-formed.
std::size_t findInvalidUtf8(std::string_view text);
// Throws InvalidUtf8Error: "<what> is not valid UTF-8: byte 0xff at offset 12 (after "abc")".
void validateUtf8(std::string_view text, const std::string &what = "text");

// NFC (canonical composition). Both validate first and throw InvalidUtf8Error.
bool isNfc(std::string_view text);
std::string toNfc(std::string_view text);

// NFC text that can map its offsets back to the string it was made from. Offsets outside
// changed regions map exactly; an offset inside a region NFC rewrote (e.g. "e" + U+0301 → "é")
// widens to the whole region, so a span of the normalised text always maps to the smallest span
// of the original that produced it.
class NormalizedText
{
public:
    // Validates `original` (InvalidUtf8Error) and normalises it to NFC.
    explicit NormalizedText(std::string_view original);

    const std::string &text() const { return m_text; }
    bool changed() const { return !m_edits.empty(); }
    std::size_t originalSize() const { return m_originalSize; }

    // Byte offsets of text() → byte offsets of the original; offsets past the end clamp to it.
    std::size_t toOriginalBegin(std::size_t offset) const; // inside a changed region: its start
    std::size_t toOriginalEnd(std::size_t offset) const;   // inside a changed region: its end
    // An empty span stays empty (both ends map as a begin).
    TextSpan toOriginal(TextSpan span) const;

private:
    struct Edit // a region NFC changed, in bytes
    {
        std::size_t originalBegin, originalEnd, normalizedBegin, normalizedEnd;
    };
    std::size_t map(std::size_t offset, bool isEnd) const;

    std::string m_text;
    std::size_t m_originalSize = 0;
    std::vector<Edit> m_edits; // sorted, non-overlapping
};

// Byte offsets of a valid UTF-8 string → code point and UTF-16 offsets. Building it is O(n);
// each lookup is O(1). An offset inside a multi-byte sequence counts the characters that start
// before it.
class Utf8Offsets
{
public:
    explicit Utf8Offsets(std::string_view text); // throws InvalidUtf8Error
    std::size_t codePoint(std::size_t byteOffset) const;
    std::size_t utf16(std::size_t byteOffset) const;
    TextSpan codePoints(TextSpan bytes) const
    {
        return {codePoint(bytes.begin), codePoint(bytes.end)};
    }
    TextSpan utf16(TextSpan bytes) const { return {utf16(bytes.begin), utf16(bytes.end)}; }

private:
    std::vector<std::uint32_t> m_codePoints; // [bytes + 1]
    std::vector<std::uint32_t> m_utf16;      // [bytes + 1]
};

// Unicode White_Space (space, tab, newlines, NBSP, U+2028, ideographic space, ...).
bool isWhiteSpace(char32_t codePoint);
// Shrinks `span` (bytes of valid UTF-8 `text`) past leading and trailing white space; an
// all-white span becomes empty at its end.
TextSpan trimWhiteSpace(std::string_view text, TextSpan span);

} // namespace glosa::engine
