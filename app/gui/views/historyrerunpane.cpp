#include "app/gui/views/historyrerunpane.h"

#include "app/core/history/entry.h"
#include "app/gui/historytexts.h"
#include "app/gui/theme.h"
#include "app/gui/views/historyentryhtml.h"

#include <QGridLayout>
#include <QLabel>
#include <QPlainTextEdit>

namespace glosa {

HistoryRerunPane::HistoryRerunPane(QWidget *parent) : QWidget(parent)
{
    m_thenTitle = new QLabel(this);
    m_nowTitle = new QLabel(this);
    m_then = new QPlainTextEdit(this);
    m_now = new QPlainTextEdit(this);
    for (QLabel *l : {m_thenTitle, m_nowTitle}) {
        l->setWordWrap(true);
        l->setFont(theme::titleFont(font()));
    }
    for (QPlainTextEdit *e : {m_then, m_now}) {
        e->setReadOnly(true);
        e->setFont(theme::editorFont(font()));
    }
    // A grid keeps both texts level when one title wraps and the other does not.
    auto *layout = new QGridLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_thenTitle, 0, 0, Qt::AlignBottom);
    layout->addWidget(m_nowTitle, 0, 1, Qt::AlignBottom);
    layout->addWidget(m_then, 1, 0);
    layout->addWidget(m_now, 1, 1);
    layout->setColumnStretch(0, 1);
    layout->setColumnStretch(1, 1);
    layout->setRowStretch(1, 1);
    setVisible(false);
}

void HistoryRerunPane::showPending(const HistoryEntry &then)
{
    const HistoryOutput *best = then.bestOutput();
    m_thenTitle->setText(historyRerunTitle(HistoryTexts::tr("Then"), then));
    m_then->setPlainText(best ? best->text : QString());
    m_nowTitle->setText(HistoryTexts::tr("Now"));
    m_now->setPlainText(HistoryTexts::tr("Running…"));
    setVisible(true);
}

void HistoryRerunPane::showResult(const HistoryEntry &now)
{
    const HistoryOutput *best = now.bestOutput();
    m_nowTitle->setText(historyRerunTitle(HistoryTexts::tr("Now"), now));
    m_now->setPlainText(best ? best->text : QString());
    setVisible(true);
}

void HistoryRerunPane::showFailed(const QString &message)
{
    m_now->setPlainText(message);
    setVisible(true);
}

} // namespace glosa
