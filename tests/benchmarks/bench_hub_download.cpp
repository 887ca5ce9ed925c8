// bench_hub_download: what verifying a download costs, against the same download unverified.
//
//   build/bin/bench_hub_download ENDPOINT REPO FILE [--runs N]
//
// Downloads FILE of REPO from the hub at ENDPOINT (the loopback hub of tests/support/
// loopback_hub.py, or a mirror) with HubClient::download, alternating N times (default 3) the
// verified download (the SHA-256 the hub announces, hashed while the bytes stream) with the same
// download unverified (the size only), into a temporary folder. Prints the best time of each,
// their ratio, and the process's peak RSS (getrusage), which bounds what either held in memory.
// The command and the figures are in docs/benchmarks.md, "Downloads from the hub".
#include "app/core/hub/hubclient.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QTemporaryDir>

#include <algorithm>
#include <cstdio>
#include <sys/resource.h>

using namespace glosa;

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const QStringList args = app.arguments();
    if (args.size() < 4) {
        std::fprintf(stderr, "usage: bench_hub_download ENDPOINT REPO FILE [--runs N]\n");
        return 2;
    }
    const int runs = args.size() > 5 && args[4] == QLatin1String("--runs") ? args[5].toInt() : 3;
    HubConfig config;
    config.endpoint = QUrl(args[1]);
    HubClient hub(config);
    const HubResult<HubRepoInfo> info = hub.repoInfo(args[2]);
    if (!info.ok()) {
        std::fprintf(stderr, "%s\n", qPrintable(info.error.message));
        return 1;
    }
    const HubFile *file = info.value.file(args[3]);
    if (!file || !file->isLfs()) {
        std::fprintf(stderr, "%s is not an LFS file of %s\n", qPrintable(args[3]), qPrintable(args[2]));
        return 1;
    }
    HubFile unverified = *file;
    unverified.sha256.clear();
    unverified.gitBlobId.clear();
    QTemporaryDir dir;
    double best[2] = {1e30, 1e30};
    for (int run = 0; run < runs; ++run) {
        for (int verify = 0; verify < 2; ++verify) {
            const QString path = dir.filePath(QStringLiteral("file"));
            QFile::remove(path);
            QElapsedTimer clock;
            clock.start();
            const HubError error = hub.download(info.value, verify ? *file : unverified, path);
            const double seconds = clock.nsecsElapsed() / 1e9;
            if (!error.ok()) {
                std::fprintf(stderr, "%s\n", qPrintable(error.message));
                return 1;
            }
            best[verify] = std::min(best[verify], seconds);
        }
    }
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    const double mb = double(file->size) / 1e6;
    std::printf("file: %.1f MB, best of %d runs each\n", mb, runs);
    std::printf("unverified (size only): %.2f s, %.0f MB/s\n", best[0], mb / best[0]);
    std::printf("verified (SHA-256 while streaming): %.2f s, %.0f MB/s\n", best[1], mb / best[1]);
    std::printf("verified / unverified: %.2fx the time\n", best[1] / best[0]);
    std::printf("peak RSS: %.1f MB\n", usage.ru_maxrss / 1024.0);
    return 0;
}
