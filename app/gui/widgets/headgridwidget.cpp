#include "app/gui/widgets/headgridwidget.h"

#include "app/gui/theme.h"

#include <QMouseEvent>
#include <QPainter>

#include <algorithm>

namespace glosa {

namespace {
constexpr int kSpacing = 12;
constexpr int kMinTile = 96;
constexpr int kMaxTile = 220;
} // namespace

HeadGridWidget::HeadGridWidget(QWidget *parent) : QWidget(parent)
{
    // QScrollArea asks the size policy, not hasHeightForWidth(), whether the height follows the
    // width: without it the grid got the viewport's height and the tiles' lower part was cut
    // off, out of the scroll bar's reach.
    QSizePolicy policy(QSizePolicy::Expanding, QSizePolicy::Preferred);
    policy.setHeightForWidth(true);
    setSizePolicy(policy);
    setCursor(Qt::PointingHandCursor);
}

void HeadGridWidget::setHeads(const QList<QVector<float>> &maps, int rows, int columns)
{
    m_maps = maps;
    m_rows = rows;
    m_columns = columns;
    renderImages();
    updateGeometry();
    update();
}

// One pixel per cell, scaled when painted: a paragraph's maps have 10⁵ cells and more per head,
// far too many to fill one by one on every paint. The heatmap's colours: a weight of 0 (the
// masked future, another sentence) is the empty background.
void HeadGridWidget::renderImages()
{
    m_images.clear();
    const QPalette pal = palette();
    for (const QVector<float> &map : m_maps) {
        QImage image(m_columns, m_rows, QImage::Format_RGB32);
        for (int i = 0; i < m_rows; ++i) {
            auto *line = reinterpret_cast<QRgb *>(image.scanLine(i));
            for (int j = 0; j < m_columns; ++j)
                line[j] = theme::heatColor(pal, map.value(i * m_columns + j)).rgb();
        }
        m_images << image;
    }
}

void HeadGridWidget::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::PaletteChange)
        renderImages();
    QWidget::changeEvent(event);
}

// As many tiles of at least kMinTile as fit the width; each then as wide as the width allows.
int HeadGridWidget::tilesPerRow(int width) const
{
    const int fit = std::max(1, (width - kSpacing) / (kMinTile + kSpacing));
    return std::max(1, std::min(fit, heads()));
}

int HeadGridWidget::tileSize(int width) const
{
    const int perRow = tilesPerRow(width);
    return std::clamp((width - kSpacing) / perRow - kSpacing, kMinTile / 2, kMaxTile);
}

QRect HeadGridWidget::headRect(int head) const
{
    const int perRow = tilesPerRow(width());
    const int tile = tileSize(width());
    const int title = fontMetrics().height() + 4;
    const int x = kSpacing + (head % perRow) * (tile + kSpacing);
    const int y = kSpacing + (head / perRow) * (tile + title + kSpacing);
    return {x, y + title, tile, tile};
}

int HeadGridWidget::heightForWidth(int width) const
{
    if (heads() == 0)
        return 0;
    const int lines = (heads() + tilesPerRow(width) - 1) / tilesPerRow(width);
    return kSpacing + lines * (tileSize(width) + fontMetrics().height() + 4 + kSpacing);
}

QSize HeadGridWidget::sizeHint() const
{
    const int width = kSpacing + std::min(heads(), 4) * (kMinTile + 40 + kSpacing);
    return {width, heightForWidth(width)};
}

void HeadGridWidget::paintEvent(QPaintEvent *)
{
    if (m_rows == 0 || m_columns == 0)
        return;
    QPainter painter(this);
    const QPalette pal = palette();
    for (int h = 0; h < heads(); ++h) {
        const QRect rect = headRect(h);
        painter.setPen(pal.color(QPalette::WindowText));
        painter.drawText(QRect(rect.left(), rect.top() - fontMetrics().height() - 4, rect.width(),
                               fontMetrics().height()),
                         Qt::AlignLeft | Qt::AlignVCenter, tr("Head %1").arg(h + 1));
        // Square cells: the map keeps its aspect ratio inside the tile.
        const double cell =
            std::min(double(rect.width()) / m_columns, double(rect.height()) / m_rows);
        const QRectF target(rect.left(), rect.top(), m_columns * cell, m_rows * cell);
        painter.drawImage(target, m_images.at(h));
        painter.setPen(pal.color(QPalette::Mid));
        painter.drawRect(target);
    }
}

void HeadGridWidget::mousePressEvent(QMouseEvent *event)
{
    for (int h = 0; h < heads(); ++h)
        if (headRect(h).contains(event->position().toPoint())) {
            emit headClicked(h);
            return;
        }
    QWidget::mousePressEvent(event);
}

} // namespace glosa
