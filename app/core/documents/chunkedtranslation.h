// ChunkedTranslation: one document file translated a chunk at a time, the pipeline that
// `glosa-cli translate-doc` and the Documents view (DocumentWorker) share: opening the source,
// iterating its chunks, translating each with a DocumentTranslator, progress over the whole
// file, cancellation, and handing finished chunks to a ChunkSink.
//
// Basic usage:
//     ChunkedTranslation source(path, chunkBytes);  // DocumentError: cannot be read
//     SaveFile file(out);                           // app/core/platform/savefile.h
//     file.open(QIODevice::WriteOnly);
//     ChunkWriter writer(file, /*plainText=*/false);
//     std::atomic<bool> cancelled = false;          // set from anywhere to stop
//     if (!source.translate(documents, options, writer, cancelled))
//         source.writeUnfinished(writer);           // the rest as in the source
//     file.commit();                                // false: the old file is kept
//
// A .txt or .srt in UTF-8 (isStreamable()) is streamed: read chunkBytes at a time, cut at blank
// lines (readChunk), each chunk parsed when it is translated or written and dropped once it has
// gone to the sink, so memory holds a chunk, not the file. Anything else (the other formats, and
// other encodings, which are converted whole) is read whole as one chunk; its caller writes
// document() with writeDocument() (which converts the encoding back, or writes a PDF as .odt).
#pragma once

#include "app/core/documents/document.h"
#include "engine/decoding/decodingoptions.h"

#include <QFile>
#include <QObject>

#include <atomic>
#include <functional>
#include <optional>
#include <vector>

namespace glosa::documents {

class DocumentTranslator;

// Progress over the whole file, reported as each chunk starts and after each of its batches.
struct ChunkProgress
{
    qint64 sentencesDone = 0; // in the whole document, the finished chunks included
    // -1 until every chunk has been counted (countSentences(), or the last chunk reached).
    qint64 sentencesTotal = -1;
    // Streamed: source bytes done (the chunk in progress in proportion to its sentences) and the
    // file's size; 0 for a whole document.
    qint64 bytesDone = 0;
    qint64 bytesTotal = 0;
    // Estimated, -1 when not known yet. Streamed: from the bytes done since translate() started
    // (over several chunks the rate so far says more than a chunk's own estimate).
    qint64 millisecondsLeft = -1;
    bool last = false; // the whole document is translated
};

// The file behind `device` for messages ("the output" when it has no name).
QString deviceName(const QIODevice &device);

// Where the chunks of a streamed document go as they are finished, in order.
class ChunkSink
{
public:
    virtual ~ChunkSink() = default;
    // A chunk: translated, or (writeUnfinished) partly or not at all. A chunk without segments is
    // white space (after the last paragraph, or blank lines longer than a chunk).
    virtual void write(const Document &chunk) = 0;
};

// Chunks written one after another into `device` as one document: each rendered in the source's
// format, or (plainText) as its paragraphs separated by blank lines, across chunks too.
class ChunkWriter final : public ChunkSink
{
public:
    ChunkWriter(QIODevice &device, bool plainText) : m_device(device), m_plainText(plainText) {}
    bool isPlainText() const { return m_plainText; }
    void write(const Document &chunk) override;
    // Source bytes written as they are: what an untranslated part is in the source's own format.
    void writeSource(const QByteArray &bytes);

private:
    void put(const QByteArray &bytes); // DocumentError when not every byte was written

    QIODevice &m_device;
    bool m_plainText;
};

class ChunkedTranslation : public QObject
{
    Q_OBJECT

public:
    // Opens `path` and reads its first chunk (or the whole document), so that a broken file is
    // reported before a model loads; throws DocumentError. `notice` is told (one sentence naming
    // the file and the byte) when a chunk is cut inside a paragraph longer than
    // limits::kMaxChunkBytes. `cancelled` (its owner's flag, may be null) stops a read that can
    // take long (a PDF's, readDocument): DocumentCancelled is thrown.
    ChunkedTranslation(const QString &path, qint64 chunkBytes,
                       std::function<void(const QString &)> notice = {},
                       const std::atomic<bool> *cancelled = nullptr, QObject *parent = nullptr);
    ~ChunkedTranslation() override;

    const QString &path() const { return m_path; }
    const QString &format() const { return m_format; }
    bool isStreamed() const { return m_streamed; }
    // The file's text encoding (textencoding.h): the document's own, "UTF-8" when streamed.
    QString encoding() const;
    // A whole document (not streamed), translated as far as translate() got.
    const Document &document() const;
    // Before translate(): the text of the first chunk's segments (the whole document's when not
    // streamed), one a line, up to about `maxChars`: what the language guard reads.
    QString leadingText(qsizetype maxChars) const;

    // Reads every chunk and calls `visit` with each, in order: what a viewer shows before the
    // translation starts. The chunks are read again from the file when translated or written.
    void scan(const std::function<void(const Document &chunk)> &visit);
    // The sentences of the whole document as `translator` counts them (reading every chunk not
    // counted yet), so that progress has a total from the start. forgetSentenceCounts() before
    // counting for another model: its source language may split sentences otherwise.
    qint64 countSentences(const DocumentTranslator &translator);
    void forgetSentenceCounts();

    // Translates from where the last call stopped and hands every finished chunk to `sink`
    // (streamed only). Returns false when `cancelled` stopped it: at the next decoding step,
    // and in any case before another chunk starts (a chunk finished meanwhile still goes to the
    // sink); the chunk in progress keeps its finished paragraphs for the next call or
    // writeUnfinished(). DocumentError and engine errors propagate.
    bool translate(DocumentTranslator &translator, const engine::DecodingOptions &options,
                   ChunkSink &sink, const std::atomic<bool> &cancelled);
    // Segments translated so far, in every chunk.
    std::size_t translatedCount() const;

    // Streamed: writes what has not gone to a sink, the chunk in progress (its finished
    // paragraphs translated) and the chunks after it as in the source, so that `writer` ends up
    // with the whole document.
    void writeUnfinished(ChunkWriter &writer);

signals:
    void progress(const glosa::documents::ChunkProgress &progress);
    // Segment `segment` of `chunk` has its translation: paragraph `paragraph` of the document
    // (the segments of every chunk counted in order).
    void segmentTranslated(const glosa::documents::Document &chunk, int segment, int paragraph);

private:
    struct Chunk
    {
        qint64 begin = 0; // bytes of the file (streamed)
        qint64 end = 0;
        int firstParagraph = 0;
        int paragraphs = 0;
        int sentences = -1; // not counted yet
    };

    // Whether every chunk is in m_chunks (always, for a whole document).
    bool allRead() const;
    bool hasChunk(std::size_t c) const { return c < m_chunks.size() || !allRead(); }
    // Chunk `c` read from the file and parsed; the next one unread when c == m_chunks.size().
    Document loadChunk(std::size_t c);
    qint64 sentencesBefore(std::size_t c) const;
    qint64 sentencesInAll() const; // -1 unless every chunk is counted

    QString m_path;
    QString m_format;
    qint64 m_chunkBytes;
    std::function<void(const QString &)> m_notice;
    bool m_streamed = false;
    QFile m_file; // streamed
    qint64 m_size = 0;
    std::vector<Chunk> m_chunks; // read so far
    std::size_t m_next = 0;      // streamed: the chunks before it have gone to a sink
    // The whole document, or (streamed) chunk m_next once read: not translated, or partly.
    std::optional<Document> m_current;
    std::size_t m_translatedBefore = 0; // segments of the chunks before m_next
};

} // namespace glosa::documents
