// OPUS-MT repositories the app knows without asking the hub: what the model picker offers for the
// current direction before the user has searched anything (nothing is sent to the network until
// the user clicks). Sizes are the repositories' weights files, rounded; the hub gives the exact
// ones when the download starts.
#pragma once

#include <QList>
#include <QString>

#include <optional>

namespace glosa {

class ModelCatalog;

struct KnownHubModel
{
    QString repo;   // "Helsinki-NLP/opus-mt-en-es"
    QString source; // "en"
    QString target; // "es"
    qint64 approximateBytes = 0;
    QString licence;
};

const QList<KnownHubModel> &knownHubModels();
std::optional<KnownHubModel> knownHubModel(const QString &repo);

// The known repository for `source` → `target` while no imported model (one in
// ModelCatalog::userModelsDir()) translates that way; std::nullopt otherwise.
std::optional<KnownHubModel> suggestedHubModel(const ModelCatalog &catalog, const QString &source,
                                               const QString &target);

} // namespace glosa
