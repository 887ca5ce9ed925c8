// ModelDownloads: the presenter of Get models… (no widgets). Searches the hub and installs a
// repository (download, verify, import: installFromHub) on the thread pool, one job of each kind
// at a time, and reports back on the GUI thread through its state and signals; the dialog only
// shows them. A HubClient lives on the pool thread that uses it (it owns a QNetworkAccessManager,
// which belongs to the thread that made it).
//
// Basic usage:
//     ModelDownloads downloads;                      // HubConfig::fromEnvironment()
//     connect(&downloads, &ModelDownloads::searchFinished, ...);   // then results()
//     downloads.search(QStringLiteral("en-es"));
//     downloads.install(QStringLiteral("Helsinki-NLP/opus-mt-en-es"));
//     connect(&downloads, &ModelDownloads::progressChanged, ...);  // then progress()
//     connect(&downloads, &ModelDownloads::installFinished, ...);  // id, or the HubError
//     downloads.cancel();                            // the partial files stay for a resume
#pragma once

#include "app/core/hub/hubcache.h"
#include "app/core/hub/hubinstall.h"

#include <QList>
#include <QMetaType>
#include <QObject>

#include <atomic>
#include <memory>

namespace glosa {

// An install's progress as a progress bar shows it.
struct DownloadProgress
{
    enum class Phase { Downloading, Importing };
    Phase phase = Phase::Downloading;
    QString file;              // the repository path being fetched
    qint64 bytes = 0;          // of every file of the install
    qint64 total = 0;          // 0: not known yet
    double bytesPerSecond = 0; // over the last seconds; 0: not measured yet
    double importFraction = 0; // 0..1, while importing
    // The seconds the download still needs at the current rate; -1 when that is not known.
    double secondsLeft() const;
    // 0..1 of the whole install: the download counts for 90%, the import for the rest.
    double fraction() const;
};

class ModelDownloads : public QObject
{
    Q_OBJECT
public:
    explicit ModelDownloads(HubConfig config = HubConfig::fromEnvironment(),
                            QObject *parent = nullptr);
    // Cancels what runs; the pool thread ends on its own and reports to no one.
    ~ModelDownloads() override;

    const HubConfig &config() const { return m_config; }

    // The repositories whose id contains `query`. A query naming a publisher ("ORG/NAME", as a
    // repo id the user types) searches that publisher; otherwise Helsinki-NLP (OPUS-MT). A
    // search while one runs replaces it: the older answer is dropped.
    void search(const QString &query);
    bool isSearching() const { return m_searchSerial != m_searchDone; }
    const QList<HubModelSummary> &results() const { return m_results; }
    const HubError &searchError() const { return m_searchError; }

    // Downloads and imports `request.repo`; false, and nothing starts, while an install runs.
    bool install(const HubInstallRequest &request);
    bool install(const QString &repo);
    bool isInstalling() const { return m_installing; }
    QString installingRepo() const { return m_installing ? m_request.repo : QString(); }
    const DownloadProgress &progress() const { return m_progress; }
    const HubInstallResult &lastInstall() const { return m_lastInstall; }

    // Cancels the install that runs (installFinished follows with HubErrorKind::Cancelled).
    void cancel();

    // The MarianMT models transformers already put in the Hugging Face cache (hubcache.h), looked
    // for on the pool (local folders only: no request); cachedModelsFound follows.
    void findCachedModels(const QStringList &cacheDirs = huggingFaceCacheDirs());
    const QList<CachedHubModel> &cachedModels() const { return m_cached; }
    // Imports a cached snapshot as an install does, without a download: the package is named
    // after its repository ("opus-mt-en-es"). False, and nothing starts, while an install runs.
    bool importCached(const CachedHubModel &model, const QString &destinationRoot = {});

signals:
    void searchStarted();
    void searchFinished(const glosa::HubError &error);
    void installStarted(const QString &repo);
    // At most ten times a second, and once when a phase ends.
    void progressChanged();
    // `id` is the installed package; `error` says why nothing was installed.
    void installFinished(const QString &id, const glosa::HubError &error);
    void cachedModelsFound();

private:
    void finishSearch(int serial, const HubResult<QList<HubModelSummary>> &found);
    // Marks an install of `repo` as running; the flag its job polls.
    std::shared_ptr<std::atomic<bool>> beginInstall(const QString &repo);
    void finishInstall(const HubInstallResult &result);
    void setProgress(const DownloadProgress &progress);

    HubConfig m_config;
    int m_searchSerial = 0;
    int m_searchDone = 0;
    QList<HubModelSummary> m_results;
    HubError m_searchError;
    std::shared_ptr<std::atomic<bool>> m_searchCancelled;

    bool m_installing = false;
    HubInstallRequest m_request;
    DownloadProgress m_progress;
    HubInstallResult m_lastInstall;
    std::shared_ptr<std::atomic<bool>> m_installCancelled;
    QList<CachedHubModel> m_cached;
};

} // namespace glosa

Q_DECLARE_METATYPE(glosa::HubError)
