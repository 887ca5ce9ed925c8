#include "app/gui/widgets/decodingpanel.h"

#include "app/core/inference/decodingrequest.h"
#include "app/core/settings/decodingfieldinfo.h"
#include "app/core/settings/settings.h"
#include "app/gui/widgets/uint64spinbox.h"
#include "engine/decoding/decodingfields.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QEvent>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QInputDialog>
#include <QLabel>
#include <QRandomGenerator>
#include <QSpinBox>
#include <QToolButton>
#include <QVBoxLayout>

#include <cmath>
#include <type_traits>

namespace glosa {

namespace {

constexpr int kDecimals = 2;

// A control for one setting, from its rows: a combo box for a choice, a spin box for a number
// with the engine row's range (an exclusive minimum starts one step of the box's precision above
// it) and the app row's step.
QWidget *makeControl(const DecodingFieldInfo &info, QWidget *parent)
{
    const engine::DecodingField &field = info.field();
    return std::visit(
        [&](auto member) -> QWidget * {
            using T = std::remove_cvref_t<decltype(engine::DecodingOptions().*member)>;
            if constexpr (std::is_enum_v<T>) {
                auto *box = new QComboBox(parent);
                for (qsizetype i = 0; i < qsizetype(info.choices.size()); ++i)
                    box->addItem(QString(), int(i));
                return box;
            } else if constexpr (std::is_same_v<T, float>) {
                auto *box = new QDoubleSpinBox(parent);
                box->setDecimals(kDecimals);
                box->setRange(field.minExclusive ? field.min + std::pow(10.0, -kDecimals)
                                                 : field.min,
                              info.controlMaximum());
                box->setSingleStep(info.step);
                return box;
            } else if constexpr (std::is_same_v<T, std::uint64_t>) {
                return new UInt64SpinBox(parent);
            } else if constexpr (std::is_same_v<T, int>) {
                auto *box = new QSpinBox(parent);
                box->setRange(int(field.min), int(field.max));
                box->setSingleStep(int(info.step));
                return box;
            } else {
                return nullptr; // token ids and switches are set by packages and views
            }
        },
        field.member);
}

void setFormRowVisible(QFormLayout *form, QWidget *field, bool visible)
{
    // QFormLayout::setRowVisible arrived in Qt 6.4; hide both halves of the row.
    if (QWidget *label = form->labelForField(field))
        label->setVisible(visible);
    field->setVisible(visible);
}

} // namespace

DecodingPanel::DecodingPanel(QWidget *parent, bool compact) : QWidget(parent), m_compact(compact)
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(10);

    auto *presetRow = new QHBoxLayout;
    m_presetLabel = new QLabel(this);
    m_presets = new QComboBox(this);
    // As wide as its longest preset ("Valores predeterminados del modelo"): the panel scrolls
    // sideways in a narrow window instead of cutting the name.
    m_presets->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_presetLabel->setBuddy(m_presets);
    m_savePreset = new QToolButton(this);
    m_deletePreset = new QToolButton(this);
    // The label and the buttons above the preset, not beside it: beside it the panel needed 431
    // pixels in Spanish, more than its column has at 1280 × 800, and scrolled sideways; with the
    // buttons beside it, 361 pixels, one more than the column has once the open Advanced section
    // brings a vertical scroll bar.
    presetRow->addWidget(m_presetLabel);
    presetRow->addStretch(1);
    presetRow->addWidget(m_savePreset);
    presetRow->addWidget(m_deletePreset);
    m_savePreset->setVisible(!compact);
    m_deletePreset->setVisible(!compact);
    layout->addLayout(presetRow);
    layout->addWidget(m_presets);

    m_searchGroup = new QGroupBox(this);
    m_searchForm = new QFormLayout(m_searchGroup);
    layout->addWidget(m_searchGroup);

    // "Advanced": the jargon (normalisations, penalties, limits) a new user need not meet, folded
    // until opened.
    m_advancedToggle = new QToolButton(this);
    m_advancedToggle->setCheckable(true);
    m_advancedToggle->setAutoRaise(true);
    m_advancedToggle->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    m_advancedToggle->setArrowType(Qt::RightArrow);
    m_advanced = new QGroupBox(this);
    m_advancedForm = new QFormLayout(m_advanced);
    m_advanced->setVisible(false);
    layout->addWidget(m_advancedToggle);
    layout->addWidget(m_advanced);
    layout->addStretch(1);

    addControls();

    showOptions(m_modelDefaults);
    reloadPresets();
    m_presets->setCurrentIndex(m_presets->findData(QLatin1String(kModelPreset)));
    retranslateUi();

    connectControls();
    connect(m_advancedToggle, &QToolButton::toggled, this, &DecodingPanel::setAdvancedOpen);
    connect(m_presets, &QComboBox::activated, this,
            [this](int index) { applyPreset(m_presets->itemData(index).toString()); });
    connect(m_savePreset, &QToolButton::clicked, this, &DecodingPanel::savePreset);
    connect(m_deletePreset, &QToolButton::clicked, this, &DecodingPanel::deletePreset);
}

// A control for each decoding field a person sets, in the Search group or under Advanced.
void DecodingPanel::addControls()
{
    for (const DecodingFieldInfo &info : decodingFieldInfos()) {
        if (!info.isSetting())
            continue;
        const engine::DecodingField &field = info.field();
        QWidget *widget = makeControl(info, this);
        if (!widget)
            continue;
        QWidget *row = widget;
        if (std::holds_alternative<std::uint64_t engine::DecodingOptions::*>(field.member)) {
            // The seed, and a button that draws a new one.
            row = new QWidget(this);
            auto *rowLayout = new QHBoxLayout(row);
            rowLayout->setContentsMargins(0, 0, 0, 0);
            widget->setParent(row);
            m_newSeed = new QToolButton(row);
            rowLayout->addWidget(widget, 1);
            rowLayout->addWidget(m_newSeed);
            connect(m_newSeed, &QToolButton::clicked, widget, [widget] {
                static_cast<UInt64SpinBox *>(widget)->setValue(
                    QRandomGenerator::global()->generate64());
            });
        }
        QFormLayout *form = info.group == DecodingGroup::Search ? m_searchForm : m_advancedForm;
        auto *label = new QLabel(this);
        label->setBuddy(widget);
        form->addRow(label, row);
        m_controls << Control{&field, &info, widget, row, form};
    }

    for (QFormLayout *form : {m_searchForm, m_advancedForm}) {
        form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
        // A long label ("Penalización suave de n-gramas λ:") goes above its field when the
        // column is narrow, rather than pushing the field out of sight.
        form->setRowWrapPolicy(QFormLayout::WrapLongRows);
        form->setLabelAlignment(Qt::AlignRight | Qt::AlignVCenter);
    }
}

void DecodingPanel::connectControls()
{
    for (const Control &c : std::as_const(m_controls)) {
        if (auto *box = qobject_cast<QComboBox *>(c.widget))
            connect(box, &QComboBox::currentIndexChanged, this, &DecodingPanel::onControlChanged);
        else if (auto *box = qobject_cast<QSpinBox *>(c.widget))
            connect(box, &QSpinBox::valueChanged, this, &DecodingPanel::onControlChanged);
        else if (auto *box = qobject_cast<QDoubleSpinBox *>(c.widget))
            connect(box, &QDoubleSpinBox::valueChanged, this, &DecodingPanel::onControlChanged);
        else if (auto *box = qobject_cast<UInt64SpinBox *>(c.widget))
            connect(box, &UInt64SpinBox::valueChanged, this, &DecodingPanel::onControlChanged);
    }
}

QWidget *DecodingPanel::controlFor(const engine::DecodingField &field) const
{
    for (const Control &c : m_controls)
        if (c.field == &field)
            return c.widget;
    return nullptr;
}

QWidget *DecodingPanel::control(const char *name) const
{
    const engine::DecodingField *field = engine::findDecodingField(name);
    return field ? controlFor(*field) : nullptr;
}

bool DecodingPanel::isAdvancedOpen() const
{
    return m_advancedToggle->isChecked();
}

void DecodingPanel::setAdvancedOpen(bool open)
{
    m_advancedToggle->setChecked(open);
    m_advancedToggle->setArrowType(open ? Qt::DownArrow : Qt::RightArrow);
    m_advanced->setVisible(open);
}

QString DecodingPanel::presetDisplayName(const QString &key)
{
    if (key == QLatin1String("Greedy"))
        return tr("Greedy");
    if (key == QLatin1String("Beam 5"))
        return tr("Beam 5");
    if (key == QLatin1String("Beam 5 + no-repeat 3-gram"))
        return tr("Beam 5 + no-repeat 3-gram");
    if (key == QLatin1String("Top-k 40, T 0.8"))
        return tr("Top-k 40, T 0.8");
    if (key == QLatin1String("Top-p 0.9"))
        return tr("Top-p 0.9");
    return key;
}

void DecodingPanel::retranslateUi()
{
    m_presetLabel->setText(tr("&Preset:"));
    m_savePreset->setText(tr("Save…"));
    m_savePreset->setToolTip(tr("Save these settings as a preset"));
    m_deletePreset->setText(tr("Delete"));
    m_deletePreset->setToolTip(tr("Delete the selected preset"));
    m_searchGroup->setTitle(tr("Search"));
    m_advancedToggle->setText(tr("Advanced"));
    m_advancedToggle->setToolTip(
        tr("Length normalisation, penalties against repetition and length limits"));
    m_newSeed->setText(tr("New"));
    m_newSeed->setToolTip(tr("Draw a new random seed"));

    for (const Control &c : std::as_const(m_controls)) {
        const QString label = c.info->translatedLabel();
        const QString tip = c.info->translatedTip();
        if (auto *shown = qobject_cast<QLabel *>(c.form->labelForField(c.row))) {
            shown->setText(label);
            shown->setToolTip(tip);
        }
        c.widget->setToolTip(tip);
        if (auto *box = qobject_cast<QComboBox *>(c.widget))
            for (int i = 0; i < box->count(); ++i)
                box->setItemText(i, c.info->translatedChoice(std::size_t(i)));
        QString accessible = label;
        accessible.remove(QLatin1Char('&'));
        accessible.remove(QLatin1Char(':'));
        c.widget->setAccessibleName(accessible);
    }
    m_presets->setAccessibleName(tr("Decoding preset"));
    reloadPresets();
}

void DecodingPanel::changeEvent(QEvent *event)
{
    if (m_advancedToggle && event->type() == QEvent::LanguageChange)
        retranslateUi();
    QWidget::changeEvent(event);
}

void DecodingPanel::reloadPresets()
{
    const QString current = currentPresetName();
    const bool wasUpdating = m_updating;
    m_updating = true;
    m_presets->clear();
    m_presets->addItem(tr("Custom"), QString());
    m_presets->addItem(tr("Model's defaults"), QLatin1String(kModelPreset));
    for (const DecodingPreset &preset : builtInPresets())
        m_presets->addItem(presetDisplayName(preset.name), preset.name);
    const QVariantMap user = settings::presets.value();
    for (auto it = user.begin(); it != user.end(); ++it)
        m_presets->addItem(it.key(), it.key());
    const int index = m_presets->findData(current);
    m_presets->setCurrentIndex(index < 0 ? 0 : index);
    m_updating = wasUpdating;
}

QString DecodingPanel::currentPresetName() const
{
    return m_presets ? m_presets->currentData().toString() : QString();
}

bool DecodingPanel::applyPreset(const QString &name)
{
    if (name.isEmpty())
        return false;
    if (name == QLatin1String(kModelPreset)) {
        showOptions(m_modelDefaults);
        m_presets->setCurrentIndex(m_presets->findData(name));
        emit optionsChanged();
        return true;
    }
    for (const DecodingPreset &preset : builtInPresets()) {
        if (preset.name == name) {
            showOptions(preset.options);
            m_presets->setCurrentIndex(m_presets->findData(name));
            emit optionsChanged();
            return true;
        }
    }
    const QVariantMap user = settings::presets.value();
    if (!user.contains(name))
        return false;
    showOptions(decodingOptionsFromMap(user.value(name).toMap()));
    m_presets->setCurrentIndex(m_presets->findData(name));
    emit optionsChanged();
    return true;
}

void DecodingPanel::savePreset()
{
    bool ok = false;
    const QString name = QInputDialog::getText(this, tr("Save preset"), tr("Preset name:"),
                                               QLineEdit::Normal, QString(), &ok)
                             .trimmed();
    if (!ok || name.isEmpty())
        return;
    QVariantMap user = settings::presets.value();
    user.insert(name, decodingOptionsToMap(options()));
    settings::presets.setValue(user);
    reloadPresets();
    m_presets->setCurrentIndex(m_presets->findData(name));
}

void DecodingPanel::deletePreset()
{
    const QString name = currentPresetName();
    QVariantMap user = settings::presets.value();
    if (!user.remove(name))
        return; // built-ins cannot be deleted
    settings::presets.setValue(user);
    reloadPresets();
}

void DecodingPanel::readControl(const Control &c, engine::DecodingOptions &o) const
{
    std::visit(
        [&](auto member) {
            using T = std::remove_cvref_t<decltype(o.*member)>;
            if constexpr (std::is_enum_v<T>)
                o.*member = T(static_cast<QComboBox *>(c.widget)->currentData().toInt());
            else if constexpr (std::is_same_v<T, float>)
                o.*member = float(static_cast<QDoubleSpinBox *>(c.widget)->value());
            else if constexpr (std::is_same_v<T, std::uint64_t>)
                o.*member = static_cast<UInt64SpinBox *>(c.widget)->value();
            else if constexpr (std::is_same_v<T, int>)
                o.*member = static_cast<QSpinBox *>(c.widget)->value();
        },
        c.field->member);
}

void DecodingPanel::showControl(const Control &c, const engine::DecodingOptions &o)
{
    std::visit(
        [&](auto member) {
            using T = std::remove_cvref_t<decltype(o.*member)>;
            const T &value = o.*member;
            if constexpr (std::is_enum_v<T>) {
                auto *box = static_cast<QComboBox *>(c.widget);
                box->setCurrentIndex(box->findData(int(value)));
            } else if constexpr (std::is_same_v<T, float>) {
                auto *box = static_cast<QDoubleSpinBox *>(c.widget);
                // A value above what the box offers (α 8 from a model.json) is shown, not cut.
                if (value > box->maximum())
                    box->setMaximum(value);
                box->setValue(value);
            } else if constexpr (std::is_same_v<T, std::uint64_t>) {
                static_cast<UInt64SpinBox *>(c.widget)->setValue(value);
            } else if constexpr (std::is_same_v<T, int>) {
                static_cast<QSpinBox *>(c.widget)->setValue(value);
            }
        },
        c.field->member);
}

engine::DecodingOptions DecodingPanel::options() const
{
    engine::DecodingOptions shown;
    for (const Control &c : m_controls)
        readControl(c, shown);
    // Over the model's defaults (suppressed tokens such as <pad>, never a word), with Settings ▸
    // Do not translate.
    return decodingRequest(m_modelDefaults, everySetting(shown));
}

void DecodingPanel::setOptions(const engine::DecodingOptions &options)
{
    showOptions(options);
    const bool wasUpdating = m_updating;
    m_updating = true;
    m_presets->setCurrentIndex(std::max(0, int(m_presets->findData(presetFor(this->options())))));
    m_updating = wasUpdating;
}

QString DecodingPanel::presetFor(const engine::DecodingOptions &options) const
{
    const auto key = decodingPresetKey;
    const QVariantMap wanted = key(options);
    if (key(m_modelDefaults) == wanted)
        return QLatin1String(kModelPreset);
    for (const DecodingPreset &preset : builtInPresets())
        if (key(preset.options) == wanted)
            return preset.name;
    const QVariantMap user = settings::presets.value();
    for (auto it = user.begin(); it != user.end(); ++it)
        if (key(decodingOptionsFromMap(it.value().toMap())) == wanted)
            return it.key();
    return QString();
}

void DecodingPanel::setModelDefaults(const engine::DecodingOptions &defaults)
{
    m_modelDefaults = defaults;
    if (currentPresetName() == QLatin1String(kModelPreset)) {
        showOptions(defaults);
        emit optionsChanged();
    }
}

void DecodingPanel::showOptions(const engine::DecodingOptions &o)
{
    const bool wasUpdating = m_updating;
    m_updating = true;
    for (const Control &c : std::as_const(m_controls))
        showControl(c, o);
    m_updating = wasUpdating;
    updateEnabled();
}

void DecodingPanel::updateEnabled()
{
    const engine::DecodingOptions o = options();
    // A control is shown in the strategies whose search reads its field (the engine's row).
    for (const Control &c : std::as_const(m_controls))
        setFormRowVisible(c.form, c.row, c.field->appliesTo(o.strategy));
    control("length_penalty")
        ->setEnabled(o.lengthNormalization == engine::LengthNormalization::Gnmt ||
                     o.lengthNormalization == engine::LengthNormalization::Power);
    control("ngram_penalty_size")->setEnabled(o.ngramPenalty > 0.0f);
}

void DecodingPanel::onControlChanged()
{
    updateEnabled();
    if (m_updating)
        return;
    // Any manual change leaves the preset: the combo says "Custom" so it never lies.
    m_updating = true;
    m_presets->setCurrentIndex(0);
    m_updating = false;
    emit optionsChanged();
}

} // namespace glosa
