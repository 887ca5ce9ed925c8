// Helpers shared by the Qt Test executables.
#pragma once

#include "app/core/settings/settingsfile.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QRegularExpression>
#include <QSettings>
#include <QString>
#include <QtTest>

#include <utility>

#include <time.h>

namespace glosa::test {

// ../shared/data, or $GLOSA_DATA when set.
inline QString sharedDataDir()
{
    const QByteArray env = qgetenv("GLOSA_DATA");
    return QDir::cleanPath(env.isEmpty() ? QStringLiteral(GLOSA_DATA_DEFAULT)
                                         : QString::fromLocal8Bit(env));
}

// The MarianMT fixture (a tiny Hugging Face folder, `form` "safetensors" or "bin"), in the shared
// data's fixtures; tests skip when it is absent.
inline QString marianFixtureDir(const QString &form)
{
    return QDir::cleanPath(sharedDataDir() + QStringLiteral("/../fixtures/marian-tiny-en-es/") +
                           form);
}

// Committed fixtures under tests/data.
inline QString testDataDir()
{
    return QStringLiteral(GLOSA_TEST_DATA_DIR);
}

// How many times the words of `words` occur in `text` as whole words, in any case.
inline int countWords(const QString &text, const QStringList &words)
{
    int n = 0;
    for (const QString &word : words)
        n +=
            int(text.count(QRegularExpression(QStringLiteral("\\b%1\\b").arg(word),
                                              QRegularExpression::CaseInsensitiveOption |
                                                  QRegularExpression::UseUnicodePropertiesOption)));
    return n;
}

// English function words: a translation out of English has few of them.
inline int englishWords(const QString &text)
{
    return countWords(text,
                      {"the", "of", "and", "is", "are", "with", "very", "this", "to", "we", "my"});
}

// Spanish and English function words in `text` (whole words, any case): a translation into
// Spanish has many of the first and few of the second.
inline std::pair<int, int> spanishAndEnglishWords(const QString &text)
{
    return {countWords(text,
                       {"el", "la",   "los", "las", "de",   "que", "y",   "en", "un",     "una",
                        "es", "está", "del", "por", "para", "con", "muy", "mi", "quiere", "tiene"}),
            englishWords(text)};
}

// The same for German.
inline std::pair<int, int> germanAndEnglishWords(const QString &text)
{
    return {countWords(text, {"der", "die",   "das",   "den",   "dem",   "ein", "eine", "einen",
                              "ist", "nicht", "und",   "ich",   "wir",   "sie", "er",   "es",
                              "zu",  "mit",   "sehr",  "mein",  "meine", "hat", "habe", "sind",
                              "bin", "kein",  "keine", "einem", "im",    "auf", "von",  "für"}),
            englishWords(text)};
}

// The app's settings (QSettings, app/core/settings/settingsfile.h) in `settingsDir` and its data (AppDataLocation: the
// history) in `dataDir`, under the organization GlosaTest: a test never reads or writes the
// user's own.
inline void isolateAppState(const QString &settingsDir, const QString &dataDir,
                            const QString &applicationName)
{
    qputenv("XDG_DATA_HOME", dataDir.toUtf8());
    QSettings::setDefaultFormat(QSettings::IniFormat);
    QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, settingsDir);
    QCoreApplication::setOrganizationName(QStringLiteral("GlosaTest"));
    QCoreApplication::setApplicationName(applicationName);
    glosa::installSettingsFile(); // the app's format, in settingsDir (it falls back on INI's path)
}

// CPU time of the calling thread: what the GUI thread itself spent, whatever else the (shared,
// loaded) machine was running.
inline double threadCpuMs()
{
    timespec t{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

// Processes named `name` (as /proc shows it, up to 15 characters) whose parent is this process,
// zombies included: a child that was killed but not reaped still counts.
inline int childProcessesNamed(const QString &name)
{
    const QByteArray self = QByteArray::number(QCoreApplication::applicationPid());
    const QByteArray comm = '(' + name.left(15).toUtf8() + ") ";
    int count = 0;
    for (const QString &pid : QDir(QStringLiteral("/proc")).entryList(QDir::Dirs)) {
        QFile stat(QStringLiteral("/proc/%1/stat").arg(pid));
        if (!stat.open(QIODevice::ReadOnly))
            continue;
        // "pid (comm) state ppid ...": the name may hold spaces and parentheses, the fields after
        // the last ')' do not.
        const QByteArray line = stat.readAll();
        const qsizetype close = line.lastIndexOf(')');
        const QList<QByteArray> fields = line.mid(close + 2).split(' ');
        if (close > 0 && line.mid(line.indexOf('('), close + 2 - line.indexOf('(')) == comm &&
            fields.size() > 1 && fields[1] == self)
            ++count;
    }
    return count;
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
