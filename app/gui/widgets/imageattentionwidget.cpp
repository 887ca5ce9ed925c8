#include "app/gui/widgets/imageattentionwidget.h"

#include <QPainter>

#include <algorithm>
#include <cmath>

namespace glosa {

ImageAttentionWidget::ImageAttentionWidget(QWidget *parent) : QWidget(parent)
{
    setMinimumSize(240, 200);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
}

void ImageAttentionWidget::setImage(const QImage &image)
{
    m_image = image;
    m_heat = QImage();
    m_weights.clear();
    update();
}

void ImageAttentionWidget::setAttention(int rows, int cols, const QVector<float> &weights)
{
    m_heat = QImage();
    m_weights.clear();
    if (rows > 0 && cols > 0 && weights.size() == rows * cols) {
        m_weights = weights;
        // A spotlight: cells are darkened by how little attention they got relative to the
        // word's strongest and weakest cells. Soft attention over 7 × 7 cells is rarely peaked,
        // so scaling by the peak alone tinted the whole photo evenly.
        const auto [low, high] = std::minmax_element(weights.begin(), weights.end());
        const float range = *high - *low;
        m_heat = QImage(cols, rows, QImage::Format_ARGB32);
        for (int r = 0; r < rows; ++r)
            for (int c = 0; c < cols; ++c) {
                const float v = range > 0 ? (weights[r * cols + c] - *low) / range : 1.0f;
                m_heat.setPixelColor(c, r, QColor(0, 0, 0, int(std::lround(230 * (1.0f - v)))));
            }
    }
    update();
}

void ImageAttentionWidget::setBlend(double blend)
{
    m_blend = blend;
    update();
}

QSize ImageAttentionWidget::sizeHint() const
{
    return {520, 400};
}

void ImageAttentionWidget::paintEvent(QPaintEvent *)
{
    QPainter painter(this);
    painter.setRenderHint(QPainter::SmoothPixmapTransform);
    if (m_image.isNull())
        return;
    const QSize fitted = m_image.size().scaled(size(), Qt::KeepAspectRatio);
    const QRect target(QPoint((width() - fitted.width()) / 2, (height() - fitted.height()) / 2),
                       fitted);
    painter.drawImage(target, m_image);
    if (!m_heat.isNull()) {
        // Smooth upsampling of the grid reads as "where the model looked" rather than as tiles.
        const QImage heat =
            m_heat.scaled(target.size(), Qt::IgnoreAspectRatio, Qt::SmoothTransformation);
        painter.setOpacity(m_blend);
        painter.drawImage(target, heat);
        painter.setOpacity(1.0);
    }
}

} // namespace glosa
