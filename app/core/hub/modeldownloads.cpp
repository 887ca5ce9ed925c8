#include "app/core/hub/modeldownloads.h"

#include "app/core/models/modelimport.h"
#include "app/core/platform/handoff.h"

#include <QElapsedTimer>
#include <QPointer>

namespace glosa {

namespace {
// Who publishes OPUS-MT: a search names this publisher unless the query names another.
const QString kOpusPublisher = QStringLiteral("Helsinki-NLP");
constexpr int kProgressIntervalMs = 100;
} // namespace

double DownloadProgress::secondsLeft() const
{
    if (phase != Phase::Downloading || bytesPerSecond <= 0 || total <= 0 || bytes > total)
        return -1;
    return double(total - bytes) / bytesPerSecond;
}

double DownloadProgress::fraction() const
{
    if (phase == Phase::Importing)
        return 0.9 + 0.1 * importFraction;
    return total > 0 ? 0.9 * double(bytes) / double(total) : 0.0;
}

ModelDownloads::ModelDownloads(HubConfig config, QObject *parent)
    : QObject(parent), m_config(std::move(config))
{
    qRegisterMetaType<glosa::HubError>();
}

ModelDownloads::~ModelDownloads()
{
    if (m_searchCancelled)
        *m_searchCancelled = true;
    if (m_installCancelled)
        *m_installCancelled = true;
}

void ModelDownloads::search(const QString &query)
{
    if (m_searchCancelled)
        *m_searchCancelled = true; // the older one: its answer is dropped anyway
    m_searchCancelled = std::make_shared<std::atomic<bool>>(false);
    const int serial = ++m_searchSerial;
    const QString text = query.trimmed();
    // "ORG/NAME" names its publisher; a bare text searches OPUS-MT's.
    const QString author =
        text.contains(QLatin1Char('/')) ? text.section(QLatin1Char('/'), 0, 0) : kOpusPublisher;
    const QString name = text.section(QLatin1Char('/'), -1);
    emit searchStarted();
    startOnPool([self = QPointer<ModelDownloads>(this), config = m_config, serial, name, author,
                 cancelled = m_searchCancelled] {
        HubClient hub(config);
        const auto found = hub.search(name, author, 100, [cancelled] { return cancelled->load(); });
        postCall(self, [self, serial, found] {
            if (self)
                self->finishSearch(serial, found);
        });
    });
}

void ModelDownloads::finishSearch(int serial, const HubResult<QList<HubModelSummary>> &found)
{
    if (serial != m_searchSerial)
        return; // a newer search runs
    m_searchDone = serial;
    m_results = found.value;
    m_searchError = found.error;
    emit searchFinished(m_searchError);
}

bool ModelDownloads::install(const QString &repo)
{
    HubInstallRequest request;
    request.repo = repo;
    return install(request);
}

bool ModelDownloads::install(const HubInstallRequest &request)
{
    if (m_installing)
        return false;
    m_request = request;
    startOnPool([self = QPointer<ModelDownloads>(this), config = m_config, request,
                 cancelled = beginInstall(request.repo)] {
        HubClient hub(config);
        QElapsedTimer sinceReport;
        sinceReport.start();
        DownloadProgress state;
        // Posted at most every kProgressIntervalMs, and at each file's end, so that a fast
        // download does not flood the GUI thread's queue.
        const auto report = [&](bool force) {
            if (!force && sinceReport.elapsed() < kProgressIntervalMs)
                return;
            sinceReport.restart();
            postCall(self, [self, state] {
                if (self)
                    self->setProgress(state);
            });
        };
        const HubInstallResult result = installFromHub(
            hub, request,
            [&](const HubProgress &p) {
                state.file = p.file;
                state.bytes = p.bytes;
                state.total = p.total;
                state.bytesPerSecond = p.bytesPerSecond;
                report(p.fileTotal > 0 && p.fileBytes == p.fileTotal);
            },
            [&](double fraction) {
                state.phase = DownloadProgress::Phase::Importing;
                state.importFraction = fraction;
                report(fraction <= 0 || fraction >= 1);
            },
            [cancelled] { return cancelled->load(); });
        postCall(self, [self, result] {
            if (self)
                self->finishInstall(result);
        });
    });
    return true;
}

std::shared_ptr<std::atomic<bool>> ModelDownloads::beginInstall(const QString &repo)
{
    m_installing = true;
    m_request.repo = repo;
    m_progress = {};
    m_installCancelled = std::make_shared<std::atomic<bool>>(false);
    emit installStarted(repo);
    emit progressChanged();
    return m_installCancelled;
}

void ModelDownloads::findCachedModels(const QStringList &cacheDirs)
{
    startOnPool([self = QPointer<ModelDownloads>(this), cacheDirs] {
        const QList<CachedHubModel> found = findCachedMarianModels(cacheDirs);
        postCall(self, [self, found] {
            if (!self)
                return;
            self->m_cached = found;
            emit self->cachedModelsFound();
        });
    });
}

bool ModelDownloads::importCached(const CachedHubModel &model, const QString &destinationRoot)
{
    if (m_installing)
        return false;
    m_request = {};
    ModelImportRequest request;
    request.folder = model.folder;
    request.destinationRoot = destinationRoot;
    // Named after the repository ("opus-mt-en-es", not the commit), which model.json records.
    request.repo = model.repo;
    request.commit = model.commit;
    startOnPool([self = QPointer<ModelDownloads>(this), request, commit = model.commit,
                 cancelled = beginInstall(model.repo)] {
        int shownPercent = -1; // posted once a percent: the importer reports far more often
        const auto report = [self, &shownPercent](double fraction) {
            if (int(fraction * 100) == shownPercent)
                return;
            shownPercent = int(fraction * 100);
            DownloadProgress state;
            state.phase = DownloadProgress::Phase::Importing;
            state.importFraction = fraction;
            postCall(self, [self, state] {
                if (self)
                    self->setProgress(state);
            });
        };
        const ModelImportResult imported =
            importModelFolder(request, report, [cancelled] { return cancelled->load(); });
        HubInstallResult result{{}, imported.id, imported.folder, commit};
        if (!imported.ok())
            result.error = {cancelled->load() ? HubErrorKind::Cancelled
                                              : HubErrorKind::ImportFailed,
                            imported.error};
        postCall(self, [self, result] {
            if (self)
                self->finishInstall(result);
        });
    });
    return true;
}

void ModelDownloads::setProgress(const DownloadProgress &progress)
{
    if (!m_installing)
        return;
    m_progress = progress;
    emit progressChanged();
}

void ModelDownloads::cancel()
{
    if (m_installCancelled)
        *m_installCancelled = true;
}

void ModelDownloads::finishInstall(const HubInstallResult &result)
{
    m_installing = false;
    m_lastInstall = result;
    emit installFinished(result.id, result.error);
}

} // namespace glosa
