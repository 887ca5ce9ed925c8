#include "app/core/evaluation/evaluationworker.h"

#include "app/core/platform/handoff.h"
#include "app/core/models/pluginregistry.h"
#include "engine/translation/translationmodel.h"
#include "engine/translation/translator.h"

#include <QMetaObject>
#include <QThread>

#include <new>

namespace glosa {

EvaluationWorker::EvaluationWorker(QObject *parent) : QObject(parent) {}

EvaluationWorker::~EvaluationWorker()
{
    cancel();
    join();
}

bool EvaluationWorker::start(const QList<ModelInfo> &models, engine::TestSet set, bool greedy,
                             std::shared_ptr<const PluginRegistry> plugins,
                             engine::ComputeType computeType)
{
    if (m_thread || models.isEmpty() || !plugins)
        return false;
    m_models = models;
    m_set = std::move(set);
    m_evaluations.clear();
    m_options.clear();
    m_cancel = false;
    m_thread = QThread::create(
        [this, greedy, plugins = std::move(plugins), computeType] { run(greedy, plugins, computeType); });
    m_thread->start();
    return true;
}

void EvaluationWorker::cancel() { m_cancel = true; }

void EvaluationWorker::join()
{
    if (!m_thread)
        return;
    m_thread->wait();
    delete m_thread;
    m_thread = nullptr;
}

// On the worker thread. Signals go out queued, so that the GUI thread handles them in order and
// after the members they describe are written.
void EvaluationWorker::run(bool greedy, std::shared_ptr<const PluginRegistry> plugins,
                           engine::ComputeType computeType)
{
    auto post = [this](std::function<void()> call) {
        postCall(this, std::move(call));
    };
    auto fail = [&](const QString &message) {
        post([this, message] {
            emit failed(message);
            join();
            emit finished(false);
        });
    };
    std::vector<engine::ModelEvaluation> results;
    QList<engine::DecodingOptions> usedOptions;
    for (int m = 0; m < m_models.size(); ++m) {
        const ModelInfo &info = m_models[m];
        QString error;
        std::shared_ptr<engine::TranslationModel> model;
        try {
            model = std::dynamic_pointer_cast<engine::TranslationModel>(
                ModelCatalog::load(info, *plugins, &error, computeType));
        } catch (const std::exception &e) {
            error = QString::fromUtf8(e.what());
        }
        if (!model) {
            fail(tr("Could not load %1: %2").arg(info.id, error.isEmpty() ? tr("not a translation model") : error));
            return;
        }
        engine::DecodingOptions options = model->defaultDecodingOptions();
        if (greedy)
            options.strategy = engine::SearchStrategy::Greedy;
        usedOptions << options;
        engine::DecodingControl control;
        control.cancelled = [this] { return m_cancel.load(); };
        try {
            engine::Translator translator(model);
            results.push_back(engine::evaluate(
                translator, m_set, options,
                [&](std::size_t done, std::size_t total) {
                    post([this, m, done, total] { emit progress(m, int(done), int(total)); });
                },
                control));
        } catch (const engine::DecodingCancelled &) {
            post([this] {
                join();
                emit finished(false);
            });
            return;
        } catch (const std::bad_alloc &) {
            fail(tr("Out of memory while evaluating %1").arg(info.id));
            return;
        } catch (const std::exception &e) {
            fail(tr("Evaluating %1 failed: %2").arg(info.id, QString::fromUtf8(e.what())));
            return;
        }
    }
    post([this, results = std::move(results), usedOptions]() mutable {
        join();
        m_evaluations = std::move(results);
        m_options = usedOptions;
        emit finished(true);
    });
}

} // namespace glosa

#include "moc_evaluationworker.cpp"
