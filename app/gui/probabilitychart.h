#pragma once

#include "app/core/inferenceresult.h"

#include <QWidget>

namespace glosa {

// ProbabilityChart: the top candidates of one decoding step as bars, one bar per pipeline stage
// (the model's distribution, then after the processors / sampling filters).
class ProbabilityChart : public QWidget
{
    Q_OBJECT
public:
    explicit ProbabilityChart(QWidget *parent = nullptr);

    void setStep(const engine::StepTrace &step, const QStringList &stages,
                 const QHash<int, QString> &pieces, int chosenToken);
    void clear();
    int barCount() const { return m_tokens.size(); }
    // The top of the y axis: the smallest of 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1 that holds every
    // bar, so that a flat distribution (all candidates near 0.02) still shows its differences.
    double axisMaximum() const { return m_axisMaximum; }
    QSize sizeHint() const override;

protected:
    void paintEvent(QPaintEvent *event) override;

private:
    QStringList m_labels;
    QList<int> m_tokens;
    QStringList m_stages;
    QList<QVector<float>> m_values; // [stage][token]
    int m_chosen = -1;
    int m_step = -1;
    double m_axisMaximum = 1.0;
};

} // namespace glosa
