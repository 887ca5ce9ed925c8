// HeatmapWidget: a target × source attention matrix with the tokens as axis labels. Hovering a
// cell shows its value and tells the Translate view which pair to light up in the editors.
#pragma once

#include <QStringList>
#include <QVector>
#include <QWidget>

namespace glosa {

class HeatmapWidget : public QWidget
{
    Q_OBJECT
public:
    explicit HeatmapWidget(QWidget *parent = nullptr);

    // values: [rows, columns] row-major, in [0, 1].
    void setMatrix(const QStringList &rowLabels, const QStringList &columnLabels,
                   const QVector<float> &values);
    // Empty, with `message` in its place (default: where the matrix will appear).
    void clear(const QString &message = QString());
    QString emptyMessage() const { return m_emptyMessage; }
    // Outlines a row and/or a column (-1: none), e.g. the token hovered in an editor.
    void setHighlight(int row, int column);

    int rows() const { return m_rowLabels.size(); }
    int columns() const { return m_columnLabels.size(); }
    float value(int row, int column) const { return m_values.value(row * columns() + column); }
    // Geometry of a cell, for tests and tooltips.
    QRect cellRect(int row, int column) const;
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

signals:
    void cellHovered(int row, int column); // -1, -1 when the pointer leaves the matrix

protected:
    void paintEvent(QPaintEvent *event) override;
    void mouseMoveEvent(QMouseEvent *event) override;
    void leaveEvent(QEvent *event) override;
    void changeEvent(QEvent *event) override;
    bool event(QEvent *event) override;

private:
    int cellSize() const;
    QPoint origin() const { return m_origin; }
    void updateOrigin();
    std::pair<int, int> cellAt(const QPoint &position) const;

    QStringList m_rowLabels;
    QStringList m_columnLabels;
    QVector<float> m_values;
    QString m_emptyMessage;
    int m_highlightRow = -1;
    int m_highlightColumn = -1;
    int m_hoverRow = -1;
    int m_hoverColumn = -1;
    // Where the cells start, below and right of the labels. Measuring every label costs
    // milliseconds for a long paragraph, so it is done when the labels or the font change, never
    // per cell or per paint (that made a 400 × 400 matrix block the GUI thread for minutes).
    QPoint m_origin;
};

} // namespace glosa
