// HistoryEntry: one translation, caption, comparison, document or evaluation as the history keeps it, plus the small
// value types the HistoryStore hands out (summaries, filters, pages).
//
// Basic usage:
//     glosa::HistoryEntry e;
//     e.kind = glosa::HistoryKind::Translation;
//     e.modelId = "transformer-en-es"; e.modelVersion = "1.0";
//     e.sourceLanguage = "en"; e.targetLanguage = "es";
//     e.settings = QJsonObject{{"search", "beam"}, {"beamSize", 4}};
//     e.inputText = "Good morning.";
//     e.outputs.append({.text = "Buenos días.", .score = -0.21, .alignment = attention});
//     store.addEntry(e);
//
// Everything here is plain data; nothing touches the database.
#pragma once

#include <QByteArray>
#include <QDateTime>
#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

class QImage;

namespace glosa {

// Document: a document translated in the Documents view (its paragraphs one per line; the
// settings name the file, see documentHistoryEntry). Evaluation: the scores of an Evaluate run
// or `glosa-cli evaluate`, one output per model (see evaluationHistoryEntry).
enum class HistoryKind { Translation, Caption, Comparison, Document, Evaluation };

// "translation", "caption", "comparison", "document", "evaluation": the names used in the
// database, exports and the CLI.
QString historyKindName(HistoryKind kind);
std::optional<HistoryKind> historyKindFromName(const QString &name);

// A target×source attention matrix, kept as float16 in the database (half the size of fp32; the
// GUI only paints it, so 3 significant digits are plenty).
struct HistoryAlignment
{
    int rows = 0;             // target tokens
    int cols = 0;             // source tokens
    QList<float> weights;     // [rows, cols], row-major; empty when there is no alignment
    QStringList sourceTokens; // optional labels for the columns (cols entries when present)
    QStringList targetTokens; // optional labels for the rows (rows entries when present)
    // Sparse rows, for the block-diagonal alignments of texts of several sentences (a sentence
    // attends only to its own source tokens; 5,000 words are ~7,000 × 7,000 cells, 98 MB as
    // float16, of which ~1% are not 0): row r holds rowLengths[r] weights from column
    // rowStarts[r] on, the rows one after another in `weights`; the rest of a row is 0. Both
    // empty: `weights` is the dense [rows, cols] matrix.
    QList<int> rowStarts;
    QList<int> rowLengths;

    bool isEmpty() const { return weights.isEmpty(); }
    bool isSparse() const { return !rowStarts.isEmpty(); }
    // The dense [rows, cols] matrix, from either form.
    QList<float> denseWeights() const;
    // Keeps each row from its first to its last non-zero weight when that is under half the
    // cells. The weights are not changed, so the matrix reads back exactly as it was.
    void sparsify();
    // The same from a dense [rows, cols] array (rows and cols set), without copying it whole.
    void setWeightsFromDense(const float *dense);
    // Throws std::invalid_argument when the weights do not fill the matrix (dense: rows * cols;
    // sparse: the rows' lengths, each inside the columns) or a label list has the wrong length.
    void validate() const;
    // The `weights` as little-endian IEEE float16 values (glosa::engine::floatToHalf).
    QByteArray toHalfBlob() const;
    // Throws std::invalid_argument when blob.size() != rows * cols * 2.
    static QList<float> weightsFromHalfBlob(int rows, int cols, const QByteArray &blob);
    // Sparse rows as stored: rows × (int32 first column, int32 count), little-endian; and back
    // (throws std::invalid_argument when the blob is not rows * 8 bytes).
    QByteArray rowSpansBlob() const;
    void setRowSpansFromBlob(const QByteArray &blob);
    // `count` float16 values (throws std::invalid_argument when the blob is not count * 2 bytes).
    static QList<float> floatsFromHalfBlob(qsizetype count, const QByteArray &blob);
};

struct HistoryOutput
{
    int column = 0; // comparison column (0 for translations and captions)
    int rank = 0;   // position in the n-best list of its column, 0 = best
    QString label;  // what the column shows for comparisons ("beam 4", a model id); may be empty
    QString text;
    std::optional<double> score; // log-probability or normalised score, as the decoder gave it
    HistoryAlignment alignment;
};

struct HistoryEntry
{
    qint64 id = 0; // assigned by HistoryStore::addEntry; 0 before
    HistoryKind kind = HistoryKind::Translation;
    QDateTime time; // when it ran; invalid = "now" when added; stored in UTC, ms precision
    QString modelId;
    QString modelVersion;
    QString sourceLanguage; // BCP 47 ("en"); used by the TMX export
    QString targetLanguage;
    QJsonObject settings;         // every decoding setting, as the decoder options serialise them
    QString inputText;            // the text translated; for captions it may stay empty
    QString imagePath;            // captions: the image as the user chose it
    QString imageHash;            // captions: hex SHA-256 of the image file's bytes
    QByteArray thumbnailPng;      // captions: a small PNG (see makeThumbnail)
    QList<HistoryOutput> outputs; // all columns, all n-best ranks
    // Translations and documents: the user's own version of the best output (edited in the
    // Translate or Documents view), kept next to the model's; empty when it was not edited.
    QString editedText;
    double elapsedMs = 0;
    bool starred = false;

    // The best output of a column (rank 0), or nullptr.
    const HistoryOutput *bestOutput(int column = 0) const;
    // Fills imagePath, imageHash (SHA-256 of the file) and thumbnailPng from an image file.
    // Returns false (and leaves the fields empty) when the file cannot be read or decoded.
    bool setImageFromFile(const QString &path, int thumbnailSide = 96);
    // A PNG no larger than side×side pixels, aspect ratio kept; empty for a null image.
    static QByteArray makeThumbnail(const QImage &image, int side = 96);

    // Everything as JSON (the JSON Lines export). Blobs: thumbnail as base64, alignment weights
    // as numbers rounded to float16 precision.
    QJsonObject toJson() const;
};

// What a list or search shows per entry: no blobs, previews only.
struct HistorySummary
{
    qint64 id = 0;
    HistoryKind kind = HistoryKind::Translation;
    QDateTime time;
    QString modelId;
    QString modelVersion;
    QString inputPreview;  // first 200 characters of the input
    QString outputPreview; // first 200 characters of the best output of column 0
    QString snippet;       // search only: matching text with the hits wrapped in markers
    // Search only: the input's and the outputs' own snippets, each empty when that side has no
    // hit (so that a view shows a hit in the output on the output's line).
    QString inputSnippet;
    QString outputSnippet;
    bool starred = false;
    bool hasImage = false;
    double elapsedMs = 0;
};

// Every field left at its default does not filter.
struct HistoryFilter
{
    std::optional<HistoryKind> kind;
    QString modelId; // exact match
    QDateTime from;  // inclusive; invalid = unbounded
    QDateTime to;    // exclusive; invalid = unbounded
    bool starredOnly = false;
};

// An entry whose rows cannot be read: they lie on a damaged page of the file.
struct HistoryDamage
{
    qint64 id = 0;
    QString error; // SQLite's own message and result code, for the user to report
};

struct HistoryPage
{
    QList<HistorySummary> items;
    bool hasMore = false; // another page exists after this one
    // Only in a file with damaged pages: the entries met while reading this page that could not
    // be read, in the page's order. Their kind, model and star cannot be read either, so they are
    // listed whatever the filter; a damaged entry between two pages may be listed with both.
    QList<HistoryDamage> damaged;
};

// Retention is applied on insert (when HistoryStore::Options::retention is set) or on demand
// (HistoryStore::applyRetention). Starred entries are never removed by retention.
struct HistoryRetention
{
    // Keep at most this many entries (0 = no limit). Starred entries count towards the limit but
    // are never removed, so more may remain when more than maxEntries are starred.
    qint64 maxEntries = 0;
    int maxAgeDays = 0; // remove unstarred entries older than this (0 = no limit)
    // Remove the oldest unstarred entries while the database's pages in use hold more than this
    // many bytes (0 = no limit). Freed pages are reused, so the file stays about this size.
    qint64 maxBytes = 0;

    bool isActive() const { return maxEntries > 0 || maxAgeDays > 0 || maxBytes > 0; }
};

} // namespace glosa
