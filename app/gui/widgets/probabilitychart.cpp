#include "app/gui/widgets/probabilitychart.h"

#include "app/gui/theme.h"

#include <QHelpEvent>
#include <QLocale>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>

#include <algorithm>

namespace glosa {

ProbabilityChart::ProbabilityChart(QWidget *parent) : QWidget(parent)
{
    setMinimumHeight(160);
    setMouseTracking(true);
}

void ProbabilityChart::setPlaceholderText(const QString &text)
{
    m_placeholder = text;
    update();
}

QRect ProbabilityChart::plotRect() const
{
    const QFontMetrics fm(font());
    const int legendHeight = fm.height() + 8;
    const int labelHeight = fm.height() + 10;
    return rect().adjusted(40, legendHeight + 8, -12, -labelHeight - 4);
}

QRectF ProbabilityChart::groupRect(int index) const
{
    if (index < 0 || index >= m_tokens.size())
        return {};
    const QRect plot = plotRect();
    const double width = double(plot.width()) / m_tokens.size();
    // The bars and the label under them.
    return {plot.left() + index * width, double(plot.top()), width,
            double(height() - plot.top())};
}

int ProbabilityChart::barAt(const QPoint &position) const
{
    for (int i = 0; i < m_tokens.size(); ++i)
        if (groupRect(i).contains(position))
            return i;
    return -1;
}

void ProbabilityChart::mouseMoveEvent(QMouseEvent *event)
{
    const int bar = barAt(event->position().toPoint());
    setCursor(bar >= 0 && m_tokens[bar] != m_chosen ? Qt::PointingHandCursor : Qt::ArrowCursor);
}

void ProbabilityChart::mouseReleaseEvent(QMouseEvent *event)
{
    const int bar = barAt(event->position().toPoint());
    // The chosen token is what the output already has: nothing to decode.
    if (event->button() == Qt::LeftButton && bar >= 0 && m_tokens[bar] != m_chosen)
        emit candidateChosen(m_tokens[bar]);
}

bool ProbabilityChart::event(QEvent *event)
{
    if (event->type() == QEvent::ToolTip) {
        const QString text = toolTipAt(static_cast<QHelpEvent *>(event)->pos());
        if (!text.isEmpty())
            QToolTip::showText(static_cast<QHelpEvent *>(event)->globalPos(), text, this);
        else
            QToolTip::hideText();
        return true;
    }
    return QWidget::event(event);
}

QString ProbabilityChart::toolTipAt(const QPoint &position) const
{
    const int bar = barAt(position);
    if (bar < 0)
        return {};
    // The vocabulary piece too: the label is the word it would make.
    const QString piece = tr("Piece: %1").arg(m_pieces.value(bar));
    if (m_tokens[bar] == m_chosen)
        return piece;
    return tr("Click to decode again with “%1” forced here").arg(m_labels[bar]) +
           QLatin1Char('\n') + piece;
}

QStringList ProbabilityChart::legend() const
{
    QStringList texts;
    for (int s = 0; s < m_values.size(); ++s)
        texts << (s == 0 ? tr("the model's probability") : tr("after the decoding settings"));
    return texts;
}

void ProbabilityChart::clear()
{
    m_labels.clear();
    m_pieces.clear();
    m_tokens.clear();
    m_values.clear();
    m_stages.clear();
    m_chosen = -1;
    m_step = -1;
    m_axisMaximum = 1.0;
    update();
}

void ProbabilityChart::setStep(const engine::StepTrace &step, const QStringList &stages,
                               const QHash<int, QString> &pieces, int chosenToken)
{
    SentenceTrace trace;
    trace.pieces = pieces;
    showStep(step, stages, trace, {}, chosenToken);
}

void ProbabilityChart::showStep(const engine::StepTrace &step, const QStringList &stages,
                                const SentenceTrace &trace, const QList<int> &before,
                                int chosenToken)
{
    clear();
    m_step = step.step;
    m_chosen = chosenToken;
    const int shown = std::min<int>(int(step.tokens.size()), 10);
    for (int i = 0; i < shown; ++i) {
        const int token = step.tokens[i];
        m_tokens << token;
        m_labels << trace.tokenText(before, token, QString(), true);
        m_pieces << trace.pieces.value(token, QString::number(token));
    }
    // The first stage (the model) and the last (what the search or sampler used) tell the story;
    // intermediate processor stages are in the tooltip-free middle and would crowd the bars.
    QList<int> keep;
    if (!step.probabilities.empty()) {
        keep << 0;
        if (step.probabilities.size() > 1)
            keep << int(step.probabilities.size()) - 1;
    }
    for (int s : keep) {
        m_stages << stages.value(s, QString::number(s));
        QVector<float> values;
        for (int i = 0; i < shown; ++i)
            values << (i < int(step.probabilities[s].size()) ? step.probabilities[s][i] : 0.0f);
        m_values << values;
    }
    float highest = 0.0f;
    for (const QVector<float> &values : std::as_const(m_values))
        for (float v : values)
            highest = std::max(highest, v);
    m_axisMaximum = 1.0;
    for (double top : {0.01, 0.02, 0.05, 0.1, 0.2, 0.5})
        if (highest <= top) {
            m_axisMaximum = top;
            break;
        }
    update();
}

void ProbabilityChart::setStep(const SentenceTrace &trace, int step)
{
    const engine::StepTrace *s = trace.bestStep(step);
    if (!s) {
        clear();
        return;
    }
    QStringList stages;
    for (const std::string &stage : trace.trace.stages)
        stages << QString::fromStdString(stage);
    const int node = trace.bestPath().at(step);
    showStep(*s, stages, trace, trace.pathTokens(trace.trace.nodes[node].parent),
             trace.trace.nodes[node].token);
}

QSize ProbabilityChart::sizeHint() const
{
    return {420, 220};
}

void ProbabilityChart::paintEvent(QPaintEvent *)
{
    QPainter painter(this);
    painter.setRenderHint(QPainter::Antialiasing);
    const QPalette pal = palette();
    painter.fillRect(rect(), pal.color(QPalette::Base));
    if (m_tokens.isEmpty()) {
        painter.setPen(pal.color(QPalette::PlaceholderText));
        painter.drawText(rect().adjusted(12, 12, -12, -12), Qt::AlignCenter | Qt::TextWordWrap,
                         m_placeholder.isEmpty()
                             ? tr("Click a word in a column to see the candidates the model "
                                  "weighed at that step.")
                             : m_placeholder);
        return;
    }
    const QFontMetrics fm(font());
    const int labelHeight = fm.height() + 10;
    const QRect plot = plotRect();
    // Axis and grid at quarters of the axis, which ends just above the highest bar.
    painter.setPen(pal.color(QPalette::Mid));
    for (double quarter : {0.0, 0.25, 0.5, 0.75, 1.0}) {
        const int y = plot.bottom() - int(quarter * plot.height());
        painter.drawLine(plot.left(), y, plot.right(), y);
        painter.drawText(QRect(0, y - fm.height() / 2, 34, fm.height()),
                         Qt::AlignRight | Qt::AlignVCenter,
                         QLocale().toString(quarter * m_axisMaximum, 'g', 2));
    }
    const double scale = plot.height() / m_axisMaximum;
    const QColor colours[2] = {theme::prunedColor(pal), theme::accent(pal)};
    const int groups = m_tokens.size();
    const double groupWidth = double(plot.width()) / groups;
    const int stages = m_values.size();
    const double barWidth = std::max(4.0, (groupWidth - 10) / std::max(1, stages));
    for (int i = 0; i < groups; ++i) {
        const double x0 = plot.left() + i * groupWidth + 5;
        for (int s = 0; s < stages; ++s) {
            const double v = std::clamp(double(m_values[s][i]), 0.0, m_axisMaximum);
            const QRectF bar(x0 + s * barWidth, plot.bottom() - v * scale, barWidth - 2, v * scale);
            painter.setPen(Qt::NoPen);
            painter.setBrush(colours[std::min(s, 1)]);
            painter.drawRoundedRect(bar, 2, 2);
        }
        const bool chosen = m_tokens[i] == m_chosen;
        QFont f = font();
        f.setBold(chosen);
        painter.setFont(f);
        painter.setPen(chosen ? theme::accent(pal) : pal.color(QPalette::Text));
        painter.drawText(QRectF(x0 - 4, plot.bottom() + 4, groupWidth, labelHeight),
                         Qt::AlignHCenter | Qt::AlignTop,
                         QFontMetrics(f).elidedText(m_labels[i], Qt::ElideRight, int(groupWidth)));
        painter.setFont(font());
    }
    // Legend.
    int x = plot.left();
    const QStringList texts = legend();
    for (int s = 0; s < texts.size(); ++s) {
        painter.setPen(Qt::NoPen);
        painter.setBrush(colours[std::min(s, 1)]);
        painter.drawRoundedRect(QRect(x, 6, 12, 12), 2, 2);
        painter.setPen(pal.color(QPalette::Text));
        const QString &text = texts[s];
        painter.drawText(x + 16, 6 + fm.ascent(), text);
        x += 16 + fm.horizontalAdvance(text) + 18;
    }
    painter.setPen(pal.color(QPalette::PlaceholderText));
    painter.drawText(QRect(x, 4, plot.right() - x, fm.height() + 4), Qt::AlignRight,
                     tr("step %1").arg(m_step + 1));
}

} // namespace glosa
