#include "app/core/hub/hubclient.h"

#include "engine/regularfile.h"

#include <QDir>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFile>
#include <QFileInfo>
#include <QNetworkAccessManager>
#include <QNetworkProxyFactory>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QPointer>
#include <QTimer>

#include <openssl/evp.h>

#include <cerrno>
#include <cstring>
#include <memory>
#include <optional>

namespace glosa {

namespace {

bool isTrue(const QByteArray &value)
{
    const QByteArray v = value.trimmed().toUpper();
    return v == "1" || v == "ON" || v == "YES" || v == "TRUE";
}

// huggingface_hub's token file: $HF_TOKEN_PATH, else $HF_HOME/token, else
// ~/.cache/huggingface/token. Read only when it is a small regular file.
QByteArray tokenFromFile()
{
    QString path = qEnvironmentVariable("HF_TOKEN_PATH");
    if (path.isEmpty()) {
        const QString home = qEnvironmentVariable("HF_HOME");
        path = home.isEmpty() ? QDir::homePath() + QStringLiteral("/.cache/huggingface/token")
                              : home + QStringLiteral("/token");
    }
    const QFileInfo info(path);
    if (!info.isFile() || info.size() > 4096)
        return {};
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll().trimmed() : QByteArray();
}

QString percent(const QString &text, const QByteArray &keep = {})
{
    return QString::fromLatin1(QUrl::toPercentEncoding(text, keep));
}

QString repoUrlPart(const QString &repo)
{
    return percent(repo, "/");
}

HubError offlineError()
{
    return {HubErrorKind::Offline,
            QStringLiteral("HF_HUB_OFFLINE is set: no request was sent to the hub")};
}

// What one HTTP exchange (redirects followed) ended with.
struct Exchange
{
    int status = 0;
    QNetworkReply::NetworkError network = QNetworkReply::NoError;
    QString networkText;
    QByteArray errorCode;    // the hub's X-Error-Code
    QByteArray errorMessage; // the hub's X-Error-Message
    bool cancelled = false;
    bool stalled = false;
    bool stopped = false; // the body's sink refused a chunk
    QUrl url;             // the last one asked
};

// The hooks a GET streams through. `response` sees the final (non-redirect) status and headers
// first and may refuse the body; `body` gets each chunk and may stop the transfer.
struct Sink
{
    std::function<bool(QNetworkReply &)> response;
    std::function<bool(const QByteArray &)> body;
};

// One GET on the calling thread's own event loop, with redirects followed by hand so that the
// token goes to the endpoint's host only.
class Getter
{
public:
    Getter(const HubConfig &config, const HubCancelFn &cancelled)
        : m_config(config), m_cancelled(cancelled)
    {
        static const bool proxies = [] {
            QNetworkProxyFactory::setUseSystemConfiguration(true);
            return true;
        }();
        Q_UNUSED(proxies);
    }

    Exchange get(QUrl url, const QByteArray &range, const Sink &sink)
    {
        Exchange exchange;
        for (int hop = 0; hop <= hublimits::kMaxRedirects; ++hop) {
            exchange = Exchange{};
            exchange.url = url;
            std::optional<QUrl> next = once(url, range, sink, &exchange);
            if (!next)
                return exchange;
            url = *next;
        }
        exchange.network = QNetworkReply::TooManyRedirectsError;
        exchange.networkText = QStringLiteral("more than %1 redirects").arg(hublimits::kMaxRedirects);
        return exchange;
    }

private:
    bool sameHostAsEndpoint(const QUrl &url) const
    {
        return url.scheme() == m_config.endpoint.scheme() &&
               url.host().compare(m_config.endpoint.host(), Qt::CaseInsensitive) == 0 &&
               url.port(url.scheme() == QLatin1String("https") ? 443 : 80) ==
                   m_config.endpoint.port(
                       m_config.endpoint.scheme() == QLatin1String("https") ? 443 : 80);
    }

    QNetworkRequest request(const QUrl &url, const QByteArray &range) const
    {
        QNetworkRequest request(url);
        request.setAttribute(QNetworkRequest::RedirectPolicyAttribute,
                             QNetworkRequest::ManualRedirectPolicy);
        request.setHeader(QNetworkRequest::UserAgentHeader,
                          QByteArray("glosa/" GLOSA_VERSION "; hf_hub/compatible"));
        // Bytes as they are: a compressed answer would not have the size the hub announced.
        request.setRawHeader("Accept-Encoding", "identity");
        if (!range.isEmpty())
            request.setRawHeader("Range", range);
        if (!m_config.token.isEmpty() && sameHostAsEndpoint(url))
            request.setRawHeader("Authorization", "Bearer " + m_config.token);
        return request;
    }

    // Runs one request; returns the next URL for a redirect, nothing when done.
    std::optional<QUrl> once(const QUrl &url, const QByteArray &range, const Sink &sink,
                             Exchange *exchange)
    {
        QEventLoop loop;
        std::unique_ptr<QNetworkReply> reply(m_network.get(request(url, range)));
        // Bounds what Qt holds when the file is written more slowly than it arrives.
        reply->setReadBufferSize(1 << 20);
        bool headersSeen = false, redirect = false;
        QTimer stall, poll;
        stall.setSingleShot(true);
        stall.start(m_config.stallTimeoutMs);
        poll.start(100);
        bool aborted = false;
        const auto stop = [&](bool *flag) {
            *flag = true;
            // Once, and only while it runs: a second abort() reports an error twice.
            if (!aborted && !reply->isFinished()) {
                aborted = true;
                stall.stop();
                poll.stop();
                reply->abort();
            }
        };
        QObject::connect(&stall, &QTimer::timeout, &loop, [&] { stop(&exchange->stalled); });
        QObject::connect(&poll, &QTimer::timeout, &loop, [&] {
            if (m_cancelled && m_cancelled())
                stop(&exchange->cancelled);
        });
        const auto headers = [&] {
            if (headersSeen)
                return;
            headersSeen = true;
            exchange->status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
            exchange->errorCode = reply->rawHeader("X-Error-Code").left(256);
            exchange->errorMessage = reply->rawHeader("X-Error-Message").left(512);
            redirect = exchange->status >= 300 && exchange->status < 400 &&
                       reply->hasRawHeader("Location");
            if (!redirect && exchange->status >= 200 && exchange->status < 300 && sink.response &&
                !sink.response(*reply))
                stop(&exchange->stopped);
        };
        const auto read = [&] {
            stall.start(m_config.stallTimeoutMs);
            headers();
            if (redirect || exchange->stopped || exchange->status >= 300)
                return;
            while (reply->bytesAvailable() > 0 && !exchange->stopped) {
                const QByteArray chunk = reply->read(256 * 1024);
                if (chunk.isEmpty())
                    break;
                if (sink.body && !sink.body(chunk))
                    stop(&exchange->stopped);
            }
        };
        QObject::connect(reply.get(), &QNetworkReply::metaDataChanged, &loop, headers);
        QObject::connect(reply.get(), &QNetworkReply::readyRead, &loop, read);
        QObject::connect(reply.get(), &QNetworkReply::finished, &loop, [&] {
            read();
            loop.quit();
        });
        if (!reply->isFinished())
            loop.exec();
        else
            read();
        if (!exchange->cancelled && !exchange->stalled && !exchange->stopped) {
            exchange->network = reply->error();
            exchange->networkText = reply->errorString();
        }
        if (redirect) {
            const QUrl next = url.resolved(QUrl::fromEncoded(reply->rawHeader("Location")));
            if (next.scheme() == QLatin1String("http") || next.scheme() == QLatin1String("https"))
                return next;
        }
        return std::nullopt;
    }

    const HubConfig &m_config;
    HubCancelFn m_cancelled;
    QNetworkAccessManager m_network;
};

// The error an exchange that did not succeed ends with, or none.
HubError errorOf(const Exchange &exchange, const QString &what)
{
    if (exchange.cancelled)
        return {HubErrorKind::Cancelled, QStringLiteral("cancelled: %1").arg(what)};
    if (exchange.stalled)
        return {HubErrorKind::Network,
                QStringLiteral("%1: no answer from %2 (timed out)").arg(what, exchange.url.host())};
    const QString hub = exchange.errorMessage.isEmpty()
                            ? QString()
                            : QStringLiteral(" (%1)").arg(QString::fromUtf8(exchange.errorMessage));
    const QByteArray code = exchange.errorCode;
    if (exchange.status == 404 || code == "RepoNotFound" || code == "EntryNotFound" ||
        code == "RevisionNotFound")
        return {HubErrorKind::NotFound,
                QStringLiteral("%1: not found on %2%3%4")
                    .arg(what, exchange.url.host(), hub,
                         exchange.status == 401 ? QStringLiteral(" (private? set HF_TOKEN)")
                                                : QString())};
    if (exchange.status == 401 || exchange.status == 403)
        return {HubErrorKind::Unauthorized,
                QStringLiteral("%1: access refused (HTTP %2%3): a gated or private repository "
                               "needs HF_TOKEN with access to it")
                    .arg(what)
                    .arg(exchange.status)
                    .arg(code == "GatedRepo" ? QStringLiteral(", gated") : QString())};
    if (exchange.status >= 400)
        return {HubErrorKind::Network,
                QStringLiteral("%1: HTTP %2 from %3%4")
                    .arg(what)
                    .arg(exchange.status)
                    .arg(exchange.url.host(), hub)};
    if (exchange.network != QNetworkReply::NoError)
        return {HubErrorKind::Network,
                QStringLiteral("%1: %2").arg(what, exchange.networkText)};
    if (exchange.status >= 300)
        return {HubErrorKind::BadResponse,
                QStringLiteral("%1: HTTP %2 without a usable Location").arg(what).arg(exchange.status)};
    return {};
}

// A JSON answer of the API, bounded in bytes while it arrives.
HubResult<QByteArray> getJson(const HubConfig &config, const QUrl &url, const QString &what,
                              const HubCancelFn &cancelled)
{
    HubResult<QByteArray> result;
    bool tooBig = false;
    Sink sink;
    sink.body = [&](const QByteArray &chunk) {
        if (result.value.size() + chunk.size() > hublimits::kMaxJsonBytes) {
            tooBig = true;
            return false;
        }
        result.value += chunk;
        return true;
    };
    Getter getter(config, cancelled);
    const Exchange exchange = getter.get(url, {}, sink);
    if (tooBig)
        result.error = {HubErrorKind::BadResponse,
                        QStringLiteral("%1: the answer is over %2 MiB")
                            .arg(what)
                            .arg(hublimits::kMaxJsonBytes >> 20)};
    else
        result.error = errorOf(exchange, what);
    return result;
}

} // namespace

HubConfig HubConfig::fromEnvironment()
{
    HubConfig config;
    const QString endpoint = qEnvironmentVariable("HF_ENDPOINT").trimmed();
    if (!endpoint.isEmpty()) {
        QString clean = endpoint;
        while (clean.endsWith(QLatin1Char('/')))
            clean.chop(1);
        config.endpoint = QUrl(clean);
    }
    config.token = qgetenv("HF_TOKEN").trimmed();
    if (config.token.isEmpty())
        config.token = qgetenv("HUGGING_FACE_HUB_TOKEN").trimmed();
    if (config.token.isEmpty())
        config.token = tokenFromFile();
    config.offline = isTrue(qgetenv("HF_HUB_OFFLINE"));
    return config;
}

HubClient::HubClient(HubConfig config) : m_config(std::move(config)) {}

HubResult<QList<HubModelSummary>> HubClient::search(const QString &query, const QString &author,
                                                    int limit, const HubCancelFn &cancelled)
{
    HubResult<QList<HubModelSummary>> result;
    if (m_config.offline) {
        result.error = offlineError();
        return result;
    }
    QString url = m_config.endpoint.toString(QUrl::FullyEncoded) +
                  QStringLiteral("/api/models?search=") + percent(query.left(200)) +
                  QStringLiteral("&sort=downloads&direction=-1&full=true&limit=") +
                  QString::number(qBound(1, limit, hublimits::kMaxSearchResults));
    if (!author.isEmpty())
        url += QStringLiteral("&author=") + percent(author.left(200));
    const QString what = QStringLiteral("searching %1 for \"%2\"").arg(m_config.endpoint.host(), query);
    const HubResult<QByteArray> json = getJson(m_config, QUrl::fromEncoded(url.toLatin1()), what, cancelled);
    if (!json.ok()) {
        result.error = json.error;
        return result;
    }
    return parseSearchResults(json.value);
}

HubResult<HubRepoInfo> HubClient::repoInfo(const QString &repo, const QString &revision,
                                           const HubCancelFn &cancelled)
{
    HubResult<HubRepoInfo> result;
    if (m_config.offline) {
        result.error = offlineError();
        return result;
    }
    const QString rev = revision.isEmpty() ? QStringLiteral("main") : revision;
    if (!isValidRepoId(repo) || !isValidRevision(rev)) {
        result.error = {HubErrorKind::NotFound,
                        QStringLiteral("'%1' is not a repository id (ORG/NAME)%2")
                            .arg(repo, isValidRevision(rev) ? QString()
                                                            : QStringLiteral(" or a revision"))};
        return result;
    }
    const QString url = m_config.endpoint.toString(QUrl::FullyEncoded) + QStringLiteral("/api/models/") +
                        repoUrlPart(repo) + QStringLiteral("/revision/") + percent(rev) +
                        QStringLiteral("?blobs=true");
    const HubResult<QByteArray> json =
        getJson(m_config, QUrl::fromEncoded(url.toLatin1()), repo + QLatin1Char('@') + rev, cancelled);
    if (!json.ok()) {
        result.error = json.error;
        return result;
    }
    result = parseRepoInfo(json.value);
    if (result.ok() && result.value.id.isEmpty())
        result.value.id = repo;
    return result;
}

namespace {

// The partial file a download writes, through the engine's FileWriter: a failed write's errno
// (ENOSPC) reaches the message, and the file is synced before the rename.
class PartFile
{
public:
    explicit PartFile(QString path) : m_path(std::move(path)) {}

    // Continues the file; `restart` empties it first. The size already there is in size().
    bool open(bool restart)
    {
        m_file.reset();
        const std::string name = QFile::encodeName(m_path).toStdString();
        using Mode = engine::FileWriter::Mode;
        m_file.emplace(name, restart ? Mode::Truncate : Mode::Append);
        return m_file->ok();
    }
    bool write(const QByteArray &bytes)
    {
        m_file->write(bytes.constData(), std::size_t(bytes.size()));
        return m_file->ok();
    }
    bool finish() { return m_file->finish().empty(); }
    void close() { m_file.reset(); }
    qint64 size() const { return m_file ? qint64(m_file->size()) : 0; }
    int error() const { return m_file ? m_file->errorNumber() : 0; }
    HubError writeError() const
    {
        const int number = error();
        return {number == ENOSPC || number == EDQUOT ? HubErrorKind::DiskFull
                                                     : HubErrorKind::WriteFailed,
                QStringLiteral("cannot write %1: %2")
                    .arg(m_path, QString::fromLocal8Bit(std::strerror(number)))};
    }

private:
    QString m_path;
    std::optional<engine::FileWriter> m_file;
};

// The digest a file is checked against while it streams: the LFS SHA-256, or git's blob SHA-1.
// OpenSSL's, which uses the CPU's SHA instructions: 1.4 GB/s here, where QCryptographicHash's
// portable code made a verified download 8x slower than an unverified one (docs/benchmarks.md).
class Digest
{
public:
    explicit Digest(const HubFile &file)
        : m_file(file), m_context(EVP_MD_CTX_new(), &EVP_MD_CTX_free)
    {
        reset();
    }
    bool enabled() const { return m_file.isLfs() || (!m_file.gitBlobId.isEmpty() && m_file.size >= 0); }
    void reset()
    {
        EVP_DigestInit_ex(m_context.get(), m_file.isLfs() ? EVP_sha256() : EVP_sha1(), nullptr);
        if (!m_file.isLfs() && enabled())
            add("blob " + QByteArray::number(m_file.size) + '\0');
    }
    void add(const QByteArray &bytes)
    {
        if (enabled())
            EVP_DigestUpdate(m_context.get(), bytes.constData(), size_t(bytes.size()));
    }
    // The bytes already in a partial file, read once before the rest is appended.
    bool addFile(const QString &path, qint64 size)
    {
        if (!enabled() || size == 0)
            return true;
        QFile file(path);
        if (!file.open(QIODevice::ReadOnly))
            return false;
        for (qint64 done = 0; done < size;) {
            const QByteArray buffer = file.read(qMin<qint64>(1 << 20, size - done));
            if (buffer.isEmpty())
                return false;
            add(buffer);
            done += buffer.size();
        }
        return true;
    }
    QByteArray expected() const { return m_file.isLfs() ? m_file.sha256 : m_file.gitBlobId; }
    QByteArray result() const
    {
        // On a copy: the running digest goes on.
        const std::unique_ptr<EVP_MD_CTX, void (*)(EVP_MD_CTX *)> copy(EVP_MD_CTX_new(),
                                                                       &EVP_MD_CTX_free);
        unsigned char digest[EVP_MAX_MD_SIZE];
        unsigned int length = 0;
        if (!EVP_MD_CTX_copy_ex(copy.get(), m_context.get()) ||
            !EVP_DigestFinal_ex(copy.get(), digest, &length))
            return {};
        return QByteArray(reinterpret_cast<const char *>(digest), int(length)).toHex();
    }
    const char *name() const { return m_file.isLfs() ? "SHA-256" : "git blob SHA-1"; }

private:
    const HubFile &m_file;
    std::unique_ptr<EVP_MD_CTX, void (*)(EVP_MD_CTX *)> m_context;
};

} // namespace

namespace {

// Opens the partial file to continue it (or afresh when it is longer than the file), and hashes
// the bytes already there once.
HubError resumePart(PartFile &out, Digest &digest, const QString &part, const HubFile &file)
{
    const bool restart = !out.open(false) || (file.size >= 0 && out.size() > file.size);
    if (restart && !out.open(true))
        return out.writeError();
    digest.reset();
    if (!digest.addFile(part, out.size()) && out.open(true))
        digest.reset();
    return {};
}

// The hooks that write the body into `out` through `digest`: a server that ignored Range starts
// the file again; more bytes than announced stop the transfer.
Sink streamInto(PartFile &out, Digest &digest, const HubFile &file, HubProgress &report,
                const HubProgressFn &progress, qint64 &fetched, const QElapsedTimer &clock)
{
    Sink sink;
    sink.response = [&out, &digest, &report](QNetworkReply &reply) {
        const int status = reply.attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        const qint64 from = out.size();
        const QByteArray range = reply.rawHeader("Content-Range");
        const bool resumed =
            status == 206 && range.startsWith("bytes " + QByteArray::number(from) + '-');
        if (from > 0 && !resumed) { // the server ignored Range (or answered another one)
            if (!out.open(true))
                return false;
            digest.reset();
            report.fileBytes = 0;
        }
        return true;
    };
    sink.body = [&out, &digest, &file, &report, &progress, &fetched,
                 &clock](const QByteArray &chunk) {
        if (file.size >= 0 && out.size() + chunk.size() > file.size)
            return false; // more bytes than announced: checked by the caller
        if (!out.write(chunk))
            return false;
        digest.add(chunk);
        fetched += chunk.size();
        report.fileBytes = out.size();
        report.bytesPerSecond = fetched * 1000.0 / qMax<qint64>(1, clock.elapsed());
        if (progress)
            progress(report);
        return true;
    };
    return sink;
}

// A whole file: checked against the announced size and digest, then renamed into place; a
// mismatch deletes it and names it.
HubError keepVerified(PartFile &out, const Digest &digest, const QString &part,
                      const QString &path, const HubFile &file, const QString &what, bool tooLong)
{
    if (tooLong || (digest.enabled() && digest.result() != digest.expected())) {
        out.close();
        QFile::remove(part);
        return {HubErrorKind::Checksum,
                tooLong ? QStringLiteral("%1: the server sent more than the %2 bytes the hub "
                                         "announced; the file was deleted")
                              .arg(what)
                              .arg(file.size)
                        : QStringLiteral("%1: %2 mismatch (expected %3, got %4); the file was "
                                         "deleted")
                              .arg(what, QLatin1String(digest.name()),
                                   QString::fromLatin1(digest.expected()),
                                   QString::fromLatin1(digest.result()))};
    }
    if (!out.finish())
        return out.writeError();
    QFile::remove(path);
    if (!QFile::rename(part, path))
        return {HubErrorKind::WriteFailed, QStringLiteral("cannot rename %1 to %2").arg(part, path)};
    return {};
}

} // namespace

HubError HubClient::download(const HubRepoInfo &repo, const HubFile &file, const QString &path,
                             const HubProgressFn &progress, const HubCancelFn &cancelled)
{
    if (m_config.offline)
        return offlineError();
    if (!isSafeRepoPath(file.path))
        return {HubErrorKind::BadResponse, QStringLiteral("unsafe file name '%1'").arg(file.path)};
    const QString part = path + QStringLiteral(".incomplete");
    QDir().mkpath(QFileInfo(path).absolutePath());
    const QString url = m_config.endpoint.toString(QUrl::FullyEncoded) + QLatin1Char('/') +
                        repoUrlPart(repo.id) + QStringLiteral("/resolve/") + percent(repo.commit) +
                        QLatin1Char('/') + percent(file.path, "/");
    const QString what = repo.id + QLatin1Char('/') + file.path;
    PartFile out(part);
    Digest digest(file);
    QElapsedTimer clock;
    clock.start();
    qint64 fetchedThisRun = 0;
    HubError last;
    for (int attempt = 0; attempt <= m_config.retries; ++attempt) {
        if (const HubError error = resumePart(out, digest, part, file); !error.ok())
            return error;
        HubProgress report{file.path, out.size(), qMax<qint64>(file.size, 0), 0, 0, 0};
        const Sink sink = streamInto(out, digest, file, report, progress, fetchedThisRun, clock);
        Exchange exchange;
        if (file.size < 0 || out.size() != file.size) {
            Getter getter(m_config, cancelled);
            const QByteArray range =
                out.size() > 0 ? "bytes=" + QByteArray::number(out.size()) + '-' : QByteArray();
            exchange = getter.get(QUrl::fromEncoded(url.toLatin1()), range, sink);
        }
        if (out.error() != 0) {
            const HubError error = out.writeError();
            out.close();
            QFile::remove(part);
            return error;
        }
        if (exchange.status == 416) { // the partial file is not a prefix the server knows
            out.open(true);
            continue;
        }
        last = errorOf(exchange, what);
        if (last.kind == HubErrorKind::Cancelled || last.kind == HubErrorKind::NotFound ||
            last.kind == HubErrorKind::Unauthorized)
            return last;
        const bool tooLong = exchange.stopped && file.size >= 0;
        if (!tooLong && file.size >= 0 && out.size() < file.size) {
            if (last.ok())
                last = {HubErrorKind::Network,
                        QStringLiteral("%1: the connection ended after %2 of %3 bytes")
                            .arg(what)
                            .arg(out.size())
                            .arg(file.size)};
            continue; // dropped: resume with Range
        }
        if (!last.ok() && !tooLong && file.size < 0)
            continue;
        return keepVerified(out, digest, part, path, file, what, tooLong);
    }
    return last.ok() ? HubError{HubErrorKind::Network, QStringLiteral("%1: gave up").arg(what)} : last;
}

} // namespace glosa
