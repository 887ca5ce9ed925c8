#include "app/gui/modelbar.h"

#include "app/core/appcontext.h"
#include "app/core/presenters/modelpickerpresenter.h"
#include "app/core/displaynames.h"

#include <QComboBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QStandardItemModel>
#include <QStyledItemDelegate>
#include <QToolButton>

namespace glosa {

namespace {
// A model's entry as its direction's list shows it ("Transformer, general domain"): the closed
// picker shows the whole entry, direction included.
constexpr int kEntryRole = Qt::UserRole + 1;

// The open list: the direction headings as they are, each model under its heading by what
// tells it apart.
class GroupedDelegate : public QStyledItemDelegate
{
public:
    using QStyledItemDelegate::QStyledItemDelegate;

protected:
    void initStyleOption(QStyleOptionViewItem *option, const QModelIndex &index) const override
    {
        QStyledItemDelegate::initStyleOption(option, index);
        const QString entry = index.data(kEntryRole).toString();
        if (!entry.isEmpty())
            option->text = QStringLiteral("    ") + entry;
    }
};

// What tells a model apart within its direction: its architecture in the UI language, or where
// several share it (the general and the Tatoeba-only Transformer, three RNNs) the parenthesis of
// the package name ("Transformer, general domain", "RNN, Bahdanau attention"), else the id.
QString modelKind(const ModelInfo &info, bool sharesArchitecture)
{
    if (!sharesArchitecture)
        return architectureName(info.architecture);
    const QString name = modelName(info);
    const qsizetype open = name.lastIndexOf(QLatin1Char('('));
    const qsizetype close = name.lastIndexOf(QLatin1Char(')'));
    return open >= 0 && close > open + 1 ? name.mid(open + 1, close - open - 1) : info.id;
}

QString directionName(const QString &source, const QString &target)
{
    return QStringLiteral("%1 → %2").arg(languageName(source), languageName(target));
}
} // namespace

ModelBar::ModelBar(AppContext &context, QWidget *parent)
    : QWidget(parent), m_context(context), m_presenter(new ModelPickerPresenter(context, this))
{
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(16, 10, 16, 0);
    m_label = new QLabel(this);
    m_models = new QComboBox(this);
    m_models->setObjectName(QStringLiteral("modelPicker"));
    m_models->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_models->setMinimumContentsLength(28);
    m_models->setItemDelegate(new GroupedDelegate(m_models));
    m_label->setBuddy(m_models);
    m_swap = new QToolButton(this);
    m_swap->setText(QStringLiteral("⇄"));
    m_state = new QLabel(this);
    m_state->setForegroundRole(QPalette::PlaceholderText);
    layout->addWidget(m_label);
    layout->addWidget(m_models);
    layout->addWidget(m_swap);
    layout->addSpacing(12);
    layout->addWidget(m_state);
    // A quiet offer of a stronger model for the direction; nothing is sent to the network until
    // it is clicked.
    m_hubHint = new QLabel(this);
    m_hubHint->setObjectName(QStringLiteral("hubHint"));
    m_hubHint->setTextFormat(Qt::RichText);
    m_hubHint->setForegroundRole(QPalette::PlaceholderText);
    m_hubHint->setVisible(false);
    layout->addWidget(m_hubHint, 1, Qt::AlignRight);

    connect(m_hubHint, &QLabel::linkActivated, this, &ModelBar::getModelsRequested);
    connect(m_swap, &QToolButton::clicked, this, &ModelBar::swapRequested);
    connect(m_models, &QComboBox::currentIndexChanged, this,
            [this] { m_presenter->choose(currentModelId()); });
    connect(m_presenter, &ModelPickerPresenter::modelsChanged, this, &ModelBar::fill);
    connect(m_presenter, &ModelPickerPresenter::choiceChanged, this, &ModelBar::showChoice);
    fill();
    retranslateUi();
}

QString ModelBar::currentModelId() const
{
    return m_models->currentData().toString();
}

void ModelBar::setForCaptions(bool captions)
{
    m_forCaptions = captions;
    m_label->setText(captions ? tr("Translate captions &with:") : tr("&Model:"));
}

void ModelBar::fill()
{
    const QSignalBlocker block(m_models); // the context's choice selects the entry
    m_models->clear();
    auto *model = qobject_cast<QStandardItemModel *>(m_models->model());
    for (const ModelPickerPresenter::Group &group : m_presenter->groups()) {
        // The direction's heading: named, not choosable.
        m_models->addItem(directionName(group.source, group.target));
        QStandardItem *heading = model->item(m_models->count() - 1);
        heading->setFlags(Qt::NoItemFlags);
        QFont bold = m_models->font();
        bold.setBold(true);
        heading->setFont(bold);
        for (const ModelInfo &info : group.models) {
            QString kind = modelKind(info, m_presenter->sharesArchitecture(info));
            const QString entry = QStringLiteral("%1 · %2").arg(
                directionName(info.sourceLanguage, info.targetLanguage), kind);
            if (m_presenter->isDefault(info))
                kind = tr("%1 (default)").arg(kind);
            m_models->addItem(entry, info.id);
            m_models->setItemData(m_models->count() - 1, kind, kEntryRole);
            m_models->setItemData(m_models->count() - 1, modelName(info), Qt::ToolTipRole);
        }
    }
    m_models->setEnabled(m_models->count() > 0);
    showChoice();
}

void ModelBar::showChoice()
{
    const std::optional<ModelInfo> model = m_presenter->current();
    {
        const QSignalBlocker block(m_models);
        m_models->setCurrentIndex(model ? m_models->findData(model->id) : -1);
    }
    using State = ModelPickerPresenter::State;
    switch (m_presenter->state()) {
    case State::Ready:
        m_state->setText(tr("Ready"));
        break;
    case State::Loading:
        m_state->setText(tr("Loading…"));
        break;
    case State::LoadFailed:
        m_state->setText(tr("Could not load the model"));
        break;
    case State::Unavailable:
        m_state->setText(unavailableText(m_context.choice(AppContext::kTranslation)));
        break;
    }
    const bool reverse = bool(m_presenter->reverseModel());
    m_swap->setEnabled(reverse);
    if (model && !reverse)
        m_swap->setToolTip(
            tr("No %1 → %2 model is installed")
                .arg(languageName(model->targetLanguage), languageName(model->sourceLanguage)));
    else
        m_swap->setToolTip(tr("Swap languages (Ctrl+Shift+S)"));
    showHubOffer();
}

void ModelBar::showHubOffer()
{
    const std::optional<KnownHubModel> offer = m_presenter->hubOffer();
    m_hubHint->setVisible(bool(offer));
    if (!offer)
        return;
    const QString text = tr("A stronger %1 → %2 model is available from OPUS-MT (≈ %3)")
                             .arg(languageName(offer->source), languageName(offer->target),
                                  QLocale().formattedDataSize(offer->approximateBytes, 0,
                                                              QLocale::DataSizeSIFormat));
    m_hubHint->setText(QStringLiteral("<a href=\"%1\">%2</a>")
                           .arg(offer->repo.toHtmlEscaped(), text.toHtmlEscaped()));
    m_hubHint->setToolTip(tr("Opens Get models… with %1 chosen; nothing is downloaded until you "
                             "click Download")
                              .arg(offer->repo));
}

void ModelBar::retranslateUi()
{
    setForCaptions(m_forCaptions);
    m_models->setAccessibleName(tr("Translation model"));
    m_swap->setAccessibleName(tr("Swap languages"));
    fill(); // the language names, the architectures and the state, in the new language
}

void ModelBar::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslateUi();
    QWidget::changeEvent(event);
}

} // namespace glosa
