// Helpers shared by the Qt Test executables.
#pragma once

#include <QDir>
#include <QString>
#include <QtTest>

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

} // namespace glosa::test

// Skips the current test with a message when a path under the shared data folder is missing.
#define GLOSA_REQUIRE_SHARED_DATA(relativePath)                                                    \
    do {                                                                                           \
        const QString glosaPath_ = glosa::test::sharedDataDir() + QLatin1Char('/') + relativePath; \
        if (!QFileInfo::exists(glosaPath_))                                                        \
            QSKIP(qPrintable(QStringLiteral("shared data not found: %1 (set GLOSA_DATA)")          \
                                 .arg(glosaPath_)));                                               \
    } while (0)
