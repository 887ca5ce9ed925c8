// ImageAttentionWidget: a photo with the attention of one caption word painted over it, as a
// spotlight (the Caption view's image).
#pragma once

#include <QImage>
#include <QVector>
#include <QWidget>

namespace glosa {

// The image with the attention of one word painted over it.
class ImageAttentionWidget : public QWidget
{
    Q_OBJECT
public:
    explicit ImageAttentionWidget(QWidget *parent = nullptr);
    void setImage(const QImage &image);
    // weights: [rows * cols] row-major; empty clears the overlay.
    void setAttention(int rows, int cols, const QVector<float> &weights);
    void setBlend(double blend); // 0: image only, 1: heatmap only
    double blend() const { return m_blend; }
    const QVector<float> &attention() const { return m_weights; } // what the overlay shows
    const QImage &image() const { return m_image; }
    QSize sizeHint() const override;

protected:
    void paintEvent(QPaintEvent *event) override;

private:
    QImage m_image;
    QImage m_heat; // rows × cols, ARGB, scaled smoothly when painted
    QVector<float> m_weights;
    double m_blend = 0.75;
};

} // namespace glosa
