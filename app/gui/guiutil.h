// Small helpers shared by the views.
#pragma once

#include <QList>
#include <QString>
#include <QTextCharFormat>

class QPalette;
class QWidget;

namespace glosa {

struct ModelChoice;
struct ModelInfo;

// Display name of a BCP 47 language code in the UI language ("en" → "English" / "영어" /
// "Inglés"), for any language CLDR names; the code itself for one it does not.
QString languageName(const QString &code);
// Display name of a model architecture ("rnn-attention" → "RNN with attention"), from its
// plugin's metadata (PluginRegistry::architectureTitle()), translated; unknown ones as model.json
// spells them.
QString architectureName(const QString &architecture);
// A model's name (model.json "name") in the UI language: the bundled models' names are
// translated; any other package's as it spells it.
QString modelName(const ModelInfo &info);
// "1.2 MB", "340 KB".
QString formatBytes(qint64 bytes);
// What a recent file was opened as, so that File ▸ Open Recent opens it in the same view.
enum class OpenedAs { Text, Document, Image };
struct RecentFile
{
    OpenedAs kind = OpenedAs::Text;
    QString path;
};
// A file opened through a dialog: first in File ▸ Open Recent, and its folder remembered for its
// kind of file (app/gui/filedialogs.h).
inline constexpr int kMaxRecentFiles = 10;
void rememberOpened(OpenedAs kind, const QString &path);
// Newest first, at most kMaxRecentFiles, those that still exist.
QList<RecentFile> recentFiles();
// Why the model `choice` cannot run, in the UI language, for a view to show in its place; empty
// when it can.
QString unavailableText(const ModelChoice &choice);
// What a translation decoded with a forced prefix says about it: «prefix: “El gato negro”», with
// "+ end" when the prefix forces the end of the sentence, and which sentence when the text has
// several (`sentence` from 0). Built again on a language change (liveText()), as the next one is.
QString steeringLabel(const QString &words, bool ends, int sentence, int sentences);
// Progress of a long translation, the Translate and Documents views alike: "12 / 40 sentences,
// about 1 min 5 s left"; the time left only while `running` and not done, "estimating" while
// `millisecondsLeft` is negative (unknown).
QString sentenceProgressText(int done, int total, qint64 millisecondsLeft, bool running);
// The tooltip of a source word the coverage check flagged (engine/decoding/coverage.h): its
// attention mass, the threshold, and what they mean. The Translate and Documents views share it.
QString omissionToolTip(float mass, float threshold);
// How the views underline a flagged word: wavy, as a spell checker's, so that the attention and
// sentence highlights can still fill the same word.
QTextCharFormat omissionFormat(const QPalette &palette, float mass, float threshold);

} // namespace glosa
