// Lines the views compose from values, the same in every view that shows them, and built again
// when the interface language changes (liveText(), app/gui/livetext.h).
#pragma once

#include <QString>

namespace glosa {

// What a translation decoded with a forced prefix says about it: «prefix: “El gato negro”», with
// "+ end" when the prefix forces the end of the sentence, and which sentence when the text has
// several (`sentence` from 0).
QString steeringLabel(const QString &words, bool ends, int sentence, int sentences);
// Progress of a long translation, the Translate and Documents views alike: "12 / 40 sentences,
// about 1 min 5 s left"; the time left only while `running` and not done, "estimating" while
// `millisecondsLeft` is negative (unknown).
QString sentenceProgressText(int done, int total, qint64 millisecondsLeft, bool running);

} // namespace glosa
