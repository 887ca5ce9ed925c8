#include "app/core/history/entry.h"

#include "engine/tensor.h"

#include <QBuffer>
#include <QCryptographicHash>
#include <QFile>
#include <QImage>
#include <QJsonArray>
#include <QtEndian>

#include <stdexcept>
#include <string>

namespace glosa {

QString historyKindName(HistoryKind kind)
{
    switch (kind) {
    case HistoryKind::Translation:
        return QStringLiteral("translation");
    case HistoryKind::Caption:
        return QStringLiteral("caption");
    case HistoryKind::Comparison:
        return QStringLiteral("comparison");
    case HistoryKind::Document:
        return QStringLiteral("document");
    case HistoryKind::Evaluation:
        return QStringLiteral("evaluation");
    }
    return QString();
}

std::optional<HistoryKind> historyKindFromName(const QString &name)
{
    for (HistoryKind kind : {HistoryKind::Translation, HistoryKind::Caption,
                             HistoryKind::Comparison, HistoryKind::Document,
                             HistoryKind::Evaluation}) {
        if (name == historyKindName(kind))
            return kind;
    }
    return std::nullopt;
}

void HistoryAlignment::validate() const
{
    if (isSparse() || !rowLengths.isEmpty()) {
        if (rowStarts.size() != rows || rowLengths.size() != rows)
            throw std::invalid_argument("HistoryAlignment: " + std::to_string(rowStarts.size()) +
                                        " row starts and " + std::to_string(rowLengths.size()) +
                                        " row lengths for " + std::to_string(rows) + " rows");
        qint64 total = 0;
        for (int r = 0; r < rows; ++r) {
            if (rowStarts[r] < 0 || rowLengths[r] < 0 ||
                rowStarts[r] + qint64(rowLengths[r]) > cols)
                throw std::invalid_argument("HistoryAlignment: row " + std::to_string(r) +
                                            " spans columns " + std::to_string(rowStarts[r]) +
                                            " + " + std::to_string(rowLengths[r]) + " of " +
                                            std::to_string(cols));
            total += rowLengths[r];
        }
        if (total != weights.size())
            throw std::invalid_argument("HistoryAlignment: " + std::to_string(weights.size()) +
                                        " weights for rows of " + std::to_string(total));
    } else if (rows < 0 || cols < 0 || qint64(weights.size()) != qint64(rows) * cols) {
        throw std::invalid_argument("HistoryAlignment: " + std::to_string(weights.size()) +
                                    " weights do not fill a [" + std::to_string(rows) + ", " +
                                    std::to_string(cols) + "] matrix");
    }
    if (!sourceTokens.isEmpty() && sourceTokens.size() != cols) {
        throw std::invalid_argument("HistoryAlignment: " + std::to_string(sourceTokens.size()) +
                                    " source tokens for " + std::to_string(cols) + " columns");
    }
    if (!targetTokens.isEmpty() && targetTokens.size() != rows) {
        throw std::invalid_argument("HistoryAlignment: " + std::to_string(targetTokens.size()) +
                                    " target tokens for " + std::to_string(rows) + " rows");
    }
}

QList<float> HistoryAlignment::denseWeights() const
{
    if (!isSparse())
        return weights;
    QList<float> dense(qsizetype(rows) * cols, 0.0f);
    qsizetype next = 0;
    for (int r = 0; r < rows && r < rowStarts.size(); ++r)
        for (int k = 0; k < rowLengths.value(r); ++k)
            dense[qsizetype(r) * cols + rowStarts[r] + k] = weights.value(next++);
    return dense;
}

void HistoryAlignment::sparsify()
{
    if (isSparse() || weights.size() != qsizetype(rows) * cols || rows == 0)
        return;
    const QList<float> dense = std::move(weights);
    setWeightsFromDense(dense.constData());
}

void HistoryAlignment::setWeightsFromDense(const float *dense)
{
    weights.clear();
    rowStarts.clear();
    rowLengths.clear();
    QList<int> starts, lengths;
    qsizetype kept = 0;
    for (int r = 0; r < rows; ++r) {
        const float *row = dense + qsizetype(r) * cols;
        int first = 0, last = cols;
        while (first < cols && row[first] == 0.0f)
            ++first;
        while (last > first && row[last - 1] == 0.0f)
            --last;
        starts << (first < last ? first : 0);
        lengths << last - first;
        kept += last - first;
    }
    if (kept * 2 >= qsizetype(rows) * cols) { // dense is as small, and simpler
        weights = QList<float>(dense, dense + qsizetype(rows) * cols);
        return;
    }
    weights.reserve(kept);
    for (int r = 0; r < rows; ++r) {
        const float *row = dense + qsizetype(r) * cols + starts[r];
        weights.append(QList<float>(row, row + lengths[r]));
    }
    rowStarts = std::move(starts);
    rowLengths = std::move(lengths);
}

QByteArray HistoryAlignment::toHalfBlob() const
{
    validate();
    QByteArray blob(weights.size() * 2, Qt::Uninitialized);
    auto *out = reinterpret_cast<unsigned char *>(blob.data());
    for (qsizetype i = 0; i < weights.size(); ++i) {
        const std::uint16_t h = engine::floatToHalf(weights[i]);
        out[2 * i] = static_cast<unsigned char>(h & 0xffu); // little-endian on every host
        out[2 * i + 1] = static_cast<unsigned char>(h >> 8);
    }
    return blob;
}

QList<float> HistoryAlignment::weightsFromHalfBlob(int rows, int cols, const QByteArray &blob)
{
    if (rows < 0 || cols < 0 || qint64(blob.size()) != qint64(rows) * cols * 2) {
        throw std::invalid_argument("HistoryAlignment: a blob of " + std::to_string(blob.size()) +
                                    " bytes is not a float16 [" + std::to_string(rows) + ", " +
                                    std::to_string(cols) + "] matrix");
    }
    return floatsFromHalfBlob(qsizetype(rows) * cols, blob);
}

QList<float> HistoryAlignment::floatsFromHalfBlob(qsizetype count, const QByteArray &blob)
{
    if (count < 0 || qint64(blob.size()) != qint64(count) * 2)
        throw std::invalid_argument("HistoryAlignment: a blob of " + std::to_string(blob.size()) +
                                    " bytes does not hold " + std::to_string(count) +
                                    " float16 values");
    QList<float> weights(count);
    const auto *in = reinterpret_cast<const unsigned char *>(blob.constData());
    for (qsizetype i = 0; i < weights.size(); ++i)
        weights[i] = engine::halfToFloat(std::uint16_t(in[2 * i] | (in[2 * i + 1] << 8)));
    return weights;
}

QByteArray HistoryAlignment::rowSpansBlob() const
{
    QByteArray blob;
    blob.reserve(rowStarts.size() * 8);
    for (qsizetype r = 0; r < rowStarts.size(); ++r)
        for (const qint32 v : {qint32(rowStarts[r]), qint32(rowLengths.value(r))}) {
            char bytes[4];
            qToLittleEndian(v, bytes);
            blob.append(bytes, 4);
        }
    return blob;
}

void HistoryAlignment::setRowSpansFromBlob(const QByteArray &blob)
{
    if (rows < 0 || qint64(blob.size()) != qint64(rows) * 8)
        throw std::invalid_argument("HistoryAlignment: a blob of " + std::to_string(blob.size()) +
                                    " bytes does not hold the spans of " + std::to_string(rows) +
                                    " rows");
    rowStarts.clear();
    rowLengths.clear();
    for (int r = 0; r < rows; ++r) {
        rowStarts << qFromLittleEndian<qint32>(blob.constData() + 8 * r);
        rowLengths << qFromLittleEndian<qint32>(blob.constData() + 8 * r + 4);
    }
}

const HistoryOutput *HistoryEntry::bestOutput(int column) const
{
    const HistoryOutput *best = nullptr;
    for (const HistoryOutput &o : outputs) {
        if (o.column == column && (best == nullptr || o.rank < best->rank))
            best = &o;
    }
    return best;
}

QByteArray HistoryEntry::makeThumbnail(const QImage &image, int side)
{
    if (image.isNull() || side <= 0)
        return QByteArray();
    const QImage small =
        (image.width() > side || image.height() > side)
            ? image.scaled(side, side, Qt::KeepAspectRatio, Qt::SmoothTransformation)
            : image;
    QByteArray png;
    QBuffer buffer(&png);
    buffer.open(QIODevice::WriteOnly);
    small.save(&buffer, "PNG");
    return png;
}

bool HistoryEntry::setImageFromFile(const QString &path, int thumbnailSide)
{
    imagePath.clear();
    imageHash.clear();
    thumbnailPng.clear();
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return false;
    const QByteArray bytes = file.readAll();
    QImage image;
    if (!image.loadFromData(bytes))
        return false;
    imagePath = path;
    imageHash =
        QString::fromLatin1(QCryptographicHash::hash(bytes, QCryptographicHash::Sha256).toHex());
    thumbnailPng = makeThumbnail(image, thumbnailSide);
    return true;
}

namespace {

QJsonObject alignmentToJson(const HistoryAlignment &a)
{
    QJsonArray weights;
    // Round-trip through float16 so the export shows exactly what the database holds.
    const QList<float> stored =
        HistoryAlignment::floatsFromHalfBlob(a.weights.size(), a.toHalfBlob());
    for (float w : stored)
        weights.append(double(w));
    QJsonObject o{{QStringLiteral("rows"), a.rows},
                  {QStringLiteral("cols"), a.cols},
                  {QStringLiteral("weights"), weights}};
    if (a.isSparse()) { // the weights are the rows' spans, one after another
        QJsonArray starts, lengths;
        for (int v : a.rowStarts)
            starts.append(v);
        for (int v : a.rowLengths)
            lengths.append(v);
        o.insert(QStringLiteral("rowStarts"), starts);
        o.insert(QStringLiteral("rowLengths"), lengths);
    }
    if (!a.sourceTokens.isEmpty())
        o.insert(QStringLiteral("sourceTokens"), QJsonArray::fromStringList(a.sourceTokens));
    if (!a.targetTokens.isEmpty())
        o.insert(QStringLiteral("targetTokens"), QJsonArray::fromStringList(a.targetTokens));
    return o;
}

} // namespace

QJsonObject HistoryEntry::toJson() const
{
    QJsonArray outs;
    for (const HistoryOutput &o : outputs) {
        QJsonObject j{{QStringLiteral("column"), o.column},
                      {QStringLiteral("rank"), o.rank},
                      {QStringLiteral("text"), o.text}};
        if (!o.label.isEmpty())
            j.insert(QStringLiteral("label"), o.label);
        if (o.score)
            j.insert(QStringLiteral("score"), *o.score);
        if (!o.alignment.isEmpty())
            j.insert(QStringLiteral("alignment"), alignmentToJson(o.alignment));
        outs.append(j);
    }
    QJsonObject j{{QStringLiteral("id"), id},
                  {QStringLiteral("kind"), historyKindName(kind)},
                  {QStringLiteral("time"), time.toUTC().toString(Qt::ISODateWithMs)},
                  {QStringLiteral("modelId"), modelId},
                  {QStringLiteral("modelVersion"), modelVersion},
                  {QStringLiteral("sourceLanguage"), sourceLanguage},
                  {QStringLiteral("targetLanguage"), targetLanguage},
                  {QStringLiteral("settings"), settings},
                  {QStringLiteral("input"), inputText},
                  {QStringLiteral("outputs"), outs},
                  {QStringLiteral("elapsedMs"), elapsedMs},
                  {QStringLiteral("starred"), starred}};
    if (!imagePath.isEmpty() || !imageHash.isEmpty()) {
        j.insert(QStringLiteral("image"),
                 QJsonObject{{QStringLiteral("path"), imagePath},
                             {QStringLiteral("sha256"), imageHash},
                             {QStringLiteral("thumbnailPng"),
                              QString::fromLatin1(thumbnailPng.toBase64())}});
    }
    if (!editedText.isEmpty())
        j.insert(QStringLiteral("editedText"), editedText);
    return j;
}

} // namespace glosa
