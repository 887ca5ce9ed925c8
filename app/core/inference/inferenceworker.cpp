#include "app/core/inference/inferenceworker.h"

#include "app/core/inference/translationrunner.h"
#include "app/core/platform/handoff.h"
#include "app/core/settings/settings.h"
#include "engine/translation/translationmodel.h"

#include <exception>

namespace glosa {

namespace {
struct Request
{
    QString text; // the text, or the image path
    QList<engine::DecodingOptions> options;
    AlignmentChoice alignment;
    bool everyAttention = false;
};
} // namespace

// What the jobs keep between them, on the worker thread: the loaded model. Reports go back
// through the owner's WorkerThread, so on the owner's thread, where handle() drops the reports
// of superseded requests.
class InferenceExecutor : public QObject
{
public:
    explicit InferenceExecutor(InferenceWorker *owner) : m_owner(owner) {}

    void load(const ModelInfo &info, const ModelLoader &loader, engine::ComputeType computeType)
    {
        try {
            QString error;
            std::shared_ptr<engine::Model> model = loader.load(info, computeType, &error);
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
            toWorker([modelId = info.id, layers, heads, defaults,
                      kinds = attentionKinds(*m_model)](InferenceWorker *w) {
                w->m_loaded = true;
                w->m_alignmentLayers = layers;
                w->m_alignmentHeads = heads;
                w->m_defaultAlignment = defaults;
                w->m_attentionKinds = kinds;
                emit w->modelLoaded(modelId);
            });
        } catch (const std::exception &e) {
            const QString message = QString::fromUtf8(e.what());
            toWorker([message](InferenceWorker *w) { emit w->modelLoadFailed(message); });
        } catch (...) {
            toWorker([](InferenceWorker *w) {
                emit w->modelLoadFailed(QStringLiteral("unknown error"));
            });
        }
    }

    void translate(quint64 id, const Request &request, const std::atomic<bool> &cancelled)
    {
        guarded(id, cancelled, [&](const engine::DecodingControl &control) {
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
                if (cancelled)
                    throw engine::DecodingCancelled();
                toRequest(id, [column, result](InferenceRequest *r) {
                    emit r->columnReady(column, result);
                });
                results.append(std::move(result));
            }
            toRequest(
                id, [results](InferenceRequest *r) { emit r->translated(results); }, true);
        });
    }

    void caption(quint64 id, const Request &request, const std::atomic<bool> &cancelled)
    {
        guarded(id, cancelled, [&](const engine::DecodingControl &control) {
            if (!m_model)
                throw std::runtime_error("no model is loaded");
            CaptionResult result =
                runCaption(m_model, request.text, request.options.value(0), control);
            if (cancelled)
                throw engine::DecodingCancelled();
            toRequest(
                id, [result](InferenceRequest *r) { emit r->captioned(result); }, true);
        });
    }

private:
    // Runs `f` with a DecodingControl for request `id`, which reports its progress and stops
    // when `cancelled` is set; what `f` throws becomes the request's failed().
    template <typename F> void guarded(quint64 id, const std::atomic<bool> &cancelled, F f)
    {
        engine::DecodingControl control;
        control.cancelled = [&cancelled] { return cancelled.load(); };
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
            f(control);
        } catch (const engine::DecodingCancelled &) {
            // Only a newer request (or cancel()) cancels: supersede() has reported it already.
        } catch (const std::exception &e) {
            fail(id, QString::fromUtf8(e.what()));
        } catch (...) {
            fail(id, QStringLiteral("unknown error"));
        }
    }

    void fail(quint64 id, const QString &message)
    {
        toRequest(
            id, [message](InferenceRequest *r) { emit r->failed(message); }, true);
    }

    // Runs `f(worker)` on the owner's thread: a load's outcome, which is the worker's own state.
    template <typename F> void toWorker(F f)
    {
        m_owner->m_thread.report([owner = m_owner, f = std::move(f)] { f(owner); });
    }

    // Runs `f(handle)` on the owner's thread, unless request `id` has been superseded by then
    // (checked there, so a result never arrives after the request that superseded it) or its
    // caller dropped it. `last`: the request's final report.
    template <typename F> void toRequest(quint64 id, F f, bool last = false)
    {
        m_owner->m_thread.report([owner = m_owner, id, f = std::move(f), last] {
            if (InferenceRequest *request = owner->handle(id, last))
                f(request);
        });
    }

    // The loaded model's decoder when its attention can come from several layers and heads.
    engine::AlignmentSource *alignmentSource() const
    {
        auto *translation = dynamic_cast<engine::TranslationModel *>(m_model.get());
        return translation ? translation->decoder().alignmentSource() : nullptr;
    }

    InferenceWorker *m_owner;
    std::shared_ptr<engine::Model> m_model; // this worker's own instance (modelloader.h)
    AlignmentChoice m_defaultAlignment;     // the loaded model's
};

InferenceWorker::InferenceWorker(QObject *parent)
    : QObject(parent), m_executor(new InferenceExecutor(this)),
      m_thread(QStringLiteral("glosa-inference"), WorkerThread::Policy::LatestWins, m_executor)
{
    qRegisterMetaType<glosa::TranslationResult>();
    qRegisterMetaType<glosa::CaptionResult>();
    qRegisterMetaType<QList<glosa::TranslationResult>>();
    connect(&m_thread, &WorkerThread::busyChanged, this, &InferenceWorker::busyChanged);
}

// m_thread, the last member, cancels the running request and joins the thread first.
InferenceWorker::~InferenceWorker() = default;

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

void InferenceWorker::post(quint64 id,
                           std::function<void(InferenceExecutor &, const std::atomic<bool> &)> job,
                           bool keep)
{
    supersede(id);
    m_thread.post([executor = m_executor, job = std::move(job)](
                      const std::atomic<bool> &cancelled) { job(*executor, cancelled); },
                  keep);
}

void InferenceWorker::loadModel(const ModelInfo &info, const ModelLoader &loader)
{
    // Read here, on the GUI thread: what Settings ▸ Arithmetic says when the load was asked for.
    const engine::ComputeType computeType = m_computeType = computeTypeFromSettings();
    m_info = info;
    m_loaded = false;
    m_alignmentLayers = m_alignmentHeads = 0;
    m_defaultAlignment = {};
    m_attentionKinds.clear();
    post(
        ++m_next,
        [info, loader, computeType](InferenceExecutor &executor, const std::atomic<bool> &) {
            executor.load(info, loader, computeType); // not cancelled: the next requests need it
        },
        true);
}

std::unique_ptr<InferenceRequest>
InferenceWorker::translate(const QString &text, const QList<engine::DecodingOptions> &options,
                           const AlignmentChoice &alignment, bool everyAttention)
{
    const quint64 id = ++m_next;
    std::unique_ptr<InferenceRequest> handle = openRequest(id);
    post(id, [id, request = Request{text, options, alignment, everyAttention}](
                 InferenceExecutor &executor, const std::atomic<bool> &cancelled) {
        executor.translate(id, request, cancelled);
    });
    return handle;
}

std::unique_ptr<InferenceRequest> InferenceWorker::caption(const QString &imagePath,
                                                           const engine::DecodingOptions &options)
{
    const quint64 id = ++m_next;
    std::unique_ptr<InferenceRequest> handle = openRequest(id);
    post(id, [id, request = Request{imagePath, {options}, {}, false}](
                 InferenceExecutor &executor, const std::atomic<bool> &cancelled) {
        executor.caption(id, request, cancelled);
    });
    return handle;
}

void InferenceWorker::cancel()
{
    supersede(++m_next);
    m_thread.cancel();
}

} // namespace glosa
