// The interface language: which of ours ("en", "ko", "es") a setting or the system locale asks
// for, and the translators (ours and Qt's own) installed for it. Installing or removing a
// translator sends QEvent::LanguageChange to the application, which hands it to every window; a
// widget that builds a label from a template rebuilds it there (app/gui/livetext.h).
#pragma once

#include <QString>

namespace glosa {

// The language `setting` names ("ko", "es", "en"), or for "" the first of ours the system's
// locale lists, else "en".
QString resolveUiLanguage(const QString &setting);

// Installs the translators for `setting` (as resolveUiLanguage reads it) in place of the previous
// ones; dates and numbers follow a language chosen by name. False when our translation of it
// could not be loaded.
bool installUiLanguage(const QString &setting);
// The setting last installed ("" = the system's).
QString installedUiLanguage();

} // namespace glosa
