#include "app/core/hub/hubcache.h"

#include "app/core/models/modelimport.h"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMap>

namespace glosa {

namespace {

// config.json is a few KB; a bigger one is not a model config worth reading here.
constexpr qint64 kMaxConfigBytes = 1 << 20;

// Whether `snapshot` holds what the MarianMT importer reads: config.json with model_type "marian",
// the weights and source.spm (each may be a link into ../../blobs/, followed).
bool isMarianSnapshot(const QDir &snapshot)
{
    const QFileInfo config(snapshot.filePath(QStringLiteral("config.json")));
    if (!config.isFile() || config.size() > kMaxConfigBytes)
        return false;
    QFile file(config.filePath());
    if (!file.open(QIODevice::ReadOnly))
        return false;
    const QJsonObject object = QJsonDocument::fromJson(file.read(kMaxConfigBytes)).object();
    if (object.value(QStringLiteral("model_type")).toString() != QLatin1String("marian"))
        return false;
    const auto present = [&](const char *name) {
        return QFileInfo(snapshot.filePath(QString::fromLatin1(name))).isFile();
    };
    return (present("model.safetensors") || present("pytorch_model.bin")) && present("source.spm");
}

// The snapshot refs/main names, else the most recently written one; empty when none qualifies.
QString newestSnapshot(const QDir &repoDir, const QStringList &marianSnapshots)
{
    QFile ref(repoDir.filePath(QStringLiteral("refs/main")));
    if (ref.open(QIODevice::ReadOnly)) {
        const QString main = QString::fromLatin1(ref.read(256)).trimmed();
        if (marianSnapshots.contains(main))
            return main;
    }
    QString newest;
    QDateTime newestTime;
    const QDir snapshots(repoDir.filePath(QStringLiteral("snapshots")));
    for (const QString &commit : marianSnapshots) {
        const QDateTime time = QFileInfo(snapshots.filePath(commit)).lastModified();
        if (newest.isEmpty() || time > newestTime) {
            newest = commit;
            newestTime = time;
        }
    }
    return newest;
}

} // namespace

QStringList huggingFaceCacheDirs()
{
    QStringList candidates;
    const auto env = [](const char *name) { return qEnvironmentVariable(name); };
    if (!env("HF_HUB_CACHE").isEmpty())
        candidates << env("HF_HUB_CACHE");
    if (!env("HF_HOME").isEmpty())
        candidates << env("HF_HOME") + QStringLiteral("/hub");
    if (!env("XDG_CACHE_HOME").isEmpty())
        candidates << env("XDG_CACHE_HOME") + QStringLiteral("/huggingface/hub");
    candidates << QDir::homePath() + QStringLiteral("/.cache/huggingface/hub");
    QStringList found, canonical;
    for (const QString &dir : candidates) {
        const QString real = QFileInfo(dir).canonicalFilePath();
        if (!real.isEmpty() && QFileInfo(real).isDir() && !canonical.contains(real)) {
            canonical << real;
            found << QDir::cleanPath(dir);
        }
    }
    return found;
}

QList<CachedHubModel> findCachedMarianModels(const QStringList &cacheDirs)
{
    QList<CachedHubModel> models;
    QStringList seen;
    for (const QString &cacheDir : cacheDirs) {
        const QDir cache(cacheDir);
        for (const QString &entry : cache.entryList(
                 {QStringLiteral("models--*")}, QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name)) {
            const QDir repoDir(cache.filePath(entry));
            const QDir snapshots(repoDir.filePath(QStringLiteral("snapshots")));
            QStringList marian;
            for (const QString &commit :
                 snapshots.entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name))
                if (isMarianSnapshot(QDir(snapshots.filePath(commit))))
                    marian << commit;
            const QString commit = newestSnapshot(repoDir, marian);
            const QString folder = snapshots.filePath(commit);
            const QString repo = repoForCacheSnapshot(folder);
            if (commit.isEmpty() || repo.isEmpty() || seen.contains(repo))
                continue;
            seen << repo;
            models.append({repo, commit, QDir::cleanPath(folder)});
        }
    }
    return models;
}

} // namespace glosa
