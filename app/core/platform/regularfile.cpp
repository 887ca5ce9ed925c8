#include "app/core/platform/regularfile.h"

#include "engine/regularfile.h"

namespace glosa {

bool openRegularFile(QFile &file, QString *why)
{
    if (file.fileName().startsWith(QLatin1Char(':'))) { // compiled in (Qt's resources): no FIFO
        const bool opened = file.open(QIODevice::ReadOnly);
        if (!opened && why)
            *why = file.errorString();
        return opened;
    }
    engine::RegularFile opened(QFile::encodeName(file.fileName()).toStdString());
    if (!opened.ok()) {
        if (why)
            *why = QString::fromStdString(opened.error());
        return false;
    }
    const int fd = opened.release();
    if (!file.open(fd, QIODevice::ReadOnly, QFileDevice::AutoCloseHandle)) {
        if (why)
            *why = file.errorString();
        return false;
    }
    return true;
}

} // namespace glosa
