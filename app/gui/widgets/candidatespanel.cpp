#include "app/gui/widgets/candidatespanel.h"

#include "app/gui/theme.h"
#include "app/gui/widgets/probabilitychart.h"

#include <QEvent>
#include <QLabel>
#include <QSplitter>
#include <QVBoxLayout>

#include <algorithm>

namespace glosa {

CandidatesPanel::CandidatesPanel(QWidget *parent) : QWidget(parent)
{
    m_title = new QLabel(this);
    m_title->setFont(theme::titleFont(font()));
    m_chart = new ProbabilityChart(this);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_title);
    layout->addWidget(m_chart, 1);
    retranslateUi();
}

void CandidatesPanel::retranslateUi()
{
    m_title->setText(tr("Candidates"));
    m_chart->setAccessibleName(tr("Candidates at the selected word"));
    m_chart->setPlaceholderText(tr("Click a word of the translation to see the candidates the "
                                   "model weighed there; click one of them to translate again "
                                   "with it."));
}

void CandidatesPanel::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslateUi();
    QWidget::changeEvent(event);
}

void CandidatesPanel::showStep(const SentenceTrace *trace, int step)
{
    if (trace)
        m_chart->setStep(*trace, step);
    else
        m_chart->clear();
    fitSplitter();
}

void CandidatesPanel::fitSplitter()
{
    // An empty chart is a title and a line of help: the widget above gets the rest. With
    // candidates, the card gets the chart's height back.
    const bool shown = m_chart->barCount() > 0;
    const int collapsed = m_title->sizeHint().height() + 4 * fontMetrics().height();
    setMaximumHeight(shown ? QWIDGETSIZE_MAX : collapsed);
    auto *splitter = qobject_cast<QSplitter *>(parentWidget());
    if (!splitter || splitter->count() != 2 || splitter->indexOf(this) != 1)
        return;
    const QList<int> sizes = splitter->sizes();
    const int total = sizes.value(0) + sizes.value(1);
    if (shown && height() < m_chart->sizeHint().height()) {
        const int wanted =
            std::min(total / 2, m_chart->sizeHint().height() + m_title->sizeHint().height());
        splitter->setSizes({total - wanted, wanted});
    } else if (!shown && sizes.value(1) > collapsed) {
        // QSplitter keeps the card's old share and leaves what the maximum cuts off blank
        // (171 px at 1280 × 800): the widget above takes it.
        splitter->setSizes({total - collapsed, collapsed});
    }
}

} // namespace glosa
