// Models already on this computer: the Hugging Face cache transformers fills
// (models--ORG--NAME/snapshots/COMMIT/, files as links into ../../blobs/). The manager lists the
// MarianMT snapshots found there as "on this computer" and imports them without a download.
#pragma once

#include <QList>
#include <QString>
#include <QStringList>

namespace glosa {

struct CachedHubModel
{
    QString repo;   // "Helsinki-NLP/opus-mt-en-es"
    QString commit; // the snapshot folder's name
    QString folder; // the snapshot folder, to import from
};

// HF_HUB_CACHE, else HF_HOME/hub, else ~/.cache/huggingface/hub (huggingface_hub's constants.py),
// those that exist.
QStringList huggingFaceCacheDirs();

// The MarianMT snapshots (config.json with model_type "marian", weights, source.spm) in those
// folders, newest snapshot of each repository only.
QList<CachedHubModel> findCachedMarianModels(const QStringList &cacheDirs = huggingFaceCacheDirs());

} // namespace glosa
