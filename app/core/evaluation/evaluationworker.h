// EvaluationWorker: runs engine::evaluate() for several models on one test set on its own thread,
// for the GUI's Evaluate dialog (glosa-cli evaluate runs the same engine code in its own thread).
// A WorkerThread (platform/workerthread.h) that runs its runs in order: a run is never superseded,
// only cancelled. Each model is loaded with the ModelLoader the dialog got from AppContext, for
// the evaluation only (an instance of its own: modelloader.h says why), with its package's
// decoding settings (or greedy search), so that the views' models and their workers are not
// disturbed.
//
// Basic usage (GUI thread):
//     worker.start(models, testSet, /*greedy=*/true, context.modelLoader(), computeType);
//     connect(&worker, &EvaluationWorker::finished, [&](bool complete) {
//         if (complete) show(worker.testSet(), worker.evaluations());
//     });
#pragma once

#include "app/core/models/modelcatalog.h"
#include "app/core/models/modelloader.h"
#include "app/core/platform/workerthread.h"
#include "engine/evaluation/evaluation.h"
#include "engine/package.h"

#include <QList>
#include <QObject>

#include <memory>
#include <vector>

namespace glosa {

class EvaluationWorker : public QObject
{
    Q_OBJECT
public:
    explicit EvaluationWorker(QObject *parent = nullptr);
    ~EvaluationWorker() override; // cancels and waits for the thread

    // Starts evaluating every model of `models` in turn; ignored (false) while one runs.
    bool start(const QList<ModelInfo> &models, engine::TestSet set, bool greedy,
               const ModelLoader &loader, engine::ComputeType computeType);
    // Stops at the next decoding step; finished(false) follows.
    void cancel();
    // From start() until finished() (false when finished() is emitted).
    bool isBusy() const { return m_thread.isBusy(); }

    // After finished(true): the set and one evaluation per model, in the order given to start().
    const engine::TestSet &testSet() const { return *m_set; }
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
    // On the worker thread, with copies of what start() was given.
    void run(const QList<ModelInfo> &models, const engine::TestSet &set, bool greedy,
             const ModelLoader &loader, engine::ComputeType computeType,
             const std::atomic<bool> &cancelled);

    // The GUI thread's: written by start() and, for the results, by the run's last report.
    QList<ModelInfo> m_models;
    // Shared with the run, which only reads it: a 64 MB set is not copied on the GUI thread.
    std::shared_ptr<const engine::TestSet> m_set = std::make_shared<engine::TestSet>();
    std::vector<engine::ModelEvaluation> m_evaluations;
    QList<engine::DecodingOptions> m_options;
    // Last: destroyed first, so that the thread has stopped before the members above go.
    WorkerThread m_thread;
};

} // namespace glosa
