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
};

} // namespace glosa
