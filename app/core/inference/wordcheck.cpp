#include "app/core/inference/wordcheck.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QLocale>
#include <QSet>
#include <QStandardPaths>
#include <QTextBoundaryFinder>

#include <hunspell.hxx>
#include <unicode/ucnv.h>

#include <algorithm>
#include <map>

namespace glosa {

namespace {

bool isApostrophe(QChar c)
{
    return c == u'\'' || c == u'\u2019';
}

// "l'homme" → "l", "homme".
QStringList apostropheParts(const QString &word)
{
    QStringList parts{QString()};
    for (const QChar c : word) {
        if (isApostrophe(c))
            parts.append(QString());
        else
            parts.last() += c;
    }
    return parts;
}

// Elided articles and pronouns ("l'", "d'", "qu'", "s'") are no words of their own to check.
constexpr int kMaxCliticLetters = 2;

// The runs of `text` between word boundaries that hold a letter: [begin, end) pairs.
QList<std::pair<int, int>> wordRanges(const QString &text)
{
    QList<std::pair<int, int>> words;
    QTextBoundaryFinder finder(QTextBoundaryFinder::Word, text);
    int begin = 0;
    for (int end = finder.toNextBoundary(); end != -1; end = finder.toNextBoundary()) {
        for (int i = begin; i < end; ++i)
            if (text.at(i).isLetter()) {
                words.append({begin, end});
                break;
            }
        begin = end;
    }
    return words;
}

// What no dictionary is asked about: numbers and codes (a digit, "_", "."), acronyms (two
// capitals or more, no small letter).
bool isLanguageWord(const QString &word)
{
    int capitals = 0;
    bool small = false;
    for (const QChar c : word) {
        if (c.isDigit() || c == u'_' || c == u'.')
            return false;
        capitals += c.isUpper();
        small = small || c.isLower();
    }
    return small || capitals < 2;
}

// Whether [begin, end) is part of an address, a path or an abbreviation ("ejemplo.com",
// "ana@correo.es", "EE.UU."): glued by one of ./@:_\ to more letters or digits.
bool isGlued(const QString &text, int begin, int end)
{
    static const QString glue = QStringLiteral("./@:_\\");
    return (begin >= 2 && glue.contains(text.at(begin - 1)) &&
            text.at(begin - 2).isLetterOrNumber()) ||
           (end + 1 < text.size() && glue.contains(text.at(end)) &&
            text.at(end + 1).isLetterOrNumber());
}

// Whether the word at `begin` starts a sentence: the text's, a line's, one after . ! ? …, or
// quoted speech (after an opening quote, ¡ or ¿: «dijo: "¡Hola!"»). A capital there is no sign of
// a name.
bool startsSentence(const QString &text, int begin)
{
    static const QString speech = QStringLiteral("¡¿«“„");
    static const QString around = QStringLiteral("\"'«“‘„»”’()[]—–-"); // quotes, brackets, dashes
    for (int i = begin - 1; i >= 0; --i) {
        const QChar c = text.at(i);
        // A straight quote opens after a space or at the start, and closes after a word.
        const bool opens = c == u'"' && (i == 0 || text.at(i - 1).isSpace());
        if (c == u'\n' || speech.contains(c) || opens)
            return true;
        if (!c.isSpace() && !around.contains(c))
            return QStringLiteral(".!?…。").contains(c);
    }
    return true;
}

QSet<QString> foldedWords(const QString &text)
{
    QSet<QString> words;
    for (const auto &[begin, end] : wordRanges(text)) {
        const QString word = text.mid(begin, end - begin).toCaseFolded();
        words.insert(word);
        for (const QString &part : apostropheParts(word))
            words.insert(part);
    }
    return words;
}

} // namespace

QStringList WordCheck::dictionaryFolders()
{
    QStringList folders;
    for (const QString &dir : QStandardPaths::standardLocations(QStandardPaths::AppDataLocation))
        folders << dir + QStringLiteral("/hunspell");
    for (const QString &dir :
         QStandardPaths::standardLocations(QStandardPaths::GenericDataLocation))
        folders << dir + QStringLiteral("/hunspell");
    folders << QStringLiteral("/usr/share/hunspell");
    folders.removeDuplicates();
    return folders;
}

QString WordCheck::findDictionary(const QString &language, const QStringList &folders)
{
    if (language.isEmpty() || language.contains(u'/') || language.contains(u'.'))
        return {};
    const QLocale locale(language);
    QStringList names;
    if (locale.language() != QLocale::C) {
        names << locale.name(); // the usual region: es → es_ES, en → en_US
        names << QLocale::languageToCode(locale.language(), QLocale::ISO639Part1);
    }
    names << language;
    names.removeDuplicates();
    for (const QString &folder : folders) {
        const QDir dir(folder);
        for (const QString &name : names)
            if (QFileInfo::exists(dir.filePath(name + QStringLiteral(".dic"))))
                return dir.filePath(name + QStringLiteral(".dic"));
        for (const QString &name : names) { // any region
            const QStringList regional =
                dir.entryList({name + QStringLiteral("_*.dic")}, QDir::Files, QDir::Name);
            if (!regional.isEmpty())
                return dir.filePath(regional.first());
        }
    }
    return {};
}

std::shared_ptr<const WordCheck> WordCheck::load(const QString &language,
                                                 const QStringList &folders, QString *error)
{
    const QString dic = findDictionary(language, folders);
    const QString aff = dic.left(dic.size() - 4) + QStringLiteral(".aff");
    QString why;
    if (dic.isEmpty())
        why = QStringLiteral("no Hunspell dictionary of '%1' in %2")
                  .arg(language, folders.join(QStringLiteral(", ")));
    else if (!QFileInfo(aff).isFile() || !QFileInfo(dic).isReadable())
        why = QStringLiteral("%1 or %2 cannot be read").arg(dic, aff);
    if (!why.isEmpty()) {
        if (error)
            *error = why;
        return nullptr;
    }
    std::shared_ptr<WordCheck> check(new WordCheck);
    check->m_language = language;
    check->m_path = dic;
    check->m_hunspell = std::make_unique<Hunspell>(QFile::encodeName(aff).constData(),
                                                   QFile::encodeName(dic).constData());
    check->m_encoding = QString::fromStdString(check->m_hunspell->get_dict_encoding());
    return check;
}

std::shared_ptr<const WordCheck> WordCheck::forLanguage(const QString &language)
{
    static std::mutex mutex;
    static std::map<QString, std::shared_ptr<const WordCheck>> loaded;
    std::lock_guard lock(mutex);
    const auto it = loaded.find(language);
    if (it != loaded.end())
        return it->second;
    return loaded[language] = load(language, dictionaryFolders());
}

WordCheck::~WordCheck() = default;

bool WordCheck::encode(const QString &word, std::string *out) const
{
    if (m_encoding.compare(QStringLiteral("UTF-8"), Qt::CaseInsensitive) == 0) {
        *out = word.toStdString();
        return true;
    }
    // The older dictionaries' 8-bit sets (ISO8859-1, -15, KOI8-R…), through ICU.
    UErrorCode status = U_ZERO_ERROR;
    UConverter *converter = ucnv_open(m_encoding.toLatin1().constData(), &status);
    if (U_FAILURE(status))
        return false;
    ucnv_setFromUCallBack(converter, UCNV_FROM_U_CALLBACK_STOP, nullptr, nullptr, nullptr, &status);
    out->resize(std::size_t(word.size()) * 4 + 4);
    const int32_t length = ucnv_fromUChars(converter, out->data(), int32_t(out->size()),
                                           reinterpret_cast<const UChar *>(word.utf16()),
                                           int32_t(word.size()), &status);
    ucnv_close(converter);
    if (U_FAILURE(status))
        return false;
    out->resize(std::size_t(length));
    return true;
}

bool WordCheck::spell(const QString &word) const
{
    const auto known = m_known.constFind(word);
    if (known != m_known.constEnd())
        return *known;
    std::string encoded;
    const bool spelled = encode(word, &encoded) && m_hunspell->spell(encoded);
    if (m_known.size() < 100000) // a bound on what a long session remembers
        m_known.insert(word, spelled);
    return spelled;
}

bool WordCheck::knows(const QString &word) const
{
    std::lock_guard lock(m_mutex);
    return spell(word);
}

QList<UnknownWord> WordCheck::unknownWords(const QString &text, const QString &source) const
{
    QList<UnknownWord> unknown;
    const QSet<QString> sourceWords = foldedWords(source);
    std::lock_guard lock(m_mutex);
    for (const auto &[begin, end] : wordRanges(text)) {
        const QString word = text.mid(begin, end - begin);
        if (!isLanguageWord(word) || isGlued(text, begin, end) ||
            sourceWords.contains(word.toCaseFolded()))
            continue;
        if (word.at(0).isUpper() && !startsSentence(text, begin))
            continue; // a name
        if (spell(word))
            continue;
        // "l'homme", "d'eau": the word after the elided one.
        const QStringList parts = apostropheParts(word);
        const bool known =
            parts.size() > 1 && std::all_of(parts.begin(), parts.end(), [&](const QString &p) {
                return p.size() <= kMaxCliticLetters || spell(p) ||
                       sourceWords.contains(p.toCaseFolded());
            });
        if (!known)
            unknown.append({begin, end, word, -1});
    }
    return unknown;
}

QList<UnknownWord> WordCheck::unknownWords(const TranslationHypothesis &hypothesis,
                                           const QString &source) const
{
    QList<UnknownWord> unknown = unknownWords(hypothesis.text, source);
    for (UnknownWord &word : unknown) {
        for (int i = 0; i < hypothesis.tokens.size(); ++i) {
            const TokenSpan &t = hypothesis.tokens.at(i);
            if (t.begin >= word.end || t.end <= word.begin || t.begin == t.end)
                continue;
            if (word.token < 0 ||
                (i < hypothesis.tokenLogProbs.size() &&
                 hypothesis.tokenLogProbs.at(i) < hypothesis.tokenLogProbs.value(word.token)))
                word.token = i;
        }
    }
    return unknown;
}

} // namespace glosa
