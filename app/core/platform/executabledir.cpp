#include "app/core/platform/executabledir.h"

#include <QCoreApplication>
#include <QFileInfo>

namespace glosa {

QString executableDir()
{
    if (QCoreApplication::instance())
        return QCoreApplication::applicationDirPath();
    const QFileInfo exe(QStringLiteral("/proc/self/exe"));
    return exe.exists() ? QFileInfo(exe.canonicalFilePath()).absolutePath() : QString();
}

} // namespace glosa
