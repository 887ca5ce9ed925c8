// DocumentTranslator: translates a Document's segments through an engine::Translator, in batches
// of segments of similar length, with progress, time left and cancellation that keeps what is
// done. A QObject so that its callers connect to its signals; glosa-cli translate-doc and the
// Documents view drive it a chunk at a time through ChunkedTranslation (chunkedtranslation.h).
//
// Basic usage:
//     engine::Translator translator(model);
//     DocumentTranslator documents(translator);
//     QObject::connect(&documents, &DocumentTranslator::progress, ...);
//     Document doc = readDocument(path);
//     bool complete = documents.translate(doc, options); // false: cancelled part-way
//     writeDocument(doc, out);  // untranslated segments (after a cancel) stay in the source
//
// Segments are taken in document order, a window at a time (windowSize()), and sorted by length
// inside the window so that each batch pads little; a cancel therefore leaves the document
// translated up to about the current window. Each segment's translation carries the alignment
// links (target piece → most attended source piece) that place its inline markup.
#pragma once

#include "app/core/documents/document.h"
#include "engine/decoding/decodingoptions.h"

#include <QObject>

#include <atomic>
#include <vector>

namespace glosa::engine {
class Translator;
}

namespace glosa::documents {

class DocumentTranslator : public QObject
{
    Q_OBJECT

public:
    explicit DocumentTranslator(engine::Translator &translator, QObject *parent = nullptr);

    // Segments read ahead and sorted by length (default 512); 1 keeps the document order.
    int windowSize() const { return m_windowSize; }
    void setWindowSize(int size);

    // What progress() counts for each segment: its ICU sentences for the model's source language
    // (at least one).
    std::vector<int> sentenceCounts(const Document &document) const;

    // Translates every segment without a translation. Returns false when cancel() or `cancelled`
    // stopped it (the finished segments keep their translations). Engine errors propagate
    // (std::exception). `cancelled` is a flag its owner keeps and clears: one set before the call
    // stops it too, where cancel()'s own flag is cleared by every call (a chunked translation,
    // glosa-cli's Ctrl+C, must not forget a cancel that came between two chunks).
    bool translate(Document &document, const engine::DecodingOptions &options,
                   const std::atomic<bool> *cancelled = nullptr);

    // Thread-safe: stops at the next decoding step.
    void cancel() { m_cancelled = true; }

signals:
    // Before the first batch and after every batch: sentences of the document translated so far
    // and in all (ICU sentences of the model's source language, at least one per segment), and
    // the estimated milliseconds left (-1 before the first batch).
    void progress(int done, int total, qint64 millisecondsLeft);
    // Segment `index` of the document has its translation.
    void segmentTranslated(int index);

private:
    engine::Translator &m_translator;
    int m_windowSize = 512;
    std::atomic<bool> m_cancelled = false;
};

} // namespace glosa::documents
