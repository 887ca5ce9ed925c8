// InferenceWorker: one worker thread per loaded model (docs/architecture.md; translateLocally's
// MarianInterface, Qt's mandelbrot RenderThread), a WorkerThread (platform/workerthread.h) whose
// queue policy is "latest wins". The GUI thread only posts requests and receives signals; it
// never waits on inference.
//
// Basic usage (GUI thread):
//     auto *worker = new glosa::InferenceWorker(this);
//     worker->loadModel(info, context.modelLoader()); // loads on the worker thread
//     m_request = worker->translate(text, {options}); // latest request wins
//     connect(m_request.get(), &InferenceRequest::translated, this, &View::show);
//     connect(m_request.get(), &InferenceRequest::failed, this, &View::showError);
//
// Each request answers through its own InferenceRequest, so a caller hears about its requests
// only, however many views share the worker (one per model: Translate, Compare, Caption and the
// History's re-run all post to the chosen model's, which AppContext::workerFor() gives them).
//
// Latest wins: a new request replaces one that has not started, and cancels the running one
// between two decoding steps (DecodingControl::cancelled); a superseded request reports
// cancelled() and nothing else. cancel() drops the pending request and stops the running one.
// A model load is never dropped for a translation posted after it.
//
// Errors: every exception the engine or a plugin throws is caught on the worker thread and
// reported as the request's failed(message) (a load's as modelLoadFailed); nothing propagates
// into the event loop.
#pragma once

#include "app/core/inference/inferenceresult.h"
#include "app/core/models/modelcatalog.h"
#include "app/core/models/modelloader.h"
#include "app/core/platform/workerthread.h"
#include "engine/layers/alignmentsource.h"
#include "engine/layers/attentioninspector.h"

#include <QHash>
#include <QObject>
#include <QPointer>
#include <QString>

#include <atomic>
#include <functional>
#include <memory>

namespace glosa {

class InferenceExecutor;

// Which cross-attention a translation's alignment comes from, for models whose step decoder is an
// engine::AlignmentSource (engine/layers/alignmentsource.h): a layer and a head, or the mean of
// the layer's heads. layer < 0 keeps the model's default (the Transformer: mean of the heads of the
// penultimate decoder layer).
struct AlignmentChoice
{
    int layer = -1;
    int head = engine::AlignmentSource::kAverageHeads;
    bool operator==(const AlignmentChoice &) const = default;
};

// A translation or caption posted to an InferenceWorker, as its caller sees it. It ends with
// exactly one of translated, captioned, failed or cancelled (a newer request to the same worker,
// or cancel(), superseded it). The caller owns it: destroying it drops whatever it has still to
// report, while the work itself goes on until something supersedes it.
class InferenceRequest : public QObject
{
    Q_OBJECT
signals:
    void progress(int step, int maxSteps);
    // A translation's sentences (segments: a long sentence may be several) done of `total`,
    // after each batch of them.
    void sentencesDone(int done, int total);
    // A translation's column (an entry of its options) is done; translated() follows the last.
    void columnReady(int column, const glosa::TranslationResult &result);
    void translated(const QList<glosa::TranslationResult> &results);
    void captioned(const glosa::CaptionResult &result);
    void failed(const QString &message);
    void cancelled();

private:
    friend class InferenceWorker;
    InferenceRequest() = default;
};

class InferenceWorker : public QObject
{
    Q_OBJECT
public:
    explicit InferenceWorker(QObject *parent = nullptr);
    ~InferenceWorker() override; // cancels, stops the thread and waits for it

    // Loads the model with `loader` on the worker thread (cancelling whatever runs), in the
    // arithmetic Settings ▸ Arithmetic names now; emits modelLoaded or modelLoadFailed.
    void loadModel(const ModelInfo &info, const ModelLoader &loader);
    const ModelInfo &modelInfo() const { return m_info; }
    // The arithmetic the current model was asked to load with (computeTypeFromSettings()).
    engine::ComputeType computeType() const { return m_computeType; }
    bool isModelLoaded() const { return m_loaded; }

    // Translates `text` once per entry of `options` (the Compare view's columns; each column is
    // reported as soon as it is done by columnReady, then all of them by translated).
    // `everyAttention`: also every layer's and head's attention of each hypothesis
    // (TranslationHypothesis::attentionMaps), which costs one more pass over each sentence.
    [[nodiscard]] std::unique_ptr<InferenceRequest>
    translate(const QString &text, const QList<engine::DecodingOptions> &options,
              const AlignmentChoice &alignment = {}, bool everyAttention = false);
    [[nodiscard]] std::unique_ptr<InferenceRequest> caption(const QString &imagePath,
                                                            const engine::DecodingOptions &options);
    // Supersedes every request: the pending one is dropped, the running one stops at its next
    // step, and each reports cancelled().
    void cancel();

    // What the loaded model offers to AlignmentChoice (0 layers: one attention, nothing to choose)
    // and its default; known once modelLoaded has been emitted.
    int alignmentLayers() const { return m_alignmentLayers; }
    int alignmentHeads() const { return m_alignmentHeads; }
    AlignmentChoice defaultAlignment() const { return m_defaultAlignment; }
    // The kinds of attention the loaded model can show (attentionKinds(), translationrunner.h);
    // known once modelLoaded has been emitted.
    QList<engine::AttentionKind> attentionKinds() const { return m_attentionKinds; }

    bool isBusy() const { return m_thread.isBusy(); }

signals:
    void modelLoaded(const QString &modelId);
    void modelLoadFailed(const QString &message);
    void busyChanged(bool busy);

private:
    friend class InferenceExecutor;
    std::unique_ptr<InferenceRequest> openRequest(quint64 id);
    // Queues the job of request `id`; every other open request reports cancelled.
    void post(quint64 id, std::function<void(InferenceExecutor &, const std::atomic<bool> &)> job,
              bool keep = false);
    // Every open request but `id` reports cancelled (after the caller's code has returned).
    void supersede(quint64 id);
    // The handle of request `id` while it may still report (null once superseded, ended or
    // dropped by its caller); `last` forgets it: its final report.
    InferenceRequest *handle(quint64 id, bool last);

    ModelInfo m_info;
    engine::ComputeType m_computeType = engine::ComputeType::Auto;
    bool m_loaded = false;
    int m_alignmentLayers = 0;
    int m_alignmentHeads = 0;
    AlignmentChoice m_defaultAlignment;
    QList<engine::AttentionKind> m_attentionKinds;
    quint64 m_next = 0;
    // Ids are the worker's own business (which handle a report is for); callers hold handles.
    QHash<quint64, QPointer<InferenceRequest>> m_requests;
    InferenceExecutor *m_executor = nullptr; // the loaded model, on m_thread
    // Last: destroyed first, so that the thread has stopped before the members above go.
    WorkerThread m_thread;
};

} // namespace glosa
