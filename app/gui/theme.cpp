#include "app/gui/theme.h"

#include <QApplication>
#include <QStyle>

#include <algorithm>
#include <cmath>

namespace glosa::theme {

namespace {
QColor mix(const QColor &a, const QColor &b, float t)
{
    t = std::clamp(t, 0.0f, 1.0f);
    return QColor::fromRgbF(a.redF() + (b.redF() - a.redF()) * t,
                            a.greenF() + (b.greenF() - a.greenF()) * t,
                            a.blueF() + (b.blueF() - a.blueF()) * t);
}
} // namespace

bool isDark(const QPalette &palette)
{
    return palette.color(QPalette::Window).lightness() < 128;
}

void applyAppearance(const QString &appearance)
{
    // What the platform gave, kept from the first call so that "system" can go back to it.
    static const QString systemStyle = QApplication::style()->name();
    static const QPalette systemPalette = QApplication::palette();
    if (appearance != QLatin1String("light") && appearance != QLatin1String("dark")) {
        QApplication::setStyle(systemStyle);
        QApplication::setPalette(systemPalette);
        return;
    }
    QApplication::setStyle(QStringLiteral("Fusion"));
    QPalette p = QApplication::style()->standardPalette(); // Fusion's light one
    if (appearance == QLatin1String("dark")) {
        const QColor window(0x2b, 0x2d, 0x31), base(0x1e, 0x1f, 0x22), text(0xe6, 0xe6, 0xe6);
        const QColor disabled(0x80, 0x80, 0x80);
        p.setColor(QPalette::Window, window);
        p.setColor(QPalette::WindowText, text);
        p.setColor(QPalette::Base, base);
        p.setColor(QPalette::AlternateBase, window);
        p.setColor(QPalette::ToolTipBase, base);
        p.setColor(QPalette::ToolTipText, text);
        p.setColor(QPalette::PlaceholderText, QColor(0x9a, 0x9d, 0xa3));
        p.setColor(QPalette::Text, text);
        p.setColor(QPalette::Button, window);
        p.setColor(QPalette::ButtonText, text);
        p.setColor(QPalette::BrightText, Qt::white);
        p.setColor(QPalette::Light, QColor(0x3c, 0x3f, 0x44));
        p.setColor(QPalette::Midlight, QColor(0x35, 0x37, 0x3c));
        p.setColor(QPalette::Mid, QColor(0x45, 0x48, 0x4e));
        p.setColor(QPalette::Dark, QColor(0x18, 0x19, 0x1b));
        p.setColor(QPalette::Shadow, Qt::black);
        p.setColor(QPalette::Highlight, QColor(0x1f, 0x7a, 0x85));
        p.setColor(QPalette::HighlightedText, Qt::white);
        p.setColor(QPalette::Link, QColor(0x5e, 0xc8, 0xd8));
        for (QPalette::ColorRole role :
             {QPalette::WindowText, QPalette::Text, QPalette::ButtonText})
            p.setColor(QPalette::Disabled, role, disabled);
    }
    QApplication::setPalette(p);
}

QColor accent(const QPalette &palette)
{
    // Teal reads well as a highlight on both white and near-black editors, and is the icon's.
    return isDark(palette) ? QColor(0x2e, 0xc4, 0xb6) : QColor(0x12, 0x8c, 0x9a);
}

QColor attentionColor(const QPalette &palette, float weight)
{
    QColor c = accent(palette);
    c.setAlphaF(std::clamp(0.08f + 0.82f * std::sqrt(std::clamp(weight, 0.0f, 1.0f)), 0.0f, 0.9f));
    return c;
}

QColor heatColor(const QPalette &palette, float value)
{
    const QColor base = palette.color(QPalette::Base);
    const QColor mid = accent(palette);
    const QColor end = isDark(palette) ? QColor(0xf9, 0xe2, 0x6b) : QColor(0x23, 0x2b, 0x8c);
    value = std::clamp(value, 0.0f, 1.0f);
    return value < 0.5f ? mix(base, mid, value * 2.0f) : mix(mid, end, (value - 0.5f) * 2.0f);
}

QColor confidenceColor(const QPalette &palette, float probability)
{
    QColor warm = isDark(palette) ? QColor(0xff, 0x8a, 0x65) : QColor(0xe6, 0x5c, 0x2e);
    warm.setAlphaF(std::clamp(0.75f * (1.0f - probability), 0.0f, 0.75f));
    return warm;
}

QColor keptColor(const QPalette &palette) { return accent(palette); }
QColor prunedColor(const QPalette &palette)
{
    return isDark(palette) ? QColor(0x6b, 0x72, 0x80) : QColor(0xb0, 0xb6, 0xc0);
}
QColor finishedColor(const QPalette &palette)
{
    return isDark(palette) ? QColor(0x8b, 0xd4, 0x50) : QColor(0x3c, 0x9a, 0x2e);
}
QColor blockedColor(const QPalette &palette)
{
    return isDark(palette) ? QColor(0xff, 0x6b, 0x6b) : QColor(0xd0, 0x3a, 0x3a);
}

QColor fateColor(const QPalette &palette, engine::NodeFate fate)
{
    switch (fate) {
    case engine::NodeFate::Kept: return keptColor(palette);
    case engine::NodeFate::Pruned: return prunedColor(palette);
    case engine::NodeFate::Finished: return finishedColor(palette);
    case engine::NodeFate::BlockedByNgram: return blockedColor(palette);
    }
    return keptColor(palette);
}

QColor textOn(const QColor &background)
{
    const double luminance =
        0.2126 * background.redF() + 0.7152 * background.greenF() + 0.0722 * background.blueF();
    return luminance > 0.55 || background.alphaF() < 0.45 ? QColor(0x1d, 0x1f, 0x24)
                                                          : QColor(Qt::white);
}

QFont titleFont(const QFont &base)
{
    QFont f = base;
    f.setPointSizeF(base.pointSizeF() * 1.15);
    f.setWeight(QFont::DemiBold);
    return f;
}

QFont editorFont(const QFont &base)
{
    QFont f = base;
    f.setPointSizeF(base.pointSizeF() * 1.3);
    return f;
}

} // namespace glosa::theme
