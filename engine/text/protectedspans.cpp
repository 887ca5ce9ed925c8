#include "engine/text/protectedspans.h"

#include <unicode/uregex.h>
#include <unicode/utext.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <iterator>
#include <stdexcept>

namespace glosa::engine {

namespace {

// One alternative per kind, in priority order (the leftmost match wins, then the first
// alternative). Keep equal to tools/glosa/data/spans.py's _PATTERNS (ICU syntax here: \x{...}).
constexpr std::array<const char *, 9> kKinds = {"private",     "url",   "email",  "code",  "tag",
                                                "placeholder", "emoji", "number", "symbol"};

const char kEmojiChar[] =
    R"([\x{1F000}-\x{1FAFF}\x{2600}-\x{27BF}\x{2B00}-\x{2BFF}\x{2300}-\x{23FF}])";
const char kUnits[] = "%|‰|€|\\$|£|¥|°[CF]?|km/h|km²|m²|m³|km|cm|mm|µm|nm|kg|mg|g|ml|l|KiB|MiB|"
                      "GiB|TiB|KB|MB|GB|TB|kB|Kbps|Mbps|Gbps|GHz|MHz|kHz|Hz|ms|px|pt|dpi|mAh|kWh|"
                      "kW|W|V";

// `pattern` with \d, \w and \s outside brackets written as the sets [\d], [\w] and [\s]: the
// same characters, but ICU (72) repeats a set without saving a backtracking state per
// character, while "\d+" saves one each, so a 64 KB number overflowed the matcher's stack
// (U_REGEX_STACK_OVERFLOW, and the document could not be read).
std::string setLoops(const std::string &pattern)
{
    std::string out;
    bool inSet = false;
    for (std::size_t i = 0; i < pattern.size(); ++i) {
        const char c = pattern[i];
        if (c == '\\' && i + 1 < pattern.size()) {
            const char next = pattern[++i];
            const bool wrap = !inSet && (next == 'd' || next == 'w' || next == 's');
            out += wrap ? std::string("[\\") + next + "]" : std::string("\\") + next;
            continue;
        }
        if (c == '[')
            inSet = true;
        else if (c == ']')
            inSet = false;
        out += c;
    }
    return out;
}

std::string rules()
{
    const std::string emoji = std::string(kEmojiChar) +
                              R"((?:[\x{FE0F}\x{200D}\x{1F3FB}-\x{1F3FF}]|)" + kEmojiChar + ")*";
    const std::string number = std::string(R"((?:[$€£¥]\s?)?(?<![\w.,])[+-]?\d+(?:[.,:/-]\d+)*)") +
                               R"((?:\s?(?:)" + kUnits + R"())?(?!\w))";
    const std::array<std::string, kKinds.size()> alternatives = {
        R"([\x{E000}-\x{F8FF}])",
        R"((?:(?:https?|ftp)://|www\.)[^\s<>"'`]*[^\s<>"'`.,;:!?)\]}])",
        // Starts only where a run of address characters starts, or where the last match ended:
        // anywhere else in a run the match one character earlier would have won, so this is
        // the same rule without scanning the rest of the run again from every character of it
        // (a 64 KB word never finished).
        R"((?:(?<![\w.+-])|\G)[\w.+-]+@[\w-]+(?:\.[\w-]+)+)",
        R"(`[^`\n]+`)",
        R"(</?[A-Za-z][\w:-]*(?:\s[^<>]*)?/?>)",
        // A width starts with 1-9 ('0' is a flag): the same texts as "[-+ #0]*\d*", whose two
        // ways to take a '0' made "%000..." try every split of the zeros.
        R"(%\(\w+\)[sd]|%\d+\$[-+ #0]*(?:[1-9]\d*)?(?:\.\d+)?[sdifuxXcpeEgG@]|)"
        R"(%[-+ #0]*(?:[1-9]\d*)?(?:\.\d+)?[sdifuxXcpeEgG@]|%\d+|\$\{\w+\}|\{\{?\w*\}?\})",
        emoji,
        number,
        // Typographic marks a model has no words for (and a document wants unchanged).
        R"([&§¶†‡•©®™])",
    };
    std::string all;
    for (const std::string &alternative : alternatives)
        all += (all.empty() ? "(" : "|(") + alternative + ")";
    return setLoops(all);
}

void check(UErrorCode status, const char *what)
{
    if (U_FAILURE(status))
        throw std::runtime_error(std::string("SpanProtector: ") + what + ": " +
                                 u_errorName(status));
}

void appendUtf8(std::string &out, char32_t c)
{
    if (c < 0x80) {
        out += static_cast<char>(c);
    } else if (c < 0x800) {
        out += static_cast<char>(0xC0 | (c >> 6));
        out += static_cast<char>(0x80 | (c & 0x3F));
    } else if (c < 0x10000) {
        out += static_cast<char>(0xE0 | (c >> 12));
        out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (c & 0x3F));
    } else {
        out += static_cast<char>(0xF0 | (c >> 18));
        out += static_cast<char>(0x80 | ((c >> 12) & 0x3F));
        out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (c & 0x3F));
    }
}

// Placeholders are three-byte sequences EE 80 80..EE 80 BF (U+E000..U+E03F are all we use).
int placeholderAt(std::string_view text, std::size_t i)
{
    if (i + 3 > text.size() || static_cast<unsigned char>(text[i]) != 0xEE ||
        static_cast<unsigned char>(text[i + 1]) != 0x80)
        return -1;
    const unsigned char last = static_cast<unsigned char>(text[i + 2]);
    return last >= 0x80 && last <= 0xBF ? last - 0x80 : -1;
}

} // namespace

struct SpanProtector::Pattern
{
    URegularExpression *regex = nullptr;
    ~Pattern() { uregex_close(regex); }
};

SpanProtector::SpanProtector() : m_pattern(std::make_unique<Pattern>())
{
    const std::string pattern = rules();
    UErrorCode status = U_ZERO_ERROR;
    UParseError parseError;
    UText *text =
        utext_openUTF8(nullptr, pattern.data(), static_cast<int64_t>(pattern.size()), &status);
    check(status, "reading the rules");
    m_pattern->regex = uregex_openUText(text, 0, &parseError, &status);
    utext_close(text);
    check(status, "compiling the rules");
}

SpanProtector::~SpanProtector() = default;

std::vector<ProtectedSpan> SpanProtector::find(std::string_view text) const
{
    // A clone per call: a URegularExpression holds its match state, the pattern is shared.
    UErrorCode status = U_ZERO_ERROR;
    URegularExpression *regex = uregex_clone(m_pattern->regex, &status);
    check(status, "cloning the rules");
    const std::unique_ptr<URegularExpression, void (*)(URegularExpression *)> owner(regex,
                                                                                    uregex_close);
    UText *utext = utext_openUTF8(nullptr, text.data(), static_cast<int64_t>(text.size()), &status);
    const std::unique_ptr<UText, UText *(*)(UText *)> textOwner(utext, utext_close);
    check(status, "reading the text");
    uregex_setUText(regex, utext, &status);
    check(status, "reading the text");

    std::vector<ProtectedSpan> spans;
    while (uregex_findNext(regex, &status)) {
        check(status, "matching");
        ProtectedSpan span;
        // Native indexes of a UTF-8 UText are byte offsets.
        span.bytes = {static_cast<std::size_t>(uregex_start64(regex, 0, &status)),
                      static_cast<std::size_t>(uregex_end64(regex, 0, &status))};
        for (int group = 1; group <= static_cast<int>(kKinds.size()); ++group) {
            if (uregex_start64(regex, group, &status) >= 0) {
                span.kind = kKinds[group - 1];
                break;
            }
        }
        check(status, "matching");
        if (span.bytes.end > span.bytes.begin)
            spans.push_back(std::move(span));
    }
    // A repetition of a group saves a state each time (tens of thousands of "1.1.1..." or
    // "a@b.b.b..."): past ICU's stack limit the rest of the text keeps no spans, and is still
    // translated, where an exception would lose the whole document.
    if (status == U_REGEX_STACK_OVERFLOW)
        return spans;
    check(status, "matching");
    return spans;
}

namespace {
// A term is a whole word: no letter or digit (nor a byte of a multi-byte character) touches it.
bool wordByte(unsigned char c)
{
    return c >= 0x80 || std::isalnum(c) || c == '_';
}
} // namespace

std::vector<ProtectedSpan> SpanProtector::find(std::string_view text,
                                               const std::vector<std::string> &terms) const
{
    std::vector<ProtectedSpan> spans = find(text);
    if (terms.empty())
        return spans;
    // Every occurrence of every term; then, left to right, the longest one that does not overlap
    // one already kept.
    std::vector<TextSpan> found;
    for (const std::string &term : terms) {
        if (term.empty())
            continue;
        for (std::size_t at = text.find(term); at != std::string_view::npos;
             at = text.find(term, at + 1)) {
            const std::size_t end = at + term.size();
            const bool startsWord = !wordByte(static_cast<unsigned char>(term.front())) ||
                                    at == 0 || !wordByte(static_cast<unsigned char>(text[at - 1]));
            const bool endsWord = !wordByte(static_cast<unsigned char>(term.back())) ||
                                  end == text.size() ||
                                  !wordByte(static_cast<unsigned char>(text[end]));
            if (startsWord && endsWord)
                found.push_back({at, end});
        }
    }
    std::sort(found.begin(), found.end(), [](const TextSpan &a, const TextSpan &b) {
        return a.begin != b.begin ? a.begin < b.begin : a.size() > b.size();
    });
    std::vector<ProtectedSpan> merged;
    std::size_t keptEnd = 0;
    for (const TextSpan &term : found) {
        if (term.begin < keptEnd)
            continue;
        merged.push_back({term, "term"});
        keptEnd = term.end;
    }
    // The rules' spans that no term overlaps, in order.
    for (ProtectedSpan &span : spans) {
        const auto after = std::lower_bound(
            merged.begin(), merged.end(), span.bytes.end,
            [](const ProtectedSpan &t, std::size_t end) { return t.bytes.begin < end; });
        const bool overlaps = after != merged.begin() && std::prev(after)->kind == "term" &&
                              std::prev(after)->bytes.end > span.bytes.begin;
        if (!overlaps)
            merged.insert(after, std::move(span));
    }
    return merged;
}

std::string placeholderText(int k)
{
    if (k < 0 || k >= 64)
        throw std::out_of_range("placeholderText: " + std::to_string(k) + " is not in [0, 64)");
    std::string out;
    appendUtf8(out, kPlaceholderBase + static_cast<char32_t>(k));
    return out;
}

int placeholderIndex(std::string_view piece)
{
    const std::string_view wordStart = "\xe2\x96\x81";
    if (piece.substr(0, wordStart.size()) == wordStart)
        piece.remove_prefix(wordStart.size());
    return piece.size() == 3 ? placeholderAt(piece, 0) : -1;
}

std::string restoreSpans(std::string_view text, const std::vector<std::string> &spans,
                         bool appendMissing)
{
    std::string out;
    out.reserve(text.size());
    std::vector<bool> seen(spans.size(), false);
    for (std::size_t i = 0; i < text.size();) {
        const int k = placeholderAt(text, i);
        if (k < 0) {
            out += text[i++];
            continue;
        }
        i += 3;
        if (static_cast<std::size_t>(k) < spans.size() && !seen[k]) {
            seen[k] = true;
            out += spans[k];
        } else if (i < text.size() && text[i] == ' ' && (out.empty() || out.back() == ' ')) {
            ++i; // a dropped copy takes one of the spaces around it along
        }
    }
    if (appendMissing) {
        for (std::size_t k = 0; k < spans.size(); ++k) {
            if (seen[k])
                continue;
            while (!out.empty() && out.back() == ' ')
                out.pop_back();
            if (!out.empty())
                out += ' ';
            out += spans[k];
        }
    }
    return out;
}

} // namespace glosa::engine
