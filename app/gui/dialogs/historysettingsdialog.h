// The History tab's settings (its words are HistoryView's): whether translations, captions and
// comparisons are recorded, and the retention limits (entries, age, file size), kept as the
// settings in app/core/history/retention.h.
#pragma once

class QWidget;

namespace glosa {

// Asks with a dialog; true when the user changed the settings (OK), which are then saved.
bool editHistorySettings(QWidget *parent);

} // namespace glosa
