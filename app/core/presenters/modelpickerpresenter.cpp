#include "app/core/presenters/modelpickerpresenter.h"

#include "app/core/appcontext.h"
#include "app/core/inference/inferenceworker.h"

#include <algorithm>

namespace glosa {

ModelPickerPresenter::ModelPickerPresenter(AppContext &context, QObject *parent)
    : QObject(parent), m_context(context)
{
    connect(&context, &AppContext::modelsChanged, this, &ModelPickerPresenter::modelsChanged);
    connect(&context, &AppContext::modelChosen, this, &ModelPickerPresenter::updateChoice);
    connect(&context, &AppContext::modelLoaded, this, [this](const ModelInfo &info) {
        const std::optional<ModelInfo> chosen = current();
        if (!chosen || chosen->id != info.id)
            return;
        m_state = State::Ready;
        emit choiceChanged();
    });
    connect(&context, &AppContext::modelLoadFailed, this,
            [this](const ModelInfo &, const QString &) {
                m_state = State::LoadFailed;
                emit choiceChanged();
            });
    updateChoice(context.choice(AppContext::kTranslation));
}

QList<ModelPickerPresenter::Group> ModelPickerPresenter::groups() const
{
    QList<Group> groups;
    for (const ModelInfo &info : m_context.catalog().availableModels()) {
        if (info.task != AppContext::kTranslation)
            continue;
        auto group = std::find_if(groups.begin(), groups.end(), [&](const Group &g) {
            return g.source == info.sourceLanguage && g.target == info.targetLanguage;
        });
        if (group == groups.end())
            group =
                groups.insert(groups.end(), Group{info.sourceLanguage, info.targetLanguage, {}});
        // The default first; the rest keep the catalog's order.
        if (isDefault(info))
            group->models.prepend(info);
        else
            group->models.append(info);
    }
    std::stable_sort(groups.begin(), groups.end(), [](const Group &a, const Group &b) {
        return std::pair(a.source, a.target) < std::pair(b.source, b.target);
    });
    return groups;
}

bool ModelPickerPresenter::sharesArchitecture(const ModelInfo &info) const
{
    const QList<ModelInfo> all = m_context.catalog().availableModels();
    return std::count_if(all.begin(), all.end(), [&](const ModelInfo &other) {
               return other.task == info.task && other.sourceLanguage == info.sourceLanguage &&
                      other.targetLanguage == info.targetLanguage &&
                      other.architecture == info.architecture;
           }) > 1;
}

bool ModelPickerPresenter::isDefault(const ModelInfo &info) const
{
    const std::optional<ModelInfo> chosen =
        m_context.catalog().defaultModel(info.task, info.sourceLanguage, info.targetLanguage);
    return chosen && chosen->id == info.id;
}

std::optional<ModelInfo> ModelPickerPresenter::current() const
{
    return m_context.choice(AppContext::kTranslation).model;
}

std::optional<ModelInfo> ModelPickerPresenter::reverseModel() const
{
    const std::optional<ModelInfo> info = current();
    return info ? m_context.modelForDirection(info->targetLanguage, info->sourceLanguage)
                : std::nullopt;
}

std::optional<KnownHubModel> ModelPickerPresenter::hubOffer() const
{
    const std::optional<ModelInfo> model = current();
    return model ? suggestedHubModel(m_context.catalog(), model->sourceLanguage,
                                     model->targetLanguage)
                 : std::nullopt;
}

void ModelPickerPresenter::choose(const QString &id)
{
    m_context.chooseModel(id, AppContext::ChosenBy::User);
}

void ModelPickerPresenter::updateChoice(const ModelChoice &choice)
{
    if (choice.task != AppContext::kTranslation)
        return;
    if (!choice.isReady())
        m_state = State::Unavailable;
    else
        m_state =
            m_context.workerFor(*choice.model)->isModelLoaded() ? State::Ready : State::Loading;
    emit choiceChanged();
}

} // namespace glosa
