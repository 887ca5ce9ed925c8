// How the things the app shows are named to people, in the interface language: languages (from
// ICU's CLDR data, for any language), model families and models (the bundled ones' names
// translated), sizes, and why a task's model cannot run. No widgets: the views and the dialogs
// show them, and the presenters' state is worded with them.
#pragma once

#include <QString>

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
// Why the model `choice` cannot run, in the UI language, for a view to show in its place; empty
// when it can.
QString unavailableText(const ModelChoice &choice);

} // namespace glosa
