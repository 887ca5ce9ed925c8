// EvaluationWorker: runs engine::evaluate() for several models on one test set on its own thread,
// for the GUI's Evaluate dialog (glosa-cli evaluate runs the same engine code in its own thread).
// Each model is loaded here, for the evaluation only, with its package's decoding settings (or
// greedy search), so that the views' models and their workers are not disturbed.
//
// Basic usage (GUI thread):
//     worker.start(models, testSet, /*greedy=*/true, context.plugins(), computeType);
//     connect(&worker, &EvaluationWorker::finished, [&](bool complete) {
//         if (complete) show(worker.testSet(), worker.evaluations());
//     });
#pragma once

#include "app/core/models/modelcatalog.h"
#include "engine/evaluation/evaluation.h"
#include "engine/package.h"

#include <QList>
#include <QObject>

#include <atomic>
#include <memory>
#include <vector>

class QThread;

namespace glosa {

class PluginRegistry;

class EvaluationWorker : public QObject
{
    Q_OBJECT
public:
    explicit EvaluationWorker(QObject *parent = nullptr);
    ~EvaluationWorker() override; // cancels and waits for the thread

    // Starts evaluating every model of `models` in turn; ignored (false) while one runs.
    bool start(const QList<ModelInfo> &models, engine::TestSet set, bool greedy,
               std::shared_ptr<const PluginRegistry> plugins, engine::ComputeType computeType);
    // Thread-safe: stops at the next decoding step; finished(false) follows.
    void cancel();
    bool isBusy() const { return m_thread != nullptr; }

    // After finished(true): the set and one evaluation per model, in the order given to start().
    const engine::TestSet &testSet() const { return m_set; }
    const std::vector<engine::ModelEvaluation> &evaluations() const { return m_evaluations; }
    const QList<ModelInfo> &models() const { return m_models; }
    // The decoding options each model was evaluated with (what the history records).
    const QList<engine::DecodingOptions> &options() const { return m_options; }

signals:
    // `model` is the index of the model being evaluated; sentences done of `total` for it.
    void progress(int model, int done, int total);
    // The run ended: complete, or cancelled / failed (then failed() came first).
    void finished(bool complete);
    // One sentence for the user: a model that cannot load, a translation that failed.
    void failed(const QString &message);

private:
    void run(bool greedy, std::shared_ptr<const PluginRegistry> plugins,
             engine::ComputeType computeType);
    void join();

    QThread *m_thread = nullptr;
    QList<ModelInfo> m_models;
    engine::TestSet m_set;
    // Written by the thread, read by the GUI thread only after finished() (queued after the
    // thread's last write).
    std::vector<engine::ModelEvaluation> m_evaluations;
    QList<engine::DecodingOptions> m_options;
    std::atomic<bool> m_cancel = false;
};

} // namespace glosa
