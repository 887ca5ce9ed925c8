// DecodingPanel: every DecodingOptions field as a control, with presets (built-in and the
// user's, saved in QSettings). Used by the Translate view's side panel and by each Compare column.
#pragma once

#include "app/core/settings.h"

#include <QWidget>

class QComboBox;
class QDoubleSpinBox;
class QFormLayout;
class QLabel;
class QPushButton;
class QSpinBox;
class QToolButton;
class QGroupBox;

namespace glosa {

class DecodingPanel : public QWidget
{
    Q_OBJECT
public:
    // `compact` hides the preset management buttons (Compare columns).
    explicit DecodingPanel(QWidget *parent = nullptr, bool compact = false);

    // Preset key of the current model package's "decoding" defaults; the panel starts on it.
    static constexpr char kModelPreset[] = ":model";

    // The shown settings; what the panel has no control for (suppressed tokens, target prefix)
    // comes from the model's defaults.
    engine::DecodingOptions options() const;
    // Shows `options`, under the name of the preset they are (the model's defaults first, then
    // the built-in and the user's presets), else as "Custom".
    void setOptions(const engine::DecodingOptions &options);
    // The selected model's package defaults (ModelInfo::decodingDefaults()); shown at once while
    // the "Model's defaults" preset is selected, so that choosing a model switches to its
    // decoding unless the user picked other settings.
    void setModelDefaults(const engine::DecodingOptions &defaults);
    const engine::DecodingOptions &modelDefaults() const { return m_modelDefaults; }
    // Selects a preset by its key (built-in name or user name); false when unknown.
    bool applyPreset(const QString &name);
    QString currentPresetName() const;
    // The key of the preset whose settings `options` are, as setOptions() picks it; empty for none.
    QString presetFor(const engine::DecodingOptions &options) const;

    // Translated display name of a built-in preset key.
    static QString presetDisplayName(const QString &key);

signals:
    void optionsChanged();

protected:
    void changeEvent(QEvent *event) override;

private:
    void retranslateUi();
    void reloadPresets();
    void updateEnabled();
    void showOptions(const engine::DecodingOptions &options);
    void onControlChanged();
    void savePreset();
    void deletePreset();

    bool m_compact = false;
    bool m_updating = false;
    engine::DecodingOptions m_modelDefaults;
    QComboBox *m_presets = nullptr;
    QToolButton *m_savePreset = nullptr;
    QToolButton *m_deletePreset = nullptr;
    QLabel *m_presetLabel = nullptr;

    QGroupBox *m_searchGroup = nullptr;
    QGroupBox *m_penaltyGroup = nullptr;
    QGroupBox *m_samplingGroup = nullptr;
    QFormLayout *m_searchForm = nullptr;
    QFormLayout *m_penaltyForm = nullptr;
    QFormLayout *m_samplingForm = nullptr;

    QComboBox *m_strategy = nullptr;
    QSpinBox *m_beamSize = nullptr;
    QSpinBox *m_nBest = nullptr;
    QComboBox *m_normalization = nullptr;
    QDoubleSpinBox *m_lengthPenalty = nullptr;
    QDoubleSpinBox *m_coveragePenalty = nullptr;
    QComboBox *m_earlyStopping = nullptr;
    QSpinBox *m_maxLength = nullptr;
    QDoubleSpinBox *m_maxLengthRatio = nullptr;
    QSpinBox *m_minLength = nullptr;
    QSpinBox *m_noRepeat = nullptr;
    QDoubleSpinBox *m_repetitionPenalty = nullptr;
    QDoubleSpinBox *m_ngramPenalty = nullptr;
    QSpinBox *m_ngramPenaltySize = nullptr;
    QDoubleSpinBox *m_temperature = nullptr;
    QSpinBox *m_topK = nullptr;
    QDoubleSpinBox *m_topP = nullptr;
    QDoubleSpinBox *m_minP = nullptr;
    QSpinBox *m_seed = nullptr;
    QToolButton *m_newSeed = nullptr;
};

} // namespace glosa
