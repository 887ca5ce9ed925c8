#include "app/core/evaluation/evaluationworker.h"

#include "engine/translation/translationmodel.h"
#include "engine/translation/translator.h"

#include <new>

namespace glosa {

EvaluationWorker::EvaluationWorker(QObject *parent)
    : QObject(parent),
      m_thread(QStringLiteral("glosa-evaluation"), WorkerThread::Policy::InOrder, nullptr)
{
}

// m_thread, the last member, cancels the run and joins the thread first.
EvaluationWorker::~EvaluationWorker() = default;

bool EvaluationWorker::start(const QList<ModelInfo> &models, engine::TestSet set, bool greedy,
                             const ModelLoader &loader, engine::ComputeType computeType)
{
    if (isBusy() || models.isEmpty())
        return false;
    m_models = models;
    m_set = std::make_shared<const engine::TestSet>(std::move(set));
    m_evaluations.clear();
    m_options.clear();
    m_thread.post([this, models, set = m_set, greedy, loader,
                   computeType](const std::atomic<bool> &cancelled) {
        run(models, *set, greedy, loader, computeType, cancelled);
    });
    return true;
}

void EvaluationWorker::cancel()
{
    m_thread.cancel();
}

// On the worker thread. Signals go out through the WorkerThread's reports, so that the GUI
// thread handles them in order and after the members they describe are written; the last one
// through reportEnd(), so that finished() finds the worker idle (isBusy() false), as a caller
// that starts or shows another evaluation from it expects.
void EvaluationWorker::run(const QList<ModelInfo> &models, const engine::TestSet &set, bool greedy,
                           const ModelLoader &loader, engine::ComputeType computeType,
                           const std::atomic<bool> &cancelled)
{
    auto fail = [&](const QString &message) {
        m_thread.reportEnd([this, message] {
            emit failed(message);
            emit finished(false);
        });
    };
    std::vector<engine::ModelEvaluation> results;
    QList<engine::DecodingOptions> usedOptions;
    for (int m = 0; m < models.size(); ++m) {
        const ModelInfo &info = models[m];
        QString error;
        std::shared_ptr<engine::TranslationModel> model;
        try {
            model = std::dynamic_pointer_cast<engine::TranslationModel>(
                loader.load(info, computeType, &error));
        } catch (const std::exception &e) {
            error = QString::fromUtf8(e.what());
        }
        if (!model) {
            fail(tr("Could not load %1: %2")
                     .arg(info.id, error.isEmpty() ? tr("not a translation model") : error));
            return;
        }
        engine::DecodingOptions options = model->defaultDecodingOptions();
        if (greedy)
            options.strategy = engine::SearchStrategy::Greedy;
        usedOptions << options;
        engine::DecodingControl control;
        control.cancelled = [&cancelled] { return cancelled.load(); };
        try {
            engine::Translator translator(model);
            results.push_back(engine::evaluate(
                translator, set, options,
                [&](std::size_t done, std::size_t total) {
                    m_thread.report(
                        [this, m, done, total] { emit progress(m, int(done), int(total)); });
                },
                control));
        } catch (const engine::DecodingCancelled &) {
            m_thread.reportEnd([this] { emit finished(false); });
            return;
        } catch (const std::bad_alloc &) {
            fail(tr("Out of memory while evaluating %1").arg(info.id));
            return;
        } catch (const std::exception &e) {
            fail(tr("Evaluating %1 failed: %2").arg(info.id, QString::fromUtf8(e.what())));
            return;
        }
    }
    m_thread.reportEnd([this, results = std::move(results), usedOptions]() mutable {
        m_evaluations = std::move(results);
        m_options = usedOptions;
        emit finished(true);
    });
}

} // namespace glosa

#include "moc_evaluationworker.cpp"
