// InferenceWorker: one worker thread per loaded model (docs/architecture.md; translateLocally's
// MarianInterface, Qt's mandelbrot RenderThread). The GUI thread only posts requests and receives
// signals; it never waits on inference.
//
// Basic usage (GUI thread):
//     auto *worker = new glosa::InferenceWorker(this);
//     connect(worker, &InferenceWorker::translationReady, this, &View::show);
//     connect(worker, &InferenceWorker::failed, this, &View::showError);
//     worker->loadModel(info, registry);            // loads on the worker thread
//     worker->translate(text, {options});           // latest request wins
//
// Latest wins: a new request replaces one that has not started, and cancels the running one
// between two decoding steps (DecodingControl::cancelled); results of superseded requests are
// never emitted. cancel() drops the pending request and stops the running one.
//
// Errors: every exception the engine or a plugin throws is caught on the worker thread and
// re-emitted as failed(id, message); nothing propagates into the event loop.
#pragma once

#include "app/core/inferenceresult.h"
#include "app/core/modelcatalog.h"
#include "engine/decoding/alignmentsource.h"

#include <QObject>
#include <QString>

#include <atomic>
#include <memory>

class QThread;

namespace glosa {

class PluginRegistry;
class InferenceExecutor;

// Which cross-attention a translation's alignment comes from, for models whose step decoder is an
// engine::AlignmentSource (engine/decoding/alignmentsource.h): a layer and a head, or the mean of the
// layer's heads. layer < 0 keeps the model's default (the Transformer: mean of the heads of the
// penultimate decoder layer).
struct AlignmentChoice
{
    int layer = -1;
    int head = engine::AlignmentSource::kAverageHeads;
    bool operator==(const AlignmentChoice &) const = default;
};

class InferenceWorker : public QObject
{
    Q_OBJECT
public:
    explicit InferenceWorker(QObject *parent = nullptr);
    ~InferenceWorker() override; // cancels, stops the thread and waits for it

    // Loads the model on the worker thread (cancelling whatever runs); emits modelLoaded or
    // modelLoadFailed. `plugins` must outlive the worker.
    // The worker shares the registry until the load is done: whoever destroys its own copy
    // first (the main window at shutdown) cannot pull it from under the worker thread.
    void loadModel(const ModelInfo &info, std::shared_ptr<const PluginRegistry> plugins);
    // Uses an already loaded model (tests, or a model shared with another worker).
    void setModel(const ModelInfo &info, std::shared_ptr<engine::Model> model);
    const ModelInfo &modelInfo() const { return m_info; }
    bool isModelLoaded() const { return m_loaded; }

    // Translates `text` once per entry of `options` (the Compare view's columns; each column is
    // emitted as soon as it is done by columnReady, then all of them by translationReady).
    // Returns the request id.
    quint64 translate(const QString &text, const QList<engine::DecodingOptions> &options,
                      const AlignmentChoice &alignment = {});
    quint64 caption(const QString &imagePath, const engine::DecodingOptions &options);
    void cancel();

    // What the loaded model offers to AlignmentChoice (0 layers: one attention, nothing to choose)
    // and its default; known once modelLoaded has been emitted.
    int alignmentLayers() const { return m_alignmentLayers; }
    int alignmentHeads() const { return m_alignmentHeads; }
    AlignmentChoice defaultAlignment() const { return m_defaultAlignment; }

    bool isBusy() const { return m_busy; }
    quint64 latestRequest() const { return m_latest.load(); }

signals:
    void modelLoaded(const QString &modelId);
    void modelLoadFailed(const QString &message);
    void busyChanged(bool busy);
    void progress(quint64 request, int step, int maxSteps);
    void columnReady(quint64 request, int column, const glosa::TranslationResult &result);
    void translationReady(quint64 request, const QList<glosa::TranslationResult> &results);
    void captionReady(quint64 request, const glosa::CaptionResult &result);
    void failed(quint64 request, const QString &message);
    void cancelled(quint64 request);

private:
    friend class InferenceExecutor;
    void post(quint64 id);
    void onFinished(quint64 id);

    QThread *m_thread = nullptr;
    InferenceExecutor *m_executor = nullptr; // lives on m_thread
    ModelInfo m_info;
    bool m_loaded = false;
    bool m_busy = false;
    int m_alignmentLayers = 0;
    int m_alignmentHeads = 0;
    AlignmentChoice m_defaultAlignment;
    // The newest request id; a running request whose id is older is cancelled at its next step.
    std::atomic<quint64> m_latest{0};
    quint64 m_next = 0;
};

} // namespace glosa
