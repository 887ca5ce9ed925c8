// Where the Evaluate view and `glosa-cli evaluate` get their test sets: the bundled sample
// (resources/eval, compiled in: 520 Tatoeba pairs, CC-BY, attributed in the file), a TSV the user
// opens, or two line-aligned files. Parsing and its checks are the engine's
// (engine/evaluation/evaluation.h); this reads the files within a size bound and picks the
// source column for the model's direction.
#pragma once

#include "engine/evaluation/evaluation.h"

#include <QHash>
#include <QString>
#include <QStringList>

#include <optional>

namespace glosa {

// Files larger than this are refused before they are read: 100,000 sentences of the longest
// lines allowed would be far more, but no real test set comes near it.
inline constexpr qint64 kMaxTestSetBytes = 64ll * 1024 * 1024;

// The bundled sample for translating `sourceLanguage` into `targetLanguage` (either column
// order), or nullopt with *error saying which pairs there are.
std::optional<engine::TestSet> bundledTestSet(const QString &sourceLanguage,
                                              const QString &targetLanguage, QString *error);

// The sentences of every bundled sample by language ("en" → its English sentences...): the
// language profiles of languageguess.h are made from them.
QHash<QString, QStringList> bundledSentencesByLanguage();

// A TSV file: when its "# columns: X Y" comment names `sourceLanguage`, that column is the
// source; otherwise the first column is. nullopt with *error (naming the file and the line).
std::optional<engine::TestSet> readTsvTestSet(const QString &path, const QString &sourceLanguage,
                                              QString *error);

// A source file and its reference file, one sentence a line.
std::optional<engine::TestSet> readAlignedTestSet(const QString &sourcePath,
                                                  const QString &referencePath, QString *error);

} // namespace glosa
