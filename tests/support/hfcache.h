// A Hugging Face cache as transformers leaves it (huggingface_hub's file_download.py), made from a
// real folder: ROOT/models--ORG--NAME/blobs/<one file per blob>, snapshots/COMMIT/<name> as
// relative links into ../../blobs/, and refs/main naming COMMIT.
#pragma once

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QString>

namespace glosa::test {

// The snapshot folder, or an empty string when a file could not be written.
inline QString makeHfCacheSnapshot(const QString &root, const QString &repo, const QString &folder)
{
    const QString commit = QString::fromLatin1(
        QCryptographicHash::hash(repo.toUtf8(), QCryptographicHash::Sha1).toHex());
    const QDir repoDir(root + QStringLiteral("/models--") +
                       QString(repo).replace(QLatin1Char('/'), QStringLiteral("--")));
    const QString snapshot = repoDir.filePath(QStringLiteral("snapshots/") + commit);
    if (!QDir().mkpath(repoDir.filePath(QStringLiteral("blobs"))) || !QDir().mkpath(snapshot) ||
        !QDir().mkpath(repoDir.filePath(QStringLiteral("refs"))))
        return {};
    for (const QString &name : QDir(folder).entryList(QDir::Files)) {
        const QString blob = QString::fromLatin1(
            QCryptographicHash::hash(name.toUtf8(), QCryptographicHash::Sha256).toHex());
        if (!QFile::copy(QDir(folder).filePath(name),
                         repoDir.filePath(QStringLiteral("blobs/") + blob)) ||
            !QFile::link(QStringLiteral("../../blobs/") + blob, snapshot + QLatin1Char('/') + name))
            return {};
    }
    QFile ref(repoDir.filePath(QStringLiteral("refs/main")));
    if (!ref.open(QIODevice::WriteOnly) || ref.write(commit.toLatin1()) != commit.size())
        return {};
    return snapshot;
}

} // namespace glosa::test
