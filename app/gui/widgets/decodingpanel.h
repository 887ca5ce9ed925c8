// DecodingPanel: a control for every setting of the decoding-option table (its range from the
// engine's row, engine/decoding/decodingfields.cpp; its label, tooltip, group, step and choices
// from the app's, app/core/settings/decodingfieldinfo.cpp; shown in the strategies it applies to),
// in "Search" or in "Advanced", folded until opened; with presets (built-in and the user's, saved
// in QSettings). Used by the Translate view's side panel and by each Compare column.
#pragma once

#include "app/core/settings/decodingmaps.h"
#include "app/core/settings/settings.h"

#include <QWidget>

class QComboBox;
class QFormLayout;
class QGroupBox;
class QLabel;
class QToolButton;

namespace glosa::engine {
struct DecodingField;
}

namespace glosa {

struct DecodingFieldInfo;

class DecodingPanel : public QWidget
{
    Q_OBJECT
public:
    // `compact` hides the preset management buttons (Compare columns).
    explicit DecodingPanel(QWidget *parent = nullptr, bool compact = false);

    // Preset key of the current model package's "decoding" defaults; the panel starts on it.
    static constexpr const char *kModelPreset = settings::kModelPreset;

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

    // The control of a table field that is a setting (a QComboBox, QSpinBox, QDoubleSpinBox or
    // UInt64SpinBox), null for the others.
    QWidget *controlFor(const engine::DecodingField &field) const;
    // Whether the "Advanced" section is unfolded (it starts folded).
    bool isAdvancedOpen() const;
    void setAdvancedOpen(bool open);

signals:
    void optionsChanged();

protected:
    void changeEvent(QEvent *event) override;

private:
    void addControls();
    void connectControls();
    void retranslateUi();
    void reloadPresets();
    void updateEnabled();
    void showOptions(const engine::DecodingOptions &options);
    void onControlChanged();
    void savePreset();
    void deletePreset();

    struct Control
    {
        const engine::DecodingField *field;
        const DecodingFieldInfo *info;
        QWidget *widget; // the value's control
        QWidget *row;    // what the form holds: the control, or the seed's row with its button
        QFormLayout *form;
    };
    QWidget *control(const char *name) const;
    void readControl(const Control &control, engine::DecodingOptions &options) const;
    void showControl(const Control &control, const engine::DecodingOptions &options);

    bool m_compact = false;
    bool m_updating = false;
    engine::DecodingOptions m_modelDefaults;
    QComboBox *m_presets = nullptr;
    QToolButton *m_savePreset = nullptr;
    QToolButton *m_deletePreset = nullptr;
    QLabel *m_presetLabel = nullptr;

    QGroupBox *m_searchGroup = nullptr;
    QFormLayout *m_searchForm = nullptr;
    QToolButton *m_advancedToggle = nullptr;
    QWidget *m_advanced = nullptr;
    QFormLayout *m_advancedForm = nullptr;
    QList<Control> m_controls;
    QToolButton *m_newSeed = nullptr;
};

} // namespace glosa
