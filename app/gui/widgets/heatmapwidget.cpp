#include "app/gui/widgets/heatmapwidget.h"

#include "app/gui/theme.h"

#include <QHelpEvent>
#include <QLocale>
#include <QMouseEvent>
#include <QPaintEvent>
#include <QPainter>
#include <QToolTip>

#include <algorithm>

namespace glosa {

namespace {
constexpr int kMargin = 8;
constexpr int kMinCell = 16;
constexpr int kMaxCell = 34;
} // namespace

HeatmapWidget::HeatmapWidget(QWidget *parent) : QWidget(parent)
{
    setMouseTracking(true);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
    setFocusPolicy(Qt::StrongFocus);
}

void HeatmapWidget::setMatrix(const QStringList &rowLabels, const QStringList &columnLabels,
                              const QVector<float> &values)
{
    m_rowLabels = rowLabels;
    m_columnLabels = columnLabels;
    m_values = values;
    // Shared with the result (a 5,000-word text's matrix is ~180 MB): resizing would copy it.
    if (m_values.size() != rowLabels.size() * columnLabels.size())
        m_values.resize(rowLabels.size() * columnLabels.size());
    m_highlightRow = m_highlightColumn = m_hoverRow = m_hoverColumn = -1;
    updateOrigin();
    updateGeometry();
    update();
}

void HeatmapWidget::clear(const QString &message)
{
    m_emptyMessage = message;
    setMatrix({}, {}, {});
}

void HeatmapWidget::setHighlight(int row, int column)
{
    if (row == m_highlightRow && column == m_highlightColumn)
        return;
    m_highlightRow = row;
    m_highlightColumn = column;
    update();
}

void HeatmapWidget::updateOrigin()
{
    const QFontMetrics fm(font());
    // Measured bold: the hovered or selected row's label is drawn bold, and measured in the
    // regular font it was cut ("governme…").
    QFont bold = font();
    bold.setBold(true);
    const QFontMetrics boldMetrics(bold);
    int rowLabelWidth = 0;
    for (const QString &label : m_rowLabels)
        rowLabelWidth = std::max(rowLabelWidth, boldMetrics.horizontalAdvance(label));
    int columnLabelHeight = 0;
    for (const QString &label : m_columnLabels)
        columnLabelHeight = std::max(columnLabelHeight, fm.horizontalAdvance(label));
    // Column labels are drawn at 45°, so they need about 0.71 of their width upwards.
    m_origin = {kMargin + std::min(rowLabelWidth, 160) + 8,
                kMargin + int(std::min(columnLabelHeight, 160) * 0.72) + fm.height()};
}

void HeatmapWidget::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::FontChange) {
        updateOrigin();
        updateGeometry();
    }
    QWidget::changeEvent(event);
}

int HeatmapWidget::cellSize() const
{
    if (m_rowLabels.isEmpty() || m_columnLabels.isEmpty())
        return kMinCell;
    const QPoint o = origin();
    const int byWidth = (width() - o.x() - kMargin) / std::max<int>(1, columns());
    const int byHeight = (height() - o.y() - kMargin) / std::max<int>(1, rows());
    return std::clamp(std::min(byWidth, byHeight), kMinCell, kMaxCell);
}

QSize HeatmapWidget::sizeHint() const
{
    const QPoint o = origin();
    return {o.x() + columns() * 26 + kMargin, o.y() + rows() * 26 + kMargin};
}

QSize HeatmapWidget::minimumSizeHint() const
{
    const QPoint o = origin();
    return {o.x() + columns() * kMinCell + kMargin, o.y() + rows() * kMinCell + kMargin};
}

QRect HeatmapWidget::cellRect(int row, int column) const
{
    const int size = cellSize();
    const QPoint o = origin();
    return {o.x() + column * size, o.y() + row * size, size, size};
}

std::pair<int, int> HeatmapWidget::cellAt(const QPoint &position) const
{
    const int size = cellSize();
    const QPoint o = origin();
    if (position.x() < o.x() || position.y() < o.y())
        return {-1, -1};
    const int column = (position.x() - o.x()) / size;
    const int row = (position.y() - o.y()) / size;
    if (row >= rows() || column >= columns())
        return {-1, -1};
    return {row, column};
}

void HeatmapWidget::paintEvent(QPaintEvent *event)
{
    QPainter painter(this);
    const QPalette pal = palette();
    const QRect exposed = event->rect();
    painter.fillRect(exposed, pal.color(QPalette::Base));
    if (m_rowLabels.isEmpty() || m_columnLabels.isEmpty()) {
        painter.setPen(pal.color(QPalette::PlaceholderText));
        painter.drawText(rect().adjusted(kMargin, kMargin, -kMargin, -kMargin),
                         Qt::AlignCenter | Qt::TextWordWrap,
                         m_emptyMessage.isEmpty()
                             ? tr("The attention matrix appears here after a translation.")
                             : m_emptyMessage);
        return;
    }
    const int size = cellSize();
    const QPoint o = origin();
    const QFontMetrics fm(font());
    // Only what the scroll area exposes: a long paragraph's matrix has 10⁵ cells and more.
    const int firstRow = std::clamp((exposed.top() - o.y()) / size, 0, rows() - 1);
    const int lastRow = std::clamp((exposed.bottom() - o.y()) / size, 0, rows() - 1);
    const int firstColumn = std::clamp((exposed.left() - o.x()) / size - 1, 0, columns() - 1);
    const int lastColumn = std::clamp((exposed.right() - o.x()) / size + 1, 0, columns() - 1);
    for (int r = firstRow; r <= lastRow; ++r)
        for (int c = firstColumn; c <= lastColumn; ++c)
            painter.fillRect(QRect(o.x() + c * size + 1, o.y() + r * size + 1, size - 2, size - 2),
                             theme::heatColor(pal, value(r, c)));
    painter.setRenderHint(QPainter::Antialiasing);
    // Axis labels: target tokens on the left, source tokens at 45° on top.
    QFont bold = font();
    bold.setBold(true);
    for (int r = firstRow; r <= lastRow; ++r) {
        const bool on = r == m_highlightRow || r == m_hoverRow;
        painter.setPen(on ? theme::accent(pal) : pal.color(QPalette::Text));
        painter.setFont(on ? bold : font());
        const QRect label(kMargin, o.y() + r * size, o.x() - kMargin - 8, size);
        painter.drawText(label, Qt::AlignRight | Qt::AlignVCenter,
                         fm.elidedText(m_rowLabels.at(r), Qt::ElideRight, label.width()));
    }
    if (exposed.top() < o.y()) {
        // A label at 45° reaches up to o.y() to the right of its column: start a bit further left.
        const int firstLabel = std::clamp((exposed.left() - o.x() - o.y()) / size, 0, columns() - 1);
        for (int c = firstLabel; c <= lastColumn; ++c) {
            const bool on = c == m_highlightColumn || c == m_hoverColumn;
            painter.setPen(on ? theme::accent(pal) : pal.color(QPalette::Text));
            painter.setFont(on ? bold : font());
            painter.save();
            painter.translate(o.x() + c * size + size / 2 + 2, o.y() - 6);
            painter.rotate(-45);
            painter.drawText(0, 0, fm.elidedText(m_columnLabels.at(c), Qt::ElideRight, 160));
            painter.restore();
        }
    }
    painter.setFont(font());
    // Outlines of the highlighted row/column and the hovered cell.
    QPen pen(theme::accent(pal), 2);
    painter.setPen(pen);
    painter.setBrush(Qt::NoBrush);
    if (m_highlightRow >= 0 && m_highlightRow < rows())
        painter.drawRect(cellRect(m_highlightRow, 0).united(cellRect(m_highlightRow, columns() - 1)));
    if (m_highlightColumn >= 0 && m_highlightColumn < columns())
        painter.drawRect(
            cellRect(0, m_highlightColumn).united(cellRect(rows() - 1, m_highlightColumn)));
    if (m_hoverRow >= 0) {
        painter.setPen(QPen(pal.color(QPalette::Text), 2));
        painter.drawRect(cellRect(m_hoverRow, m_hoverColumn));
    }
}

void HeatmapWidget::mouseMoveEvent(QMouseEvent *event)
{
    const auto [row, column] = cellAt(event->position().toPoint());
    if (row != m_hoverRow || column != m_hoverColumn) {
        m_hoverRow = row;
        m_hoverColumn = column;
        update();
        emit cellHovered(row, column);
    }
}

void HeatmapWidget::leaveEvent(QEvent *)
{
    if (m_hoverRow >= 0) {
        m_hoverRow = m_hoverColumn = -1;
        update();
        emit cellHovered(-1, -1);
    }
}

bool HeatmapWidget::event(QEvent *event)
{
    if (event->type() == QEvent::ToolTip) {
        auto *help = static_cast<QHelpEvent *>(event);
        const auto [row, column] = cellAt(help->pos());
        if (row >= 0)
            QToolTip::showText(help->globalPos(),
                               tr("%1 → %2: %3")
                                   .arg(m_rowLabels.at(row), m_columnLabels.at(column))
                                   .arg(QLocale().toString(double(value(row, column)), 'f', 3)),
                               this);
        else
            QToolTip::hideText();
        return true;
    }
    return QWidget::event(event);
}

} // namespace glosa
