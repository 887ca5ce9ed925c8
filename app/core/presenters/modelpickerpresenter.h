// The window's model bar as state: which translation models are offered, grouped by direction
// (each direction's default first), which one is chosen and whether it is loaded, the reverse
// direction's model for ⇄, and the OPUS-MT model the bar may offer for the direction. The GUI's
// ModelBar renders it and forwards the user's picks; the choice itself stays the AppContext's.
#pragma once

#include "app/core/hub/knownmodels.h"
#include "app/core/models/modelcatalog.h"

#include <QList>
#include <QObject>

#include <optional>

namespace glosa {

class AppContext;
struct ModelChoice;

class ModelPickerPresenter : public QObject
{
    Q_OBJECT
public:
    // One direction's translation models: its default first, then the others as the catalog
    // lists them.
    struct Group
    {
        QString source;
        QString target;
        QList<ModelInfo> models;
    };
    // Where the chosen model stands.
    enum class State { Unavailable, Loading, Ready, LoadFailed };

    explicit ModelPickerPresenter(AppContext &context, QObject *parent = nullptr);

    // The installed translation models by direction, the directions in the order of their
    // language codes (en → de, en → es, es → en): the order never depends on what is chosen.
    QList<Group> groups() const;
    // Whether another installed model shares `info`'s direction and architecture, so that its
    // entry has to say which one it is (the general and the Tatoeba-only Transformer).
    bool sharesArchitecture(const ModelInfo &info) const;
    // Whether `info` is its direction's default (ModelCatalog::defaultModel).
    bool isDefault(const ModelInfo &info) const;

    std::optional<ModelInfo> current() const;
    State state() const { return m_state; }
    // The reverse direction's model by the one rule (AppContext::modelForDirection): what ⇄
    // chooses; std::nullopt when none is installed.
    std::optional<ModelInfo> reverseModel() const;
    // A stronger model for the chosen direction that Get models… can download, while none of
    // its kind is installed.
    std::optional<KnownHubModel> hubOffer() const;

    // The user picked `id`: remembered as their model for its direction.
    void choose(const QString &id);

signals:
    // The list changed (a model imported or removed): groups() again.
    void modelsChanged();
    // The choice or its state changed: current(), state(), reverseModel(), hubOffer().
    void choiceChanged();

private:
    void updateChoice(const ModelChoice &choice);

    AppContext &m_context;
    State m_state = State::Unavailable;
};

} // namespace glosa
