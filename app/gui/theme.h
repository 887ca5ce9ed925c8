// Colours and fonts shared by the views, derived from the current palette so that they work in
// light and dark themes alike (the palette follows the system; views repaint on PaletteChange).
#pragma once

#include "engine/decoding/trace.h"

#include <QColor>
#include <QFont>
#include <QPalette>

namespace glosa::theme {

bool isDark(const QPalette &palette);
// Settings ▸ Appearance: "system" (the platform's palette and style, light or dark as the
// desktop has it), "light" or "dark" (Fusion with a light or dark palette, for desktops whose
// dark theme Qt does not see). Applied to the whole application; views repaint on PaletteChange.
void applyAppearance(const QString &appearance);
// The accent used for attention highlights (the palette's highlight, nudged for contrast).
QColor accent(const QPalette &palette);
// `accent` blended over the base colour with opacity `weight` in [0, 1]: what a source word
// with that attention weight is painted with.
QColor attentionColor(const QPalette &palette, float weight);
// Heatmap ramp for a value in [0, 1]: base colour → accent → a brighter end.
QColor heatColor(const QPalette &palette, float value);
// Confidence shading for a token probability p in [0, 1]: transparent when sure, warm when not.
QColor confidenceColor(const QPalette &palette, float probability);
// Beam-tree fates.
QColor keptColor(const QPalette &palette);
QColor prunedColor(const QPalette &palette);
QColor finishedColor(const QPalette &palette);
QColor blockedColor(const QPalette &palette);
// One of the four above for a node's fate.
QColor fateColor(const QPalette &palette, engine::NodeFate fate);
// Readable text colour on `background`.
QColor textOn(const QColor &background);
// Title font for view headers: a little larger and semi-bold.
QFont titleFont(const QFont &base);
// Font for editors: larger than the UI font, pleasant for reading sentences.
QFont editorFont(const QFont &base);

} // namespace glosa::theme
