#include "app/gui/widgets/attentionpanel.h"

#include "app/core/inference/translationrunner.h"
#include "app/gui/theme.h"
#include "app/gui/widgets/headgridwidget.h"
#include "app/gui/widgets/heatmapwidget.h"

#include <QCheckBox>
#include <QComboBox>
#include <QStyle>
#include <QStyleOptionComboBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QScrollArea>
#include <QVBoxLayout>

#include <algorithm>

namespace glosa {

namespace {

// A combo box whose size hint holds its widest entry as it is drawn. QComboBox measures its
// entries by their ink (QFontMetrics::boundingRect, in QComboBoxPrivate::recomputeSizeHint) but
// draws the current one by its advance from the left edge of the text field, so an entry whose
// first glyph has a left side bearing was drawn a pixel past the width it asked for ("Capa 2 ·
// media de las cabezas (predeterminado)", some Korean entries). The hint is computed afresh
// whenever the layout asks: AdjustToContents tells the layout when the entries change, as a
// language switch changes them.
class EntryWideComboBox : public QComboBox
{
public:
    explicit EntryWideComboBox(QWidget *parent) : QComboBox(parent)
    {
        setSizeAdjustPolicy(QComboBox::AdjustToContents);
    }
    QSize sizeHint() const override { return QComboBox::sizeHint().expandedTo(entriesSize()); }
    QSize minimumSizeHint() const override
    {
        return QComboBox::minimumSizeHint().expandedTo(entriesSize());
    }

private:
    QSize entriesSize() const
    {
        int widest = 0;
        for (int i = 0; i < count(); ++i)
            widest = std::max(widest, fontMetrics().horizontalAdvance(itemText(i)));
        QStyleOptionComboBox option;
        initStyleOption(&option);
        return style()->sizeFromContents(QStyle::CT_ComboBox, &option,
                                         QSize(widest, fontMetrics().height()), this);
    }
};

} // namespace

AttentionPanel::AttentionPanel(QWidget *parent) : QWidget(parent)
{
    createWidgets();
    connectWidgets();
    retranslateUi();
}

void AttentionPanel::connectWidgets()
{
    connect(m_alignment, &QComboBox::activated, this, [this] {
        const QPoint choice = m_alignment->currentData().toPoint();
        m_alignmentChoice = {choice.x(), choice.y()};
        emit alignmentChosen(m_alignmentChoice);
    });
    // The other kinds and the head grid are drawn from the maps the result carries (the view
    // translates again when the result lacks them).
    const auto kindChanged = [this] {
        updateLayerHeadChoices();
        showAttention();
        emit attentionChoiceChanged();
    };
    connect(m_kind, &QComboBox::activated, this, kindChanged);
    connect(m_allHeads, &QCheckBox::toggled, this, kindChanged);
    connect(m_layerHead, &QComboBox::activated, this, &AttentionPanel::showAttention);
    connect(m_headGrid, &HeadGridWidget::headClicked, this, [this](int head) {
        const bool cross = shownKind() == engine::AttentionKind::Cross;
        QComboBox *selector = cross ? m_alignment : m_layerHead;
        const int index = selector->findData(QPoint(shownLayerHead().x(), head));
        if (index < 0)
            return;
        selector->setCurrentIndex(index);
        m_allHeads->setChecked(false); // shows that head large (or translates again)
        if (cross)
            emit m_alignment->activated(index);
    });
    connect(m_heatmap, &HeatmapWidget::cellHovered, this, [this](int row, int) {
        if (shownKind() == engine::AttentionKind::Cross) // the editors follow the alignment
            emit rowHovered(row);
    });
}

void AttentionPanel::retranslateUi()
{
    m_heatmap->setAccessibleName(tr("Attention heatmap"));
    m_title->setText(tr("Attention"));
    m_alignment->setAccessibleName(tr("Attention layer and head"));
    m_alignment->setToolTip(tr("Which cross-attention the heatmap and the highlights show"));
    m_kind->setAccessibleName(tr("Attention kind"));
    m_kind->setToolTip(tr("Which of the model's attentions the heatmap shows"));
    m_layerHead->setAccessibleName(tr("Attention layer and head"));
    m_allHeads->setText(tr("All heads"));
    m_allHeads->setToolTip(tr("Every head of the layer side by side; click one to see it large"));
    m_headGrid->setAccessibleName(tr("Attention heads"));
    updateAlignmentChoices();
    updateKindChoices();
    updateLayerHeadChoices();
    showAttention(); // the hint follows the kind
}

void AttentionPanel::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslateUi();
    QWidget::changeEvent(event);
}

void AttentionPanel::setModel(const InferenceWorker *worker, const AlignmentChoice &alignment)
{
    m_worker = worker;
    m_alignmentChoice = alignment;
    updateAlignmentChoices();
    updateKindChoices();
}

void AttentionPanel::setResult(const TranslationResult &result, int hypothesis)
{
    m_result = result;
    m_hypothesis = hypothesis;
    updateLayerHeadChoices();
    showAttention();
}

const TranslationHypothesis *AttentionPanel::shownHypothesis() const
{
    if (m_result.hypotheses.isEmpty())
        return nullptr;
    return &m_result.hypotheses.at(
        std::clamp<int>(m_hypothesis, 0, m_result.hypotheses.size() - 1));
}

void AttentionPanel::setHighlight(int row, int column)
{
    // Rows and columns are target × source tokens in the cross-attention only.
    const bool cross = shownKind() == engine::AttentionKind::Cross;
    m_heatmap->setHighlight(cross ? row : -1, cross ? column : -1);
}

void AttentionPanel::createWidgets()
{
    m_title = new QLabel(this);
    m_title->setFont(theme::titleFont(font()));
    m_hint = new QLabel(this);
    m_hint->setForegroundRole(QPalette::PlaceholderText);
    // Wraps: in Spanish, with the layer and head selector beside it, it made the window 1,466
    // pixels wide at least, wider than a 1280 × 800 screen.
    m_hint->setWordWrap(true);
    m_hint->setObjectName(QStringLiteral("heatmapHint"));
    m_heatmap = new HeatmapWidget(this);
    m_heatmapScroll = new QScrollArea(this);
    m_heatmapScroll->setWidget(m_heatmap);
    m_heatmapScroll->setWidgetResizable(true);
    m_heatmapScroll->setFrameShape(QFrame::StyledPanel);
    auto *heatLayout = new QVBoxLayout;
    auto *heatHeader = new QHBoxLayout;
    heatHeader->addWidget(m_title);
    heatHeader->addStretch(1);
    m_alignment = new EntryWideComboBox(this);
    m_alignment->setVisible(false);
    m_kind = new EntryWideComboBox(this);
    m_kind->setVisible(false);
    m_layerHead = new EntryWideComboBox(this);
    m_layerHead->setVisible(false);
    m_allHeads = new QCheckBox(this);
    m_allHeads->setVisible(false);
    // Never narrower than their entries (EntryWideComboBox's hint), and the layer and head on a
    // row of their own: beside the title and the kind, "Capa 2 · media de las cabezas
    // (predeterminado)" was squeezed short of its last character at 1280 × 800.
    for (QComboBox *box : {m_kind, m_alignment, m_layerHead})
        box->setSizePolicy(QSizePolicy::Minimum, QSizePolicy::Fixed);
    heatHeader->addWidget(m_kind);
    auto *selectors = new QHBoxLayout;
    selectors->addWidget(m_alignment);
    selectors->addWidget(m_layerHead);
    selectors->addWidget(m_allHeads);
    selectors->addStretch(1);
    m_headGrid = new HeadGridWidget(this);
    m_headGridScroll = new QScrollArea(this);
    m_headGridScroll->setWidget(m_headGrid);
    m_headGridScroll->setWidgetResizable(true);
    m_headGridScroll->setFrameShape(QFrame::StyledPanel);
    m_headGridScroll->setVisible(false);
    heatLayout->addLayout(heatHeader);
    heatLayout->addLayout(selectors);
    // On a line of its own, the panel's width: beside the title and the selectors, the Spanish
    // hint wrapped onto six lines and pushed the heatmap down.
    heatLayout->addWidget(m_hint);
    heatLayout->addWidget(m_heatmapScroll, 1);
    heatLayout->addWidget(m_headGridScroll, 1);
    heatLayout->setContentsMargins(0, 0, 0, 0);
    setLayout(heatLayout);
}

void AttentionPanel::updateAlignmentChoices()
{
    const InferenceWorker *worker = m_worker;
    const int layers = worker ? worker->alignmentLayers() : 0;
    const int heads = layers > 0 ? worker->alignmentHeads() : 0;
    m_alignment->clear();
    if (layers > 0) {
        const AlignmentChoice preset = worker->defaultAlignment();
        for (int layer = 0; layer < layers; ++layer)
            for (int head = engine::AlignmentSource::kAverageHeads; head < heads; ++head) {
                QString text = head == engine::AlignmentSource::kAverageHeads
                                   ? tr("Layer %1 · mean of heads").arg(layer + 1)
                                   : tr("Layer %1 · head %2").arg(layer + 1).arg(head + 1);
                if (preset == AlignmentChoice{layer, head})
                    text = tr("%1 (default)").arg(text);
                m_alignment->addItem(text, QPoint(layer, head));
            }
        const AlignmentChoice shown = m_alignmentChoice;
        m_alignment->setCurrentIndex(
            std::max(0, m_alignment->findData(QPoint(shown.layer, shown.head))));
    }
    m_alignment->setVisible(layers > 0 && shownKind() == engine::AttentionKind::Cross);
}

void AttentionPanel::updateKindChoices()
{
    const QList<engine::AttentionKind> kinds =
        m_worker ? m_worker->attentionKinds() : QList<engine::AttentionKind>();
    const engine::AttentionKind current = shownKind();
    m_kind->clear();
    for (const engine::AttentionKind kind : kinds) {
        switch (kind) {
        case engine::AttentionKind::Cross:
            m_kind->addItem(tr("Cross-attention"), int(kind));
            break;
        case engine::AttentionKind::EncoderSelf:
            m_kind->addItem(tr("Encoder self-attention"), int(kind));
            break;
        case engine::AttentionKind::DecoderSelf:
            m_kind->addItem(tr("Decoder self-attention"), int(kind));
            break;
        }
    }
    m_kind->setCurrentIndex(std::max(0, m_kind->findData(int(current))));
    // One kind (the RNN, the toy models): nothing to choose, and no heads to lay out.
    m_kind->setVisible(kinds.size() > 1);
    m_allHeads->setVisible(kinds.size() > 1);
    if (kinds.size() <= 1)
        m_allHeads->setChecked(false);
    updateLayerHeadChoices();
}

engine::AttentionKind AttentionPanel::shownKind() const
{
    return m_kind->currentIndex() < 0
               ? engine::AttentionKind::Cross
               : static_cast<engine::AttentionKind>(m_kind->currentData().toInt());
}

void AttentionPanel::updateLayerHeadChoices()
{
    const engine::AttentionKind kind = shownKind();
    const TranslationHypothesis *h = shownHypothesis();
    const int layers = h ? attentionLayers(*h, kind) : 0;
    const int heads = h ? attentionHeads(*h, kind) : 0;
    const QVariant current = m_layerHead->currentData();
    m_layerHead->clear();
    if (kind != engine::AttentionKind::Cross)
        for (int layer = 0; layer < layers; ++layer)
            for (int head = engine::AlignmentSource::kAverageHeads; head < heads; ++head)
                m_layerHead->addItem(head == engine::AlignmentSource::kAverageHeads
                                         ? tr("Layer %1 · mean of heads").arg(layer + 1)
                                         : tr("Layer %1 · head %2").arg(layer + 1).arg(head + 1),
                                     QPoint(layer, head));
    m_layerHead->setCurrentIndex(std::max(0, m_layerHead->findData(current)));
    m_layerHead->setVisible(m_layerHead->count() > 0);
    m_alignment->setVisible(m_alignment->count() > 0 && kind == engine::AttentionKind::Cross);
}

QPoint AttentionPanel::shownLayerHead() const
{
    const QComboBox *selector =
        shownKind() == engine::AttentionKind::Cross ? m_alignment : m_layerHead;
    return selector->currentIndex() >= 0 ? selector->currentData().toPoint()
                                         : QPoint(0, engine::AlignmentSource::kAverageHeads);
}

bool AttentionPanel::needsEveryAttention() const
{
    return shownKind() != engine::AttentionKind::Cross || m_allHeads->isChecked();
}

void AttentionPanel::showAttention()
{
    using Kind = engine::AttentionKind;
    const Kind kind = shownKind();
    const bool grid = m_allHeads->isChecked();
    switch (kind) {
    case Kind::Cross:
        m_hint->setText(grid ? tr("every head of the layer · click one to see it large")
                             : tr("rows: translation tokens · columns: source tokens · "
                                  "hover a cell for its weight"));
        break;
    case Kind::EncoderSelf:
        m_hint->setText(tr("rows and columns: source tokens · each row: what the encoder "
                           "read for that token"));
        break;
    case Kind::DecoderSelf:
        m_hint->setText(tr("rows: translation tokens · columns: what the decoder had read "
                           "(the start, then the translation so far; the rest is masked)"));
        break;
    }
    m_heatmapScroll->setVisible(!grid);
    m_headGridScroll->setVisible(grid);
    const TranslationHypothesis *h = shownHypothesis();
    if (!h) {
        m_heatmap->clear();
        m_headGrid->clear();
        return;
    }
    QStringList sourceLabels, targetLabels;
    const TranslationResult &result = m_result;
    for (const TokenSpan &t : result.sourceTokens)
        sourceLabels << t.surface();
    for (const TokenSpan &t : h->tokens)
        targetLabels << t.surface();
    const QPoint layerHead = shownLayerHead();
    int rows = 0, columns = 0;
    if (grid) {
        QList<QVector<float>> maps;
        for (int head = 0; head < attentionHeads(*h, kind); ++head)
            maps << attentionMatrix(result, *h, kind, layerHead.x(), head, &rows, &columns);
        m_headGrid->setHeads(maps, rows, columns);
        return;
    }
    if (kind == Kind::Cross) {
        // The alignment the search recorded for the chosen layer and head.
        if (h->alignment.isEmpty() && m_worker && m_worker->attentionKinds().isEmpty())
            m_heatmap->clear(tr("This model has no attention, so there is no alignment to show: "
                                "its decoder sees only a fixed summary of the source, the "
                                "bottleneck that attention removes."));
        else if (h->alignment.isEmpty())
            m_heatmap->clear();
        else
            m_heatmap->setMatrix(targetLabels, sourceLabels, h->alignment);
        return;
    }
    const QVector<float> matrix =
        attentionMatrix(result, *h, kind, layerHead.x(), layerHead.y(), &rows, &columns);
    if (matrix.isEmpty())
        m_heatmap->clear();
    else if (kind == Kind::EncoderSelf)
        m_heatmap->setMatrix(sourceLabels, sourceLabels, matrix);
    else
        m_heatmap->setMatrix(targetLabels, decoderInputLabels(*h, QStringLiteral("<s>")), matrix);
}

} // namespace glosa
