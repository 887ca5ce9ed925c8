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
#pragma once

#include <QHash>
#include <QString>
#include <QStringList>

namespace glosa {

class LanguageGuess
{
public:
    // Texts with fewer letter trigrams than this get no guess: a few words are too little to tell
    // English from Spanish ("no", "a", "me" are both).
    static constexpr int kMinTrigrams = 16;
    // The best language must beat the second by this many nats a trigram on average; mixed or
    // unusual text (names, code, numbers) falls under it and gets no guess.
    static constexpr double kMinMarginPerTrigram = 0.35;

    // Profiles of the bundled samples' languages (built once, on first use; thread-safe).
    static const LanguageGuess &bundled();

    // Adds (or extends) the profile of `language` with `texts`.
    void addProfile(const QString &language, const QStringList &texts);
    bool knows(const QString &language) const { return m_profiles.contains(language); }
    QStringList languages() const { return m_profiles.keys(); }

    // The language `text` is most likely written in, or "" when it is too short or no profile is
    // clearly the most likely (see the constants above).
    QString guess(const QString &text) const;

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

} // namespace glosa
