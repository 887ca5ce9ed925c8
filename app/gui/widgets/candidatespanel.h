// CandidatesPanel: the Translate view's "Candidates" card: the chart of what the model weighed
// at the chosen word's step (ProbabilityChart; clicking a bar asks to force that candidate), or
// a line of help while no word is chosen. In a splitter it takes only its title and help while
// empty, and the chart's height back with candidates.
#pragma once

#include "app/core/inference/inferenceresult.h"

#include <QWidget>

class QLabel;

namespace glosa {

class ProbabilityChart;

class CandidatesPanel : public QWidget
{
    Q_OBJECT
public:
    explicit CandidatesPanel(QWidget *parent = nullptr);

    ProbabilityChart *chart() const { return m_chart; }
    // Shows step `step` of `trace`; null: the help. The card is sized to it (above).
    void showStep(const SentenceTrace *trace, int step);

protected:
    void changeEvent(QEvent *event) override;

private:
    void retranslateUi();
    void fitSplitter();

    QLabel *m_title = nullptr;
    ProbabilityChart *m_chart = nullptr;
};

} // namespace glosa
