#include "app/core/documents/documentworker.h"

#include "app/core/documents/documenttranslator.h"
#include "app/core/documents/formats.h"
#include "app/core/pluginregistry.h"
#include "engine/translation/translationmodel.h"
#include "engine/translation/translator.h"

#include <QFileInfo>
#include <QMutex>
#include <QMutexLocker>
#include <QThread>

#include <exception>
#include <functional>
#include <memory>
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

    void open(const QString &path)
    {
        m_document.reset();
        try {
            Document document = readDocument(path);
            QStringList paragraphs;
            paragraphs.reserve(qsizetype(document.segments.size()));
            for (const Segment &segment : document.segments)
                paragraphs << QString::fromUtf8(segment.text);
            const QString format = document.format;
            m_document = std::move(document);
            deliver([path, format, paragraphs](DocumentWorker *w) {
                emit w->opened(path, format, paragraphs);
            });
        } catch (const DocumentError &error) {
            fail(error.message());
        } catch (const std::exception &error) {
            fail(QStringLiteral("%1: %2").arg(path, QString::fromUtf8(error.what())));
        }
    }

    void translate(const ModelInfo &info, const PluginRegistry *plugins,
                   DocumentWorker::Quality quality)
    {
        if (!m_document) {
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
            }
            engine::DecodingOptions options;
            if (quality == DocumentWorker::Quality::Best)
                options = m_translator->model().defaultDecodingOptions();
            options.nBest = 1;
            DocumentTranslator documents(*m_translator);
            setRunning(&documents);
            QList<TranslatedParagraph> fresh;
            QObject::connect(&documents, &DocumentTranslator::segmentTranslated,
                             [&](int index) { fresh.append(paragraphOf(*m_document, index)); });
            QObject::connect(&documents, &DocumentTranslator::progress,
                             [&](int done, int total, qint64 left) {
                                 // A cancel() that came before translate() reset the translator's
                                 // flag.
                                 if (m_owner->m_cancel.load())
                                     documents.cancel();
                                 if (!fresh.isEmpty())
                                     deliver([batch = std::move(fresh)](DocumentWorker *w) {
                                         emit w->translated(batch);
                                     });
                                 fresh.clear();
                                 deliver([done, total, left](DocumentWorker *w) {
                                     emit w->progress(done, total, left);
                                 });
                             });
            bool complete = false;
            try {
                complete = documents.translate(*m_document, options);
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

    void exportTo(const QString &path)
    {
        if (!m_document) {
            fail(DocumentWorker::tr("Open a document first."));
            return;
        }
        try {
            writeDocument(*m_document, path);
            deliver([path](DocumentWorker *w) { emit w->exported(path); });
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
    DocumentWorker *m_owner;
    std::optional<Document> m_document;
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

void DocumentWorker::setModel(const ModelInfo &info, const PluginRegistry *plugins)
{
    m_info = info;
    m_plugins = plugins;
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
    post([executor = m_executor, path] { executor->open(path); });
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

void DocumentWorker::exportTo(const QString &path)
{
    post([executor = m_executor, path] { executor->exportTo(path); });
}

} // namespace glosa::documents

#include "moc_documentworker.cpp"
