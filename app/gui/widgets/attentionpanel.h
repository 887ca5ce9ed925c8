// AttentionPanel: the Translate view's attention maps. The cross-attention (the alignment the
// search recorded) by default; for a model with an AttentionInspector
// (engine/layers/attentioninspector.h) also encoder and decoder self-attention, any layer and
// head or their mean, and a grid of every head of a layer. It draws what the result it is given
// carries and says what the user chose; whether that needs translating again (the alignment is
// recorded while decoding, the other maps only on request) is the view's and its presenter's.
#pragma once

#include "app/core/inference/inferenceresult.h"
#include "app/core/inference/inferenceworker.h"
#include "engine/layers/attentioninspector.h"

#include <QWidget>

class QCheckBox;
class QComboBox;
class QLabel;
class QScrollArea;

namespace glosa {

class HeadGridWidget;
class HeatmapWidget;

class AttentionPanel : public QWidget
{
    Q_OBJECT
public:
    explicit AttentionPanel(QWidget *parent = nullptr);

    HeatmapWidget *heatmap() const { return m_heatmap; }
    // Which layer and head the alignment comes from (models with several; hidden otherwise).
    QComboBox *alignmentSelector() const { return m_alignment; }
    // Which attention the panel shows: one entry per kind the model has (hidden with one).
    QComboBox *kindSelector() const { return m_kind; }
    // The layer and head of a self-attention kind (the cross-attention's is alignmentSelector()).
    QComboBox *layerHeadSelector() const { return m_layerHead; }
    // Shows every head of the chosen layer side by side instead of one map.
    QCheckBox *allHeadsToggle() const { return m_allHeads; }
    HeadGridWidget *headGrid() const { return m_headGrid; }

    engine::AttentionKind shownKind() const;
    // Whether what the panel shows needs every attention map (TranslationHypothesis::
    // attentionMaps): a self-attention or all heads.
    bool needsEveryAttention() const;
    // The loaded model's choices (null: none is loaded), `alignment` selected.
    void setModel(const InferenceWorker *worker, const AlignmentChoice &alignment);
    // Draws hypothesis `hypothesis` of `result` (an empty result clears the maps).
    void setResult(const TranslationResult &result, int hypothesis);
    // The cell of the hovered or selected words (cross-attention only; -1: none).
    void setHighlight(int row, int column);

signals:
    // The user chose a layer and head of the cross-attention.
    void alignmentChosen(const glosa::AlignmentChoice &alignment);
    // The user chose another kind, or all heads: needsEveryAttention() may have changed.
    void attentionChoiceChanged();
    // A row (a target token) of the cross-attention is hovered.
    void rowHovered(int row);

protected:
    void changeEvent(QEvent *event) override;

private:
    void createWidgets();
    void connectWidgets();
    void retranslateUi();
    void updateAlignmentChoices();
    void updateKindChoices();
    void updateLayerHeadChoices();
    // The layer and head shown: the cross-attention's from alignmentSelector(), the others' from
    // layerHeadSelector().
    QPoint shownLayerHead() const;
    const TranslationHypothesis *shownHypothesis() const;
    // The heatmap or the head grid for the shown hypothesis, kind, layer and head.
    void showAttention();

    const InferenceWorker *m_worker = nullptr;
    AlignmentChoice m_alignmentChoice;
    TranslationResult m_result; // implicitly shared with the presenter's
    int m_hypothesis = 0;

    QLabel *m_title = nullptr;
    QLabel *m_hint = nullptr;
    QComboBox *m_alignment = nullptr;
    QComboBox *m_kind = nullptr;
    QComboBox *m_layerHead = nullptr;
    QCheckBox *m_allHeads = nullptr;
    HeatmapWidget *m_heatmap = nullptr;
    QScrollArea *m_heatmapScroll = nullptr;
    HeadGridWidget *m_headGrid = nullptr;
    QScrollArea *m_headGridScroll = nullptr;
};

} // namespace glosa
