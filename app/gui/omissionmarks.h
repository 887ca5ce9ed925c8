// How the views mark a source word the coverage check flagged as likely left out of the
// translation (engine/decoding/coverage.h): the Translate and Documents views alike.
#pragma once

#include <QString>
#include <QTextCharFormat>

class QPalette;

namespace glosa {

// The flagged word's tooltip: its attention mass, the threshold, and what they mean.
QString omissionToolTip(float mass, float threshold);
// Its underline: wavy, as a spell checker's, so that the attention and sentence highlights can
// still fill the same word.
QTextCharFormat omissionFormat(const QPalette &palette, float mass, float threshold);

} // namespace glosa
