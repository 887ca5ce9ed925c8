// `glosa-cli models import|remove`: installing a model into the user's models folder
// (ModelCatalog::userModelsDir()) and taking it out again. `models` alone lists them
// (translatecommand.h).
//
//   glosa-cli models import DIR [--float32] [--id ID] [--from LANG --to LANG]
//       DIR is a Hugging Face MarianMT folder (an OPUS-MT model: config.json with model_type
//       marian, model.safetensors or pytorch_model.bin, source.spm, target.spm, vocab.json),
//       converted once into a package (engine/import/marianimport.h; int8 unless --float32), or
//       a Glosa package (a folder with model.json), copied (ModelCatalog::importModel).
//   glosa-cli models remove ID
//       Removes an imported package (one in the user's models folder); bundled ones are refused.
//   glosa-cli models default ID
//       Makes ID the model used for its direction when none is named (ModelCatalog::
//       setUserDefault; the app's Models dialog, "Use as default for this direction", too).
//
// Exit codes: 0 done, 1 the import or removal failed (a one-line message naming the file and
// the problem on stderr; nothing is left behind), 2 bad arguments.
#pragma once

#include <QStringList>
#include <QTextStream>

namespace glosa::cli {

int runModelsImportCommand(const QStringList &args, QTextStream &out, QTextStream &err);
int runModelsRemoveCommand(const QStringList &args, QTextStream &out, QTextStream &err);
int runModelsDefaultCommand(const QStringList &args, QTextStream &out, QTextStream &err);

} // namespace glosa::cli
