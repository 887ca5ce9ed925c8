// Small helpers shared by the views.
#pragma once

#include <QString>
#include <QTextCharFormat>

class QPalette;
class QWidget;

namespace glosa {

struct ModelChoice;

// Display name of a BCP 47 language code in the UI language ("en" → "English" / "영어").
QString languageName(const QString &code);
// Display name of a model architecture ("rnn-attention" → "RNN with attention"); unknown ones
// as they are spelled in model.json.
QString architectureName(const QString &architecture);
// "1.2 MB", "340 KB".
QString formatBytes(qint64 bytes);
// Where file dialogs start: the user's Documents folder, or the home folder where there is none
// (a fresh account, a server): a dialog opened on a missing folder shows an empty list.
QString documentsFolder();
// Why the model `choice` cannot run, in the UI language, for a view to show in its place; empty
// when it can.
QString unavailableText(const ModelChoice &choice);
// What a translation decoded with a forced prefix says about it: «prefix: “El gato negro”», with
// "+ end" when the prefix forces the end of the sentence, and which sentence when the text has
// several (`sentence` from 0).
QString steeringLabel(const QString &words, bool ends, int sentence, int sentences);
// The tooltip of a source word the coverage check flagged (engine/decoding/coverage.h): its
// attention mass, the threshold, and what they mean. The Translate and Documents views share it.
QString omissionToolTip(float mass, float threshold);
// How the views underline a flagged word: wavy, as a spell checker's, so that the attention and
// sentence highlights can still fill the same word.
QTextCharFormat omissionFormat(const QPalette &palette, float mass, float threshold);

} // namespace glosa
