// Text built from a template ("From the history (%1).", "10 / 10 sentences", "prefix: «%1»")
// is in the language it was built in: a widget's retranslateUi sets its fixed strings again, but
// not what was composed from a result. liveText() returns the text and remembers how it was
// built; when a label, button or group box showing exactly that text receives
// QEvent::LanguageChange, the text is built again in the new language. The view that shows it
// needs no retranslate code of its own for it.
//
//     m_status->setText(liveText([=] { return tr("%1 / %2 sentences").arg(done).arg(total); }));
#pragma once

#include <QString>

#include <functional>

namespace glosa {

// `make()` now; and again on each language change while a widget shows what it made. `make`
// captures by value (it outlives the caller). From the GUI thread; elsewhere it only returns
// make().
QString liveText(std::function<QString()> make);

} // namespace glosa
