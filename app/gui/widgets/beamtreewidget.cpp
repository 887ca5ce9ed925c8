#include "app/gui/widgets/beamtreewidget.h"

#include "app/gui/theme.h"

#include <QHelpEvent>
#include <QContextMenuEvent>
#include <QLocale>
#include <QMenu>
#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>
#include <QToolTip>

#include <algorithm>
#include <cmath>
#include <functional>

namespace glosa {

namespace {
constexpr int kStepWidth = 92;
constexpr int kRowHeight = 26;
constexpr int kMargin = 18;
constexpr double kRadius = 6.0;

// A node's token as text: byte pieces as the character they complete, placeholders as what they
// stand for, a word start marked "·" (SentenceTrace::tokenText).
QString nodeLabel(const SentenceTrace &trace, const engine::TraceNode &node)
{
    return trace.tokenText(trace.pathTokens(node.parent), node.token, QStringLiteral("·"));
}
} // namespace

BeamTreeWidget::BeamTreeWidget(QWidget *parent) : QWidget(parent)
{
    setMouseTracking(true);
    setFocusPolicy(Qt::StrongFocus);
}

void BeamTreeWidget::clear()
{
    setTrace(SentenceTrace());
}

void BeamTreeWidget::setTrace(const SentenceTrace &trace)
{
    m_trace = trace;
    m_bestPath = m_trace.bestPath();
    m_selectedStep = -1;
    layoutNodes();
    updateGeometry();
    update();
}

void BeamTreeWidget::setSelectedStep(int step)
{
    m_selectedStep = step;
    update();
}

void BeamTreeWidget::layoutNodes()
{
    const auto &nodes = m_trace.trace.nodes;
    m_positions = QVector<QPointF>(int(nodes.size()));
    m_maxStep = 0;
    m_rows = 0;
    if (nodes.empty())
        return;
    QVector<QList<int>> children(int(nodes.size()));
    for (const engine::TraceNode &node : nodes) {
        if (node.parent >= 0 && node.parent < int(nodes.size()))
            children[node.parent].append(node.id);
        m_maxStep = std::max(m_maxStep, node.step + 1);
    }
    // Children best first, so the best branches stay at the top.
    for (QList<int> &list : children)
        std::sort(list.begin(), list.end(), [&](int a, int b) {
            return nodes[a].cumulativeLogProb > nodes[b].cumulativeLogProb;
        });
    // Leaves get consecutive rows; a parent sits at its first child's row (a tidy tree that
    // reads like the beam: the best continuation runs straight).
    int nextRow = 0;
    std::function<double(int)> place = [&](int id) -> double {
        const double x = kMargin + (nodes[id].step + 1) * kStepWidth;
        double y;
        if (children[id].isEmpty()) {
            y = nextRow++;
        } else {
            y = place(children[id].first());
            for (int i = 1; i < children[id].size(); ++i)
                place(children[id].at(i));
        }
        m_positions[id] = QPointF(x, y);
        return y;
    };
    place(0);
    m_rows = nextRow;
    for (QPointF &p : m_positions)
        p.setY(kMargin + 10 + p.y() * kRowHeight);
}

QPoint BeamTreeWidget::stepPosition(int step) const
{
    if (step < 0 || step >= m_bestPath.size())
        return {};
    return nodePosition(m_bestPath.at(step));
}

QSize BeamTreeWidget::sizeHint() const
{
    return {kMargin * 2 + (m_maxStep + 1) * kStepWidth + 60,
            kMargin * 2 + 10 + std::max(1, m_rows) * kRowHeight};
}

void BeamTreeWidget::paintEvent(QPaintEvent *)
{
    QPainter painter(this);
    painter.setRenderHint(QPainter::Antialiasing);
    const QPalette pal = palette();
    painter.fillRect(rect(), pal.color(QPalette::Base));
    const auto &nodes = m_trace.trace.nodes;
    if (nodes.empty()) {
        painter.setPen(pal.color(QPalette::PlaceholderText));
        painter.drawText(rect(), Qt::AlignCenter | Qt::TextWordWrap,
                         tr("Compare to see the search tree of the selected column."));
        return;
    }
    if (m_selectedStep >= 0) {
        const double x = kMargin + (m_selectedStep + 1) * kStepWidth;
        QColor band = theme::accent(pal);
        band.setAlphaF(0.10);
        painter.fillRect(QRectF(x - kStepWidth / 2.0 + 8, 0, kStepWidth - 4, height()), band);
    }
    const QSet<int> best(m_bestPath.begin(), m_bestPath.end());
    // Edges first, the best path on top.
    for (int pass = 0; pass < 2; ++pass) {
        for (const engine::TraceNode &node : nodes) {
            if (node.parent < 0 || (pass == 1) != best.contains(node.id))
                continue;
            const QPointF a = m_positions[node.parent];
            const QPointF b = m_positions[node.id];
            QPainterPath path(a);
            path.cubicTo(QPointF((a.x() + b.x()) / 2, a.y()), QPointF((a.x() + b.x()) / 2, b.y()),
                         b);
            QColor c = pass == 1 ? theme::accent(pal) : pal.color(QPalette::Mid);
            painter.setPen(QPen(c, pass == 1 ? 2.6 : 1.0));
            painter.setBrush(Qt::NoBrush);
            painter.drawPath(path);
        }
    }
    QFont small = font();
    small.setPointSizeF(font().pointSizeF() * 0.9);
    painter.setFont(small);
    for (const engine::TraceNode &node : nodes) {
        const QPointF p = m_positions[node.id];
        const QColor fill =
            node.parent < 0 ? pal.color(QPalette::Text) : theme::fateColor(pal, node.fate);
        painter.setPen(best.contains(node.id) ? QPen(pal.color(QPalette::Text), 1.6) : Qt::NoPen);
        painter.setBrush(fill);
        painter.drawEllipse(p, kRadius, kRadius);
        if (node.parent >= 0) {
            painter.setPen(best.contains(node.id) ? pal.color(QPalette::Text)
                                                  : pal.color(QPalette::PlaceholderText));
            const QString label = nodeLabel(m_trace, node);
            painter.drawText(QRectF(p.x() + kRadius + 3, p.y() - kRowHeight / 2.0,
                                    kStepWidth - kRadius * 2 - 6, kRowHeight),
                             Qt::AlignVCenter | Qt::AlignLeft,
                             QFontMetrics(small).elidedText(label, Qt::ElideRight,
                                                            kStepWidth - 2 * kRadius - 8));
        }
    }
}

int BeamTreeWidget::nodeAt(const QPoint &position) const
{
    for (int i = 0; i < m_positions.size(); ++i)
        if (QLineF(m_positions[i], position).length() <= kRadius + 4)
            return i;
    return -1;
}

void BeamTreeWidget::mousePressEvent(QMouseEvent *event)
{
    const int node = nodeAt(event->position().toPoint());
    if (node <= 0 || event->button() != Qt::LeftButton)
        return;
    // The best path is what the column shows: a click there selects the word. Elsewhere the
    // search went another way, and that way is what a click asks to see.
    if (!m_bestPath.contains(node)) {
        emit decodeFromNode(node);
        return;
    }
    const int step = m_trace.trace.nodes[node].step;
    setSelectedStep(step);
    emit stepClicked(step);
}

void BeamTreeWidget::mouseDoubleClickEvent(QMouseEvent *event)
{
    // Off the path the first click already asked for the decode.
    const int node = nodeAt(event->position().toPoint());
    if (node > 0 && event->button() == Qt::LeftButton && m_bestPath.contains(node))
        emit decodeFromNode(node);
}

void BeamTreeWidget::mouseMoveEvent(QMouseEvent *event)
{
    setCursor(nodeAt(event->position().toPoint()) > 0 ? Qt::PointingHandCursor : Qt::ArrowCursor);
}

void BeamTreeWidget::contextMenuEvent(QContextMenuEvent *event)
{
    const int node = nodeAt(event->pos());
    if (node <= 0)
        return;
    QMenu menu(this);
    menu.addAction(tr("Decode from here"), this, [this, node] { emit decodeFromNode(node); });
    menu.exec(event->globalPos());
}

bool BeamTreeWidget::event(QEvent *event)
{
    if (event->type() == QEvent::ToolTip) {
        auto *help = static_cast<QHelpEvent *>(event);
        const int id = nodeAt(help->pos());
        if (id > 0) {
            const engine::TraceNode &n = m_trace.trace.nodes[id];
            QString fate;
            switch (n.fate) {
            case engine::NodeFate::Kept: fate = tr("kept"); break;
            case engine::NodeFate::Pruned: fate = tr("pruned"); break;
            case engine::NodeFate::Finished: fate = tr("finished"); break;
            case engine::NodeFate::BlockedByNgram: fate = tr("blocked by n-gram"); break;
            }
            const QString hint = m_bestPath.contains(id)
                                     ? tr("Double-click to decode again with the words up to "
                                          "here forced")
                                     : tr("Click to decode again with the words up to here "
                                          "forced: a new column shows where this path leads");
            QToolTip::showText(help->globalPos(),
                               tr("“%1” (step %2): %3\nlog p %4 · cumulative %5 · score %6")
                                       .arg(nodeLabel(m_trace, n))
                                       .arg(n.step + 1)
                                       .arg(fate)
                                       .arg(QLocale().toString(double(n.logProb), 'f', 3))
                                       .arg(QLocale().toString(double(n.cumulativeLogProb), 'f', 3))
                                       .arg(QLocale().toString(double(n.normalizedScore), 'f', 3)) +
                                   QLatin1Char('\n') + hint,
                               this);
        } else {
            QToolTip::hideText();
        }
        return true;
    }
    return QWidget::event(event);
}

} // namespace glosa
