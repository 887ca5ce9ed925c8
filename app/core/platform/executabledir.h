// Where the running executable lives: plugins, models and the glosa-pdftext helper are found
// relative to it, so a build tree or an installed tree works wherever it is put.
#pragma once

#include <QString>

namespace glosa {

// QCoreApplication::applicationDirPath() when there is an application object; tests built with
// QTEST_APPLESS_MAIN (and code run before main's QCoreApplication) have none, so then the
// kernel's record of the executable. Empty when neither is known.
QString executableDir();

} // namespace glosa
