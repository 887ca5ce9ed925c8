// What every glosa-cli command that runs a model shares (translate, translate-doc, caption):
// choosing and loading the model, and the decoding options, generated from the engine's field
// table (engine/decoding/decodingfields.h).
#pragma once

#include "app/cli/help.h"
#include "app/core/inference/languageguess.h"
#include "app/core/models/modelcatalog.h"
#include "app/core/models/pluginregistry.h"
#include "engine/decoding/decodingoptions.h"
#include "engine/package.h"

#include <QCommandLineOption>
#include <QList>
#include <QString>

#include <memory>
#include <optional>

class QCommandLineParser;

namespace glosa {
struct ModelInfo;
}
namespace glosa::engine {
class Model;
class TranslationModel;
} // namespace glosa::engine

namespace glosa::cli {

// The installed plugins and model packages, scanned from their default folders: what every
// command that loads, lists or chooses a model starts from (one scan, one place).
struct Installed
{
    Installed();
    PluginRegistry plugins;
    ModelCatalog catalog;
};

// --model, --from, --to, --compute-type.
QList<QCommandLineOption> modelCommandLineOptions();
// Which model they name (an id or folder); nullopt with *error set when no installed model
// matches or they contradict each other.
std::optional<QString> modelFromCommandLine(const QCommandLineParser &parser, QString *error);
// --compute-type (auto when absent); nullopt with *error for a value that is not one.
std::optional<engine::ComputeType> computeTypeFromCommandLine(const QCommandLineParser &parser,
                                                              QString *error);

// Every decoding setting of the field table as an option (--beam-size, ...) with DecodingOptions'
// default, and the paragraph of help that says how a model's own defaults come in between.
QList<QCommandLineOption> decodingCommandLineOptions();
const QString &decodingHelpParagraph();
// `help` with the decoding options' defaults of the model that `args` (a command line after the
// command's name) chooses with --model, --from/--to or neither (the default), as that model's
// package sets them, and a sentence naming it; unchanged for a command without those options or
// when no model is found.
Command helpForModel(Command help, const QStringList &args);
// The options given, over `defaults` (the model's). Throws std::invalid_argument with a one-line
// message naming the option ("--beam-size 'x' is not an integer"); validation is the caller's.
engine::DecodingOptions decodingOptionsFromCommandLine(const QCommandLineParser &parser,
                                                       engine::DecodingOptions defaults);

// An installed model id or a model folder whose model.json declares `task` ("translation",
// "captioning"), loaded by its plugin; null with *error set when it is missing, broken, of
// another task or rejected by the plugin. *info (when given) receives its catalog entry.
std::shared_ptr<engine::Model>
loadInstalledModel(const QString &idOrFolder, const QString &task, QString *error,
                   ModelInfo *info = nullptr,
                   engine::ComputeType computeType = engine::ComputeType::Auto);
std::shared_ptr<engine::TranslationModel>
loadTranslationModel(const QString &idOrFolder, QString *error, ModelInfo *info,
                     engine::ComputeType computeType = engine::ComputeType::Auto);

// The language guard (checkSourceLanguage, app/core/inference/languageguess.h) as translate and
// translate-doc run it: a text that looks like another language than the model's source is
// refused (exit code 3) with a message that names the language and the options for the direction
// it asks for, unless --force-language.
QCommandLineOption forceLanguageOption();
class LanguageGuard
{
public:
    LanguageGuard(const QCommandLineParser &parser, const ModelInfo &model);
    // "" when `text` may be translated; else why not, one line without the command's name:
    // "looks like Spanish, and transformer-en-es translates from English: use --from es --to en
    // (transformer-es-en), or --force-language to translate it anyway".
    QString check(const QString &text) const;

private:
    bool m_force = false;
    ModelInfo m_model;
    ModelCatalog m_catalog; // the models to offer
};
// The exit code of a command that refused some input for its language and failed on nothing else.
constexpr int kExitWrongLanguage = 3;

} // namespace glosa::cli
