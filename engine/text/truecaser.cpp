#include "engine/text/truecaser.h"

#include "engine/limits.h"
#include "engine/packageerror.h"

#include <unicode/uchar.h>
#include <unicode/utf8.h>

#include <filesystem>
#include <fstream>
#include <iterator>

namespace glosa::engine {

namespace {

// One code point of valid UTF-8 `text` at `at`; `at` moves past it.
UChar32 nextCodePoint(std::string_view text, std::size_t &at)
{
    UChar32 c = 0;
    U8_NEXT_UNSAFE(reinterpret_cast<const std::uint8_t *>(text.data()), at, c);
    return c;
}

bool isLetter(UChar32 c)
{
    return (U_GET_GC_MASK(c) & U_GC_L_MASK) != 0;
}

bool isWordPart(UChar32 c) // a letter or a combining mark
{
    return (U_GET_GC_MASK(c) & (U_GC_L_MASK | U_GC_M_MASK)) != 0;
}

bool isCapital(UChar32 c)
{
    return u_isupper(c) || u_istitle(c);
}

// Where the first letter or digit of `text` starts (text.size() when there is none): what comes
// before it is punctuation, symbols and white space ("¡", "¿", "«", "(").
std::size_t firstLetterOrDigit(std::string_view text)
{
    for (std::size_t at = 0; at < text.size();) {
        const std::size_t start = at;
        const UChar32 c = nextCodePoint(text, at);
        if (U_GET_GC_MASK(c) & (U_GC_L_MASK | U_GC_N_MASK))
            return start;
    }
    return text.size();
}

void appendUtf8(std::string &out, UChar32 c)
{
    char buffer[U8_MAX_LENGTH];
    std::size_t length = 0;
    U8_APPEND_UNSAFE(buffer, length, c);
    out.append(buffer, length);
}

} // namespace

Truecaser::Truecaser(const std::vector<std::string> &words) : m_words(words.begin(), words.end()) {}

Truecaser Truecaser::load(const std::string &path)
{
    std::error_code error;
    const std::uintmax_t bytes = std::filesystem::file_size(path, error);
    if (error)
        throw PackageError(path, {}, "cannot read the truecase table: " + error.message());
    if (bytes > limits::kMaxTruecaseBytes)
        throw PackageError(path, {},
                           "the truecase table has " + std::to_string(bytes) +
                               " bytes, more than the limit of " +
                               std::to_string(limits::kMaxTruecaseBytes));
    std::ifstream file(path, std::ios::binary);
    std::string text((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
    if (!file.good() && !file.eof())
        throw PackageError(path, {}, "cannot read the truecase table");
    if (const std::size_t bad = findInvalidUtf8(text); bad != std::string::npos)
        throw PackageError(path, {},
                           "the truecase table is not valid UTF-8 (byte offset " +
                               std::to_string(bad) + ")");
    std::vector<std::string> words;
    std::size_t lineNumber = 0;
    for (std::size_t begin = 0; begin < text.size();) {
        std::size_t end = text.find('\n', begin);
        if (end == std::string::npos)
            end = text.size();
        std::string_view line(text.data() + begin, end - begin);
        begin = end + 1;
        ++lineNumber;
        if (!line.empty() && line.back() == '\r')
            line.remove_suffix(1);
        if (line.empty() || line.front() == '#')
            continue;
        if (line.find_first_of(" \t\r\v\f") != std::string_view::npos)
            throw PackageError(path, {},
                               "line " + std::to_string(lineNumber) +
                                   ": white space in a word (expected one word a line)");
        words.emplace_back(line);
    }
    return Truecaser(words);
}

bool Truecaser::contains(std::string_view lowerCaseWord) const
{
    return m_words.find(std::string(lowerCaseWord)) != m_words.end();
}

std::optional<TruecasedWord> Truecaser::sentenceInitialWord(std::string_view sentence) const
{
    const std::size_t begin = firstLetterOrDigit(sentence);
    std::size_t end = begin;
    TruecasedWord word;
    while (end < sentence.size()) {
        std::size_t next = end;
        const UChar32 c = nextCodePoint(sentence, next);
        if (!isWordPart(c))
            break;
        // The first code point a capital letter, none of the others one ("NASA", "McDonald",
        // "iPhone" keep their case).
        if (end == begin ? !isLetter(c) || !isCapital(c) : isCapital(c))
            return std::nullopt;
        const UChar32 lower = u_tolower(c);
        if (U8_LENGTH(lower) != static_cast<int>(next - end))
            return std::nullopt; // the bytes would move: the offsets must not
        appendUtf8(word.lowered, lower);
        end = next;
    }
    if (end == begin)
        return std::nullopt; // a digit or nothing first
    if (end < sentence.size()) {
        std::size_t next = end;
        const UChar32 c = nextCodePoint(sentence, next);
        if (c == '_' || (U_GET_GC_MASK(c) & U_GC_N_MASK))
            return std::nullopt; // an identifier ("Win32", "Foo_bar")
    }
    if (!contains(word.lowered))
        return std::nullopt;
    word.bytes = {begin, end};
    return word;
}

bool capitalizeFirstLetter(std::string &text)
{
    const std::size_t begin = firstLetterOrDigit(text);
    if (begin == text.size())
        return false;
    std::size_t next = begin;
    const UChar32 c = nextCodePoint(text, next);
    if (!u_islower(c))
        return false; // a digit, a capital already, or a caseless letter
    const UChar32 title = u_totitle(c);
    if (title == c || U8_LENGTH(title) != static_cast<int>(next - begin))
        return false;
    std::string replacement;
    appendUtf8(replacement, title);
    text.replace(begin, replacement.size(), replacement);
    return true;
}

} // namespace glosa::engine
