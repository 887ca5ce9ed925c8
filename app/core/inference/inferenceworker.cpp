#include "app/core/inference/inferenceworker.h"

#include "app/core/platform/handoff.h"
#include "app/core/models/pluginregistry.h"
#include "app/core/settings/settings.h"
#include "app/core/inference/translationrunner.h"
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
    bool everyAttention = false;
    ModelInfo info;
    std::shared_ptr<const PluginRegistry> plugins;               // Load
    std::shared_ptr<engine::Model> model;                        // setModel()
    engine::ComputeType computeType = engine::ComputeType::Auto; // Load
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
        if (request.kind != Request::Kind::Load && m_pending &&
            m_pending->kind == Request::Kind::Load) {
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
        postCall(m_owner, [owner = m_owner, id = request->id] { owner->onFinished(id); });
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

    // Runs `f(worker)` on the GUI thread: a load's outcome, which is the worker's own state.
    template <typename F> void toWorker(F f)
    {
        postCall(m_owner, [owner = m_owner, f = std::move(f)] { f(owner); });
    }

    // Runs `f(handle)` on the GUI thread, unless request `id` has been superseded by then
    // (checked there, so a result never arrives after the request that superseded it) or its
    // caller dropped it. `last`: the request's final report.
    template <typename F> void toRequest(quint64 id, F f, bool last = false)
    {
        postCall(m_owner, [owner = m_owner, id, f = std::move(f), last] {
            if (InferenceRequest *request = owner->handle(id, last))
                f(request);
        });
    }

    void run(const Request &request)
    {
        const quint64 id = request.id;
        engine::DecodingControl control;
        control.cancelled = [this, id] { return superseded(id); };
        control.progress = [this, id](int step, int maxSteps) {
            toRequest(id,
                      [step, maxSteps](InferenceRequest *r) { emit r->progress(step, maxSteps); });
        };
        control.segmentsDone = [this, id](std::size_t done, std::size_t total) {
            toRequest(id, [done = int(done), total = int(total)](InferenceRequest *r) {
                emit r->sentencesDone(done, total);
            });
        };
        try {
            switch (request.kind) {
            case Request::Kind::Load: {
                QString error;
                std::shared_ptr<engine::Model> model =
                    request.model ? request.model
                                  : ModelCatalog::load(request.info, *request.plugins, &error,
                                                       request.computeType);
                if (!model) {
                    toWorker([error](InferenceWorker *w) { emit w->modelLoadFailed(error); });
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
                toWorker([modelId = request.info.id, layers, heads, defaults,
                          kinds = attentionKinds(*m_model)](InferenceWorker *w) {
                    w->m_loaded = true;
                    w->m_alignmentLayers = layers;
                    w->m_alignmentHeads = heads;
                    w->m_defaultAlignment = defaults;
                    w->m_attentionKinds = kinds;
                    emit w->modelLoaded(modelId);
                });
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
                        runTranslation(m_model, request.text, request.options.at(column), control,
                                       request.everyAttention);
                    if (superseded(id))
                        throw engine::DecodingCancelled();
                    toRequest(id, [column, result](InferenceRequest *r) {
                        emit r->columnReady(column, result);
                    });
                    results.append(std::move(result));
                }
                toRequest(
                    id, [results](InferenceRequest *r) { emit r->translated(results); }, true);
                return;
            }
            case Request::Kind::Caption: {
                if (!m_model)
                    throw std::runtime_error("no model is loaded");
                CaptionResult result =
                    runCaption(m_model, request.text, request.options.value(0), control);
                if (superseded(id))
                    throw engine::DecodingCancelled();
                toRequest(
                    id, [result](InferenceRequest *r) { emit r->captioned(result); }, true);
                return;
            }
            }
        } catch (const engine::DecodingCancelled &) {
            // Only a newer request (or cancel()) cancels: supersede() has reported it already.
        } catch (const std::exception &e) {
            fail(request, QString::fromUtf8(e.what()));
        } catch (...) {
            fail(request, QStringLiteral("unknown error"));
        }
    }

    void fail(const Request &request, const QString &message)
    {
        if (request.kind == Request::Kind::Load)
            toWorker([message](InferenceWorker *w) { emit w->modelLoadFailed(message); });
        else
            toRequest(
                request.id, [message](InferenceRequest *r) { emit r->failed(message); }, true);
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
    AlignmentChoice m_defaultAlignment;     // the loaded model's, on the worker thread
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
    // The executor reports through queued calls to this object, so on our thread, where
    // handle() drops the reports of superseded requests.
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

std::unique_ptr<InferenceRequest> InferenceWorker::openRequest(quint64 id)
{
    std::unique_ptr<InferenceRequest> request(new InferenceRequest);
    m_requests.insert(id, request.get());
    return request;
}

void InferenceWorker::supersede(quint64 id)
{
    for (auto it = m_requests.begin(); it != m_requests.end();) {
        if (it.key() == id) {
            ++it;
            continue;
        }
        // Queued: the caller that superseded it is still in the middle of its own code.
        if (InferenceRequest *request = it.value())
            postCall(request, [request] { emit request->cancelled(); });
        it = m_requests.erase(it);
    }
}

InferenceRequest *InferenceWorker::handle(quint64 id, bool last)
{
    return last ? m_requests.take(id).data() : m_requests.value(id).data();
}

void InferenceWorker::post(quint64 id)
{
    m_latest.store(id);
    supersede(id);
    if (!m_busy) {
        m_busy = true;
        emit busyChanged(true);
    }
    postCall(m_executor, [executor = m_executor] { executor->process(); });
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
    postLoad(info, std::move(plugins), nullptr);
}

void InferenceWorker::setModel(const ModelInfo &info, std::shared_ptr<engine::Model> model)
{
    postLoad(info, nullptr, std::move(model));
}

void InferenceWorker::postLoad(const ModelInfo &info, std::shared_ptr<const PluginRegistry> plugins,
                               std::shared_ptr<engine::Model> model)
{
    Request request;
    request.kind = Request::Kind::Load;
    request.id = ++m_next;
    request.info = info;
    request.plugins = std::move(plugins);
    request.model = std::move(model);
    // Read here, on the GUI thread: what Settings ▸ Arithmetic says when the load was asked for.
    request.computeType = m_computeType = computeTypeFromSettings();
    m_info = info;
    m_loaded = false;
    m_alignmentLayers = m_alignmentHeads = 0;
    m_defaultAlignment = {};
    m_attentionKinds.clear();
    m_executor->setPending(std::move(request));
    post(m_next);
}

std::unique_ptr<InferenceRequest>
InferenceWorker::translate(const QString &text, const QList<engine::DecodingOptions> &options,
                           const AlignmentChoice &alignment, bool everyAttention)
{
    Request request;
    request.kind = Request::Kind::Translate;
    request.id = ++m_next;
    request.text = text;
    request.options = options;
    request.alignment = alignment;
    request.everyAttention = everyAttention;
    std::unique_ptr<InferenceRequest> handle = openRequest(m_next);
    m_executor->setPending(std::move(request));
    post(m_next);
    return handle;
}

std::unique_ptr<InferenceRequest> InferenceWorker::caption(const QString &imagePath,
                                                           const engine::DecodingOptions &options)
{
    Request request;
    request.kind = Request::Kind::Caption;
    request.id = ++m_next;
    request.text = imagePath;
    request.options = {options};
    std::unique_ptr<InferenceRequest> handle = openRequest(m_next);
    m_executor->setPending(std::move(request));
    post(m_next);
    return handle;
}

void InferenceWorker::cancel()
{
    m_executor->dropPending();
    m_latest.store(++m_next);
    supersede(m_next);
    if (m_busy) {
        m_busy = false;
        emit busyChanged(false);
    }
}

} // namespace glosa
