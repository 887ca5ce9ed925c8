#include "decodingpanel.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QEvent>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QInputDialog>
#include <QLabel>
#include <QRandomGenerator>
#include <QSettings>
#include <QSpinBox>
#include <QToolButton>
#include <QVBoxLayout>

namespace glosa {

namespace {
QSpinBox *intBox(int min, int max, QWidget *parent)
{
    auto *box = new QSpinBox(parent);
    box->setRange(min, max);
    return box;
}
QDoubleSpinBox *realBox(double min, double max, double step, int decimals, QWidget *parent)
{
    auto *box = new QDoubleSpinBox(parent);
    box->setRange(min, max);
    box->setSingleStep(step);
    box->setDecimals(decimals);
    return box;
}
void setRowVisible(QFormLayout *form, QWidget *field, bool visible)
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
    // The label above the preset and its buttons, not beside them: beside them the panel needed
    // 431 pixels in Spanish, more than its column has at 1280 × 800, and scrolled sideways.
    presetRow->addWidget(m_presets, 1);
    presetRow->addWidget(m_savePreset);
    presetRow->addWidget(m_deletePreset);
    m_savePreset->setVisible(!compact);
    m_deletePreset->setVisible(!compact);
    layout->addWidget(m_presetLabel);
    layout->addLayout(presetRow);

    m_searchGroup = new QGroupBox(this);
    m_searchForm = new QFormLayout(m_searchGroup);
    m_strategy = new QComboBox(this);
    m_strategy->addItem(QString(), int(engine::SearchStrategy::Greedy));
    m_strategy->addItem(QString(), int(engine::SearchStrategy::Beam));
    m_strategy->addItem(QString(), int(engine::SearchStrategy::Sample));
    m_beamSize = intBox(1, 64, this);
    m_nBest = intBox(1, 16, this);
    m_normalization = new QComboBox(this);
    m_normalization->addItem(QString(), int(engine::LengthNormalization::None));
    m_normalization->addItem(QString(), int(engine::LengthNormalization::Gnmt));
    m_normalization->addItem(QString(), int(engine::LengthNormalization::Average));
    m_normalization->addItem(QString(), int(engine::LengthNormalization::Power));
    m_lengthPenalty = realBox(0.0, 3.0, 0.1, 2, this);
    m_coveragePenalty = realBox(0.0, 2.0, 0.05, 2, this);
    m_earlyStopping = new QComboBox(this);
    m_earlyStopping->addItem(QString(), int(engine::EarlyStopping::Heuristic));
    m_earlyStopping->addItem(QString(), int(engine::EarlyStopping::Bounded));
    m_earlyStopping->addItem(QString(), int(engine::EarlyStopping::Eager));
    m_earlyStopping->addItem(QString(), int(engine::EarlyStopping::Beam));
    m_maxLength = intBox(1, 4096, this);
    m_maxLengthRatio = realBox(0.0, 10.0, 0.5, 1, this);
    m_minLength = intBox(0, 512, this);
    m_searchForm->addRow(new QLabel(this), m_strategy);
    m_searchForm->addRow(new QLabel(this), m_beamSize);
    m_searchForm->addRow(new QLabel(this), m_nBest);
    m_searchForm->addRow(new QLabel(this), m_normalization);
    m_searchForm->addRow(new QLabel(this), m_lengthPenalty);
    m_searchForm->addRow(new QLabel(this), m_coveragePenalty);
    m_searchForm->addRow(new QLabel(this), m_earlyStopping);
    m_searchForm->addRow(new QLabel(this), m_maxLength);
    m_searchForm->addRow(new QLabel(this), m_maxLengthRatio);
    m_searchForm->addRow(new QLabel(this), m_minLength);
    layout->addWidget(m_searchGroup);

    m_penaltyGroup = new QGroupBox(this);
    m_penaltyForm = new QFormLayout(m_penaltyGroup);
    m_noRepeat = intBox(0, 8, this);
    m_repetitionPenalty = realBox(1.0, 5.0, 0.05, 2, this);
    m_ngramPenalty = realBox(0.0, 10.0, 0.1, 2, this);
    m_ngramPenaltySize = intBox(1, 8, this);
    m_penaltyForm->addRow(new QLabel(this), m_noRepeat);
    m_penaltyForm->addRow(new QLabel(this), m_repetitionPenalty);
    m_penaltyForm->addRow(new QLabel(this), m_ngramPenalty);
    m_penaltyForm->addRow(new QLabel(this), m_ngramPenaltySize);
    layout->addWidget(m_penaltyGroup);

    m_samplingGroup = new QGroupBox(this);
    m_samplingForm = new QFormLayout(m_samplingGroup);
    m_temperature = realBox(0.05, 5.0, 0.05, 2, this);
    m_topK = intBox(0, 1000, this);
    m_topP = realBox(0.01, 1.0, 0.05, 2, this);
    m_minP = realBox(0.0, 1.0, 0.05, 2, this);
    auto *seedRow = new QWidget(this);
    auto *seedLayout = new QHBoxLayout(seedRow);
    seedLayout->setContentsMargins(0, 0, 0, 0);
    m_seed = intBox(0, 2147483647, seedRow);
    m_newSeed = new QToolButton(seedRow);
    seedLayout->addWidget(m_seed, 1);
    seedLayout->addWidget(m_newSeed);
    m_samplingForm->addRow(new QLabel(this), m_temperature);
    m_samplingForm->addRow(new QLabel(this), m_topK);
    m_samplingForm->addRow(new QLabel(this), m_topP);
    m_samplingForm->addRow(new QLabel(this), m_minP);
    m_samplingForm->addRow(new QLabel(this), seedRow);
    layout->addWidget(m_samplingGroup);
    layout->addStretch(1);

    for (QFormLayout *form : {m_searchForm, m_penaltyForm, m_samplingForm}) {
        form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
        // A long label ("Penalización suave de n-gramas λ:") goes above its field when the
        // column is narrow, rather than pushing the field out of sight.
        form->setRowWrapPolicy(QFormLayout::WrapLongRows);
        form->setLabelAlignment(Qt::AlignRight | Qt::AlignVCenter);
        for (int row = 0; row < form->rowCount(); ++row)
            if (auto *label =
                    qobject_cast<QLabel *>(form->itemAt(row, QFormLayout::LabelRole)->widget()))
                label->setBuddy(form->itemAt(row, QFormLayout::FieldRole)->widget());
    }

    showOptions(m_modelDefaults);
    reloadPresets();
    m_presets->setCurrentIndex(m_presets->findData(QLatin1String(kModelPreset)));
    retranslateUi();

    for (QComboBox *box : {m_strategy, m_normalization, m_earlyStopping})
        connect(box, &QComboBox::currentIndexChanged, this, &DecodingPanel::onControlChanged);
    for (QSpinBox *box : {m_beamSize, m_nBest, m_maxLength, m_minLength, m_noRepeat,
                          m_ngramPenaltySize, m_topK, m_seed})
        connect(box, &QSpinBox::valueChanged, this, &DecodingPanel::onControlChanged);
    for (QDoubleSpinBox *box : {m_lengthPenalty, m_coveragePenalty, m_maxLengthRatio,
                                m_repetitionPenalty, m_ngramPenalty, m_temperature, m_topP, m_minP})
        connect(box, &QDoubleSpinBox::valueChanged, this, &DecodingPanel::onControlChanged);
    connect(m_presets, &QComboBox::activated, this,
            [this](int index) { applyPreset(m_presets->itemData(index).toString()); });
    connect(m_newSeed, &QToolButton::clicked, this,
            [this] { m_seed->setValue(int(QRandomGenerator::global()->bounded(2147483647u))); });
    connect(m_savePreset, &QToolButton::clicked, this, &DecodingPanel::savePreset);
    connect(m_deletePreset, &QToolButton::clicked, this, &DecodingPanel::deletePreset);
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
    m_penaltyGroup->setTitle(tr("Penalties"));
    m_samplingGroup->setTitle(tr("Sampling"));
    m_strategy->setItemText(0, tr("Greedy"));
    m_strategy->setItemText(1, tr("Beam search"));
    m_strategy->setItemText(2, tr("Sampling"));
    m_normalization->setItemText(0, tr("None"));
    m_normalization->setItemText(1, tr("GNMT (Wu et al. 2016)"));
    m_normalization->setItemText(2, tr("Average log-probability"));
    m_normalization->setItemText(3, tr("Length^α"));
    m_earlyStopping->setItemText(0, tr("Heuristic"));
    m_earlyStopping->setItemText(1, tr("Bounded (exact)"));
    m_earlyStopping->setItemText(2, tr("Eager"));
    m_earlyStopping->setItemText(3, tr("Whole beam"));
    m_newSeed->setText(tr("New"));
    m_newSeed->setToolTip(tr("Draw a new random seed"));

    struct Row
    {
        QWidget *field;
        QString label;
        QString tip;
    };
    const QList<Row> rows = {
        {m_strategy, tr("&Strategy:"), tr("How the next word is chosen at each step")},
        {m_beamSize, tr("&Beam size:"), tr("Hypotheses kept at each step (1 behaves like greedy)")},
        {m_nBest, tr("&N-best:"), tr("Alternatives returned (beam search and sampling)")},
        {m_normalization, tr("Length &normalisation:"),
         tr("How finished hypotheses of different lengths are ranked")},
        {m_lengthPenalty, tr("Length penalty &α:"),
         tr("GNMT length-penalty exponent; 0 turns it off (0.6 is common)")},
        {m_coveragePenalty, tr("&Coverage penalty β:"),
         tr("Penalises translations that leave source words unattended; 0 turns it off")},
        {m_earlyStopping, tr("&Early stopping:"), tr("When beam search may stop")},
        {m_maxLength, tr("&Maximum length:"), tr("Most tokens generated per sentence")},
        {m_maxLengthRatio, tr("Maximum length &ratio:"),
         tr("Also cap the length at this multiple of the source length; 0 turns it off")},
        {m_minLength, tr("M&inimum length:"), tr("The end of sentence is forbidden before this")},
        {m_noRepeat, tr("No-repeat &n-gram:"),
         tr("No n-gram of this size may occur twice; 0 turns it off")},
        {m_repetitionPenalty, tr("Re&petition penalty:"),
         tr("Discourages tokens already generated (Keskar et al. 2019); 1 turns it off")},
        {m_ngramPenalty, tr("Soft n-gram penalty &λ:"),
         tr("Subtracted once per earlier occurrence of the n-gram; 0 turns it off")},
        {m_ngramPenaltySize, tr("Soft n-gram si&ze:"), tr("N-gram size for the soft penalty")},
        {m_temperature, tr("&Temperature:"),
         tr("Below 1 sharpens the distribution, above 1 flattens it")},
        {m_topK, tr("Top-&k:"), tr("Sample among the k most probable tokens; 0 turns it off")},
        {m_topP, tr("Top-p (n&ucleus):"),
         tr("Sample among the most probable tokens that reach this probability; 1 turns it off")},
        {m_minP, tr("Min-p (re&lative):"),
         tr("Keep the tokens at least this fraction as probable as the best one; 0 turns it "
            "off")},
        {m_seed->parentWidget(), tr("S&eed:"), tr("The same seed gives the same samples")},
    };
    for (const Row &row : rows) {
        for (QFormLayout *form : {m_searchForm, m_penaltyForm, m_samplingForm}) {
            if (auto *label = qobject_cast<QLabel *>(form->labelForField(row.field))) {
                label->setText(row.label);
                label->setToolTip(row.tip);
            }
        }
        row.field->setToolTip(row.tip);
        QString accessible = row.label;
        accessible.remove(QLatin1Char('&'));
        accessible.remove(QLatin1Char(':'));
        row.field->setAccessibleName(accessible);
    }
    m_seed->setAccessibleName(tr("Seed"));
    m_presets->setAccessibleName(tr("Decoding preset"));
    reloadPresets();
}

void DecodingPanel::changeEvent(QEvent *event)
{
    if (m_newSeed && event->type() == QEvent::LanguageChange)
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
    QSettings settings;
    const QVariantMap user = settings.value(QLatin1String(settingsKeys::kPresets)).toMap();
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
    QSettings settings;
    const QVariantMap user = settings.value(QLatin1String(settingsKeys::kPresets)).toMap();
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
    QSettings settings;
    QVariantMap user = settings.value(QLatin1String(settingsKeys::kPresets)).toMap();
    user.insert(name, decodingOptionsToMap(options()));
    settings.setValue(QLatin1String(settingsKeys::kPresets), user);
    reloadPresets();
    m_presets->setCurrentIndex(m_presets->findData(name));
}

void DecodingPanel::deletePreset()
{
    const QString name = currentPresetName();
    QSettings settings;
    QVariantMap user = settings.value(QLatin1String(settingsKeys::kPresets)).toMap();
    if (!user.remove(name))
        return; // built-ins cannot be deleted
    settings.setValue(QLatin1String(settingsKeys::kPresets), user);
    reloadPresets();
}

engine::DecodingOptions DecodingPanel::options() const
{
    engine::DecodingOptions o;
    o.strategy = engine::SearchStrategy(m_strategy->currentData().toInt());
    o.beamSize = m_beamSize->value();
    o.nBest =
        o.strategy == engine::SearchStrategy::Greedy
            ? 1
            : std::min(m_nBest->value(),
                       o.strategy == engine::SearchStrategy::Beam ? o.beamSize : m_nBest->value());
    o.lengthNormalization = engine::LengthNormalization(m_normalization->currentData().toInt());
    o.lengthPenalty = float(m_lengthPenalty->value());
    o.coveragePenalty = float(m_coveragePenalty->value());
    o.earlyStopping = engine::EarlyStopping(m_earlyStopping->currentData().toInt());
    o.maxLength = m_maxLength->value();
    o.maxLengthRatio = float(m_maxLengthRatio->value());
    o.minLength = m_minLength->value();
    o.noRepeatNgramSize = m_noRepeat->value();
    o.repetitionPenalty = float(m_repetitionPenalty->value());
    o.ngramPenalty = float(m_ngramPenalty->value());
    o.ngramPenaltySize = m_ngramPenaltySize->value();
    o.temperature = float(m_temperature->value());
    o.topK = m_topK->value();
    o.topP = float(m_topP->value());
    o.minP = float(m_minP->value());
    o.seed = std::uint64_t(m_seed->value());
    o.suppressTokens = m_modelDefaults.suppressTokens; // e.g. <pad> and <s>, never a word
    o.targetPrefix = m_modelDefaults.targetPrefix;
    return o;
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
    // The settings the panel has controls for; the seed as its spin box holds it.
    auto key = [](engine::DecodingOptions o) {
        o.seed %= 2147483647u;
        return decodingPresetKey(o);
    };
    const QVariantMap wanted = key(options);
    if (key(m_modelDefaults) == wanted)
        return QLatin1String(kModelPreset);
    for (const DecodingPreset &preset : builtInPresets())
        if (key(preset.options) == wanted)
            return preset.name;
    const QVariantMap user = QSettings().value(QLatin1String(settingsKeys::kPresets)).toMap();
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
    m_strategy->setCurrentIndex(m_strategy->findData(int(o.strategy)));
    m_beamSize->setValue(o.beamSize);
    m_nBest->setValue(o.nBest);
    m_normalization->setCurrentIndex(m_normalization->findData(int(o.lengthNormalization)));
    m_lengthPenalty->setValue(o.lengthPenalty);
    m_coveragePenalty->setValue(o.coveragePenalty);
    m_earlyStopping->setCurrentIndex(m_earlyStopping->findData(int(o.earlyStopping)));
    m_maxLength->setValue(o.maxLength);
    m_maxLengthRatio->setValue(o.maxLengthRatio);
    m_minLength->setValue(o.minLength);
    m_noRepeat->setValue(o.noRepeatNgramSize);
    m_repetitionPenalty->setValue(o.repetitionPenalty);
    m_ngramPenalty->setValue(o.ngramPenalty);
    m_ngramPenaltySize->setValue(o.ngramPenaltySize);
    m_temperature->setValue(o.temperature);
    m_topK->setValue(o.topK);
    m_topP->setValue(o.topP);
    m_minP->setValue(o.minP);
    m_seed->setValue(int(o.seed % 2147483647u));
    m_updating = wasUpdating;
    updateEnabled();
}

void DecodingPanel::updateEnabled()
{
    const auto strategy = engine::SearchStrategy(m_strategy->currentData().toInt());
    const bool beam = strategy == engine::SearchStrategy::Beam;
    const bool sample = strategy == engine::SearchStrategy::Sample;
    setRowVisible(m_searchForm, m_beamSize, beam);
    setRowVisible(m_searchForm, m_nBest, !(strategy == engine::SearchStrategy::Greedy));
    setRowVisible(m_searchForm, m_earlyStopping, beam);
    m_samplingGroup->setVisible(sample);
    const int normalization = m_normalization->currentData().toInt();
    m_lengthPenalty->setEnabled(normalization == int(engine::LengthNormalization::Gnmt) ||
                                normalization == int(engine::LengthNormalization::Power));
    m_ngramPenaltySize->setEnabled(m_ngramPenalty->value() > 0.0);
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
