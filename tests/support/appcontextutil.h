// The app's context as the presenter tests start it: the build tree's plugins, the bundled models
// and a history file of the test function's own, so that no test sees another's entries.
#pragma once

#include "app/core/appcontext.h"

#include <QString>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

namespace glosa::test {

// An AppContext over the build tree's plugins and resources/models, with a history opened in
// `dir` named after the running test function. Null, with *error saying why, when it cannot open.
inline std::unique_ptr<AppContext> bundledContextWithHistory(const QTemporaryDir &dir,
                                                             QString *error)
{
    auto context = std::make_unique<AppContext>(
        QStringList{QStringLiteral(GLOSA_BINARY_DIR "/plugins")},
        QStringList{QStringLiteral(GLOSA_SOURCE_DIR "/resources/models")});
    const QString path =
        dir.filePath(QStringLiteral("history-%1.sqlite").arg(QTest::currentTestFunction()));
    if (!context->history()->open(path)) {
        *error = context->history()->openError();
        return nullptr;
    }
    return context;
}

} // namespace glosa::test
