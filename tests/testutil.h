// Helpers shared by the Qt Test executables.
#pragma once

#include <QDir>
#include <QRegularExpression>
#include <QString>
#include <QtTest>

#include <utility>

namespace glosa::test {

// ../shared/data, or $GLOSA_DATA when set.
inline QString sharedDataDir()
{
    const QByteArray env = qgetenv("GLOSA_DATA");
    return QDir::cleanPath(env.isEmpty() ? QStringLiteral(GLOSA_DATA_DEFAULT)
                                         : QString::fromLocal8Bit(env));
}

// Committed fixtures under tests/data.
inline QString testDataDir() { return QStringLiteral(GLOSA_TEST_DATA_DIR); }

// Spanish and English function words in `text` (whole words, any case): a translation into
// Spanish has many of the first and few of the second.
inline std::pair<int, int> spanishAndEnglishWords(const QString &text)
{
    auto count = [&](const QStringList &words) {
        int n = 0;
        for (const QString &word : words)
            n += int(
                text.count(QRegularExpression(QStringLiteral("\\b%1\\b").arg(word),
                                              QRegularExpression::CaseInsensitiveOption |
                                                  QRegularExpression::UseUnicodePropertiesOption)));
        return n;
    };
    return {count({"el", "la",   "los", "las", "de",   "que", "y",   "en", "un",     "una",
                   "es", "está", "del", "por", "para", "con", "muy", "mi", "quiere", "tiene"}),
            count({"the", "of", "and", "is", "are", "with", "very", "this", "to", "we", "my"})};
}

} // namespace glosa::test

// Skips the current test with a message when a path under the shared data folder is missing.
#define GLOSA_REQUIRE_SHARED_DATA(relativePath)                                                    \
    do {                                                                                           \
        const QString glosaPath_ = glosa::test::sharedDataDir() + QLatin1Char('/') + relativePath; \
        if (!QFileInfo::exists(glosaPath_))                                                        \
            QSKIP(qPrintable(                                                                      \
                QStringLiteral("shared data not found: %1 (set GLOSA_DATA)").arg(glosaPath_)));    \
    } while (0)
