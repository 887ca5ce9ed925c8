// Protected spans: the parts of a sentence that must come through translation unchanged — URLs,
// e-mail addresses, numbers (with separators and symbol units: "1,250.99", "10:30", "20%",
// "2.5 km"), emoji, inline code, markup tags, format placeholders ("%1", "%1$s", "{name}", "${x}"),
// private-use characters and typographic marks ("&", "©", "§").
//
// The Translator replaces each one by a placeholder character (U+E000 + k, one vocabulary piece
// in models trained for it, model.json hyperparameter "placeholders"), lets the model place the
// placeholders, and puts the spans back (restoreSpans). The rules are those the training data was
// made with (tools/glosa_spans.py); tst_protectedspans checks both against one table,
// tests/data/protected-spans/cases.tsv.
//
// Basic usage:
//     SpanProtector protector;                                   // compiles the rules once
//     for (const ProtectedSpan &s : protector.find("Costs 90 € at https://x.org"))
//         ...                                                    // s.bytes, s.kind
//
// Thread safety: find() is const and may run concurrently.
#pragma once

#include "engine/text/unicode.h"

#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace glosa::engine {

struct ProtectedSpan
{
    TextSpan bytes;   // UTF-8 byte offsets in the text given to find()
    // "private", "url", "email", "code", "tag", "placeholder", "emoji", "number", "symbol", or
    // "term" (one of the caller's terms)
    std::string kind;
};

class SpanProtector
{
public:
    SpanProtector();
    ~SpanProtector();
    SpanProtector(const SpanProtector &) = delete;
    SpanProtector &operator=(const SpanProtector &) = delete;

    // The spans of `text`, left to right, not overlapping. `text` must be valid UTF-8.
    std::vector<ProtectedSpan> find(std::string_view text) const;
    // The same, and every occurrence of one of `terms` (a do-not-translate list,
    // DecodingOptions::keepTerms) as a whole word, case-sensitive: where a term and a rule's span
    // overlap the term wins, and of two terms at one place the longer.
    std::vector<ProtectedSpan> find(std::string_view text,
                                    const std::vector<std::string> &terms) const;

private:
    struct Pattern;
    std::unique_ptr<Pattern> m_pattern;
};

// First placeholder code point; placeholder k is U+E000 + k.
inline constexpr char32_t kPlaceholderBase = 0xE000;
// The UTF-8 text of placeholder k.
std::string placeholderText(int k);
// k when `piece` (a vocabulary piece, "▁" prefix allowed) is exactly placeholder k, else -1.
int placeholderIndex(std::string_view piece);

// `text` with placeholder k replaced by spans[k]: the first copy of each placeholder becomes its
// span, later copies are dropped, and when `appendMissing` the spans the text lost are appended
// (separated by a space), so that every span appears exactly once. Placeholders k >= spans.size()
// are dropped.
std::string restoreSpans(std::string_view text, const std::vector<std::string> &spans,
                         bool appendMissing);

} // namespace glosa::engine
