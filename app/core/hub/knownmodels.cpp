#include "app/core/hub/knownmodels.h"

#include "app/core/models/modelcatalog.h"

#include <QFileInfo>

namespace glosa {

const QList<KnownHubModel> &knownHubModels()
{
    // The weights of each repository (pytorch_model.bin), as the hub lists them, rounded to MB.
    static const QList<KnownHubModel> models = [] {
        const struct
        {
            const char *source, *target;
            int megabytes;
        } table[] = {{"en", "es", 312}, {"es", "en", 312}, {"en", "de", 298},
                     {"de", "en", 298}, {"en", "fr", 301}, {"fr", "en", 301}};
        QList<KnownHubModel> out;
        for (const auto &row : table) {
            KnownHubModel m;
            m.source = QLatin1String(row.source);
            m.target = QLatin1String(row.target);
            m.repo = QStringLiteral("Helsinki-NLP/opus-mt-%1-%2").arg(m.source, m.target);
            m.approximateBytes = qint64(row.megabytes) * 1000 * 1000;
            m.licence = QStringLiteral("apache-2.0");
            out << m;
        }
        return out;
    }();
    return models;
}

std::optional<KnownHubModel> knownHubModel(const QString &repo)
{
    for (const KnownHubModel &m : knownHubModels())
        if (m.repo.compare(repo, Qt::CaseInsensitive) == 0)
            return m;
    return std::nullopt;
}

std::optional<KnownHubModel> suggestedHubModel(const ModelCatalog &catalog, const QString &source,
                                               const QString &target)
{
    std::optional<KnownHubModel> known;
    for (const KnownHubModel &m : knownHubModels())
        if (m.source == source && m.target == target)
            known = m;
    if (!known)
        return std::nullopt;
    const QString userRoot = QFileInfo(ModelCatalog::userModelsDir()).canonicalFilePath();
    for (const ModelInfo &info : catalog.availableModels())
        if (info.is(engine::Task::Translation) && info.sourceLanguage == source &&
            info.targetLanguage == target && !userRoot.isEmpty() &&
            QFileInfo(info.folder).canonicalPath() == userRoot)
            return std::nullopt;
    return known;
}

} // namespace glosa
