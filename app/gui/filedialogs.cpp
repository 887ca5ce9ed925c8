#include "app/gui/filedialogs.h"

#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QStandardPaths>

namespace glosa {

namespace {
// The folder `setting` names while it exists; empty otherwise (a dialog opened on a missing
// folder shows an empty list).
QString existing(const Setting<QString> &setting)
{
    const QString folder = setting.value();
    return !folder.isEmpty() && QDir(folder).exists() ? folder : QString();
}
} // namespace

QString startFolder(FileKind kind)
{
    for (const Setting<QString> *setting : {&settings::lastFolderOf(kind), &settings::lastFolder})
        if (const QString folder = existing(*setting); !folder.isEmpty())
            return folder;
    const QString documents = QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation);
    return !documents.isEmpty() && QDir(documents).exists() ? documents : QDir::homePath();
}

void rememberFolder(FileKind kind, const QString &path)
{
    if (path.isEmpty())
        return;
    const QFileInfo info(path);
    settings::lastFolderOf(kind).setValue(info.isDir() ? info.absoluteFilePath()
                                                       : info.absolutePath());
}

QString openFileName(QWidget *parent, FileKind kind, const QString &title, const QString &filter)
{
    const QString path = QFileDialog::getOpenFileName(parent, title, startFolder(kind), filter);
    rememberFolder(kind, path);
    return path;
}

QStringList openFileNames(QWidget *parent, FileKind kind, const QString &title,
                          const QString &filter)
{
    const QStringList paths =
        QFileDialog::getOpenFileNames(parent, title, startFolder(kind), filter);
    if (!paths.isEmpty())
        rememberFolder(kind, paths.first());
    return paths;
}

QString saveFileName(QWidget *parent, FileKind kind, const QString &title,
                     const QString &suggestion, const QString &filter, QString *selectedFilter)
{
    const QFileInfo suggested(suggestion);
    const QString start = suggested.isAbsolute() && existing(settings::lastFolderOf(kind)).isEmpty()
                              ? suggestion
                              : QDir(startFolder(kind)).filePath(suggested.fileName());
    const QString path = QFileDialog::getSaveFileName(parent, title, start, filter, selectedFilter);
    rememberFolder(kind, path);
    return path;
}

QString existingFolder(QWidget *parent, FileKind kind, const QString &title)
{
    const QString folder = QFileDialog::getExistingDirectory(parent, title, startFolder(kind));
    // The next one starts beside it, where its siblings are (the next model downloaded), not
    // inside it.
    if (!folder.isEmpty())
        rememberFolder(kind, QFileInfo(QDir::cleanPath(folder)).absolutePath());
    return folder;
}

} // namespace glosa
