// HeadGridWidget: small multiples of every head of one attention layer, side by side, so that
// heads with a job stand out at a glance — the diagonal of a head that aligns, the off-diagonal of
// one that attends to the previous token, the stripe of one that attends to punctuation or EOS.
// Clicking a head asks the Translate view to show it large.
#pragma once

#include <QImage>
#include <QList>
#include <QVector>
#include <QWidget>

namespace glosa {

class HeadGridWidget : public QWidget
{
    Q_OBJECT
public:
    explicit HeadGridWidget(QWidget *parent = nullptr);

    // maps[h]: head h's [rows, columns] weights, row-major, in [0, 1].
    void setHeads(const QList<QVector<float>> &maps, int rows, int columns);
    void clear() { setHeads({}, 0, 0); }

    int heads() const { return int(m_maps.size()); }
    int rows() const { return m_rows; }
    int columns() const { return m_columns; }
    // Where head `head`'s map is drawn, for tests and clicks.
    QRect headRect(int head) const;
    QSize sizeHint() const override;
    bool hasHeightForWidth() const override { return true; }
    int heightForWidth(int width) const override;

signals:
    void headClicked(int head);

protected:
    void paintEvent(QPaintEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;
    void changeEvent(QEvent *event) override;

private:
    void renderImages();
    int tilesPerRow(int width) const;
    int tileSize(int width) const;

    QList<QVector<float>> m_maps;
    QList<QImage> m_images; // m_maps in the palette's heatmap colours, one pixel per cell
    int m_rows = 0;
    int m_columns = 0;
};

} // namespace glosa
