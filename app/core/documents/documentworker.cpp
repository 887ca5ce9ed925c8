#include "app/core/documents/documentworker.h"

#include "app/core/documents/documenttranslator.h"
#include "app/core/documents/formats.h"
#include "app/core/documents/textencoding.h"
#include "app/core/pluginregistry.h"
#include "engine/translation/translationmodel.h"
#include "engine/translation/translator.h"

#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QMutex>
#include <QMutexLocker>
#include <QSaveFile>
#include <QTemporaryFile>
#include <QThread>

#include <exception>
#include <functional>
#include <memory>
#include <numeric>
#include <optional>

namespace glosa::documents {

namespace {

// UTF-16 length of the first `bytes` bytes of UTF-8 `text` (a range's edge in QString terms).
int utf16Offset(const QByteArray &text, qsizetype bytes)
{
    return int(
        QString::fromUtf8(text.constData(), std::clamp<qsizetype>(bytes, 0, text.size())).size());
}

// The paragraph as it will be written: with the protected text (URLs, e-mail addresses,
// numbers) put back where the model changed it.
TranslatedParagraph paragraphOf(const Document &document, int index)
{
    const Segment &segment = document.segments[std::size_t(index)];
    SegmentTranslation written = *segment.translation;
    projectSpans(segment, written);
    TranslatedParagraph paragraph;
    paragraph.index = index;
    paragraph.text = QString::fromUtf8(written.text);
    for (const SentencePair &pair : written.sentences)
        paragraph.sentences.append({utf16Offset(segment.text, pair.source.begin),
                                    utf16Offset(segment.text, pair.source.end),
                                    utf16Offset(written.text, pair.target.begin),
                                    utf16Offset(written.text, pair.target.end)});
    return paragraph;
}

} // namespace

// Lives on the worker thread and owns everything the jobs touch: the document, the model and
// the translator. Results go back to the GUI thread through queued calls on the owner, so a
// receiver connected without a context object still runs on the GUI thread.
class DocumentExecutor : public QObject
{
public:
    explicit DocumentExecutor(DocumentWorker *owner) : m_owner(owner) {}

    template <typename F> void deliver(F emitter)
    {
        QMetaObject::invokeMethod(
            m_owner, [owner = m_owner, emitter = std::move(emitter)] { emitter(owner); },
            Qt::QueuedConnection);
    }

    void fail(const QString &message)
    {
        deliver([message](DocumentWorker *w) { emit w->failed(message); });
    }

    void open(const QString &path, qint64 chunkSize)
    {
        m_document.reset();
        m_chunks.clear();
        m_next = 0;
        m_finished.reset();
        m_finishedText.reset();
        m_path = path;
        m_format = formatForPath(path);
        try {
            QStringList paragraphs;
            auto collect = [&](const Document &document) {
                for (const Segment &segment : document.segments)
                    paragraphs << QString::fromUtf8(segment.text);
            };
            // Only UTF-8 is cut into chunks: other encodings are converted whole.
            m_streamed =
                isStreamable(m_format) && detectFileEncoding(path) == QLatin1String("UTF-8");
            QString encoding = QStringLiteral("UTF-8");
            if (!m_streamed) {
                Document document = readDocument(path);
                encoding = document.encoding;
                collect(document);
                m_chunks.push_back({0, 0, 0, int(document.segments.size())});
                m_document = std::move(document);
            } else {
                // Big files: read once for the panes and the chunk boundaries; each chunk is
                // parsed again when it is translated or exported, so memory is bounded by a
                // chunk, not the file.
                m_file = std::make_unique<QFile>(path);
                if (!m_file->open(QIODevice::ReadOnly))
                    throw DocumentError(
                        QStringLiteral("cannot open %1: %2").arg(path, m_file->errorString()));
                while (m_chunks.empty() || !m_file->atEnd()) {
                    const qint64 begin = m_file->pos();
                    const QByteArray bytes = readChunk(*m_file, chunkSize);
                    Chunk chunk{begin, m_file->pos(), int(paragraphs.size()), 0};
                    // White space after the last paragraph: copied as it is.
                    if (m_chunks.empty() || !bytes.trimmed().isEmpty()) {
                        const Document document = parseDocument(bytes, m_format, path);
                        collect(document);
                        chunk.paragraphs = int(document.segments.size());
                    }
                    m_chunks.push_back(chunk);
                }
            }
            const QString format = m_format;
            deliver([path, format, paragraphs, encoding, streamed = m_streamed](DocumentWorker *w) {
                w->m_streamed = streamed;
                emit w->opened(path, format, paragraphs, encoding);
            });
        } catch (const DocumentError &error) {
            m_chunks.clear();
            fail(error.message());
        } catch (const std::exception &error) {
            m_chunks.clear();
            fail(QStringLiteral("%1: %2").arg(path, QString::fromUtf8(error.what())));
        }
    }

    void translate(const ModelInfo &info, const std::shared_ptr<const PluginRegistry> &plugins,
                   DocumentWorker::Quality quality)
    {
        if (m_chunks.empty()) {
            fail(DocumentWorker::tr("Open a document first."));
            deliver([](DocumentWorker *w) { emit w->finished(false); });
            return;
        }
        try {
            if (!m_translator || m_modelId != info.id) {
                m_translator.reset();
                QString error;
                if (!plugins)
                    throw std::runtime_error("no model is chosen");
                auto model = std::dynamic_pointer_cast<engine::TranslationModel>(
                    ModelCatalog::load(info, *plugins, &error));
                if (!model) {
                    fail(error.isEmpty() ? DocumentWorker::tr("%1 cannot translate.").arg(info.name)
                                         : error);
                    deliver([](DocumentWorker *w) { emit w->finished(false); });
                    return;
                }
                m_translator = std::make_unique<engine::Translator>(model);
                // Bigger batches than the interactive default: throughput over latency.
                m_translator->setBatchSize(32);
                m_modelId = info.id;
                for (Chunk &chunk : m_chunks)
                    chunk.sentences = -1; // another model may split sentences differently
            }
            engine::DecodingOptions options;
            if (quality == DocumentWorker::Quality::Best)
                options = m_translator->model().defaultDecodingOptions();
            options.nBest = 1;
            DocumentTranslator documents(*m_translator);
            // Sentences of every chunk, for "done / total" over the whole file.
            int total = 0;
            for (std::size_t c = 0; c < m_chunks.size(); ++c) {
                if (m_chunks[c].sentences < 0) {
                    const std::vector<int> counts = documents.sentenceCounts(chunkDocument(c));
                    m_chunks[c].sentences = std::accumulate(counts.begin(), counts.end(), 0);
                }
                total += m_chunks[c].sentences;
            }
            m_scratch = Document();
            setRunning(&documents);
            bool complete = true;
            try {
                complete = translateChunks(documents, options, total);
            } catch (...) {
                setRunning(nullptr);
                throw;
            }
            setRunning(nullptr);
            deliver([complete](DocumentWorker *w) { emit w->finished(complete); });
        } catch (const std::exception &error) {
            fail(QString::fromUtf8(error.what()));
            deliver([](DocumentWorker *w) { emit w->finished(false); });
        }
    }

    void exportTo(const QString &path, const QMap<int, QString> &edits)
    {
        if (m_chunks.empty()) {
            fail(DocumentWorker::tr("Open a document first."));
            return;
        }
        try {
            QString encoding = QStringLiteral("UTF-8");
            if (!m_streamed && !edits.isEmpty()) {
                // The user's versions replace the model's (their markup cannot follow: no
                // alignment links to the user's words).
                Document edited = *m_document;
                for (auto it = edits.begin(); it != edits.end(); ++it)
                    if (it.key() >= 0 && std::size_t(it.key()) < edited.segments.size())
                        edited.segments[std::size_t(it.key())].translation =
                            SegmentTranslation{it.value().toUtf8(), {}, {}};
                encoding = writeDocument(edited, path);
            } else if (!m_streamed) {
                encoding = writeDocument(*m_document, path);
            } else {
                // The finished chunks as written, then the rest: the chunk in progress with its
                // finished paragraphs, the others as in the source.
                const QString format = formatForPath(path);
                const bool own = format == m_format;
                const QStringList writable = writableFormats(m_format);
                if (!writable.contains(format))
                    throw DocumentError(QStringLiteral("cannot write a %1 document as '.%2' "
                                                       "(write %3)")
                                            .arg(m_format, QFileInfo(path).suffix(),
                                                 suffixList(writable, QStringLiteral(", "),
                                                            QStringLiteral(" or "))));
                QSaveFile out(path);
                if (!out.open(QIODevice::WriteOnly))
                    throw DocumentError(
                        QStringLiteral("cannot write %1: %2").arg(path, out.errorString()));
                QTemporaryFile *finished = own ? m_finished.get() : m_finishedText.get();
                bool first = true;
                if (finished) {
                    finished->seek(0);
                    while (!finished->atEnd())
                        out.write(finished->read(1 << 20));
                    first = finished->size() == 0;
                }
                for (std::size_t c = m_next; c < m_chunks.size(); ++c) {
                    if (own && (c != m_next || !m_document)) {
                        out.write(chunkBytes(c)); // untranslated: as it was
                    } else if (m_chunks[c].paragraphs > 0) {
                        const Document document = chunkDocument(c);
                        out.write(own ? document.render()
                                      : (first ? "" : "\n") + plainText(document));
                        first = false;
                    }
                }
                if (!out.commit())
                    throw DocumentError(
                        QStringLiteral("cannot write %1: %2").arg(path, out.errorString()));
            }
            deliver([path, encoding](DocumentWorker *w) { emit w->exported(path, encoding); });
        } catch (const DocumentError &error) {
            fail(error.message());
        }
    }

    // Called on the GUI thread.
    void cancelRunning()
    {
        QMutexLocker lock(&m_runningMutex);
        if (m_running)
            m_running->cancel(); // an atomic flag
    }

private:
    struct Chunk
    {
        qint64 begin = 0; // bytes of the source file (streamed formats)
        qint64 end = 0;
        int firstParagraph = 0;
        int paragraphs = 0;
        int sentences = -1; // counted for the current model
    };

    QByteArray chunkBytes(std::size_t c)
    {
        m_file->seek(m_chunks[c].begin);
        return m_file->read(m_chunks[c].end - m_chunks[c].begin);
    }

    // Chunk `c` as a document: the whole document when it is not streamed, the chunk in
    // progress with its finished paragraphs, or the chunk read again.
    const Document &chunkDocument(std::size_t c)
    {
        if (!m_streamed || (m_document && c == m_next))
            return *m_document;
        m_scratch = m_chunks[c].paragraphs > 0 ? parseDocument(chunkBytes(c), m_format, m_path)
                                               : Document();
        return m_scratch;
    }

    // Translates from chunk m_next on; finished chunks are appended to the temporary files and
    // dropped. Returns false when cancelled (the chunk in progress is kept in m_document).
    bool translateChunks(DocumentTranslator &documents, const engine::DecodingOptions &options,
                         int total)
    {
        int before = 0; // sentences of the chunks before the current one
        for (std::size_t c = 0; c < m_next; ++c)
            before += m_chunks[c].sentences;
        const int start = before;
        QElapsedTimer clock;
        clock.start();
        std::size_t current = m_next;
        QList<TranslatedParagraph> fresh;
        QObject::connect(&documents, &DocumentTranslator::segmentTranslated, [&](int index) {
            fresh.append(paragraphOf(*m_document, index));
            fresh.back().index += m_chunks[current].firstParagraph;
        });
        QObject::connect(
            &documents, &DocumentTranslator::progress, [&](int done, int, qint64 left) {
                // A cancel() that came before translate() reset the translator's flag.
                if (m_owner->m_cancel.load())
                    documents.cancel();
                if (!fresh.isEmpty())
                    deliver([batch = std::move(fresh)](DocumentWorker *w) {
                        emit w->translated(batch);
                    });
                fresh.clear();
                const int all = before + done;
                // Over several chunks the rate so far says more than the chunk's own estimate.
                if (m_streamed && m_chunks.size() > 1)
                    left = all > start ? clock.elapsed() * (total - all) / (all - start) : -1;
                deliver(
                    [all, total, left](DocumentWorker *w) { emit w->progress(all, total, left); });
            });
        for (; current < m_chunks.size(); ++current) {
            if (m_streamed && !(m_document && current == m_next))
                m_document = chunkDocument(current);
            if (!documents.translate(*m_document, options))
                return false;
            if (!m_streamed)
                return true;
            if (!m_finished) {
                m_finished = std::make_unique<QTemporaryFile>();
                m_finishedText = std::make_unique<QTemporaryFile>();
                if (!m_finished->open() || !m_finishedText->open())
                    throw DocumentError(QStringLiteral("cannot write a temporary file: %1")
                                            .arg(m_finished->errorString()));
            }
            if (m_chunks[current].paragraphs == 0) {
                m_finished->write(chunkBytes(current)); // white space at the end of the file
            } else {
                m_finished->write(m_document->render());
                m_finishedText->write((m_finishedText->size() > 0 ? "\n" : "") +
                                      plainText(*m_document));
            }
            before += m_chunks[current].sentences;
            m_next = current + 1;
            m_document.reset();
        }
        return true;
    }

    DocumentWorker *m_owner;
    QString m_path;
    QString m_format;
    bool m_streamed = false;
    std::vector<Chunk> m_chunks; // empty: nothing open
    std::size_t m_next = 0;      // streamed: chunks before it are in the temporary files
    std::unique_ptr<QFile> m_file;
    // The whole document (not streamed), or the chunk m_next partly translated (streamed).
    std::optional<Document> m_document;
    Document m_scratch;
    // Streamed: the finished chunks, rendered in the document's own format and as plain text.
    std::unique_ptr<QTemporaryFile> m_finished, m_finishedText;
    std::unique_ptr<engine::Translator> m_translator;
    QString m_modelId;
    void setRunning(DocumentTranslator *running)
    {
        QMutexLocker lock(&m_runningMutex);
        m_running = running;
    }

    // The translation in progress, cancelled from the GUI thread: cleared under the mutex before
    // it is destroyed.
    QMutex m_runningMutex;
    DocumentTranslator *m_running = nullptr;
};

DocumentWorker::DocumentWorker(QObject *parent) : QObject(parent), m_thread(new QThread)
{
    qRegisterMetaType<glosa::documents::TranslatedParagraph>();
    qRegisterMetaType<QList<glosa::documents::TranslatedParagraph>>();
    m_thread->setObjectName(QStringLiteral("glosa-documents"));
    m_executor = new DocumentExecutor(this);
    m_executor->moveToThread(m_thread);
    connect(m_thread, &QThread::finished, m_executor, &QObject::deleteLater);
    m_thread->start();
}

DocumentWorker::~DocumentWorker()
{
    cancel();
    m_thread->quit();
    m_thread->wait();
    delete m_thread;
}

void DocumentWorker::setModel(const ModelInfo &info,
                              std::shared_ptr<const PluginRegistry> plugins)
{
    m_info = info;
    m_plugins = std::move(plugins);
}

void DocumentWorker::post(std::function<void()> job)
{
    ++m_jobs;
    setBusy(true);
    QMetaObject::invokeMethod(
        m_executor,
        [this, job = std::move(job)] {
            job();
            QMetaObject::invokeMethod(
                this,
                [this] {
                    if (--m_jobs == 0)
                        setBusy(false);
                },
                Qt::QueuedConnection);
        },
        Qt::QueuedConnection);
}

void DocumentWorker::setBusy(bool busy)
{
    if (busy == m_busy)
        return;
    m_busy = busy;
    emit busyChanged(busy);
}

void DocumentWorker::open(const QString &path)
{
    cancel();
    m_path = path;
    const QString format = formatForPath(path);
    m_exportFormats = writableFormats(format);
    post([executor = m_executor, path, chunk = m_chunkBytes] { executor->open(path, chunk); });
}

void DocumentWorker::translate(Quality quality)
{
    m_cancel = false;
    post([executor = m_executor, info = m_info, plugins = m_plugins, quality] {
        executor->translate(info, plugins, quality);
    });
}

void DocumentWorker::cancel()
{
    m_cancel = true;
    m_executor->cancelRunning();
}

void DocumentWorker::exportTo(const QString &path, const QMap<int, QString> &edits)
{
    post([executor = m_executor, path, edits] { executor->exportTo(path, edits); });
}

} // namespace glosa::documents

#include "moc_documentworker.cpp"
