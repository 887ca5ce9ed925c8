// How the History tab draws entries (its words are HistoryView's): the list's rows, one entry in
// full for the details pane, and the titles of Re-run's "then" and "now".
#pragma once

#include "app/core/history/entry.h"

#include <QString>

class QObject;
class QStyledItemDelegate;

namespace glosa {

// Paints HistoryModel::HtmlRole rows, each one line high.
QStyledItemDelegate *makeHistoryDelegate(QObject *parent);
// The entry with its input, outputs, settings and the user's version, as HTML.
QString historyEntryHtml(const HistoryEntry &e);
// "`when` — model version · decoding".
QString historyRerunTitle(const QString &when, const HistoryEntry &e);

} // namespace glosa
