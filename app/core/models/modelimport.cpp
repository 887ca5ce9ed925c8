#include "app/core/models/modelimport.h"

#include "app/core/models/modelcatalog.h"
#include "engine/import/marianimport.h"
#include "engine/import/staging.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>

namespace glosa {

bool isHuggingFaceFolder(const QString &folder)
{
    const QDir dir(folder);
    return !QFileInfo::exists(dir.filePath(QStringLiteral("model.json"))) &&
           QFileInfo::exists(dir.filePath(QStringLiteral("config.json")));
}

// A folder that is neither kind (a wrong folder picked, one level too high or too low): what
// each kind holds, so that the user can tell which folder to pick.
bool notAModelFolder(const QString &folder)
{
    const QDir dir(folder);
    return QFileInfo(folder).isDir() &&
           !QFileInfo::exists(dir.filePath(QStringLiteral("model.json"))) &&
           !QFileInfo::exists(dir.filePath(QStringLiteral("config.json")));
}

QString notAModelFolderMessage(const QString &folder)
{
    // Translated for the GUI; glosa-cli installs no translator and says it in English.
    return QCoreApplication::translate(
               "glosa::ModelImport",
               "%1 is not a model folder. Import takes a Glosa package (a folder with model.json "
               "and its weights) or a Hugging Face MarianMT folder (config.json, the weights in "
               "model.safetensors or pytorch_model.bin, source.spm, target.spm and vocab.json).")
        .arg(QDir::toNativeSeparators(folder));
}

ModelImportResult importModelFolder(const ModelImportRequest &request,
                                    const std::function<void(double)> &progress,
                                    const std::function<bool()> &cancelled)
{
    ModelImportResult result;
    const QString root =
        request.destinationRoot.isEmpty() ? ModelCatalog::userModelsDir() : request.destinationRoot;
    if (notAModelFolder(request.folder)) {
        result.error = notAModelFolderMessage(request.folder);
        return result;
    }
    if (!isHuggingFaceFolder(request.folder)) {
        const auto imported = ModelCatalog::importModel(request.folder, root, &result.error);
        if (imported) {
            result.id = imported->id;
            result.folder = imported->folder;
        }
        return result;
    }
    // What an import killed midway left here (engine/import/staging.h).
    if (QFileInfo(root).isDir())
        engine::removeAbandonedStaging(QFile::encodeName(root).toStdString());
    engine::MarianImportOptions options;
    options.int8 = !request.float32;
    options.id = request.id.toStdString();
    const QString cachedRepo = repoForCacheSnapshot(request.folder);
    options.repo = (request.repo.isEmpty() ? cachedRepo : request.repo).toStdString();
    if (!request.repo.isEmpty())
        options.commit = request.commit.toStdString();
    else if (!cachedRepo.isEmpty())
        options.commit = QDir(QDir::cleanPath(request.folder)).dirName().toStdString();
    options.sourceLanguage = request.sourceLanguage.toStdString();
    options.targetLanguage = request.targetLanguage.toStdString();
    options.progress = progress;
    options.cancelled = cancelled;
    try {
        const engine::MarianImport done =
            engine::importMarian(request.folder.toStdString(), root.toStdString(), options);
        result.id = QString::fromStdString(done.id);
        result.folder = QString::fromStdString(done.folder);
    } catch (const std::exception &error) {
        result.error = QStringLiteral("cannot import %1: %2")
                           .arg(request.folder, QString::fromStdString(error.what()));
    }
    return result;
}

bool removeImportedModel(const QString &id, QString *removedFolder, QString *error)
{
    ModelCatalog catalog;
    catalog.scan();
    const QString root = QFileInfo(ModelCatalog::userModelsDir()).canonicalFilePath();
    const auto imported = [&](const ModelInfo &info) {
        return !root.isEmpty() && QFileInfo(info.folder).canonicalPath() == root;
    };
    const ModelInfo *found = nullptr;
    for (const ModelInfo &info : catalog.models())
        if (info.id == id && (!found || imported(info)))
            found = &info;
    if (!found) {
        *error = QStringLiteral("no model with id '%1'").arg(shownModelName(id));
        return false;
    }
    if (!imported(*found)) {
        *error = QStringLiteral("'%1' in %2 is not an imported model (only those in %3 can be "
                                "removed)")
                     .arg(id, found->folder, ModelCatalog::userModelsDir());
        return false;
    }
    const QString trash = QDir(root).filePath(QStringLiteral(".remove-") + id);
    QDir(trash).removeRecursively();
    if (!QDir().rename(found->folder, trash) || !QDir(trash).removeRecursively()) {
        *error = QStringLiteral("cannot remove %1").arg(found->folder);
        return false;
    }
    *removedFolder = found->folder;
    // A default that names a removed model would come back to life with a later model of the
    // same id; the folder is gone, so this failing is only worth the message.
    return ModelCatalog::clearUserDefault(id, error);
}

QString repoForCacheSnapshot(const QString &folder)
{
    // .../models--ORG--NAME/snapshots/COMMIT: huggingface_hub's repo_folder_name, "/" -> "--".
    const QStringList parts = QDir::cleanPath(folder).split(QLatin1Char('/'), Qt::SkipEmptyParts);
    if (parts.size() < 3 || parts.at(parts.size() - 2) != QLatin1String("snapshots"))
        return {};
    const QString repoFolder = parts.at(parts.size() - 3);
    const QLatin1String prefix("models--");
    if (!repoFolder.startsWith(prefix) || repoFolder.size() == prefix.size())
        return {};
    const QString repo = repoFolder.mid(prefix.size());
    const qsizetype separator = repo.indexOf(QStringLiteral("--"));
    if (separator == 0 || separator == repo.size() - 2)
        return {};
    return separator < 0 ? repo : repo.left(separator) + QLatin1Char('/') + repo.mid(separator + 2);
}

} // namespace glosa
