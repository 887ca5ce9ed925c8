#include "app/core/hub/hubapi.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonParseError>
#include <QRegularExpression>

namespace glosa {

namespace {

HubError badResponse(const QString &what)
{
    return {HubErrorKind::BadResponse, QStringLiteral("the hub's answer is not valid: %1").arg(what)};
}

// A string field within the length bound; `ok` false when present but not a string or too long.
QString boundedString(const QJsonObject &object, QLatin1String key, bool *ok)
{
    const QJsonValue value = object.value(key);
    if (value.isUndefined() || value.isNull())
        return {};
    if (!value.isString() || value.toString().size() > hublimits::kMaxStringBytes) {
        *ok = false;
        return {};
    }
    return value.toString();
}

qint64 count(const QJsonObject &object, QLatin1String key)
{
    const double value = object.value(key).toDouble(0);
    return value > 0 && value < 9e15 ? qint64(value) : 0;
}

// The "license:apache-2.0" tag's value and the language tags (two or three lower-case letters,
// as the hub tags a model's languages), from a tags array within the bounds.
bool readTags(const QJsonValue &tags, QString *licence, QStringList *languages)
{
    if (tags.isUndefined() || tags.isNull())
        return true;
    if (!tags.isArray() || tags.toArray().size() > hublimits::kMaxTags)
        return false;
    static const QRegularExpression language(QStringLiteral("^[a-z]{2,3}\\z"));
    for (const QJsonValue &tag : tags.toArray()) {
        const QString text = tag.toString();
        if (text.size() > hublimits::kMaxStringBytes)
            return false;
        if (text.startsWith(QLatin1String("license:")))
            *licence = text.mid(8);
        else if (language.match(text).hasMatch() && !languages->contains(text))
            languages->append(text);
    }
    return true;
}

bool gatedFlag(const QJsonValue &value)
{
    // false, or "auto" / "manual" for gated repositories
    return value.isString() ? !value.toString().isEmpty() : value.toBool(false);
}

HubResult<QJsonDocument> parseJson(const QByteArray &json)
{
    HubResult<QJsonDocument> result;
    if (json.size() > hublimits::kMaxJsonBytes) {
        result.error = badResponse(
            QStringLiteral("%1 bytes, more than the %2 MiB an answer may have")
                .arg(json.size())
                .arg(hublimits::kMaxJsonBytes >> 20));
        return result;
    }
    QJsonParseError parseError;
    result.value = QJsonDocument::fromJson(json, &parseError);
    if (parseError.error != QJsonParseError::NoError)
        result.error = badResponse(QStringLiteral("JSON error at byte %1: %2")
                                       .arg(parseError.offset)
                                       .arg(parseError.errorString()));
    return result;
}

// One entry of "siblings": {"rfilename", "size", "lfs": {"sha256", "size"}}.
HubError readFile(const QJsonValue &value, int index, HubFile *file)
{
    const auto bad = [&](const QString &what) {
        return badResponse(QStringLiteral("file %1: %2").arg(index).arg(what));
    };
    if (!value.isObject())
        return bad(QStringLiteral("not an object"));
    const QJsonObject object = value.toObject();
    bool ok = true;
    file->path = boundedString(object, QLatin1String("rfilename"), &ok);
    if (!ok || file->path.isEmpty())
        return bad(QStringLiteral("no file name"));
    const QJsonValue size = object.value(QLatin1String("size"));
    if (size.isDouble() && size.toDouble() >= 0 && size.toDouble() < 9e15)
        file->size = qint64(size.toDouble());
    else if (!size.isUndefined())
        return bad(QStringLiteral("size is not a number"));
    static const QRegularExpression sha1(QStringLiteral("^[0-9a-f]{40}\\z"));
    const QString blob = object.value(QLatin1String("blobId")).toString().toLower();
    if (sha1.match(blob).hasMatch())
        file->gitBlobId = blob.toLatin1();
    const QJsonValue lfs = object.value(QLatin1String("lfs"));
    if (lfs.isObject()) {
        static const QRegularExpression hex(QStringLiteral("^[0-9a-f]{64}\\z"));
        const QString sha = lfs.toObject().value(QLatin1String("sha256")).toString().toLower();
        if (!hex.match(sha).hasMatch())
            return bad(QStringLiteral("%1: the LFS SHA-256 is not 64 hex digits").arg(file->path));
        file->sha256 = sha.toLatin1();
        file->gitBlobId.clear();
        const QJsonValue lfsSize = lfs.toObject().value(QLatin1String("size"));
        if (lfsSize.isDouble() && lfsSize.toDouble() >= 0 && lfsSize.toDouble() < 9e15)
            file->size = qint64(lfsSize.toDouble());
    }
    return {};
}

} // namespace

const HubFile *HubRepoInfo::file(const QString &path) const
{
    for (const HubFile &f : files)
        if (f.path == path)
            return &f;
    return nullptr;
}

bool isValidRepoId(const QString &repo)
{
    static const QRegularExpression pattern(
        QStringLiteral("^(?:[A-Za-z0-9][A-Za-z0-9_.-]{0,94}[A-Za-z0-9_]?/)?"
                       "[A-Za-z0-9][A-Za-z0-9_.-]{0,94}[A-Za-z0-9_]?\\z"));
    return pattern.match(repo).hasMatch() && !repo.contains(QLatin1String("..")) &&
           !repo.contains(QLatin1String("--")) && !repo.contains(QLatin1String("-."));
}

bool isValidRevision(const QString &revision)
{
    if (revision.size() > 256 || revision.contains(QLatin1String("..")) ||
        revision.startsWith(QLatin1Char('/')))
        return false;
    for (const QChar c : revision)
        if (c.unicode() < 0x20 || c.unicode() == 0x7f || c == QLatin1Char('\\') || c.isSpace())
            return false;
    return true;
}

bool isSafeRepoPath(const QString &path)
{
    if (path.isEmpty() || path.size() > hublimits::kMaxStringBytes ||
        path.startsWith(QLatin1Char('/')) || path.contains(QLatin1Char('\\')))
        return false;
    for (const QChar c : path)
        if (c.unicode() < 0x20 || c.unicode() == 0x7f)
            return false;
    for (const QStringView part : QStringView(path).split(QLatin1Char('/')))
        if (part.isEmpty() || part == QLatin1String(".") || part == QLatin1String(".."))
            return false;
    return true;
}

HubResult<QList<HubModelSummary>> parseSearchResults(const QByteArray &json)
{
    HubResult<QList<HubModelSummary>> result;
    const HubResult<QJsonDocument> document = parseJson(json);
    if (!document.ok()) {
        result.error = document.error;
        return result;
    }
    if (!document.value.isArray()) {
        result.error = badResponse(QStringLiteral("a search answer is a list"));
        return result;
    }
    const QJsonArray hits = document.value.array();
    if (hits.size() > hublimits::kMaxSearchResults) {
        result.error = badResponse(QStringLiteral("%1 search results, more than %2")
                                       .arg(hits.size())
                                       .arg(hublimits::kMaxSearchResults));
        return result;
    }
    for (int i = 0; i < hits.size(); ++i) {
        const QJsonObject hit = hits.at(i).toObject();
        HubModelSummary model;
        bool ok = true;
        model.id = boundedString(hit, QLatin1String("id"), &ok);
        if (model.id.isEmpty())
            model.id = boundedString(hit, QLatin1String("modelId"), &ok);
        model.pipeline = boundedString(hit, QLatin1String("pipeline_tag"), &ok);
        model.libraryName = boundedString(hit, QLatin1String("library_name"), &ok);
        if (!ok || !isValidRepoId(model.id) ||
            !readTags(hit.value(QLatin1String("tags")), &model.licence, &model.languages)) {
            result.error = badResponse(QStringLiteral("search result %1 is malformed").arg(i));
            return result;
        }
        model.downloads = count(hit, QLatin1String("downloads"));
        model.likes = count(hit, QLatin1String("likes"));
        model.gated = gatedFlag(hit.value(QLatin1String("gated")));
        model.isPrivate = hit.value(QLatin1String("private")).toBool(false);
        result.value.append(model);
    }
    return result;
}

HubResult<HubRepoInfo> parseRepoInfo(const QByteArray &json)
{
    HubResult<HubRepoInfo> result;
    const HubResult<QJsonDocument> document = parseJson(json);
    if (!document.ok()) {
        result.error = document.error;
        return result;
    }
    const QJsonObject object = document.value.object();
    HubRepoInfo &info = result.value;
    bool ok = true;
    info.id = boundedString(object, QLatin1String("id"), &ok);
    info.commit = boundedString(object, QLatin1String("sha"), &ok);
    static const QRegularExpression commit(QStringLiteral("^[0-9a-f]{40}\\z"));
    if (!ok || !commit.match(info.commit).hasMatch()) {
        result.error = badResponse(QStringLiteral("no commit (\"sha\" of 40 hex digits)"));
        return result;
    }
    if (!readTags(object.value(QLatin1String("tags")), &info.licence, &info.languages)) {
        result.error = badResponse(QStringLiteral("the tags are malformed"));
        return result;
    }
    const QJsonObject card = object.value(QLatin1String("cardData")).toObject();
    if (card.value(QLatin1String("license")).isString())
        info.licence = card.value(QLatin1String("license")).toString().left(256);
    info.gated = gatedFlag(object.value(QLatin1String("gated")));
    const QJsonValue siblings = object.value(QLatin1String("siblings"));
    if (!siblings.isArray() || siblings.toArray().size() > hublimits::kMaxFiles) {
        result.error = badResponse(QStringLiteral("\"siblings\" is not a list of at most %1 files")
                                       .arg(hublimits::kMaxFiles));
        return result;
    }
    const QJsonArray files = siblings.toArray();
    for (int i = 0; i < files.size(); ++i) {
        HubFile file;
        if (const HubError error = readFile(files.at(i), i, &file); !error.ok()) {
            result.error = error;
            return result;
        }
        info.files.append(file);
    }
    return result;
}

HubResult<QList<HubFile>> marianFiles(const HubRepoInfo &repo)
{
    HubResult<QList<HubFile>> result;
    const auto take = [&](const QString &path, bool required) {
        if (const HubFile *file = repo.file(path)) {
            result.value.append(*file);
            return true;
        }
        if (required && result.error.ok())
            result.error = {HubErrorKind::NotAModel,
                            QStringLiteral("%1 is not a MarianMT model: it has no %2")
                                .arg(repo.id, path)};
        return false;
    };
    take(QStringLiteral("config.json"), true);
    take(QStringLiteral("generation_config.json"), false);
    take(QStringLiteral("tokenizer_config.json"), false);
    take(QStringLiteral("vocab.json"), true);
    take(QStringLiteral("target_vocab.json"), false);
    take(QStringLiteral("source.spm"), true);
    take(QStringLiteral("target.spm"), true);
    take(QStringLiteral("README.md"), false);
    // safetensors first: no pickle to read, and the importer maps it instead of unpacking it
    if (!take(QStringLiteral("model.safetensors"), false) && result.error.ok() &&
        !take(QStringLiteral("pytorch_model.bin"), false))
        result.error = {HubErrorKind::NotAModel,
                        QStringLiteral("%1 has no weights (model.safetensors or pytorch_model.bin)")
                            .arg(repo.id)};
    for (const HubFile &file : result.value)
        if (!isSafeRepoPath(file.path))
            result.error = {HubErrorKind::BadResponse,
                            QStringLiteral("unsafe file name in %1").arg(repo.id)};
    return result;
}

} // namespace glosa
