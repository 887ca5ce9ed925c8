// LanguageGuess: which language a text is written in, from character-trigram profiles (Cavnar and
// Trenkle's idea, scored as naive Bayes: each trigram's smoothed frequency in each language's
// profile). Cheap: a paragraph takes microseconds, so the Translate view can check the text before
// every automatic translation and warn rather than run Spanish through an English model.
//
// Basic usage:
//     const glosa::LanguageGuess &guess = glosa::LanguageGuess::bundled();
//     if (guess.knows(model.sourceLanguage)) {
//         const QString language = guess.guess(text);   // "" when unsure
//         if (!language.isEmpty() && language != model.sourceLanguage)
//             warn(language);
//     }
//
// The bundled profiles come from the bundled evaluation samples (resources/eval: both columns),
// so every language with a sample there is known; a language without one is never guessed.
//
// checkSourceLanguage() at the end is the language guard: the one check, with the one threshold
// (the constants below, measured in docs/robustness.md "The language guard"), that every place
// which translates a user's text runs first: the Translate and Documents views, glosa-cli
// translate and translate-doc.
#pragma once

#include "app/core/models/modelcatalog.h"

#include <QHash>
#include <QString>
#include <QStringList>

#include <functional>
#include <optional>

namespace glosa::engine {
struct TestSet;
}

namespace glosa {

class LanguageGuess
{
public:
    // Texts with fewer letter trigrams than this get no guess: a word or two is too little to tell
    // English from Spanish ("no", "a", "me" are both). Measured on the dev sets
    // (docs/robustness.md, "The language guard"): 8 catches 98% of single Spanish sentences given
    // to an English model where 16 caught 84%, with no more false alarms.
    static constexpr int kMinTrigrams = 8;
    // Nor does a single word, however long: a name ("Barcelona", "Guadalajara") reads as the
    // language it comes from.
    static constexpr int kMinWords = 2;
    // The best language must beat the second by this many nats a trigram on average; mixed or
    // unusual text (names, code, numbers, a quotation in the other language) falls under it and
    // gets no guess. 0.5 halves the false alarms on a sentence with a shorter quotation that 0.35
    // gave, for 1% more missed sentences.
    static constexpr double kMinMarginPerTrigram = 0.5;
    // Only the start of a long text is read: the first few thousand trigrams say as much as all.
    static constexpr qsizetype kSampleChars = 4000;

    // Profiles of the bundled samples' languages (built once, on first use; thread-safe).
    static const LanguageGuess &bundled();

    // Adds (or extends) the profile of `language` with `texts`.
    void addProfile(const QString &language, const QStringList &texts);
    bool knows(const QString &language) const { return m_profiles.contains(language); }
    QStringList languages() const { return m_profiles.keys(); }

    // The language `text` is most likely written in, or "" when it is too short or no profile is
    // clearly the most likely (see the constants above).
    QString guess(const QString &text) const
    {
        return guess(text, kMinTrigrams, kMinMarginPerTrigram);
    }
    // The same with other thresholds: only for measuring them (tests/benchmarks/
    // bench_languageguard.cpp); everything else uses the ones above.
    QString guess(const QString &text, int minTrigrams, double minMarginPerTrigram) const;

private:
    struct Profile
    {
        QHash<QString, int> counts; // trigram → occurrences
        qint64 total = 0;
    };
    QHash<QString, Profile> m_profiles;
    QHash<QString, bool> m_vocabulary; // every trigram of every profile (the smoothing's size)
};

// The letter trigrams of `text`, as profiled: lower-cased, runs of anything but letters turned
// into one space, each word padded with a space on either side ("the" → " th", "the", "he ").
QStringList letterTrigrams(const QString &text);

// What the language guard found: the text looks like `language`, not like the model's source
// language, and `offer` is the model for the direction the text asks for (when one is installed).
struct LanguageMismatch
{
    QString language; // "" when the text looks like the model's source language, or no guess
    std::optional<ModelInfo> offer;
    bool found() const { return !language.isEmpty(); }
};

// The model a caller would use for `source` → `target` (AppContext::modelForDirection in the GUI,
// ModelCatalog::defaultModel in glosa-cli), or std::nullopt.
using ModelForDirection =
    std::function<std::optional<ModelInfo>(const QString &source, const QString &target)>;

// The language guard: whether `text` looks like another language than `model`'s source (by
// LanguageGuess::bundled(); a model whose source language has no profile is never doubted), and
// which model to offer: into the model's target language when one does that, else into the
// model's source language (Spanish text given to English → Spanish: Spanish → English).
LanguageMismatch checkSourceLanguage(const QString &text, const ModelInfo &model,
                                     const ModelForDirection &modelForDirection);
// The text a document is checked by: its paragraphs joined, up to the first few thousand
// characters the guess reads (headings and captions alone are often too short to tell).
QString languageSample(const QStringList &paragraphs);
// What the language guard reads of a test set: its first source sentences, as languageSample()
// joins them.
QString testSetLanguageSample(const engine::TestSet &set);

} // namespace glosa
