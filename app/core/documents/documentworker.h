// DocumentWorker: reads, translates and writes one document on its own thread, for the Documents
// view. The GUI thread posts requests and receives signals; it never waits on reading, inference
// or writing, and never touches the Document (which lives on the worker thread).
//
// Basic usage (GUI thread):
//     auto *worker = new DocumentWorker(this);
//     connect(worker, &DocumentWorker::opened, view, &View::showSource);
//     connect(worker, &DocumentWorker::translated, view, &View::showTranslations);
//     worker->setModel(info, context.modelLoader()); // loaded on the worker thread when needed
//     worker->open(path);                     // opened(...) or failed(message)
//     worker->translate(DocumentWorker::Quality::Fast); // progress, translated, finished(complete)
//     worker->cancel();                       // keeps the finished part: finished(false)
//     worker->exportTo(outPath);              // exported(path) or failed(message)
//
// Big .txt and .srt files are streamed (ChunkedTranslation, as glosa-cli translate-doc does):
// read once for the panes, then parsed, translated and written a chunk at a time (setChunkBytes,
// 1 MiB by default) into temporary files, so the worker holds one chunk, not the file; Export
// joins the finished chunks, the chunk in progress and the untouched rest. Other formats are held
// whole (a .docx or .odt is one zip).
//
// Why not InferenceWorker: both are WorkerThreads (platform/workerthread.h), but an
// InferenceWorker's queue is "latest wins", so a keystroke in the Translate view would cancel a
// document that has run for minutes. A document's thread runs its requests in order (an Export
// after a Translate waits for it, and is not dropped by it), with a model instance of its own
// (ModelLoader, modelloader.h, says why not the Translate view's), so both go on at once.
#pragma once

#include "app/core/documents/layout.h"
#include "app/core/models/modelcatalog.h"
#include "app/core/models/modelloader.h"
#include "app/core/platform/workerthread.h"

#include <QList>
#include <QMap>
#include <QObject>
#include <QString>
#include <QStringList>

#include <algorithm>
#include <atomic>
#include <functional>
#include <memory>

namespace glosa {
namespace documents {
class DocumentExecutor;

// A sentence of a paragraph and its translation, in UTF-16 offsets of the paragraph's source
// text and of its translation (QString positions, what the editors show).
// A source word the sentence's translation probably left out (documents::CoverageWarning), in
// UTF-16 offsets of the paragraph's source text.
struct OmissionMark
{
    int begin = 0;
    int end = 0;
    float mass = 0.0f;
    float threshold = 0.0f;
};

struct SentenceLink
{
    int sourceBegin = 0;
    int sourceEnd = 0;
    int targetBegin = 0;
    int targetEnd = 0;
    QList<OmissionMark> omissions;
};

// Post-editing: the user's own text for sentences of paragraphs, paragraph → sentence (its index
// in TranslatedParagraph::sentences) → text. A paragraph the user wrote before it had sentences
// (not translated yet) has one entry, kWholeParagraph.
using SentenceEdits = QMap<int, QMap<int, QString>>;
inline constexpr int kWholeParagraph = -1;

// How a paragraph of the open document is shown formatted: its place on the page and its
// styled stretches (TextStyle flags) in UTF-16 offsets of its text (documents/layout.h).
struct StyledRun
{
    int begin = 0;
    int end = 0;
    int styles = 0;
};

struct ParagraphLayout
{
    BlockRole role;
    QList<StyledRun> runs;
};

// A paragraph (segment) of the open document and its translation.
struct TranslatedParagraph
{
    int index = -1;
    QString text;
    QList<SentenceLink> sentences;
    // The source's styled runs (ParagraphLayout::runs) where projectSpans() carried them in
    // `text`: the bold, italic and links Export writes, in UTF-16 offsets of `text`.
    QList<StyledRun> runs;
};

class DocumentWorker : public QObject
{
    Q_OBJECT
public:
    // Fast: greedy search, what a long document wants; Best: the model's own defaults (beam).
    enum class Quality { Fast, Best };

    explicit DocumentWorker(QObject *parent = nullptr);
    ~DocumentWorker() override; // cancels (a PDF read too), stops the thread and waits for it

    // The model to translate with, loaded with `loader` on the worker thread when a translation
    // starts (kept for the next one, unless Settings ▸ Arithmetic changed).
    void setModel(const ModelInfo &info, const ModelLoader &loader);
    const ModelInfo &modelInfo() const { return m_info; }

    // Reads `path` (any supported format); emits opened, failed, or openCancelled after a
    // cancel(). Cancels a running translation and a read still under way.
    void open(const QString &path);
    // Translates the open document's untranslated paragraphs (again after a cancel: the rest).
    void translate(Quality quality = Quality::Fast);
    // Stops a translation at the next decoding step (the finished paragraphs keep their
    // translations and finished(false) follows), and a read (open) of a PDF within about 50 ms
    // (openCancelled follows). Called on the thread that owns the worker (the GUI thread).
    void cancel();
    // Writes the open document to `path`: its own format, .txt, or for a PDF .odt, .docx, .html.
    // `edits`: the user's own sentences (post-editing), written instead of the model's; the rest
    // of an edited paragraph keeps its markup, and the edited sentence's markup follows the words
    // the user kept or corrected (documents::replaceSentence). A whole-paragraph edit has no
    // words of the model to follow: that paragraph is written without its inline markup. Only
    // for documents that are not streamed (isStreamed()).
    void exportTo(const QString &path, const SentenceEdits &edits = {});
    // The open document is a big .txt/.srt read and written a chunk at a time (its finished
    // chunks are already written: they cannot take edits).
    bool isStreamed() const { return m_streamed; }

    // .txt and .srt are read, translated and exported this many bytes at a time (cut at blank
    // lines; default 1 MiB), from the next open() on.
    void setChunkBytes(qint64 bytes) { m_chunkBytes = std::max<qint64>(1, bytes); }

    bool isBusy() const { return m_thread.isBusy(); }
    QString path() const { return m_path; }
    // Formats exportTo accepts for the open document (suffixes without the dot), own one first.
    QStringList exportFormats() const { return m_exportFormats; }

signals:
    void busyChanged(bool busy);
    // The document is read: its format, each paragraph's text, in order, the file's text
    // encoding ("UTF-8", "windows-1252", ...; see documents/textencoding.h) and each paragraph's
    // layout (as many as paragraphs).
    void opened(const QString &path, const QString &format, const QStringList &paragraphs,
                const QString &encoding, const QList<glosa::documents::ParagraphLayout> &layouts);
    // Sentences done and in all, and the estimated milliseconds left (-1: not known yet).
    void progress(int done, int total, qint64 millisecondsLeft);
    // Paragraphs translated since the last report (after each batch).
    void translated(const QList<glosa::documents::TranslatedParagraph> &paragraphs);
    // The translation stopped: complete, or cancelled with the finished part kept.
    void finished(bool complete);
    // `encoding`: what the text was written in (the document's own, or UTF-8 when a character
    // does not fit in it).
    void exported(const QString &path, const QString &encoding);
    // One sentence for the user (unreadable document, model that cannot load, write error).
    void failed(const QString &message);
    // The read of `path` was stopped by cancel() (or by a later open()): nothing is open.
    void openCancelled(const QString &path);
    // Something the user should know about the document at `path` that is not a failure: a
    // streamed paragraph cut at the chunk limit (limits::kMaxChunkBytes). Comes before opened().
    void notice(const QString &path, const QString &message);

private:
    friend class DocumentExecutor;
    // Queues `job` for the executor, in order.
    void post(std::function<void(DocumentExecutor &, const std::atomic<bool> &cancelled)> job);

    ModelInfo m_info;
    ModelLoader m_loader;
    QString m_path;
    QStringList m_exportFormats;
    bool m_streamed = false; // of the document last opened
    qint64 m_chunkBytes = qint64(1) << 20;
    DocumentExecutor *m_executor = nullptr; // the document and the model, on m_thread
    // Last: destroyed first, so that the thread has stopped before the members above go.
    // Its cancel() sets the flag of every request posted so far: a translation reads it at every
    // decoding step and between chunks, a PDF read every 50 ms while the glosa-pdftext helper
    // runs; a request posted after a cancel has a flag of its own, so it is never taken for a
    // cancel of the next one.
    WorkerThread m_thread;
};

} // namespace documents
} // namespace glosa

Q_DECLARE_METATYPE(glosa::documents::TranslatedParagraph)
Q_DECLARE_METATYPE(glosa::documents::ParagraphLayout)
