#include "app/core/inference/languageguess.h"

#include "app/core/evaluation/testsets.h"
#include "engine/evaluation/evaluation.h"

#include <algorithm>
#include <cmath>

namespace glosa {

QStringList letterTrigrams(const QString &text)
{
    QString normalized(1, QLatin1Char(' '));
    normalized.reserve(text.size() + 2);
    for (const QChar c : text.toLower()) {
        if (c.isLetter())
            normalized += c;
        else if (!normalized.endsWith(QLatin1Char(' ')))
            normalized += QLatin1Char(' ');
    }
    if (!normalized.endsWith(QLatin1Char(' ')))
        normalized += QLatin1Char(' ');
    QStringList trigrams;
    for (qsizetype i = 0; i + 3 <= normalized.size(); ++i) {
        const QString t = normalized.mid(i, 3);
        if (t.at(1) != QLatin1Char(' ')) // " a " is a one-letter word, kept; "a  " cannot occur
            trigrams << t;
    }
    return trigrams;
}

const LanguageGuess &LanguageGuess::bundled()
{
    static const LanguageGuess guess = [] {
        LanguageGuess g;
        const QHash<QString, QStringList> samples = bundledSentencesByLanguage();
        for (auto it = samples.begin(); it != samples.end(); ++it)
            g.addProfile(it.key(), it.value());
        return g;
    }();
    return guess;
}

void LanguageGuess::addProfile(const QString &language, const QStringList &texts)
{
    Profile &profile = m_profiles[language];
    for (const QString &text : texts)
        for (const QString &t : letterTrigrams(text)) {
            ++profile.counts[t];
            ++profile.total;
            m_vocabulary.insert(t, true);
        }
}

QString LanguageGuess::guess(const QString &text, int minTrigrams,
                             double minMarginPerTrigram) const
{
    const QStringList trigrams = letterTrigrams(text.left(kSampleChars));
    // Each word has one trigram that starts it (" th").
    const auto words = std::count_if(trigrams.begin(), trigrams.end(), [](const QString &t) {
        return t.startsWith(QLatin1Char(' '));
    });
    if (trigrams.size() < minTrigrams || words < kMinWords || m_profiles.size() < 2)
        return QString();
    // Add-half smoothing over the union of the profiles' trigrams (+1 for any unseen one).
    const double vocabulary = double(m_vocabulary.size() + 1);
    QString best;
    double bestScore = -INFINITY, secondScore = -INFINITY;
    for (auto it = m_profiles.begin(); it != m_profiles.end(); ++it) {
        const Profile &p = it.value();
        const double denominator = std::log(double(p.total) + 0.5 * vocabulary);
        double score = 0;
        for (const QString &t : trigrams)
            score += std::log(p.counts.value(t) + 0.5) - denominator;
        if (score > bestScore) {
            secondScore = bestScore;
            bestScore = score;
            best = it.key();
        } else if (score > secondScore) {
            secondScore = score;
        }
    }
    if ((bestScore - secondScore) / double(trigrams.size()) < minMarginPerTrigram)
        return QString();
    return best;
}

LanguageMismatch checkSourceLanguage(const QString &text, const ModelInfo &model,
                                     const ModelForDirection &modelForDirection)
{
    LanguageMismatch mismatch;
    const LanguageGuess &guess = LanguageGuess::bundled();
    if (!guess.knows(model.sourceLanguage))
        return mismatch;
    const QString language = guess.guess(text);
    if (language.isEmpty() || language == model.sourceLanguage)
        return mismatch;
    mismatch.language = language;
    if (language != model.targetLanguage)
        mismatch.offer = modelForDirection(language, model.targetLanguage);
    if (!mismatch.offer)
        mismatch.offer = modelForDirection(language, model.sourceLanguage);
    return mismatch;
}

QString languageSample(const QStringList &paragraphs)
{
    QString sample;
    for (const QString &paragraph : paragraphs) {
        if (sample.size() >= LanguageGuess::kSampleChars)
            break;
        sample += paragraph.left(LanguageGuess::kSampleChars) + QLatin1Char('\n');
    }
    return sample;
}

QString testSetLanguageSample(const engine::TestSet &set)
{
    QStringList sources;
    for (std::size_t i = 0; i < set.size() && i < 200; ++i)
        sources << QString::fromStdString(set.sources[i]);
    return languageSample(sources);
}

} // namespace glosa
