// The History tab's words, wherever they are drawn (the view, its banner, an entry's page, the
// settings dialog), are translated in one context, HistoryView's, as they always were; the parts
// of the tab take their tr() from here rather than including the view that includes them.
//
//     label->setText(HistoryTexts::tr("No limit"));
#pragma once

#include <QCoreApplication>

namespace glosa {

struct HistoryTexts
{
    Q_DECLARE_TR_FUNCTIONS(glosa::HistoryView)
};

} // namespace glosa
