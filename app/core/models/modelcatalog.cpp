#include "app/core/models/modelcatalog.h"

#include "app/core/models/pluginregistry.h"
#include "app/core/platform/executabledir.h"
#include "app/core/platform/regularfile.h"
#include "app/core/platform/savefile.h"
#include "engine/decoding/decodingfields.h"
#include "engine/import/staging.h"
#include "engine/package.h"
#include "engine/text/languagecodes.h"
#include "engine/translation/translationmodel.h"

#include <nlohmann/json.hpp>

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonParseError>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>

#include <cerrno>
#include <cstring>
#include <exception>
#include <optional>

#include <sys/stat.h>

namespace glosa {

engine::DecodingOptions ModelInfo::decodingDefaults() const
{
    const QJsonValue decoding = manifest.value(QLatin1String("decoding"));
    if (!decoding.isObject())
        return {};
    try {
        const QByteArray text = QJsonDocument(decoding.toObject()).toJson(QJsonDocument::Compact);
        return engine::decodingOptionsFromJson(nlohmann::json::parse(text.toStdString()));
    } catch (const std::exception &) {
        return {};
    }
}

namespace {

const QString kManifest = QStringLiteral("model.json");

// True when `path` is `root` or lies under it (both canonical).
bool isInside(const QString &path, const QString &root)
{
    if (path.isEmpty() || root.isEmpty())
        return false;
    return path == root || path.startsWith(root + QLatin1Char('/'));
}

// A binary is "in the build tree" when it lives under the build folder, which is the parent of
// GLOSA_BUILD_PLUGIN_DIR. Such a binary uses the source tree's models so that a freshly exported
// model shows up without an install step.
bool runsFromBuildTree()
{
    const QString buildDir =
        QFileInfo(QFileInfo(QStringLiteral(GLOSA_BUILD_PLUGIN_DIR)).absolutePath())
            .canonicalFilePath();
    const QString exeDir = QFileInfo(executableDir()).canonicalFilePath();
    return isInside(exeDir, buildDir);
}

qint64 folderSize(const QString &folder)
{
    qint64 total = 0;
    QDirIterator it(folder, QDir::Files | QDir::Hidden | QDir::NoDotAndDotDot,
                    QDirIterator::Subdirectories);
    while (it.hasNext()) {
        it.next();
        total += it.fileInfo().size();
    }
    return total;
}

QString quoted(const QString &s)
{
    return QLatin1Char('"') + s + QLatin1Char('"');
}

// The problems found in one manifest, in the order its keys are checked.
struct ManifestCheck
{
    const QJsonObject &m;
    QStringList problems;

    QString requireString(const char *key)
    {
        const QJsonValue v = m.value(QLatin1String(key));
        if (v.isUndefined())
            problems << QStringLiteral("missing %1").arg(quoted(QLatin1String(key)));
        else if (!v.isString() || v.toString().isEmpty())
            problems
                << QStringLiteral("%1 must be a non-empty string").arg(quoted(QLatin1String(key)));
        return v.toString();
    }
    QJsonObject requireObject(const char *key)
    {
        const QJsonValue v = m.value(QLatin1String(key));
        if (v.isUndefined())
            problems << QStringLiteral("missing %1").arg(quoted(QLatin1String(key)));
        else if (!v.isObject())
            problems << QStringLiteral("%1 must be an object").arg(quoted(QLatin1String(key)));
        return v.toObject();
    }
};

// format_version, id, name, version, task, architecture, plugin.
void readIdentity(ManifestCheck &c, ModelInfo &info)
{
    QStringList &problems = c.problems;
    const QJsonValue format = c.m.value(QLatin1String("format_version"));
    if (format.isUndefined())
        problems << QStringLiteral("missing \"format_version\"");
    else if (!format.isDouble() || format.toDouble() != 1.0)
        problems << QStringLiteral("\"format_version\" is %1, expected 1")
                        .arg(format.isDouble() ? QString::number(format.toDouble())
                                               : QStringLiteral("not a number"));
    info.id = c.requireString("id");
    // The id becomes a folder name on import and appears on command lines.
    static const QRegularExpression idPattern(QStringLiteral("^[A-Za-z0-9_-][A-Za-z0-9._-]*$"));
    if (!info.id.isEmpty() && !idPattern.match(info.id).hasMatch())
        problems << QStringLiteral("\"id\" %1 may contain only letters, digits, '.', '_' and '-' "
                                   "and must not start with '.'")
                        .arg(quoted(info.id));
    info.name = c.requireString("name");
    info.version = c.m.value(QLatin1String("version")).toString();
    info.task = c.requireString("task");
    if (!info.task.isEmpty() && !engine::taskFromName(info.task.toStdString()))
        problems << QStringLiteral("\"task\" is %1, expected %2 or %3")
                        .arg(quoted(info.task), quoted(taskKey(engine::Task::Translation)),
                             quoted(taskKey(engine::Task::Captioning)));
    info.architecture = c.requireString("architecture");
    info.plugin = c.requireString("plugin");
}

void readLanguages(ManifestCheck &c, ModelInfo &info)
{
    const QJsonObject languages = c.requireObject("languages");
    info.sourceLanguage = languages.value(QLatin1String("source")).toString();
    info.targetLanguage = languages.value(QLatin1String("target")).toString();
    if (c.m.value(QLatin1String("languages")).isObject()) {
        if (info.targetLanguage.isEmpty())
            c.problems << QStringLiteral("missing \"languages.target\"");
        // A captioning model reads an image, so only a translation model needs a source.
        if (info.sourceLanguage.isEmpty() && info.is(engine::Task::Translation))
            c.problems << QStringLiteral("missing \"languages.source\"");
    }
}

// The tokenizer and weights files: present, regular files, and inside the folder after
// symlinks (as the engine's loader requires; "models --all" listed such packages as "ok").
void checkFiles(ManifestCheck &c, const ModelInfo &info)
{
    const QString folder = QFileInfo(info.folder).canonicalFilePath();
    auto checkFile = [&](const QString &what, const QString &file) {
        const QFileInfo found(QDir(info.folder).filePath(file));
        if (!found.exists())
            c.problems << QStringLiteral("%1 %2 not found").arg(what, quoted(file));
        else if (const QString kind = nonRegularFileKind(found.filePath()); !kind.isEmpty())
            c.problems << QStringLiteral("%1 %2 is %3 (%4), not a file")
                              .arg(what, quoted(file), kind, found.canonicalFilePath());
        else if (!isInside(found.canonicalFilePath(), folder))
            c.problems << QStringLiteral("%1 %2 is a link to %3, outside the package folder")
                              .arg(what, quoted(file), found.canonicalFilePath());
    };
    const QJsonObject tokenizer = c.requireObject("tokenizer");
    for (const char *side : {"source", "target"}) {
        const QString file = tokenizer.value(QLatin1String(side)).toString();
        if (!file.isEmpty())
            checkFile(QStringLiteral("tokenizer file"), file);
    }
    const QString weights = c.requireString("weights");
    if (!weights.isEmpty())
        checkFile(QStringLiteral("weights file"), weights);
}

// training.data: an array of sets, each with its licence and attribution.
void checkTraining(ManifestCheck &c)
{
    const QJsonObject training = c.requireObject("training");
    if (!c.m.value(QLatin1String("training")).isObject())
        return;
    const QJsonValue data = training.value(QLatin1String("data"));
    if (!data.isArray())
        c.problems << QStringLiteral("\"training.data\" must be an array");
    const QJsonArray sets = data.toArray();
    for (qsizetype i = 0; i < sets.size(); ++i) {
        const QJsonObject set = sets.at(i).toObject();
        for (const char *key : {"licence", "attribution"})
            if (!set.value(QLatin1String(key)).isString())
                c.problems << QStringLiteral("\"training.data[%1]\" lacks %2")
                                  .arg(i)
                                  .arg(quoted(QLatin1String(key)));
    }
}

// scores, default, target_languages: optional, of their type where present.
void readOptionalKeys(ManifestCheck &c, ModelInfo &info)
{
    const QJsonValue scores = c.m.value(QLatin1String("scores"));
    if (!scores.isUndefined() && !scores.isObject())
        c.problems << QStringLiteral("\"scores\" must be an object");
    info.scores = scores.toObject();
    const QJsonValue isDefault = c.m.value(QLatin1String("default"));
    if (!isDefault.isUndefined() && !isDefault.isBool())
        c.problems << QStringLiteral("\"default\" must be true or false");
    info.isDefault = isDefault.toBool();
    const QJsonValue targets = c.m.value(QLatin1String("target_languages"));
    if (!targets.isUndefined() && !targets.isObject())
        c.problems << QStringLiteral("\"target_languages\" must be an object");
    info.targetLanguages = targets.toObject().keys();
}

// Checks the manifest keys that the catalog and the loader rely on, and fills `info`. Returns the
// list of problems (empty when the manifest is usable). The engine re-checks everything when the
// model is loaded; this is the cheap part that lets listings explain a broken package.
QStringList readManifest(const QJsonObject &m, ModelInfo &info)
{
    ManifestCheck check{m, {}};
    readIdentity(check, info);
    readLanguages(check, info);
    check.requireObject("hyperparameters");
    checkFiles(check, info);
    checkTraining(check);
    info.licence = check.requireString("licence");
    readOptionalKeys(check, info);
    return check.problems;
}

// Copies the regular files under `from` into `to` (which exists), keeping subfolders.
bool copyTree(const QString &from, const QString &to, QString *error)
{
    const QDir source(from);
    QDirIterator it(from, QDir::Files | QDir::Hidden | QDir::NoDotAndDotDot,
                    QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString file = it.next();
        const QString relative = source.relativeFilePath(file);
        const QString target = QDir(to).filePath(relative);
        if (!QDir().mkpath(QFileInfo(target).absolutePath())) {
            *error =
                QStringLiteral("cannot create folder %1").arg(QFileInfo(target).absolutePath());
            return false;
        }
        // Every block checked and synced (SaveFile): QFile::copy on a full disk can leave a
        // short copy behind without a word.
        QFile in(file);
        SaveFile out(target);
        QString why;
        if (!openRegularFile(in, &why) || !out.open(QIODevice::WriteOnly)) {
            *error = QStringLiteral("cannot copy %1 to %2: %3")
                         .arg(file, target, in.isOpen() ? out.errorString() : why);
            return false;
        }
        while (!in.atEnd() && !out.hasFailed()) {
            const QByteArray block = in.read(1 << 20);
            if (block.isEmpty())
                break;
            out.write(block);
        }
        if (in.error() != QFileDevice::NoError || !out.commit()) {
            *error =
                QStringLiteral("cannot copy %1 to %2: %3")
                    .arg(file, target,
                         in.error() != QFileDevice::NoError ? in.errorString() : out.errorString());
            return false;
        }
    }
    return true;
}

} // namespace

QStringList ModelCatalog::defaultSearchPaths()
{
    QStringList candidates =
        qEnvironmentVariable("GLOSA_MODEL_PATH").split(QDir::listSeparator(), Qt::SkipEmptyParts);
    candidates << userModelsDir();
    if (runsFromBuildTree()) {
        candidates << QStringLiteral(GLOSA_SOURCE_MODELS_DIR);
    } else {
        // Relative to the binary first, so that an installed tree works wherever it is moved.
        if (!executableDir().isEmpty())
            candidates << executableDir() +
                              QStringLiteral("/../" GLOSA_INSTALL_DATA_RELDIR "/models");
        candidates << QStringLiteral(GLOSA_INSTALL_DATA_DIR "/models");
    }
    QStringList out;
    QStringList seen;
    for (const QString &candidate : candidates) {
        const QFileInfo info(candidate);
        if (!info.isDir() || seen.contains(info.canonicalFilePath()))
            continue;
        seen << info.canonicalFilePath();
        out << QDir::cleanPath(info.absoluteFilePath());
    }
    return out;
}

QString shownModelName(const QString &idOrFolder)
{
    return idOrFolder.size() > 200
               ? idOrFolder.left(100) + QStringLiteral("… (%1 characters)").arg(idOrFolder.size())
               : idOrFolder;
}

QString ModelCatalog::userModelsDir()
{
    return QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) +
           QStringLiteral("/models");
}

ModelInfo ModelCatalog::readPackage(const QString &folder)
{
    ModelInfo info;
    info.folder = QDir::cleanPath(QFileInfo(folder).absoluteFilePath());
    if (!QFileInfo(info.folder).isDir()) {
        // The system's reason: a name over 255 bytes is "File name too long", not missing.
        struct stat status{};
        const int error = ::stat(QFile::encodeName(info.folder).constData(), &status) == 0
                              ? ENOTDIR
                              : errno;
        info.error = error == ENOENT ? QStringLiteral("folder does not exist")
                     : error == ENOTDIR
                         ? QStringLiteral("not a folder")
                         : QString::fromLocal8Bit(std::strerror(error));
        return info;
    }
    info.sizeOnDisk = folderSize(info.folder);

    QFile file(QDir(info.folder).filePath(kManifest));
    if (!file.exists()) {
        info.error = QStringLiteral("no model.json in the folder");
        return info;
    }
    QString why;
    if (!openRegularFile(file, &why)) {
        info.error = QStringLiteral("model.json: %1").arg(why);
        return info;
    }
    QJsonParseError parseError;
    const QJsonDocument document = QJsonDocument::fromJson(file.readAll(), &parseError);
    if (parseError.error != QJsonParseError::NoError) {
        info.error = QStringLiteral("model.json: invalid JSON at byte %1: %2")
                         .arg(parseError.offset)
                         .arg(parseError.errorString());
        return info;
    }
    if (!document.isObject()) {
        info.error = QStringLiteral("model.json: the top level must be a JSON object");
        return info;
    }
    info.manifest = document.object();
    const QStringList problems = readManifest(info.manifest, info);
    if (!problems.isEmpty())
        info.error = QStringLiteral("model.json: ") + problems.join(QStringLiteral("; "));
    return info;
}

namespace {
QString userDefaultsFile()
{
    return QDir(ModelCatalog::userModelsDir()).filePath(QStringLiteral("defaults.json"));
}

QString directionKey(const QString &task, const QString &source, const QString &target)
{
    return task + QLatin1Char(' ') + source + QLatin1Char(' ') + target;
}

QJsonObject readUserDefaults()
{
    QFile in(userDefaultsFile());
    QJsonObject defaults;
    if (openRegularFile(in, nullptr) && in.size() < (1 << 20))
        defaults = QJsonDocument::fromJson(in.readAll()).object();
    return defaults;
}
} // namespace

bool ModelCatalog::clearUserDefault(const QString &id, QString *error)
{
    QJsonObject defaults = readUserDefaults();
    bool named = false;
    for (auto it = defaults.begin(); it != defaults.end();) {
        if (it.value().toString() == id) {
            it = defaults.erase(it);
            named = true;
        } else {
            ++it;
        }
    }
    return !named || saveFile(userDefaultsFile(), QJsonDocument(defaults).toJson(), error);
}

bool ModelCatalog::setUserDefault(const ModelInfo &info, QString *error)
{
    QJsonObject defaults = readUserDefaults();
    defaults[directionKey(info.task, info.sourceLanguage, info.targetLanguage)] = info.id;
    QDir().mkpath(userModelsDir());
    // SaveFile, not QSaveFile: on a full disk QSaveFile renamed an empty file over the choices
    // (savefile.h says why).
    return saveFile(userDefaultsFile(), QJsonDocument(defaults).toJson(), error);
}

void ModelCatalog::scan(const QStringList &folders)
{
    m_searchPaths = folders;
    m_models.clear();
    // What an import killed midway left in the user's models folder (engine/import/staging.h).
    if (QFileInfo(userModelsDir()).isDir())
        engine::removeAbandonedStaging(QFile::encodeName(userModelsDir()).toStdString());
    // A damaged file is no choice: the packages' own defaults apply.
    m_userDefaults = readUserDefaults();
    QStringList seenFolders; // canonical, so that a package reached twice is listed once
    auto add = [&](const QString &packageFolder, const QString &searchPath) {
        const QString canonical = QFileInfo(packageFolder).canonicalFilePath();
        if (seenFolders.contains(canonical))
            return;
        seenFolders << canonical;
        ModelInfo info = readPackage(packageFolder);
        info.searchPath = QDir::cleanPath(QFileInfo(searchPath).absoluteFilePath());
        if (!info.id.isEmpty() && info.isValid()) {
            for (const ModelInfo &earlier : std::as_const(m_models)) {
                if (earlier.isValid() && earlier.shadowedBy.isEmpty() && earlier.id == info.id) {
                    info.shadowedBy = earlier.folder;
                    break;
                }
            }
        }
        m_models.append(info);
    };

    for (const QString &folder : folders) {
        const QDir dir(folder);
        if (!dir.exists())
            continue;
        if (dir.exists(kManifest)) {
            add(dir.absolutePath(), folder);
            continue;
        }
        // Hidden folders are skipped: importModel() copies into ".import-*" before renaming.
        const QFileInfoList subfolders =
            dir.entryInfoList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name);
        for (const QFileInfo &sub : subfolders)
            add(sub.absoluteFilePath(), folder);
    }
}

QList<ModelInfo> ModelCatalog::availableModels() const
{
    QList<ModelInfo> out;
    for (const ModelInfo &info : m_models) {
        if (!info.isValid() || !info.shadowedBy.isEmpty())
            continue;
        if (info.targetLanguages.isEmpty())
            out << info;
        for (const QString &language : info.targetLanguages)
            out << *targetVariant(info, language);
    }
    return out;
}

QString ModelCatalog::targetVariantId(const QString &id, const QString &language)
{
    return id + QLatin1Char('@') + language;
}

std::optional<ModelInfo> ModelCatalog::targetVariant(const ModelInfo &info, const QString &language)
{
    for (const QString &target : info.targetLanguages) {
        if (!engine::sameLanguage(target.toStdString(), language.toStdString()))
            continue;
        ModelInfo variant = info;
        variant.id = targetVariantId(info.id, target);
        variant.targetLanguage = target;
        return variant;
    }
    return std::nullopt;
}

std::optional<ModelInfo> ModelCatalog::find(const QString &idOrFolder) const
{
    if (idOrFolder.isEmpty())
        return std::nullopt;
    if (const qsizetype at = idOrFolder.lastIndexOf(QLatin1Char('@')); at > 0) {
        const std::optional<ModelInfo> package = find(idOrFolder.left(at));
        if (package && package->isValid() && !package->targetLanguages.isEmpty())
            return targetVariant(*package, idOrFolder.mid(at + 1));
    }
    const ModelInfo *broken = nullptr;
    for (const ModelInfo &info : m_models) {
        if (info.id != idOrFolder)
            continue;
        if (info.isValid() && info.shadowedBy.isEmpty())
            return info;
        if (!broken && !info.isValid())
            broken = &info;
    }
    if (broken)
        return *broken;

    const QFileInfo folder(idOrFolder);
    if (!folder.isDir())
        return std::nullopt;
    // A listed folder keeps what the scan learnt about it (search path, shadowing).
    const QString canonical = folder.canonicalFilePath();
    for (const ModelInfo &info : m_models)
        if (QFileInfo(info.folder).canonicalFilePath() == canonical)
            return info;
    return readPackage(idOrFolder);
}

std::optional<ModelInfo> ModelCatalog::defaultModel(const QString &task,
                                                    const QString &sourceLanguage,
                                                    const QString &targetLanguage) const
{
    for (auto it = m_userDefaults.begin(); it != m_userDefaults.end(); ++it) {
        const QStringList key = it.key().split(QLatin1Char(' '));
        if (key.size() != 3 || key[0] != task ||
            (!sourceLanguage.isEmpty() && key[1] != sourceLanguage) ||
            (!targetLanguage.isEmpty() && key[2] != targetLanguage))
            continue;
        for (const ModelInfo &info : availableModels())
            if (info.id == it.value().toString() && info.task == task &&
                info.sourceLanguage == key[1] && info.targetLanguage == key[2])
                return info;
    }
    std::optional<ModelInfo> first;
    for (const ModelInfo &info : availableModels()) {
        if (info.task != task ||
            (!sourceLanguage.isEmpty() && info.sourceLanguage != sourceLanguage) ||
            (!targetLanguage.isEmpty() && info.targetLanguage != targetLanguage))
            continue;
        if (info.isDefault)
            return info;
        if (!first)
            first = info;
    }
    return first;
}

std::optional<ModelInfo> ModelCatalog::defaultTranslationModel(const QStringList &languages) const
{
    const QString translation = taskKey(engine::Task::Translation);
    for (const QString &language : languages + QStringList{QStringLiteral("en")}) {
        const QString base = QString(language)
                                 .replace(QLatin1Char('_'), QLatin1Char('-'))
                                 .section(QLatin1Char('-'), 0, 0);
        // From the user's language, else into it: a German user with only an en→de model
        // gets that one, not English → Spanish.
        if (auto info = defaultModel(translation, base))
            return info;
        if (auto info = defaultModel(translation, QString(), base))
            return info;
    }
    return defaultModel(translation);
}

std::shared_ptr<engine::Model> ModelCatalog::load(const ModelInfo &info,
                                                  const PluginRegistry &plugins,
                                                  QString *errorMessage,
                                                  engine::ComputeType computeType)
{
    auto fail = [&](const QString &why) -> std::shared_ptr<engine::Model> {
        if (errorMessage)
            *errorMessage = QStringLiteral("cannot load model %1: %2").arg(info.folder, why);
        return nullptr;
    };
    if (!info.isValid())
        return fail(info.error);

    const PluginRecord *record = plugins.recordForArchitecture(info.architecture);
    if (!record) {
        // Say why: a plugin that would have handled it but was rejected is the usual story.
        QStringList notes;
        for (const PluginRecord &r : plugins.records())
            if (!r.isLoaded() && r.architectures.contains(info.architecture))
                notes << QStringLiteral("%1 was rejected: %2").arg(r.fileName, r.reason);
        QString why = QStringLiteral("no plugin for architecture %1 (model.json names plugin %2)")
                          .arg(quoted(info.architecture), quoted(info.plugin));
        if (!notes.isEmpty())
            why += QStringLiteral("; ") + notes.join(QStringLiteral("; "));
        else
            why += QStringLiteral("; plugin folders searched: %1")
                       .arg(plugins.searchPaths().isEmpty()
                                ? QStringLiteral("none")
                                : plugins.searchPaths().join(QStringLiteral(", ")));
        return fail(why);
    }

    std::shared_ptr<engine::Model> model;
    try {
        const engine::ModelPackage package =
            engine::ModelPackage::load(info.folder.toStdString(), computeType);
        model = record->plugin->load(package);
    } catch (const std::exception &e) {
        return fail(QString::fromStdString(e.what()));
    } catch (...) {
        return fail(QStringLiteral("plugin %1 threw an unknown exception").arg(record->fileName));
    }
    if (!model)
        return fail(QStringLiteral("plugin %1 returned no model").arg(record->fileName));
    const engine::Task expected = info.is(engine::Task::Captioning)
                                      ? engine::Task::Captioning
                                      : engine::Task::Translation;
    if (model->task() != expected)
        return fail(QStringLiteral("plugin %1 built a model for another task than %2")
                        .arg(record->fileName, quoted(info.task)));
    if (auto *translation = dynamic_cast<engine::TranslationModel *>(model.get());
        translation && !info.targetLanguages.isEmpty()) {
        try {
            translation->setTargetLanguage(info.targetLanguage.toStdString());
        } catch (const std::invalid_argument &e) {
            return fail(QString::fromStdString(e.what()));
        }
    }
    return model;
}

std::optional<ModelInfo> ModelCatalog::importModel(const QString &folder,
                                                   const QString &destinationRoot,
                                                   QString *errorMessage)
{
    const ModelInfo info = readPackage(folder);
    auto fail = [&](const QString &why) -> std::optional<ModelInfo> {
        if (errorMessage)
            *errorMessage = QStringLiteral("cannot import model %1: %2").arg(info.folder, why);
        return std::nullopt;
    };
    if (!info.isValid())
        return fail(info.error);
    try {
        engine::ModelPackage::load(info.folder.toStdString());
    } catch (const std::exception &e) {
        return fail(QString::fromStdString(e.what()));
    }

    // An empty root would resolve against the current folder: never what the caller meant.
    if (destinationRoot.isEmpty())
        return fail(QStringLiteral("no destination folder given"));
    if (!QDir().mkpath(destinationRoot))
        return fail(QStringLiteral("cannot create folder %1").arg(destinationRoot));
    const QString root = QFileInfo(destinationRoot).canonicalFilePath();
    if (isInside(root, QFileInfo(info.folder).canonicalFilePath()))
        return fail(QStringLiteral("the destination %1 lies inside the package").arg(root));
    const QString destination = QDir(root).filePath(info.id);
    if (QFileInfo::exists(destination))
        return fail(QStringLiteral("%1 already exists (a model with id %2 is installed there)")
                        .arg(destination, quoted(info.id)));

    // Locked as its owner's (engine/import/staging.h): an import killed here leaves a folder
    // that the next import or listing removes.
    engine::removeAbandonedStaging(QFile::encodeName(root).toStdString());
    std::optional<engine::StagingFolder> staging;
    try {
        staging.emplace(QFile::encodeName(root).toStdString());
        const QString stagingPath = QFile::decodeName(staging->path().c_str());
        QString copyError;
        if (!copyTree(info.folder, stagingPath, &copyError))
            return fail(copyError);
        staging->commit(QFile::encodeName(destination).toStdString());
    } catch (const std::exception &e) {
        return fail(QString::fromStdString(e.what()));
    }

    ModelInfo imported = readPackage(destination);
    imported.searchPath = root;
    return imported;
}

} // namespace glosa
