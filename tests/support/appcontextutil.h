// The app's context as the tests start it: the build tree's plugins and the bundled models, and
// for the presenter tests a history file of the test function's own, so that no test sees
// another's entries.
#pragma once

#include "app/core/appcontext.h"
#include "app/core/history/recorder.h"

#include <QString>
#include <QStringList>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

namespace glosa::test {

// An AppContext over the build tree's plugins and resources/models, with no history open: for a
// test that keeps it on its stack (`test::BundledContext context;`) or behind a pointer.
class BundledContext : public AppContext
{
public:
    explicit BundledContext(QObject *parent = nullptr)
        : AppContext({QStringLiteral(GLOSA_BINARY_DIR "/plugins")},
                     {QStringLiteral(GLOSA_SOURCE_DIR "/resources/models")}, parent)
    {
    }
};

// A BundledContext with a history opened in `dir` named after the running test function. Null,
// with *error saying why, when it cannot open.
inline std::unique_ptr<AppContext> bundledContextWithHistory(const QTemporaryDir &dir,
                                                             QString *error)
{
    auto context = std::make_unique<BundledContext>();
    const QString path =
        dir.filePath(QStringLiteral("history-%1.sqlite").arg(QTest::currentTestFunction()));
    if (!context->history()->open(path)) {
        *error = context->history()->openError();
        return nullptr;
    }
    return context;
}

} // namespace glosa::test
