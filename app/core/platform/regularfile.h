// Opening a file the app or glosa-cli reads by name (a model's model.json, the defaults, a
// keep-list, a test set, a text to open) through engine::RegularFile: the open never blocks on a
// FIFO and only a regular file is read. One helper for both layers: the engine's readers use
// engine::RegularFile directly, the app's hand its descriptor to a QFile.
//
// Basic usage:
//     QFile file(path);
//     QString why;
//     if (!openRegularFile(file, &why)) // "not a regular file (a FIFO)", "file not found", ...
//         return fail(path + ": " + why);
//     const QByteArray bytes = file.read(limit + 1);
#pragma once

#include <QFile>
#include <QString>

namespace glosa {

// Opens file.fileName() read-only; false with *why set (may be null) when it cannot be opened or
// is not a regular file. The QFile keeps its name and owns the descriptor. Qt resources (":/…")
// are opened as they are: compiled in, they are never a FIFO.
bool openRegularFile(QFile &file, QString *why);

} // namespace glosa
