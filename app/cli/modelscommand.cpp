// glosa-cli models: list the installed packages, and import, remove or choose the default one.
#include "app/cli/help.h"
#include "app/cli/modeloptions.h"
#include "app/cli/modelshub.h"
#include "app/core/models/modelcatalog.h"
#include "app/core/models/modelimport.h"
#include "app/core/models/pluginregistry.h"

#include <QCommandLineParser>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTextStream>

#include <algorithm>
#include <atomic>
#include <csignal>

namespace glosa::cli {

namespace {

bool parse(QCommandLineParser &parser, const QString &command, const QStringList &args,
           int positional, QTextStream &err)
{
    if (!parser.parse(QStringList{QStringLiteral("glosa-cli models ") + command} + args)) {
        err << "glosa-cli models " << command << ": " << parser.errorText() << "\n";
        return false;
    }
    if (parser.positionalArguments().size() != positional) {
        err << "glosa-cli models " << command << ": expected "
            << (command == QLatin1String("import") ? "a folder" : "a model id") << "\n";
        return false;
    }
    return true;
}

// Ctrl+C and SIGTERM during an import cancel it between tensors, so that its staging folder is
// removed (the import's own clean-up) before the command ends with 128 + the signal; a second
// one ends the process at once (SA_RESETHAND), and the next import or listing cleans up then.
std::atomic<int> receivedSignal = 0;
static_assert(std::atomic<int>::is_always_lock_free);

extern "C" void cancelImportOnSignal(int signal)
{
    receivedSignal = signal; // only an atomic: async-signal-safe
}

class CancelOnSignals
{
public:
    CancelOnSignals()
    {
        receivedSignal = 0;
        struct sigaction action = {};
        action.sa_handler = cancelImportOnSignal;
        action.sa_flags = SA_RESETHAND;
        sigemptyset(&action.sa_mask);
        ::sigaction(SIGINT, &action, &m_previousInt);
        ::sigaction(SIGTERM, &action, &m_previousTerm);
    }
    ~CancelOnSignals()
    {
        ::sigaction(SIGINT, &m_previousInt, nullptr);
        ::sigaction(SIGTERM, &m_previousTerm, nullptr);
    }
    CancelOnSignals(const CancelOnSignals &) = delete;
    CancelOnSignals &operator=(const CancelOnSignals &) = delete;
    static int received() { return receivedSignal; }

private:
    struct sigaction m_previousInt = {}, m_previousTerm = {};
};

int runModelsImportCommand(const QStringList &args, QTextStream &out, QTextStream &err)
{
    QCommandLineParser parser;
    parser.addOptions({{"float32", "Keep float32 weights (default: int8, a quarter of the size)."},
                       {"id", "The package id (default: the folder name).", "ID"},
                       {"from", "Source language, when the folder does not say.", "LANG"},
                       {"to", "Target language, when the folder does not say.", "LANG"}});
    if (!parse(parser, QStringLiteral("import"), args, 1, err))
        return 2;
    ModelImportRequest request;
    request.folder = parser.positionalArguments().first();
    request.float32 = parser.isSet("float32");
    request.id = parser.value("id");
    request.sourceLanguage = parser.value("from");
    request.targetLanguage = parser.value("to");
    const CancelOnSignals cancelOnSignals;
    const ModelImportResult result =
        importModelFolder(request, {}, [] { return CancelOnSignals::received() != 0; });
    if (!result.ok()) {
        err << "glosa-cli models import: " << result.error << "\n";
        return CancelOnSignals::received() ? 128 + CancelOnSignals::received() : 1;
    }
    out << "imported " << result.id << " into " << result.folder << "\n";
    return 0;
}

int runModelsRemoveCommand(const QStringList &args, QTextStream &out, QTextStream &err)
{
    QCommandLineParser parser;
    if (!parse(parser, QStringLiteral("remove"), args, 1, err))
        return 2;
    const QString id = parser.positionalArguments().first();
    QString folder, error;
    if (!removeImportedModel(id, &folder, &error)) {
        err << "glosa-cli models remove: " << error << "\n";
        return 1;
    }
    out << "removed " << id << " (" << folder << ")\n";
    return 0;
}

int runModelsDefaultCommand(const QStringList &args, QTextStream &out, QTextStream &err)
{
    QCommandLineParser parser;
    if (!parse(parser, QStringLiteral("default"), args, 1, err))
        return 2;
    const QString id = parser.positionalArguments().first();
    const Installed installed;
    const ModelCatalog &catalog = installed.catalog;
    const std::optional<ModelInfo> info = catalog.find(id);
    if (!info || !info->isValid() || !info->shadowedBy.isEmpty() || info->id != id) {
        err << "glosa-cli models default: no usable model with id '" << shownModelName(id)
            << "' ('glosa-cli models' lists them)\n";
        return 1;
    }
    QString error;
    if (!ModelCatalog::setUserDefault(*info, &error)) {
        err << "glosa-cli models default: " << error << "\n";
        return 1;
    }
    out << id << " is now the default for "
        << (info->sourceLanguage.isEmpty() ? QString()
                                           : info->sourceLanguage + QStringLiteral(" -> "))
        << info->targetLanguage << "\n";
    return 0;
}

} // namespace

int runModelsCommand(const QStringList &args, const CommandIo &io)
{
    QTextStream &out = io.out, &err = io.err;
    if (args.value(0) == QLatin1String("import"))
        return runModelsImportCommand(args.mid(1), out, err);
    if (args.value(0) == QLatin1String("remove"))
        return runModelsRemoveCommand(args.mid(1), out, err);
    if (args.value(0) == QLatin1String("default"))
        return runModelsDefaultCommand(args.mid(1), out, err);
    if (args.value(0) == QLatin1String("search"))
        return runModelsSearchCommand(args.mid(1), out, err);
    if (args.value(0) == QLatin1String("get"))
        return runModelsGetCommand(args.mid(1), out, err);
    QCommandLineParser parser;
    if (!parseCommandLine(parser, modelsCommand(), args, err, false))
        return 2;
    const Installed installed;
    const PluginRegistry &plugins = installed.plugins;
    const ModelCatalog &catalog = installed.catalog;
    const bool all = parser.isSet("all");
    const bool json = parser.isSet("json");
    const QList<ModelInfo> models = all ? catalog.models() : catalog.availableModels();

    // The model used for its direction when no --model is given.
    auto isDefault = [&](const ModelInfo &m) {
        const auto chosen = catalog.defaultModel(m.task, m.sourceLanguage, m.targetLanguage);
        return m.isValid() && m.shadowedBy.isEmpty() && chosen && chosen->folder == m.folder;
    };
    auto statusOf = [&](const ModelInfo &m) {
        if (!m.isValid())
            return QStringLiteral("broken: %1").arg(m.error.simplified());
        if (!m.shadowedBy.isEmpty())
            return QStringLiteral("shadowed by %1").arg(m.shadowedBy);
        if (!plugins.pluginForArchitecture(m.architecture))
            return QStringLiteral("no plugin for architecture '%1'").arg(m.architecture);
        return QStringLiteral("ok");
    };
    auto languages = [](const ModelInfo &m) {
        return m.sourceLanguage.isEmpty()
                   ? m.targetLanguage
                   : m.sourceLanguage + QStringLiteral("->") + m.targetLanguage;
    };
    if (json) {
        for (const ModelInfo &m : models) {
            out << QJsonDocument(QJsonObject{{"id", m.id},
                                             {"name", m.name},
                                             {"task", m.task},
                                             {"source_language", m.sourceLanguage},
                                             {"target_language", m.targetLanguage},
                                             {"architecture", m.architecture},
                                             {"folder", m.folder},
                                             {"size", m.sizeOnDisk},
                                             {"default", isDefault(m)},
                                             {"status", statusOf(m)}})
                       .toJson(QJsonDocument::Compact)
                << "\n";
        }
        return 0;
    }
    // An aligned table; the folder goes last because it is the long one.
    QList<QStringList> table = {{"ID", "TASK", "LANGUAGES", "ARCHITECTURE", "STATUS", "FOLDER"}};
    for (const ModelInfo &m : models)
        table.append(
            {m.id.isEmpty() ? QStringLiteral("?") : m.id, m.task, languages(m), m.architecture,
             statusOf(m) + (isDefault(m) ? QStringLiteral(" (default)") : QString()), m.folder});
    printAlignedTable(table, out);
    if (models.isEmpty())
        err << "glosa-cli models: no models found in " << catalog.searchPaths().join(':') << "\n";
    return 0;
}

Command modelsCommand()
{
    Command help;
    help.name = QStringLiteral("models");
    help.synopsis = QStringLiteral("[--all] [--json] | import DIR [--float32] [--id ID] [--from "
                                   "LANG --to LANG] | remove ID | default ID | search QUERY [--json] "
                                   "[--author NAME] | get REPO [--revision REV] [--float32] [--id ID] "
                                   "[--keep-files]");
    help.summary = QStringLiteral("List, download, import or remove models.");
    help.description = QStringLiteral(
        "Lists every usable model package: its id, task, languages, architecture, status and "
        "folder. Packages are looked for in $GLOSA_MODEL_PATH, the user's models folder and the "
        "bundled models, in that order; a package that declares \"default\": true is the one "
        "used for its direction when --model is not given (marked \"default\").\n\n"
        "'models import DIR' installs a model into the user's models folder: a Hugging Face "
        "MarianMT folder (an OPUS-MT model from huggingface.co/Helsinki-NLP: config.json, "
        "model.safetensors or pytorch_model.bin, source.spm, target.spm, vocab.json) is "
        "converted once into a package, int8 unless --float32 is given; a Glosa package is "
        "copied. 'models remove ID' removes an imported model; 'models default ID' makes ID the "
        "model used for its direction (remembered in the user's models folder, defaults.json).\n\n"
        "'models search QUERY' lists the OPUS-MT models on the Hugging Face hub whose name "
        "contains QUERY (--author any: every publisher's; ORG/NAME: that publisher's), with "
        "their languages, licence and downloads. 'models get REPO' downloads one (only the files "
        "the importer reads, each checked against the hub's size and SHA-256, resumed after an "
        "interruption) and imports it as 'models import' does; Ctrl+C keeps the partial files "
        "and the same command resumes. The hub is $HF_ENDPOINT (default https://huggingface.co); "
        "$HF_TOKEN is sent to it (never to the CDN it redirects to) for gated or private "
        "repositories; HF_HUB_OFFLINE=1 sends nothing. Exit codes: 4 not found, 5 network "
        "error, 6 checksum mismatch, 7 disk full, 8 offline, 9 access refused, 130 cancelled.");
    help.options = {{"all", "Also list broken and shadowed packages."},
                    {"json", "One JSON object per model."}};
    help.examples = {QStringLiteral("glosa-cli models"),
                     QStringLiteral("glosa-cli models --all --json"),
                     QStringLiteral("glosa-cli models import ~/Downloads/opus-mt-en-de"),
                     QStringLiteral("glosa-cli models search en-fr"),
                     QStringLiteral("glosa-cli models get Helsinki-NLP/opus-mt-en-fr"),
                     QStringLiteral("glosa-cli models remove opus-mt-en-de")};
    help.run = runModelsCommand;
    return help;
}

} // namespace glosa::cli
