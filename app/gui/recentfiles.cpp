#include "app/gui/recentfiles.h"

#include "app/core/settings/settings.h"
#include "app/gui/filedialogs.h"

#include <QFileInfo>

namespace glosa {

void rememberOpened(OpenedAs kind, const QString &path)
{
    rememberFolder(kind == OpenedAs::Image ? FileKind::Images : FileKind::Documents, path);
    // Stored as "kind|path": a list of strings reads back from any QSettings format.
    const QString entry =
        QString::number(int(kind)) + QLatin1Char('|') + QFileInfo(path).absoluteFilePath();
    QStringList stored = settings::recentFiles.value();
    stored.removeAll(entry);
    stored.prepend(entry);
    settings::recentFiles.setValue(stored.mid(0, kMaxRecentFiles));
}

QList<RecentFile> recentFiles()
{
    QList<RecentFile> recent;
    for (const QString &entry : settings::recentFiles.value()) {
        const int kind = entry.section(QLatin1Char('|'), 0, 0).toInt();
        const QString path = entry.section(QLatin1Char('|'), 1);
        if (kind >= 0 && kind <= int(OpenedAs::Image) && QFileInfo::exists(path))
            recent << RecentFile{OpenedAs(kind), path};
    }
    return recent;
}

} // namespace glosa
