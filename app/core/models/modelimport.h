// Installing a model folder into the user's models folder, the same way for the GUI (File ▸
// Import model…, the Models dialog) and `glosa-cli models import`: a Glosa package (a folder with
// model.json) is copied (ModelCatalog::importModel); a Hugging Face MarianMT folder (an OPUS-MT
// model) is converted once (engine/import/marianimport.h). Either way a failed or cancelled
// import leaves nothing behind.
//
// Basic usage (off the GUI thread: converting a 300 MB model takes seconds):
//     ModelImportRequest request{folder};
//     const ModelImportResult result = importModelFolder(request, onProgress, isCancelled);
//     if (!result.ok()) show(result.error);   // names the file and the problem
#pragma once

#include <QString>

#include <functional>

namespace glosa {

struct ModelImportRequest
{
    QString folder;          // the folder to import
    QString destinationRoot; // empty: ModelCatalog::userModelsDir()
    bool float32 = false;    // MarianMT: keep float32 weights instead of int8
    QString id;              // MarianMT: the package id (empty: the repository's name)
    // MarianMT: the Hugging Face repository ("Helsinki-NLP/opus-mt-en-es"); empty when unknown,
    // then taken from the path of a Hugging Face cache snapshot
    // (.../models--ORG--NAME/snapshots/COMMIT/, repoForCacheSnapshot below), whose commit
    // model.json records too.
    QString repo;
    QString commit;          // MarianMT: the repository's commit, when `repo` is given
    QString sourceLanguage;  // MarianMT: when the folder does not say
    QString targetLanguage;
};

struct ModelImportResult
{
    QString id;
    QString folder; // the installed package
    QString error;  // empty on success
    bool ok() const { return error.isEmpty(); }
};

// Whether `folder` holds a Hugging Face MarianMT model (config.json, no model.json).
bool isHuggingFaceFolder(const QString &folder);

// Whether `folder` is a folder with neither model.json nor config.json, and the message that
// says what a model folder holds.
bool notAModelFolder(const QString &folder);
QString notAModelFolderMessage(const QString &folder);

// `progress` receives the fraction done (0..1) from the calling thread; `cancelled` is polled
// between tensors. Both may be empty. Never throws.
ModelImportResult importModelFolder(const ModelImportRequest &request,
                                    const std::function<void(double)> &progress = {},
                                    const std::function<bool()> &cancelled = {});

// Removes the imported package `id` (one directly in ModelCatalog::userModelsDir(); bundled
// packages and those on $GLOSA_MODEL_PATH are refused): renamed out of sight first, so that a
// removal cut short never leaves half a package listed; then forgotten as any direction's default
// (defaults.json). False with the reason in *error.
bool removeImportedModel(const QString &id, QString *removedFolder, QString *error);

// "Helsinki-NLP/opus-mt-en-es" for ".../models--Helsinki-NLP--opus-mt-en-es/snapshots/abc/";
// empty for a folder outside such a layout (the Hugging Face cache's, app/core/hub/hubcache.h).
QString repoForCacheSnapshot(const QString &folder);

} // namespace glosa
