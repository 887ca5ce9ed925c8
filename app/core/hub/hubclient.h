// The Hugging Face hub, spoken as huggingface_hub speaks it (its hf_api.py and
// file_download.py): search, a repository's files at one commit, and files downloaded with their
// size and SHA-256 checked while they stream, resumed with Range after an interruption.
//
// Basic usage (blocking: from a worker thread or the CLI, never the GUI thread):
//     HubClient hub;                                   // HF_ENDPOINT, HF_TOKEN, HF_HUB_OFFLINE
//     const auto found = hub.search(QStringLiteral("opus-mt-en"), QStringLiteral("Helsinki-NLP"));
//     const auto info = hub.repoInfo(QStringLiteral("Helsinki-NLP/opus-mt-en-es"));
//     if (!info.ok()) report(info.error.message);
//     const HubError error = hub.download(info.value, info.value.files[0], path, onProgress);
//
// The environment, as the ecosystem sets it:
//   HF_ENDPOINT       the hub's address (a mirror); default https://huggingface.co
//   HF_TOKEN          a token for gated or private repositories (also HUGGING_FACE_HUB_TOKEN),
//                     sent only to the endpoint's own host, never to the CDN a file redirects to
//   HF_HUB_OFFLINE=1  no request at all: every call fails at once with HubErrorKind::Offline
//   the system's proxy (http_proxy, https_proxy, no_proxy), as Qt Network reads it.
//
// Memory stays bounded whatever a file's size: bytes go from the socket through the hash to the
// file in chunks, with the reply's read buffer capped; JSON answers are bounded in bytes and in
// counts (hubapi.h).
#pragma once

#include "app/core/hub/hubapi.h"

#include <QByteArray>
#include <QString>
#include <QUrl>

#include <functional>

namespace glosa {

struct HubConfig
{
    QUrl endpoint{QStringLiteral("https://huggingface.co")};
    QByteArray token;  // empty: anonymous
    bool offline = false;
    // No byte received for this long ends a request with HubErrorKind::Network.
    int stallTimeoutMs = 30000;
    // Retries of one file after a dropped connection, each resumed with Range.
    int retries = 3;

    // HF_ENDPOINT, HF_TOKEN (or HUGGING_FACE_HUB_TOKEN) and HF_HUB_OFFLINE.
    static HubConfig fromEnvironment();
};

// What a download has done so far, for a progress bar or a terminal line.
struct HubProgress
{
    QString file;             // the repository path being fetched
    qint64 fileBytes = 0;     // of that file, resumed bytes included
    qint64 fileTotal = 0;     // its size (0: unknown)
    qint64 bytes = 0;         // of the whole set of files
    qint64 total = 0;
    double bytesPerSecond = 0; // over the last seconds of this run (resumed bytes excluded)
};

using HubProgressFn = std::function<void(const HubProgress &)>;
using HubCancelFn = std::function<bool()>;

class HubClient
{
public:
    explicit HubClient(HubConfig config = HubConfig::fromEnvironment());

    const HubConfig &config() const { return m_config; }

    // GET {endpoint}/api/models?search=QUERY&author=AUTHOR&limit=N&sort=downloads&direction=-1
    // &full=true: the repositories whose id contains QUERY, most downloaded first.
    HubResult<QList<HubModelSummary>> search(const QString &query, const QString &author = {},
                                             int limit = 50, const HubCancelFn &cancelled = {});

    // GET {endpoint}/api/models/{repo}/revision/{revision}?blobs=true: the commit the revision
    // names and every file with its size and, for LFS files, its SHA-256.
    HubResult<HubRepoInfo> repoInfo(const QString &repo, const QString &revision = {},
                                    const HubCancelFn &cancelled = {});

    // GET {endpoint}/{repo}/resolve/{commit}/{file} into `path`, following redirects (LFS files
    // redirect to a CDN). Bytes go to `path` + ".incomplete" first; an existing one is continued
    // with a Range request (a server that ignores Range gets a fresh start), and a dropped
    // connection is retried that way config().retries times. The size, and for an LFS file the
    // SHA-256, are checked as the bytes stream; a mismatch deletes the file and names it. On
    // success the file is renamed to `path`. Cancelling keeps the partial file for the next
    // attempt.
    HubError download(const HubRepoInfo &repo, const HubFile &file, const QString &path,
                      const HubProgressFn &progress = {}, const HubCancelFn &cancelled = {});

private:
    HubConfig m_config;
};

} // namespace glosa
