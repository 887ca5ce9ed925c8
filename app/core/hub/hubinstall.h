// A model from the Hugging Face hub in one step: the repository's files at one commit downloaded
// into the user's cache folder (only what the MarianMT importer reads), each verified, then
// imported as a local folder is (modelimport.h), atomically; the downloaded files are removed
// after a good import unless the caller keeps them. The same for `glosa-cli models get` and the
// GUI's Get models… dialog.
//
// Basic usage (blocking: a worker thread or the CLI):
//     HubClient hub;
//     HubInstallRequest request;
//     request.repo = QStringLiteral("Helsinki-NLP/opus-mt-en-es");
//     const HubInstallResult done = installFromHub(hub, request, onDownload, onImport);
//     if (!done.error.ok()) report(done.error.message);   // done.id is "opus-mt-en-es"
#pragma once

#include "app/core/hub/hubclient.h"

#include <QString>

#include <functional>

namespace glosa {

struct HubInstallRequest
{
    QString repo;            // "Helsinki-NLP/opus-mt-en-es"
    QString revision;        // branch, tag or commit; empty: main
    bool float32 = false;    // keep float32 weights instead of int8
    QString id;              // the package id; empty: the repository's name ("opus-mt-en-es")
    bool keepFiles = false;  // keep the downloaded files in the cache after the import
    QString destinationRoot; // empty: ModelCatalog::userModelsDir()
};

struct HubInstallResult
{
    HubError error; // HubErrorKind::None on success
    QString id;
    QString folder; // the installed package
    QString commit; // the commit that was installed
};

// The folder downloads are kept in while they run: $XDG_CACHE_HOME/Glosa/hub (QStandardPaths'
// GenericCacheLocation), one folder per repository and commit ("models--ORG--NAME/COMMIT").
QString hubDownloadCacheDir();

// `download` gets the bytes as they arrive, `import` the import's fraction done (0..1).
HubInstallResult installFromHub(HubClient &hub, const HubInstallRequest &request,
                                const HubProgressFn &download = {},
                                const std::function<void(double)> &import = {},
                                const HubCancelFn &cancelled = {});

} // namespace glosa
