// SentenceSplitter: sentence boundaries of UTF-8 text for a given language (ICU BreakIterator with
// CLDR abbreviation suppressions, "Dr. Smith" / "Sr. García" stay one sentence).
//
// Basic usage:
//     glosa::engine::SentenceSplitter splitter("es");
//     for (TextSpan s : splitter.split(text))       // byte ranges into `text`
//         translate(text.substr(s.begin, s.size()));
//
// The spans index the caller's string as given (no normalisation), so the caller rebuilds its
// document exactly: each span is trimmed of leading and trailing white space, and the text
// between spans (and before the first / after the last) is white space only — spaces, tabs and
// newlines that the caller copies through untouched. White-space-only input yields no spans.
// A line break always ends a sentence (ICU treats paragraph separators as hard breaks).
#pragma once

#include "engine/text/unicode.h"

#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace glosa::engine {

class SentenceSplitter
{
public:
    // `language` is a BCP 47 tag or ICU locale id ("en", "es", "pt-BR", "es_MX"); languages ICU
    // has no rules for get the root rules. Throws std::runtime_error when ICU cannot build an
    // iterator.
    explicit SentenceSplitter(const std::string &language);
    ~SentenceSplitter();
    SentenceSplitter(SentenceSplitter &&) noexcept;
    SentenceSplitter &operator=(SentenceSplitter &&) noexcept;

    const std::string &language() const;

    // Sentences of `text` in order, as trimmed byte spans (see the file comment). Throws
    // InvalidUtf8Error for ill-formed input. Safe to call from several threads at once.
    std::vector<TextSpan> split(std::string_view text) const;

private:
    struct Private;
    std::unique_ptr<Private> d;
};

// One-off convenience: SentenceSplitter(language).split(text).
std::vector<TextSpan> splitSentences(std::string_view text, const std::string &language);

} // namespace glosa::engine
