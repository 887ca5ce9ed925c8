#pragma once

#include "app/core/inference/inferenceresult.h"

#include <QWidget>

namespace glosa {

// ProbabilityChart: the top candidates of one decoding step as bars, one bar per pipeline stage
// (the model's distribution, then after the processors / sampling filters). Clicking a candidate
// other than the chosen one asks to decode again with it forced at this step (candidateChosen).
class ProbabilityChart : public QWidget
{
    Q_OBJECT
public:
    explicit ProbabilityChart(QWidget *parent = nullptr);

    void setStep(const engine::StepTrace &step, const QStringList &stages,
                 const QHash<int, QString> &pieces, int chosenToken);
    // Step `step` of the trace's best hypothesis, its token chosen; cleared when the trace has
    // no such step. Candidates are labelled as text (SentenceTrace::tokenText: a piece that
    // continues a word shows the word, byte pieces the character); the piece is in the tooltip.
    void setStep(const SentenceTrace &trace, int step);
    QString barLabel(int index) const { return m_labels.value(index); }
    void clear();
    int barCount() const { return m_tokens.size(); }
    int barToken(int index) const { return m_tokens.value(index, -1); }
    // The centre of candidate `index`'s group of bars and label (where a click chooses it).
    QPoint barPosition(int index) const { return groupRect(index).center().toPoint(); }
    // What hovering at `position` shows: for a candidate, its vocabulary piece (the bar's label
    // is the word it would make) and, unless it is the token chosen, that a click forces it.
    QString toolTipAt(const QPoint &position) const;
    // The legend, one entry per bar of a group: what each stage means to the output ("the
    // model's probability", "after the decoding settings"), not the engine's stage names
    // ("suppress-tokens", "top-k"), which mean nothing to a reader.
    QStringList legend() const;
    // What the empty chart says.
    void setPlaceholderText(const QString &text);
    // The top of the y axis: the smallest of 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1 that holds every
    // bar, so that a flat distribution (all candidates near 0.02) still shows its differences.
    double axisMaximum() const { return m_axisMaximum; }
    QSize sizeHint() const override;

signals:
    void candidateChosen(int token);

protected:
    void paintEvent(QPaintEvent *event) override;
    void mouseMoveEvent(QMouseEvent *event) override;
    void mouseReleaseEvent(QMouseEvent *event) override;
    bool event(QEvent *event) override;

private:
    // Shows `step`'s candidates, labelled by `trace` after the best path's tokens `before`.
    void showStep(const engine::StepTrace &step, const QStringList &stages,
                  const SentenceTrace &trace, const QList<int> &before, int chosenToken);
    QRect plotRect() const;
    QRectF groupRect(int index) const;
    int barAt(const QPoint &position) const;

    QString m_placeholder;
    QStringList m_labels;
    QStringList m_pieces; // the vocabulary piece of each bar, for its tooltip
    QList<int> m_tokens;
    QStringList m_stages;
    QList<QVector<float>> m_values; // [stage][token]
    int m_chosen = -1;
    int m_step = -1;
    double m_axisMaximum = 1.0;
};

} // namespace glosa
