#include "app/core/inferenceworker.h"

#include "app/core/pluginregistry.h"
#include "app/core/translationrunner.h"
#include "engine/translation/translationmodel.h"

#include <QElapsedTimer>
#include <QMutex>
#include <QMutexLocker>
#include <QThread>

#include <exception>
#include <optional>

namespace glosa {

namespace {
struct Request
{
    enum class Kind { Load, Translate, Caption } kind = Kind::Translate;
    quint64 id = 0;
    QString text; // the text, or the image path
    QList<engine::DecodingOptions> options;
    AlignmentChoice alignment;
    ModelInfo info;
    std::shared_ptr<const PluginRegistry> plugins; // Load
    std::shared_ptr<engine::Model> model; // setModel()
};
} // namespace

// Lives on the worker thread. The GUI side stores the pending request under the mutex and
// queues process(); the executor takes whatever is pending when it gets there, so a burst of
// requests while one runs collapses into the last one.
class InferenceExecutor : public QObject
{
public:
    explicit InferenceExecutor(InferenceWorker *owner) : m_owner(owner) {}

    void setPending(Request request)
    {
        QMutexLocker lock(&m_mutex);
        // A model load is never dropped in favour of a later translation: keep it in front.
        if (request.kind != Request::Kind::Load && m_pending
            && m_pending->kind == Request::Kind::Load) {
            m_afterLoad = std::move(request);
            return;
        }
        if (request.kind == Request::Kind::Load)
            m_afterLoad.reset();
        m_pending = std::move(request);
    }
    void dropPending()
    {
        QMutexLocker lock(&m_mutex);
        if (m_pending && m_pending->kind != Request::Kind::Load)
            m_pending.reset();
        m_afterLoad.reset();
    }

    void process()
    {
        std::optional<Request> request;
        {
            QMutexLocker lock(&m_mutex);
            request.swap(m_pending);
            if (m_afterLoad) {
                m_pending = std::move(m_afterLoad);
                m_afterLoad.reset();
            }
        }
        if (!request)
            return;
        run(*request);
        QMetaObject::invokeMethod(m_owner, [owner = m_owner, id = request->id] {
            owner->onFinished(id);
        }, Qt::QueuedConnection);
        bool more = false;
        {
            QMutexLocker lock(&m_mutex);
            more = m_pending.has_value();
        }
        if (more)
            process();
    }

private:
    bool superseded(quint64 id) const { return m_owner->m_latest.load() != id; }

    // Runs `emitter` on the GUI thread, unless a newer request has replaced `id` by then
    // (checked there, so a result never arrives after the request that superseded it).
    template <typename F> void deliver(quint64 id, F emitter, bool always = false)
    {
        InferenceWorker *owner = m_owner;
        QMetaObject::invokeMethod(owner, [owner, id, emitter = std::move(emitter), always] {
            if (always || owner->m_latest.load() == id)
                emitter(owner);
        }, Qt::QueuedConnection);
    }

    void run(const Request &request)
    {
        const quint64 id = request.id;
        engine::DecodingControl control;
        control.cancelled = [this, id] { return superseded(id); };
        control.progress = [this, id](int step, int maxSteps) {
            deliver(id, [id, step, maxSteps](InferenceWorker *w) {
                emit w->progress(id, step, maxSteps);
            });
        };
        try {
            switch (request.kind) {
            case Request::Kind::Load: {
                QString error;
                std::shared_ptr<engine::Model> model =
                    request.model ? request.model
                                  : ModelCatalog::load(request.info, *request.plugins, &error);
                if (!model) {
                    deliver(id, [error](InferenceWorker *w) { emit w->modelLoadFailed(error); },
                            true);
                    return;
                }
                m_model = std::move(model);
                int layers = 0, heads = 0;
                AlignmentChoice defaults;
                if (engine::AlignmentSource *source = alignmentSource()) {
                    layers = source->alignmentLayers();
                    heads = source->alignmentHeads();
                    defaults = {source->alignmentLayer(), source->alignmentHead()};
                }
                m_defaultAlignment = defaults;
                deliver(id, [modelId = request.info.id, layers, heads, defaults](InferenceWorker *w) {
                    w->m_loaded = true;
                    w->m_alignmentLayers = layers;
                    w->m_alignmentHeads = heads;
                    w->m_defaultAlignment = defaults;
                    emit w->modelLoaded(modelId);
                }, true);
                return;
            }
            case Request::Kind::Translate: {
                if (!m_model)
                    throw std::runtime_error("no model is loaded");
                if (engine::AlignmentSource *source = alignmentSource()) {
                    const AlignmentChoice choice =
                        request.alignment.layer >= 0 ? request.alignment : m_defaultAlignment;
                    source->setAlignment(choice.layer, choice.head); // throws when out of range
                }
                QList<TranslationResult> results;
                for (int column = 0; column < request.options.size(); ++column) {
                    TranslationResult result =
                        runTranslation(m_model, request.text, request.options.at(column), control);
                    if (superseded(id))
                        throw engine::DecodingCancelled();
                    deliver(id, [id, column, result](InferenceWorker *w) {
                        emit w->columnReady(id, column, result);
                    });
                    results.append(std::move(result));
                }
                deliver(id, [id, results](InferenceWorker *w) {
                    emit w->translationReady(id, results);
                });
                return;
            }
            case Request::Kind::Caption: {
                if (!m_model)
                    throw std::runtime_error("no model is loaded");
                CaptionResult result =
                    runCaption(m_model, request.text, request.options.value(0), control);
                if (superseded(id))
                    throw engine::DecodingCancelled();
                deliver(id, [id, result](InferenceWorker *w) { emit w->captionReady(id, result); });
                return;
            }
            }
        } catch (const engine::DecodingCancelled &) {
            deliver(id, [id](InferenceWorker *w) { emit w->cancelled(id); }, true);
        } catch (const std::exception &e) {
            const QString message = QString::fromUtf8(e.what());
            if (request.kind == Request::Kind::Load)
                deliver(id, [message](InferenceWorker *w) { emit w->modelLoadFailed(message); },
                        true);
            else
                deliver(id, [id, message](InferenceWorker *w) { emit w->failed(id, message); });
        } catch (...) {
            deliver(id, [id](InferenceWorker *w) { emit w->failed(id, QStringLiteral("unknown error")); });
        }
    }

    // The loaded model's decoder when its attention can come from several layers and heads.
    engine::AlignmentSource *alignmentSource() const
    {
        auto *translation = dynamic_cast<engine::TranslationModel *>(m_model.get());
        return translation ? translation->decoder().alignmentSource() : nullptr;
    }

    InferenceWorker *m_owner;
    QMutex m_mutex;
    std::optional<Request> m_pending;
    std::optional<Request> m_afterLoad;
    std::shared_ptr<engine::Model> m_model; // only touched on the worker thread
    AlignmentChoice m_defaultAlignment;      // the loaded model's, on the worker thread
};

InferenceWorker::InferenceWorker(QObject *parent) : QObject(parent), m_thread(new QThread)
{
    qRegisterMetaType<glosa::TranslationResult>();
    qRegisterMetaType<glosa::CaptionResult>();
    qRegisterMetaType<QList<glosa::TranslationResult>>();
    m_thread->setObjectName(QStringLiteral("glosa-inference"));
    m_executor = new InferenceExecutor(this);
    m_executor->moveToThread(m_thread);
    connect(m_thread, &QThread::finished, m_executor, &QObject::deleteLater);
    // Signals are emitted on the worker thread; queued connections deliver them on ours, and
    // the filter below drops the ones of superseded requests.
    m_thread->start();
}

InferenceWorker::~InferenceWorker()
{
    m_executor->dropPending();
    m_latest.store(~quint64(0)); // cancels the running request at its next step
    m_thread->quit();
    m_thread->wait();
    delete m_thread;
}

void InferenceWorker::post(quint64 id)
{
    m_latest.store(id);
    if (!m_busy) {
        m_busy = true;
        emit busyChanged(true);
    }
    QMetaObject::invokeMethod(m_executor, [executor = m_executor] { executor->process(); },
                              Qt::QueuedConnection);
}

void InferenceWorker::onFinished(quint64 id)
{
    if (id == m_latest.load() && m_busy) {
        m_busy = false;
        emit busyChanged(false);
    }
}

void InferenceWorker::loadModel(const ModelInfo &info,
                                std::shared_ptr<const PluginRegistry> plugins)
{
    Request request;
    request.kind = Request::Kind::Load;
    request.id = ++m_next;
    request.info = info;
    request.plugins = std::move(plugins);
    m_info = info;
    m_loaded = false;
    m_alignmentLayers = m_alignmentHeads = 0;
    m_defaultAlignment = {};
    m_executor->setPending(std::move(request));
    post(m_next);
}

void InferenceWorker::setModel(const ModelInfo &info, std::shared_ptr<engine::Model> model)
{
    Request request;
    request.kind = Request::Kind::Load;
    request.id = ++m_next;
    request.info = info;
    request.model = std::move(model);
    m_info = info;
    m_loaded = false;
    m_alignmentLayers = m_alignmentHeads = 0;
    m_defaultAlignment = {};
    m_executor->setPending(std::move(request));
    post(m_next);
}

quint64 InferenceWorker::translate(const QString &text,
                                   const QList<engine::DecodingOptions> &options,
                                   const AlignmentChoice &alignment)
{
    Request request;
    request.kind = Request::Kind::Translate;
    request.id = ++m_next;
    request.text = text;
    request.options = options;
    request.alignment = alignment;
    m_executor->setPending(std::move(request));
    post(m_next);
    return m_next;
}

quint64 InferenceWorker::caption(const QString &imagePath, const engine::DecodingOptions &options)
{
    Request request;
    request.kind = Request::Kind::Caption;
    request.id = ++m_next;
    request.text = imagePath;
    request.options = {options};
    m_executor->setPending(std::move(request));
    post(m_next);
    return m_next;
}

void InferenceWorker::cancel()
{
    m_executor->dropPending();
    m_latest.store(++m_next);
    if (m_busy) {
        m_busy = false;
        emit busyChanged(false);
    }
}

} // namespace glosa
