// WordCheck: the words of a translation that its language does not know, for the Translate tab
// to mark. The bundled models build words from SentencePiece pieces and now and then join
// pieces into a word no language has ("Hello!" → "¡Holalo!", "gym" → "gimna"); a word that is
// in neither the target language's Hunspell dictionary nor the source is such a word, or a
// rare one. What is never marked: numbers and words with digits, addresses and abbreviations
// ("ejemplo.com", "EE.UU."), words of the source (names, terms left untranslated), capitalised
// words inside a sentence and all-capital ones (names, acronyms: a dictionary lists few of
// them). Elided articles and pronouns ("l'homme", "d'eau") are checked word by word; case is
// Hunspell's rule (a listed "hola" accepts "Hola" and "HOLA"). docs/training.md ("Unknown-word
// marks") has how often a mark is right.
//
// Basic usage:
//     // blocking (a few hundred ms the first time): on a worker or the pool, never the GUI thread
//     std::shared_ptr<const WordCheck> check = WordCheck::forLanguage("es");
//     if (check)  // null: no dictionary for the language, and then nothing is marked
//         for (const UnknownWord &w : check->unknownWords(translation, source)) ...
#pragma once

#include "app/core/inference/inferenceresult.h"

#include <QHash>
#include <QList>
#include <QString>
#include <QStringList>

#include <memory>
#include <mutex>

class Hunspell;

namespace glosa {

// A word of a translation the dictionary does not list.
struct UnknownWord
{
    int begin = 0; // UTF-16 range in the translation
    int end = 0;
    QString word;
    // The token whose candidates explain the word: of its tokens the one the model was least
    // sure of (where a made-up word usually went astray); -1 without tokens.
    int token = -1;
};

class WordCheck
{
public:
    // Where dictionaries are looked for, first match wins: Glosa's own data folders'
    // "hunspell" (where a user may put one), then the system's (XDG data folders'
    // "hunspell", /usr/share/hunspell).
    static QStringList dictionaryFolders();
    // The .dic of `language` (ISO 639-1 or 639-3: "es", "spa") in the first of `folders` that
    // has one: the language's usual region ("es_ES.dic", "en_US.dic", "de_DE.dic"), the bare
    // language ("fr.dic"), then any region ("es_MX.dic"). Empty when none has one.
    static QString findDictionary(const QString &language, const QStringList &folders);
    // The dictionary of `language` loaded from `folders`; null when there is none or it cannot
    // be read (then *error says why). Blocking: Hunspell reads the whole dictionary.
    static std::shared_ptr<const WordCheck>
    load(const QString &language, const QStringList &folders, QString *error = nullptr);
    // load() from dictionaryFolders(), once per language for the process; thread-safe.
    static std::shared_ptr<const WordCheck> forLanguage(const QString &language);

    ~WordCheck();
    WordCheck(const WordCheck &) = delete;
    WordCheck &operator=(const WordCheck &) = delete;

    QString language() const { return m_language; }
    QString dictionaryPath() const { return m_path; }
    // Whether Hunspell accepts `word` (one word, no spaces); thread-safe, answers remembered.
    bool knows(const QString &word) const;
    // The words of `text` that are marked (the header comment says which are not), in order.
    QList<UnknownWord> unknownWords(const QString &text, const QString &source) const;
    // unknownWords() of `hypothesis`'s text, each with the token that explains it.
    QList<UnknownWord> unknownWords(const TranslationHypothesis &hypothesis,
                                    const QString &source) const;

private:
    WordCheck() = default;
    // `word` in the dictionary's encoding; false when it has characters the encoding lacks.
    bool encode(const QString &word, std::string *out) const;
    bool spell(const QString &word) const; // under m_mutex

    QString m_language;
    QString m_path;
    QString m_encoding;
    std::unique_ptr<Hunspell> m_hunspell;
    mutable std::mutex m_mutex; // Hunspell's lookups are not thread-safe
    mutable QHash<QString, bool> m_known;
};

} // namespace glosa
