// File ▸ Open Recent: the files opened through a dialog, newest first, each with the view it was
// opened in, kept in the settings (settings::recentFiles).
#pragma once

#include <QList>
#include <QString>

namespace glosa {

// What a recent file was opened as, so that File ▸ Open Recent opens it in the same view.
enum class OpenedAs { Text, Document, Image };
struct RecentFile
{
    OpenedAs kind = OpenedAs::Text;
    QString path;
};
// A file opened through a dialog: first in File ▸ Open Recent, and its folder remembered for its
// kind of file (app/gui/filedialogs.h).
inline constexpr int kMaxRecentFiles = 10;
void rememberOpened(OpenedAs kind, const QString &path);
// Newest first, at most kMaxRecentFiles, those that still exist.
QList<RecentFile> recentFiles();

} // namespace glosa
