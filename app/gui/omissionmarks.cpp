#include "app/gui/omissionmarks.h"

#include "app/gui/theme.h"

#include <QCoreApplication>
#include <QLocale>

namespace glosa {

QString omissionToolTip(float mass, float threshold)
{
    return QCoreApplication::translate(
               "glosa::Coverage",
               "Possibly left out of the translation: this word received an attention mass of %1 "
               "over the whole translation of its sentence, below the threshold of %2. Each word "
               "of a translation hands out an attention mass of 1 over the source, so a word it "
               "translated usually gets about 1.")
        .arg(QLocale().toString(mass, 'f', 2), QLocale().toString(threshold, 'f', 2));
}

QTextCharFormat omissionFormat(const QPalette &palette, float mass, float threshold)
{
    QTextCharFormat format;
    format.setUnderlineStyle(QTextCharFormat::WaveUnderline);
    format.setUnderlineColor(theme::confidenceColor(palette, 0.0f));
    format.setToolTip(omissionToolTip(mass, threshold));
    return format;
}

} // namespace glosa
