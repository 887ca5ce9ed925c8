// Truecaser: a sentence's first word in the case it has inside a sentence, as Moses' truecaser
// does (scripts/recaser/truecase.perl; Lita et al. 2003, "tRuEcasIng"). A capitalised first word
// ("Hello!", "Teacher") is, for a model trained mostly on running text, a rare spelling it may
// take for a name and spell out ("¡Holalo!"), while "hello!" is a word it knows. The table says
// which words are lower-case in the training data more often than not (tools/truecase_table.py
// counts them there, leaving out sentence-initial words); a first word is lowered only when it
// is in the table, so names ("Madrid", "John") and words the table never saw keep their case.
//
// The change is case-only and keeps the bytes: a word is lowered only where every code point's
// simple lower-case mapping has the same UTF-8 length, so every offset into the lowered text is
// an offset into the user's text (the Translator's ranges, alignments and protected spans).
//
// Basic usage:
//     const Truecaser truecaser = Truecaser::load("resources/models/x/truecase.en");
//     if (auto word = truecaser.sentenceInitialWord("¿Where is it?"))   // none: "where" keeps
//         ...;                                        // word->bytes, word->lowered
//     std::string out = "¡hola!";
//     capitalizeFirstLetter(out);                     // "¡Hola!"
//
// Thread safety: const methods may run concurrently.
#pragma once

#include "engine/text/unicode.h"

#include <optional>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

namespace glosa::engine {

// A sentence's first word and its lower-cased form (the same number of bytes).
struct TruecasedWord
{
    TextSpan bytes;      // where the word is in the sentence given
    std::string lowered; // its text lower-cased
};

class Truecaser
{
public:
    // `words`: lower-case words whose usual form is lower-case.
    explicit Truecaser(const std::vector<std::string> &words);
    // Reads a table: one lower-cased word a line (UTF-8, "\n" or "\r\n"), lines starting with
    // '#' are comments. Throws PackageError naming the file for a missing or unreadable file,
    // one over limits::kMaxTruecaseBytes, invalid UTF-8 or a line with white space in it.
    static Truecaser load(const std::string &path);

    std::size_t size() const { return m_words.size(); }
    bool contains(std::string_view lowerCaseWord) const;

    // The first word of `sentence` (valid UTF-8), after any leading punctuation, symbols and
    // white space ("¡", "¿", quotes), when it should be read lower-cased: it starts with an
    // upper- or title-case letter, has no other capital ("NASA", "McDonald" keep theirs), is not
    // glued to a digit, and its lower-cased form is in the table. std::nullopt otherwise, and
    // when the sentence starts with a digit or has no letter before its first word.
    std::optional<TruecasedWord> sentenceInitialWord(std::string_view sentence) const;

private:
    std::unordered_set<std::string> m_words;
};

// Title-cases the first letter of `text` (valid UTF-8), after any leading punctuation, symbols and
// white space ("¡hola" → "¡Hola"), when it is a lower-case letter whose title-case form has the
// same UTF-8 length; a text whose first letter-or-digit is a digit, or a caseless letter (CJK,
// Arabic), is left as it is. Returns whether it changed `text`.
bool capitalizeFirstLetter(std::string &text);

} // namespace glosa::engine
