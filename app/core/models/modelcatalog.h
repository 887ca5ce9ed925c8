// ModelCatalog: the model packages (docs/model-package.md) installed on this machine, listed from
// their model.json alone (no weights are read), and loading one through its plugin.
//
// Basic usage:
//     glosa::PluginRegistry plugins;
//     plugins.scan();
//     glosa::ModelCatalog catalog;
//     catalog.scan();                                    // defaultSearchPaths()
//     for (const glosa::ModelInfo &m : catalog.models())
//         qInfo() << m.id << m.folder << (m.isValid() ? m.name : m.error);
//     std::optional<glosa::ModelInfo> info = catalog.find("transformer-en-es"); // id or folder
//     QString error;
//     std::shared_ptr<glosa::engine::Model> model = glosa::ModelCatalog::load(*info, plugins,
//                                                                               &error);
//     if (!model)
//         qWarning() << error;   // names the model folder and what is wrong
//
// A package is a folder holding model.json. Each search folder may be a package itself or hold
// packages as direct subfolders. A folder whose model.json cannot be read, is not valid JSON or
// lacks a required key is still listed, with isValid() false and the reason in `error`, so that
// the user learns why a model they copied does not show up.
//
// When two packages share an id, the one from the earlier search folder wins; the later ones stay
// in models() with `shadowedBy` set to the winner's folder.
#pragma once

#include "engine/decoding/decodingoptions.h"
#include "engine/model.h"
#include "engine/package.h"

#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

#include <memory>
#include <optional>

namespace glosa {

class PluginRegistry;

// engine::taskName() as a QString: the key of a task wherever the app spells one.
inline QString taskKey(engine::Task task)
{
    return QString::fromLatin1(engine::taskName(task));
}

struct ModelInfo
{
    QString id;             // model.json "id"
    QString name;           // "name", for display
    QString version;        // "version" (optional; empty when absent)
    QString task;           // "task": taskKey() of a known task when the package is valid
    QString architecture;   // picks the plugin (PluginRecord::architectures)
    QString plugin;         // "plugin": the plugin family name the package was made for
    QString sourceLanguage; // "languages.source" (BCP 47, e.g. "en"); may be empty for captioning
    QString targetLanguage; // "languages.target"
    QString licence;        // "licence"
    QJsonObject scores;     // "scores" (optional): {"<test set>": {"bleu": .., "chrf": ..}}
    bool isDefault = false; // "default": true: the package is the one to use for its direction
    // A multi-target model's languages (model.json "target_languages", e.g. OPUS-MT en-ROMANCE):
    // availableModels() lists it once for each, as "<id>@<language>" (ModelCatalog::
    // targetVariantId) with targetLanguage that language; empty for a one-target model.
    QStringList targetLanguages;
    QJsonObject manifest;   // the whole model.json (empty when it could not be parsed)

    QString folder;        // absolute, clean path of the package folder
    QString searchPath;    // the search folder it was found under (empty for find() by folder)
    qint64 sizeOnDisk = 0; // bytes of all regular files under `folder`

    QString error;      // why the package is broken; empty when it is listed as usable
    QString shadowedBy; // folder of the package with the same id that wins; usually empty

    bool isValid() const { return error.isEmpty(); }
    bool is(engine::Task kind) const { return task == taskKey(kind); }
    // The package's "decoding" object over DecodingOptions' defaults (for the shipped
    // Transformer: beam 4, GNMT α 0.6), read from the manifest without loading the model; plain
    // defaults when the object is absent or invalid (loading the model reports that).
    engine::DecodingOptions decodingDefaults() const;
};

// A model id or folder as a message shows it: one of 100,000 characters is its first 100 and its
// length, so that the message stays a line.
QString shownModelName(const QString &idOrFolder);

class ModelCatalog
{
public:
    // In priority order: the entries of $GLOSA_MODEL_PATH (':'-separated), userModelsDir(), and
    // the bundled models: GLOSA_SOURCE_MODELS_DIR (the source tree's resources/models) for a
    // binary run from the build tree, GLOSA_INSTALL_DATA_DIR/models for an installed one.
    // Folders that do not exist are left out.
    static QStringList defaultSearchPaths();
    // QStandardPaths::AppDataLocation + "/models": where importModel() copies packages.
    static QString userModelsDir();

    // Forgets earlier results and lists every package in `folders` (see above), in folder order,
    // subfolders in name order.
    void scan(const QStringList &folders = defaultSearchPaths());

    const QStringList &searchPaths() const { return m_searchPaths; }
    // Every package found, broken and shadowed ones included.
    const QList<ModelInfo> &models() const { return m_models; }
    // Valid packages that are not shadowed: what a user can pick. A multi-target model is there
    // once for each target language (ModelInfo::targetLanguages), so that every direction list
    // shows it for each.
    QList<ModelInfo> availableModels() const;
    // "<id>@<language>": a multi-target model translating into `language`. '@' is never in a
    // package id, so find() tells the two apart.
    static QString targetVariantId(const QString &id, const QString &language);

    // `idOrFolder` is first looked up as an id (the winning valid package, else a broken one with
    // that id; "<id>@<language>" is that package translating into `language`, ISO 639-1 or
    // 639-3, when it is one of its targetLanguages); otherwise, when it names an existing folder,
    // that folder is read as a package (it need not be under a search folder). std::nullopt when it
    // is neither. The result may be a broken package: check isValid().
    std::optional<ModelInfo> find(const QString &idOrFolder) const;

    // The package to use for `task` from `sourceLanguage` to `targetLanguage` (either may be
    // empty: any): among availableModels(), the one the user chose for that direction
    // (setUserDefault()), else the first that declares "default": true, else the first in
    // catalog order (search folder, then name). std::nullopt when none matches.
    std::optional<ModelInfo> defaultModel(const QString &task, const QString &sourceLanguage = {},
                                          const QString &targetLanguage = {}) const;
    // The translation package to start with for a user whose languages are `languages` (BCP 47,
    // most preferred first, as QLocale::uiLanguages() gives them): for the first of them that a
    // package translates from or into ("es-ES" counts as "es"), the default from it, else the
    // default into it; else from English, else any.
    std::optional<ModelInfo> defaultTranslationModel(const QStringList &languages) const;

    // "Use as default for this direction" (the Models dialog, `glosa-cli models default ID`):
    // remembered in userModelsDir()/defaults.json, {"translation en es": "opus-mt-en-es"}, which
    // scan() reads, so that the app and glosa-cli agree. False with the reason in *error when
    // the file cannot be written.
    static bool setUserDefault(const ModelInfo &info, QString *error);
    // Forgets `id` as the user's default for every direction (the model is being removed); true
    // when defaults.json names it nowhere afterwards.
    static bool clearUserDefault(const QString &id, QString *error);

    // Reads `folder`/model.json without touching the weights. Never throws; problems end up in
    // ModelInfo::error.
    static ModelInfo readPackage(const QString &folder);
    // The multi-target model `info` translating into `language` (ISO 639-1 or 639-3): id
    // targetVariantId(), targetLanguage one of its targetLanguages; std::nullopt when it has no
    // such target.
    static std::optional<ModelInfo> targetVariant(const ModelInfo &info, const QString &language);

    // Validates the package with the engine (glosa::engine::ModelPackage), picks the loaded plugin
    // whose architectures contain info.architecture and lets it build the model. Returns null on
    // any failure, with a one-line message naming the model folder in *errorMessage. Loading may
    // take seconds: call it from a worker thread, never the GUI thread.
    // `computeType` is what the package is loaded with (engine/package.h: auto takes int8 where
    // the package's weights are int8). A multi-target translation model is set to translate into
    // info.targetLanguage (engine::TranslationModel::setTargetLanguage).
    static std::shared_ptr<engine::Model>
    load(const ModelInfo &info, const PluginRegistry &plugins, QString *errorMessage = nullptr,
         engine::ComputeType computeType = engine::ComputeType::Auto);

    // Validates `folder` (model.json and the engine's package checks) and copies it, all regular
    // files and subfolders, to `destinationRoot`/<id>. Refuses when that folder exists. The copy
    // is made under a temporary name and renamed at the end, so a failed import leaves nothing
    // behind. Returns the imported package as read from its new place, or std::nullopt with the
    // reason in *errorMessage. Call scan() afterwards to see it in models().
    static std::optional<ModelInfo> importModel(const QString &folder,
                                                const QString &destinationRoot = userModelsDir(),
                                                QString *errorMessage = nullptr);

private:
    QStringList m_searchPaths;
    QList<ModelInfo> m_models;
    QJsonObject m_userDefaults; // defaults.json: "task source target" -> id
};

} // namespace glosa
