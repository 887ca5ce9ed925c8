#include "app/core/appcontext.h"

#include "app/core/history/recorder.h"
#include "app/core/inference/inferenceworker.h"
#include "app/core/inference/languageguess.h"
#include "app/core/models/pluginregistry.h"
#include "app/core/platform/handoff.h"
#include "app/core/settings/settings.h"

#include <QLocale>

namespace glosa {

AppContext::AppContext(QObject *parent)
    : AppContext(PluginRegistry::defaultSearchPaths(), ModelCatalog::defaultSearchPaths(), parent)
{
    // The default folders are looked up again at each rescan: on a first run the user's models
    // folder does not exist until the first import creates it, and a list made at start would
    // never include it (the imported model stayed invisible until a restart).
    m_defaultModelFolders = true;
}

AppContext::AppContext(const QStringList &pluginFolders, const QStringList &modelFolders,
                       QObject *parent)
    : QObject(parent), m_modelFolders(modelFolders),
      m_history(new HistoryRecorder(HistoryRecorder::Mode::Interactive, this))
{
    auto plugins = std::make_shared<PluginRegistry>();
    plugins->scan(pluginFolders);
    m_plugins = std::move(plugins);
    rescanModels();
    // The language guard's trigram profiles are counted from the bundled samples on first use:
    // off the GUI thread, before a view asks (a document's first Translate stalled the GUI thread
    // for 68 ms under ThreadSanitizer while they were counted there).
    startOnPool([] { LanguageGuess::bundled(); });
}

AppContext::~AppContext()
{
    // Each worker cancels and joins its thread, which may be inside ModelCatalog::load reading
    // the registry and the catalog: they go after the workers (tests/gui/tst_shutdown.cpp).
    m_workers.clear();
}

InferenceWorker *AppContext::workerFor(const ModelInfo &info)
{
    std::unique_ptr<InferenceWorker> &worker = m_workers[info.id];
    if (worker)
        return worker.get();
    worker = std::make_unique<InferenceWorker>();
    InferenceWorker *w = worker.get();
    connect(w, &InferenceWorker::modelLoaded, this,
            [this, w] { emit modelLoaded(w->modelInfo()); });
    connect(w, &InferenceWorker::modelLoadFailed, this,
            [this, w](const QString &message) { emit modelLoadFailed(w->modelInfo(), message); });
    w->loadModel(info, modelLoader());
    return w;
}

ModelChoice AppContext::choice(const QString &task) const
{
    return m_choices.value(task, ModelChoice{task, std::nullopt, ModelChoice::Status::NoneUsable});
}

std::optional<ModelInfo> AppContext::installed(const QString &id) const
{
    for (const ModelInfo &info : m_catalog.availableModels())
        if (info.id == id)
            return info;
    return std::nullopt;
}

std::optional<ModelInfo> AppContext::modelForDirection(const QString &source,
                                                       const QString &target) const
{
    const QString last = settings::directionModel(source, target).value();
    if (const std::optional<ModelInfo> info = last.isEmpty() ? std::nullopt : installed(last))
        if (info->task == kTranslation && info->sourceLanguage == source &&
            info->targetLanguage == target)
            return info;
    return m_catalog.defaultModel(kTranslation, source, target);
}

bool AppContext::chooseModel(const QString &id, ChosenBy by)
{
    const std::optional<ModelInfo> info = installed(id);
    if (!info)
        return false;
    if (by == ChosenBy::User && info->task == kTranslation)
        settings::directionModel(info->sourceLanguage, info->targetLanguage).setValue(info->id);
    // Choosing the model already chosen changes nothing (the views would start over: the
    // Translate view translates its text again).
    const std::optional<ModelInfo> chosen = choice(info->task).model;
    if (!chosen || chosen->id != id)
        choose(info->task, info);
    return true;
}

void AppContext::reloadModels()
{
    for (const auto &[id, worker] : m_workers)
        worker->loadModel(worker->modelInfo(), modelLoader());
}

void AppContext::rescanModels()
{
    if (m_defaultModelFolders)
        m_modelFolders = ModelCatalog::defaultSearchPaths();
    m_catalog.scan(m_modelFolders);
    emit modelsChanged();

    // Translation: the model chosen so far while it is installed, else the one for its direction,
    // else the best one for the user's language.
    const std::optional<ModelInfo> chosen = choice(kTranslation).model;
    std::optional<ModelInfo> translation = chosen ? installed(chosen->id) : std::nullopt;
    if (!translation && chosen)
        translation = modelForDirection(chosen->sourceLanguage, chosen->targetLanguage);
    if (!translation)
        translation = m_catalog.defaultTranslationModel(QLocale().uiLanguages());
    choose(kTranslation, translation);

    // Captioning: the first package that can run (there is no picker for it).
    std::optional<ModelInfo> captioner;
    for (const ModelInfo &info : m_catalog.availableModels())
        if (info.task == kCaptioning && m_plugins->pluginForArchitecture(info.architecture)) {
            captioner = info;
            break;
        }
    choose(kCaptioning, captioner);
}

void AppContext::choose(const QString &task, const std::optional<ModelInfo> &model)
{
    ModelChoice choice{task, model, ModelChoice::Status::Ready};
    if (!model)
        choice.status = m_catalog.models().isEmpty() ? ModelChoice::Status::NoneInstalled
                                                     : ModelChoice::Status::NoneUsable;
    else if (!m_plugins->pluginForArchitecture(model->architecture))
        choice.status = ModelChoice::Status::PluginMissing;
    m_choices.insert(task, choice);
    emit modelChosen(choice);
}

} // namespace glosa
