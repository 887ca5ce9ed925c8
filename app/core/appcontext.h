// AppContext: the composition root of the GUI. It owns what the views share: the plugin registry,
// the model catalog, the one way models are loaded (modelLoader()), one InferenceWorker per model
// in use and the history recorder, and it holds which model is chosen for each task. main.cpp
// builds it before the window and destroys it after; MainWindow only shows it (tabs, menus, the
// model picker), and each view takes it in its constructor.
//
// Choosing a model: chooseModel() (the model picker, History ▸ Open) and rescanModels() change
// the choice of a task; modelForDirection() is the one rule for picking a model for a direction
// (⇄, a model that went away): the user's last choice for that direction, else its default;
// modelChosen() tells every view, and each uses it in its own way (Translate, Compare and the
// Caption view's "Translate caption" post to the model's worker; Documents hands the model and
// modelLoader() to its DocumentWorker, which loads an instance of its own when a document is
// translated; the Evaluate dialog does the same for the models it scores). A view reads the
// current choice with choice() when it is built.
#pragma once

#include "app/core/models/modelcatalog.h"
#include "app/core/models/modelloader.h"

#include <QHash>
#include <QObject>
#include <QStringList>

#include <map>
#include <memory>
#include <optional>

namespace glosa {

class HistoryRecorder;
class InferenceWorker;
class PluginRegistry;

// The model chosen for a task, and whether it can run.
struct ModelChoice
{
    // Why the choice cannot run; the GUI words it (unavailableText() in app/core/displaynames.h).
    enum class Status {
        Ready,         // `model` is installed and its plugin is loaded
        NoneInstalled, // no model package at all
        NoneUsable,    // packages, but none of this task that can run (Help ▸ Models says why)
        PluginMissing, // `model`'s family has no plugin
    };

    QString task; // as ModelInfo::task: AppContext::kTranslation or kCaptioning
    std::optional<ModelInfo> model;
    Status status = Status::NoneInstalled;

    bool isReady() const { return status == Status::Ready; }
};

class AppContext : public QObject
{
    Q_OBJECT
public:
    static inline const QString kTranslation = taskKey(engine::Task::Translation);
    static inline const QString kCaptioning = taskKey(engine::Task::Captioning);

    // Finds the plugins and models in their default folders (PluginRegistry::defaultSearchPaths,
    // ModelCatalog::defaultSearchPaths) and chooses a model for each task.
    explicit AppContext(QObject *parent = nullptr);
    // The same with the given folders only (tests).
    AppContext(const QStringList &pluginFolders, const QStringList &modelFolders,
               QObject *parent = nullptr);
    // Stops and joins the workers first: a worker thread may still be loading from the registry.
    ~AppContext() override;

    // Never changed after the constructor, so that no thread reads it while it changes.
    const std::shared_ptr<const PluginRegistry> &plugins() const { return m_plugins; }
    // How every worker loads a model, on its own thread, each an instance of its own
    // (modelloader.h says why one instance is not shared between threads): the workers of
    // workerFor(), the Documents view's and the Evaluate dialog's.
    ModelLoader modelLoader() const { return ModelLoader(m_plugins); }
    const ModelCatalog &catalog() const { return m_catalog; }
    // Not opened yet: the window opens it once it can report what open() finds.
    HistoryRecorder *history() const { return m_history; }
    // The worker of a model, created (and the model loading) on first use.
    InferenceWorker *workerFor(const ModelInfo &info);

    ModelChoice choice(const QString &task) const;
    // Who chose: a User choice (the model picker) is remembered as the user's model for its
    // direction (QSettings), which modelForDirection() prefers from then on.
    enum class ChosenBy { Program, User };
    // Makes the installed model `id` the choice for its task (modelChosen, unless it was chosen
    // already); false, and nothing changes, when the catalog has no such model.
    bool chooseModel(const QString &id, ChosenBy by = ChosenBy::Program);
    // The translation model for `source` → `target`: the user's last choice for that direction
    // while it is installed, else the direction's default (ModelCatalog::defaultModel: the package
    // that declares itself the default). std::nullopt when no installed model translates that way.
    std::optional<ModelInfo> modelForDirection(const QString &source, const QString &target) const;
    // Scans the model folders again (after an import): each task keeps its model when it is
    // still there, else gets the default for the UI language.
    void rescanModels();
    // Loads every model in use again (Settings ▸ Arithmetic changed: computeTypeFromSettings()).
    void reloadModels();

signals:
    // The catalog changed (rescanModels()); modelChosen follows for every task.
    void modelsChanged();
    void modelChosen(const glosa::ModelChoice &choice);
    // A worker finished loading its model, or could not.
    void modelLoaded(const glosa::ModelInfo &info);
    void modelLoadFailed(const glosa::ModelInfo &info, const QString &message);

private:
    // The available (valid, not shadowed) model `id` of the catalog.
    std::optional<ModelInfo> installed(const QString &id) const;
    void choose(const QString &task, const std::optional<ModelInfo> &model);

    QStringList m_modelFolders;
    bool m_defaultModelFolders = false; // m_modelFolders is ModelCatalog::defaultSearchPaths()
    std::shared_ptr<const PluginRegistry> m_plugins;
    ModelCatalog m_catalog;
    HistoryRecorder *m_history = nullptr;                          // a child
    QHash<QString, ModelChoice> m_choices;                         // by task
    std::map<QString, std::unique_ptr<InferenceWorker>> m_workers; // by model id
};

} // namespace glosa
