// ModelLoader: how the app turns an installed package into an engine::Model. The composition root
// makes it (AppContext::modelLoader(), with the plugins it scanned) and hands it to every worker
// that needs a model (InferenceWorker, DocumentWorker, EvaluationWorker); each worker calls
// load() on its own thread, so the GUI thread never reads weights.
//
// Basic usage:
//     glosa::ModelLoader loader = context.modelLoader();    // GUI thread
//     QString error;                                         // a worker thread:
//     std::shared_ptr<glosa::engine::Model> model = loader.load(info, computeType, &error);
//
// Why each worker loads a model of its own instead of sharing one engine::Model: a model is
// driven by one thread at a time (engine/translation/translationmodel.h, translator.h). Its
// weights and oneDNN primitive caches are safe to read from several threads (ops/dnnlutil.h
// locks its caches; scratch buffers are thread_local), but the model also holds per-use state:
// the cross-attention the alignments come from (AlignmentSource::setAlignment, which the
// Translate view changes per request) and the arithmetic it was packed in. A document
// translating for minutes beside the Translate view would read that state while the other
// thread writes it. A second instance costs the package's size again (15 MB for the shipped
// Transformer) and nothing else.
#pragma once

#include "app/core/models/modelcatalog.h"
#include "engine/model.h"

#include <QString>

#include <memory>

namespace glosa {

class PluginRegistry;

class ModelLoader
{
public:
    // Loads nothing (load() says that no model is chosen): a worker with no context (tests).
    ModelLoader() = default;
    // The registry is shared, not copied: a load under way keeps it alive even when the
    // context that scanned it is gone (the main window at shutdown, tests/gui/tst_shutdown.cpp).
    explicit ModelLoader(std::shared_ptr<const PluginRegistry> plugins);

    // A new instance of `info`'s model in `computeType`; null with the reason in *error when it
    // cannot load. Thread-safe: the registry is never changed after its scan.
    std::shared_ptr<engine::Model> load(const ModelInfo &info, engine::ComputeType computeType,
                                        QString *error) const;

private:
    std::shared_ptr<const PluginRegistry> m_plugins;
};

} // namespace glosa
