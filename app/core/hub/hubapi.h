// The Hugging Face hub's answers as plain types, and the parsers that make them from the JSON the
// hub sends: bounded in bytes and in counts, so that a hostile or broken server costs little
// (tests/fuzz/fuzz_hub_json.cpp). No network here: hubclient.h does the requests.
#pragma once

#include <QByteArray>
#include <QList>
#include <QString>
#include <QStringList>

namespace glosa {

enum class HubErrorKind {
    None,
    Offline,      // HF_HUB_OFFLINE is set: nothing was sent
    NotFound,     // 404, or the hub's RepoNotFound / EntryNotFound / RevisionNotFound
    Unauthorized, // 401/403: gated or private, and no token or a token without access
    Network,      // no connection, a timeout, a connection dropped more often than retried
    BadResponse,  // an answer that is not what the hub sends (malformed, over a bound)
    Checksum,     // a file whose size or SHA-256 is not what the hub said
    DiskFull,     // ENOSPC (or EDQUOT) while writing
    WriteFailed,  // any other error writing a file
    Cancelled,
    NotAModel,    // the repository lacks a file the importer needs
    ImportFailed, // the files arrived but the importer refused them (its message says why)
};

struct HubError
{
    HubErrorKind kind = HubErrorKind::None;
    QString message; // one line, naming the repository or file
    bool ok() const { return kind == HubErrorKind::None; }
};

template <typename T>
struct HubResult
{
    T value{};
    HubError error;
    bool ok() const { return error.ok(); }
};

// One search hit (GET /api/models).
struct HubModelSummary
{
    QString id;          // "Helsinki-NLP/opus-mt-en-es"
    qint64 downloads = 0;
    qint64 likes = 0;
    QString licence;     // from the "license:..." tag; empty when unknown
    QStringList languages; // language tags (ISO 639-1/3 codes), in the hub's order
    QString pipeline;    // "translation"
    QString libraryName; // "transformers"
    bool gated = false;
    bool isPrivate = false;
};

// One file of a repository at a commit.
struct HubFile
{
    QString path;       // "model.safetensors" (rfilename)
    qint64 size = -1;   // -1: the hub did not say
    QByteArray sha256;  // lower-case hex, LFS files only; empty for files kept in git
    // A file kept in git: its blob id, the SHA-1 of "blob SIZE\0" and the bytes, as git names it;
    // checked like an LFS file's SHA-256. Empty for LFS files (theirs names the pointer file).
    QByteArray gitBlobId;
    bool isLfs() const { return !sha256.isEmpty(); }
};

// GET /api/models/{repo}/revision/{revision}?blobs=true
struct HubRepoInfo
{
    QString id;      // the repository, as the hub spells it
    QString commit;  // 40 hex digits
    QString licence; // cardData.license, else the "license:" tag
    QStringList languages;
    bool gated = false;
    QList<HubFile> files;
    const HubFile *file(const QString &path) const;
};

// Bounds on what the hub may send. A real answer is far below each.
namespace hublimits {
inline constexpr qint64 kMaxJsonBytes = 16 << 20;  // one API answer
inline constexpr int kMaxSearchResults = 1000;     // hits kept from one search
inline constexpr int kMaxFiles = 10000;            // files of one repository
inline constexpr int kMaxTags = 1000;              // tags or languages of one repository
inline constexpr int kMaxStringBytes = 4096;       // one id, path or tag
inline constexpr int kMaxRedirects = 10;
} // namespace hublimits

// A repository id the hub accepts: "NAME" or "ORG/NAME" with letters, digits, '-', '_' and '.',
// no "..", no leading or trailing '-' or '.', at most 96 characters a part (huggingface_hub's
// validate_repo_id).
bool isValidRepoId(const QString &repo);
// A revision: a branch, tag or commit, no "..", no control characters; empty means "main".
bool isValidRevision(const QString &revision);
// A repository path that stays inside the folder it is written to: relative, no "..", no empty
// or "." parts, no backslash or control characters.
bool isSafeRepoPath(const QString &path);

// The parsers. `error` names what is wrong ("file 12: size is not a number"); they never throw.
HubResult<QList<HubModelSummary>> parseSearchResults(const QByteArray &json);
HubResult<HubRepoInfo> parseRepoInfo(const QByteArray &json);

// The files the MarianMT importer reads, in the order to fetch them (small ones first):
// config.json, the tokenizer files, the model card, then model.safetensors, else
// pytorch_model.bin. Fails with HubErrorKind::NotAModel naming the missing file.
HubResult<QList<HubFile>> marianFiles(const HubRepoInfo &repo);

} // namespace glosa
