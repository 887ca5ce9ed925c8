#include "app/core/hub/hubinstall.h"

#include "app/core/models/modelimport.h"

#include <QDir>
#include <QFileInfo>
#include <QStandardPaths>
#include <QStorageInfo>

namespace glosa {

namespace {

// huggingface_hub's folder name for a repository: "models--ORG--NAME".
QString repoFolderName(const QString &repo)
{
    return QStringLiteral("models--") + QString(repo).replace(QLatin1Char('/'), QStringLiteral("--"));
}

// A file finished by an earlier run that kept its files (verified before it was renamed).
bool alreadyThere(const QString &path, const HubFile &file)
{
    const QFileInfo info(path);
    return info.isFile() && !info.isSymLink() && file.size >= 0 && info.size() == file.size;
}

HubError enoughSpace(const QString &folder, qint64 needed)
{
    const QStorageInfo storage(folder);
    if (storage.isValid() && storage.bytesAvailable() >= 0 && storage.bytesAvailable() < needed)
        return {HubErrorKind::DiskFull,
                QStringLiteral("not enough space in %1: the download needs %2 MB, %3 MB are free")
                    .arg(folder)
                    .arg((needed + 999999) / 1000000)
                    .arg(storage.bytesAvailable() / 1000000)};
    return {};
}

// Every file into `folder`, the progress of the whole set reported as one.
HubError downloadAll(HubClient &hub, const HubRepoInfo &info, const QList<HubFile> &files,
                     const QString &folder, const HubProgressFn &progress,
                     const HubCancelFn &cancelled)
{
    qint64 total = 0, before = 0, missing = 0;
    for (const HubFile &file : files) {
        total += qMax<qint64>(file.size, 0);
        if (!alreadyThere(QDir(folder).filePath(file.path), file))
            missing += qMax<qint64>(file.size, 0) -
                       QFileInfo(QDir(folder).filePath(file.path + QStringLiteral(".incomplete"))).size();
    }
    if (!QDir().mkpath(folder))
        return {HubErrorKind::WriteFailed, QStringLiteral("cannot create %1").arg(folder)};
    if (const HubError error = enoughSpace(folder, missing); !error.ok())
        return error;
    for (const HubFile &file : files) {
        const QString path = QDir(folder).filePath(file.path);
        if (!alreadyThere(path, file)) {
            const auto whole = [&](const HubProgress &one) {
                if (!progress)
                    return;
                HubProgress all = one;
                all.bytes = before + one.fileBytes;
                all.total = total;
                progress(all);
            };
            if (const HubError error = hub.download(info, file, path, whole, cancelled); !error.ok())
                return error;
        }
        before += qMax<qint64>(file.size, 0);
    }
    return {};
}

} // namespace

QString hubDownloadCacheDir()
{
    return QStandardPaths::writableLocation(QStandardPaths::GenericCacheLocation) +
           QStringLiteral("/Glosa/hub");
}

HubInstallResult installFromHub(HubClient &hub, const HubInstallRequest &request,
                                const HubProgressFn &download,
                                const std::function<void(double)> &import,
                                const HubCancelFn &cancelled)
{
    HubInstallResult result;
    const HubResult<HubRepoInfo> info = hub.repoInfo(request.repo, request.revision, cancelled);
    if (!info.ok()) {
        result.error = info.error;
        return result;
    }
    result.commit = info.value.commit;
    const HubResult<QList<HubFile>> files = marianFiles(info.value);
    if (!files.ok()) {
        result.error = files.error;
        return result;
    }
    const QString repoFolder = QDir(hubDownloadCacheDir()).filePath(repoFolderName(info.value.id));
    const QString folder = QDir(repoFolder).filePath(info.value.commit);
    result.error = downloadAll(hub, info.value, files.value, folder, download, cancelled);
    if (!result.error.ok())
        return result;

    ModelImportRequest importRequest;
    importRequest.folder = folder;
    importRequest.destinationRoot = request.destinationRoot;
    importRequest.float32 = request.float32;
    importRequest.id = request.id; // empty: the repository's name
    importRequest.repo = info.value.id;
    importRequest.commit = info.value.commit;
    const ModelImportResult imported = importModelFolder(importRequest, import, cancelled);
    if (!imported.ok()) {
        const bool wasCancelled = cancelled && cancelled();
        result.error = {wasCancelled ? HubErrorKind::Cancelled : HubErrorKind::ImportFailed,
                        imported.error};
        return result; // the verified files stay for the next attempt
    }
    result.id = imported.id;
    result.folder = imported.folder;
    if (!request.keepFiles) {
        QDir(folder).removeRecursively();
        QDir().rmdir(repoFolder); // only when no other commit is kept there
    }
    return result;
}

} // namespace glosa
