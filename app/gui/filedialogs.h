// Every file dialog of the app, through one place: each kind of file (documents, images, models,
// exports) starts where the last dialog for that kind left off, so that History's export does not
// open in the photos folder and Import reopens where the last model came from.
#pragma once

#include "app/core/settings/settings.h"

#include <QString>
#include <QStringList>

class QWidget;

namespace glosa {

using settings::FileKind;

// Where a dialog for `kind` starts: the folder of the last file of that kind chosen in one while
// it exists, else the folder of the last file dialog before folders were kept per kind, else the
// user's Documents folder, else the home folder (a fresh account, a server).
QString startFolder(FileKind kind);
// A file (or folder) of `kind` chosen: its folder is where the next dialog for `kind` starts.
void rememberFolder(FileKind kind, const QString &path);

// QFileDialog's static functions, started in startFolder(kind), the choice remembered. An empty
// result when the user cancelled.
QString openFileName(QWidget *parent, FileKind kind, const QString &title,
                     const QString &filter = QString());
QStringList openFileNames(QWidget *parent, FileKind kind, const QString &title,
                          const QString &filter = QString());
// `suggestion`: the file name to offer, in startFolder(kind); an absolute path is where to offer
// it while no folder of `kind` is remembered (a document's translation next to the document).
QString saveFileName(QWidget *parent, FileKind kind, const QString &title,
                     const QString &suggestion, const QString &filter,
                     QString *selectedFilter = nullptr);
// A folder: the next dialog for `kind` starts in the folder that holds it.
QString existingFolder(QWidget *parent, FileKind kind, const QString &title);

} // namespace glosa
