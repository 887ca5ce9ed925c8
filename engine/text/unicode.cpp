#include "engine/text/unicode.h"

#include <unicode/bytestream.h>
#include <unicode/edits.h>
#include <unicode/normalizer2.h>
#include <unicode/uchar.h>
#include <unicode/utf8.h>

#include <algorithm>
#include <climits>
#include <cstdio>

namespace glosa::engine {

namespace {

// ICU's string APIs index with int32_t.
void checkLength(std::string_view text)
{
    if (text.size() > static_cast<std::size_t>(INT32_MAX))
        throw std::invalid_argument("text of " + std::to_string(text.size()) +
                                    " bytes is too long (the limit is 2 GiB)");
}

const icu::Normalizer2 &nfc()
{
    UErrorCode status = U_ZERO_ERROR;
    const icu::Normalizer2 *instance = icu::Normalizer2::getNFCInstance(status);
    if (U_FAILURE(status) || !instance)
        throw std::runtime_error(std::string("ICU NFC normaliser unavailable: ") +
                                 u_errorName(status));
    return *instance;
}

void checkIcu(UErrorCode status, const char *what)
{
    if (U_FAILURE(status))
        throw std::runtime_error(std::string(what) + " failed: " + u_errorName(status));
}

} // namespace

std::size_t findInvalidUtf8(std::string_view text)
{
    const auto *s = reinterpret_cast<const unsigned char *>(text.data());
    const std::size_t n = text.size();
    auto continuation = [&](std::size_t i, unsigned char low = 0x80, unsigned char high = 0xbf) {
        return i < n && s[i] >= low && s[i] <= high;
    };
    std::size_t i = 0;
    while (i < n) {
        const unsigned char c = s[i];
        std::size_t length;
        bool ok;
        // Well-formed byte sequences, Unicode 15 table 3-7.
        if (c < 0x80) {
            length = 1;
            ok = true;
        } else if (c >= 0xc2 && c <= 0xdf) {
            length = 2;
            ok = continuation(i + 1);
        } else if (c == 0xe0) {
            length = 3;
            ok = continuation(i + 1, 0xa0) && continuation(i + 2);
        } else if ((c >= 0xe1 && c <= 0xec) || c == 0xee || c == 0xef) {
            length = 3;
            ok = continuation(i + 1) && continuation(i + 2);
        } else if (c == 0xed) { // excludes the surrogates U+D800..U+DFFF
            length = 3;
            ok = continuation(i + 1, 0x80, 0x9f) && continuation(i + 2);
        } else if (c == 0xf0) {
            length = 4;
            ok = continuation(i + 1, 0x90) && continuation(i + 2) && continuation(i + 3);
        } else if (c >= 0xf1 && c <= 0xf3) {
            length = 4;
            ok = continuation(i + 1) && continuation(i + 2) && continuation(i + 3);
        } else if (c == 0xf4) { // up to U+10FFFF
            length = 4;
            ok = continuation(i + 1, 0x80, 0x8f) && continuation(i + 2) && continuation(i + 3);
        } else {
            return i; // stray continuation byte, C0/C1 overlong lead, or F5..FF
        }
        if (!ok)
            return i;
        i += length;
    }
    return std::string_view::npos;
}

void validateUtf8(std::string_view text, const std::string &what)
{
    const std::size_t offset = findInvalidUtf8(text);
    if (offset == std::string_view::npos)
        return;
    char hex[8];
    std::snprintf(hex, sizeof hex, "0x%02x", static_cast<unsigned char>(text[offset]));
    // Up to 20 bytes of context, starting on a character boundary (they are all valid).
    std::size_t from = offset > 20 ? offset - 20 : 0;
    while (from < offset && (static_cast<unsigned char>(text[from]) & 0xc0) == 0x80)
        ++from;
    std::string message =
        what + " is not valid UTF-8: byte " + hex + " at offset " + std::to_string(offset);
    if (offset > 0)
        message += " (after \"" + std::string(text.substr(from, offset - from)) + "\")";
    throw InvalidUtf8Error(message, offset);
}

bool isNfc(std::string_view text)
{
    validateUtf8(text);
    checkLength(text);
    UErrorCode status = U_ZERO_ERROR;
    const bool result = nfc().isNormalizedUTF8(
        icu::StringPiece(text.data(), static_cast<int32_t>(text.size())), status);
    checkIcu(status, "NFC check");
    return result;
}

std::string toNfc(std::string_view text)
{
    return NormalizedText(text).text();
}

NormalizedText::NormalizedText(std::string_view original) : m_originalSize(original.size())
{
    validateUtf8(original);
    checkLength(original);
    UErrorCode status = U_ZERO_ERROR;
    icu::Edits edits;
    icu::StringByteSink<std::string> sink(&m_text, static_cast<int32_t>(original.size()));
    nfc().normalizeUTF8(0, icu::StringPiece(original.data(), static_cast<int32_t>(original.size())),
                        sink, &edits, status);
    checkIcu(status, "NFC normalisation");
    // Coarse changes: adjacent rewritten regions merge into one, which is what offset mapping
    // needs (no offset can be placed meaningfully between them).
    icu::Edits::Iterator it = edits.getCoarseChangesIterator();
    while (it.next(status)) {
        m_edits.push_back({static_cast<std::size_t>(it.sourceIndex()),
                           static_cast<std::size_t>(it.sourceIndex() + it.oldLength()),
                           static_cast<std::size_t>(it.destinationIndex()),
                           static_cast<std::size_t>(it.destinationIndex() + it.newLength())});
    }
    checkIcu(status, "NFC edit iteration");
}

std::size_t NormalizedText::map(std::size_t offset, bool isEnd) const
{
    offset = std::min(offset, m_text.size());
    // The first edit that ends after `offset`: everything before it is a fixed shift.
    const auto it =
        std::upper_bound(m_edits.begin(), m_edits.end(), offset,
                         [](std::size_t o, const Edit &e) { return o < e.normalizedEnd; });
    if (it != m_edits.end() && offset > it->normalizedBegin) // strictly inside a changed region
        return isEnd ? it->originalEnd : it->originalBegin;
    if (it == m_edits.begin())
        return offset;
    const Edit &previous = *(it - 1);
    return offset - previous.normalizedEnd + previous.originalEnd;
}

std::size_t NormalizedText::toOriginalBegin(std::size_t offset) const
{
    return map(offset, false);
}

std::size_t NormalizedText::toOriginalEnd(std::size_t offset) const
{
    return map(offset, true);
}

TextSpan NormalizedText::toOriginal(TextSpan span) const
{
    const std::size_t begin = map(span.begin, false);
    if (span.empty())
        return {begin, begin};
    return {begin, std::max(begin, map(span.end, true))};
}

Utf8Offsets::Utf8Offsets(std::string_view text)
{
    validateUtf8(text);
    checkLength(text);
    m_codePoints.resize(text.size() + 1);
    m_utf16.resize(text.size() + 1);
    std::uint32_t codePoints = 0;
    std::uint32_t units = 0;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const auto c = static_cast<unsigned char>(text[i]);
        if ((c & 0xc0) != 0x80) { // a lead byte starts a character
            ++codePoints;
            units += c >= 0xf0 ? 2 : 1; // 4-byte sequences are supplementary: a surrogate pair
        }
        m_codePoints[i + 1] = codePoints;
        m_utf16[i + 1] = units;
    }
}

std::size_t Utf8Offsets::codePoint(std::size_t byteOffset) const
{
    if (byteOffset >= m_codePoints.size())
        throw std::out_of_range("byte offset " + std::to_string(byteOffset) + " past the end of " +
                                std::to_string(m_codePoints.size() - 1) + " bytes");
    return m_codePoints[byteOffset];
}

std::size_t Utf8Offsets::utf16(std::size_t byteOffset) const
{
    if (byteOffset >= m_utf16.size())
        throw std::out_of_range("byte offset " + std::to_string(byteOffset) + " past the end of " +
                                std::to_string(m_utf16.size() - 1) + " bytes");
    return m_utf16[byteOffset];
}

bool isWhiteSpace(char32_t codePoint)
{
    return u_isUWhiteSpace(static_cast<UChar32>(codePoint));
}

TextSpan trimWhiteSpace(std::string_view text, TextSpan span)
{
    const auto *s = reinterpret_cast<const uint8_t *>(text.data());
    const auto end = static_cast<int32_t>(std::min(span.end, text.size()));
    auto begin = static_cast<int32_t>(std::min<std::size_t>(span.begin, end));
    while (begin < end) {
        int32_t next = begin;
        UChar32 c;
        U8_NEXT(s, next, end, c);
        if (c < 0 || !u_isUWhiteSpace(c))
            break;
        begin = next;
    }
    int32_t last = end;
    while (last > begin) {
        int32_t previous = last;
        UChar32 c;
        U8_PREV(s, begin, previous, c);
        if (c < 0 || !u_isUWhiteSpace(c))
            break;
        last = previous;
    }
    if (begin == end) // all white space: empty at the end of the span
        return {static_cast<std::size_t>(end), static_cast<std::size_t>(end)};
    return {static_cast<std::size_t>(begin), static_cast<std::size_t>(last)};
}

} // namespace glosa::engine
