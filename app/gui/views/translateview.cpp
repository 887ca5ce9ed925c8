#include "app/gui/views/translateview.h"

#include "app/core/inference/inferenceworker.h"
#include "app/core/platform/savefile.h"
#include "app/core/inference/translationrunner.h"
#include "app/gui/widgets/decodingpanel.h"
#include "app/gui/guiutil.h"
#include "app/gui/livetext.h"
#include "app/gui/widgets/headgridwidget.h"
#include "app/gui/widgets/heatmapwidget.h"
#include "app/gui/widgets/probabilitychart.h"
#include "app/gui/theme.h"

#include <QApplication>
#include <QCheckBox>
#include <QClipboard>
#include <QComboBox>
#include <QDir>
#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QMessageBox>
#include <QMouseEvent>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QSplitter>
#include <QTextBlock>
#include <QTextLayout>
#include <QTimer>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace glosa {

namespace {
constexpr int kDebounceMs = 450;

QWidget *card(QWidget *parent, QLayout *layout)
{
    auto *w = new QWidget(parent);
    w->setLayout(layout);
    layout->setContentsMargins(0, 0, 0, 0);
    return w;
}

int tokenAt(const QList<TokenSpan> &tokens, int position)
{
    for (int i = 0; i < tokens.size(); ++i)
        if (tokens.at(i).begin <= position && position < tokens.at(i).end)
            return i;
    return -1;
}

QTextEdit::ExtraSelection tokenSelection(QPlainTextEdit *editor, const TokenSpan &span)
{
    QTextEdit::ExtraSelection selection;
    selection.cursor = QTextCursor(editor->document());
    selection.cursor.setPosition(span.begin);
    selection.cursor.setPosition(span.end, QTextCursor::KeepAnchor);
    return selection;
}
} // namespace

TranslateView::TranslateView(AppContext &context, QWidget *parent)
    : QWidget(parent), m_context(context)
{
    // The widgets are made in this order, which is the focus chain's (Tab's): the editors, their
    // controls, then the panels.
    createEditors();
    createControls();
    buildEditorSplitter();
    buildAttentionSplitter();

    m_verticalSplitter = new QSplitter(Qt::Vertical, this);
    m_verticalSplitter->addWidget(m_editorSplitter);
    m_verticalSplitter->addWidget(m_bottomSplitter);
    m_verticalSplitter->setStretchFactor(0, 3);
    m_verticalSplitter->setStretchFactor(1, 2);
    // The editors' size hints would otherwise leave the heatmap a strip at 1280 × 800.
    m_verticalSplitter->setSizes({1, 1});
    m_verticalSplitter->setHandleWidth(16);

    QWidget *decodingCard = buildDecodingCard();

    m_mainSplitter = new QSplitter(Qt::Horizontal, this);
    m_mainSplitter->addWidget(m_verticalSplitter);
    m_mainSplitter->addWidget(decodingCard);
    m_mainSplitter->setStretchFactor(0, 1);
    m_mainSplitter->setStretchFactor(1, 0);
    m_mainSplitter->setHandleWidth(16);
    m_mainSplitter->setSizes({860, 360});

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(16, 12, 16, 12);
    layout->addWidget(m_mainSplitter);

    connectTranslating();
    connectTranslationPane();
    connectAttentionPanel();

    connect(&context, &AppContext::modelChosen, this, &TranslateView::useModel);
    useModel(context.choice(AppContext::kTranslation));
    retranslateUi();
    updateCounts();
}

TranslateView::~TranslateView() = default;

void TranslateView::createEditors()
{
    m_source = new QPlainTextEdit(this);
    m_target = new QPlainTextEdit(this); // editable: post-editing
    for (QPlainTextEdit *editor : {m_source, m_target}) {
        editor->setFont(theme::editorFont(font()));
        editor->setFrameShape(QFrame::StyledPanel);
        editor->viewport()->setMouseTracking(true);
        editor->viewport()->installEventFilter(this);
        editor->document()->setDocumentMargin(12);
        editor->setTabChangesFocus(true);
    }
}

void TranslateView::createControls()
{
    m_sourceTitle = new QLabel(this);
    m_targetTitle = new QLabel(this);
    m_sourceTitle->setFont(theme::titleFont(font()));
    m_targetTitle->setFont(theme::titleFont(font()));
    m_count = new QLabel(this);
    m_count->setForegroundRole(QPalette::PlaceholderText);
    m_translate = new QPushButton(this);
    m_translate->setObjectName(QStringLiteral("translateButton"));
    m_translate->setDefault(true);
    m_cancel = new QPushButton(this);
    m_cancel->setEnabled(false);
    m_live = new QCheckBox(this);
    m_live->setChecked(true);
    m_confidence = new QCheckBox(this);
    m_alternatives = new QComboBox(this);
    m_alternatives->setVisible(false);
    m_copy = new QPushButton(this);
    m_status = new QLabel(this);
    m_status->setObjectName(QStringLiteral("translateStatus"));
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_progress = new QProgressBar(this);
    m_progress->setMaximumHeight(6);
    m_progress->setTextVisible(false);
    m_progress->setVisible(false);
}

QLayout *TranslateView::sourcePaneLayout()
{
    auto *sourceLayout = new QVBoxLayout;
    sourceLayout->setSpacing(6);
    sourceLayout->addWidget(m_sourceTitle);
    sourceLayout->addWidget(m_source, 1);
    auto *sourceBar = new QHBoxLayout;
    sourceBar->addWidget(m_count);
    sourceBar->addStretch(1);
    sourceBar->addWidget(m_live);
    sourceBar->addWidget(m_cancel);
    sourceBar->addWidget(m_translate);
    sourceLayout->addLayout(sourceBar);
    return sourceLayout;
}

QLayout *TranslateView::targetPaneLayout()
{
    auto *targetLayout = new QVBoxLayout;
    targetLayout->setSpacing(6);
    auto *targetHeader = new QHBoxLayout;
    targetHeader->addWidget(m_targetTitle);
    targetHeader->addStretch(1);
    targetHeader->addWidget(m_alternatives);
    targetLayout->addLayout(targetHeader);
    targetLayout->addWidget(createSteeringBar());
    targetLayout->addWidget(createLanguageBar());
    targetLayout->addWidget(m_target, 1);
    targetLayout->addWidget(m_progress);
    auto *targetBar = new QHBoxLayout;
    targetBar->addWidget(m_status, 1);
    targetBar->addWidget(m_confidence);
    targetBar->addWidget(m_copy);
    targetLayout->addLayout(targetBar);
    return targetLayout;
}

QWidget *TranslateView::createSteeringBar()
{
    m_steering = new QLabel(this);
    m_steering->setWordWrap(true);
    m_back = new QPushButton(this);
    auto *steeringLayout = new QHBoxLayout;
    steeringLayout->addWidget(m_steering, 1);
    steeringLayout->addWidget(m_back);
    m_steeringBar = card(this, steeringLayout);
    m_steeringBar->setVisible(false);
    return m_steeringBar;
}

QWidget *TranslateView::createLanguageBar()
{
    m_languageBar = new LanguageWarningBar(m_context, this);
    return m_languageBar;
}

void TranslateView::buildEditorSplitter()
{
    QLayout *sourceLayout = sourcePaneLayout();
    QLayout *targetLayout = targetPaneLayout();
    m_editorSplitter = new QSplitter(Qt::Horizontal, this);
    m_editorSplitter->addWidget(card(this, sourceLayout));
    m_editorSplitter->addWidget(card(this, targetLayout));
    m_editorSplitter->setChildrenCollapsible(false);
    m_editorSplitter->setHandleWidth(16);
}

QLayout *TranslateView::attentionPanelLayout()
{
    m_heatmapTitle = new QLabel(this);
    m_heatmapTitle->setFont(theme::titleFont(font()));
    m_heatmapHint = new QLabel(this);
    m_heatmapHint->setObjectName(QStringLiteral("heatmapHint"));
    m_heatmapHint->setForegroundRole(QPalette::PlaceholderText);
    // Wraps: in Spanish, with the layer and head selector beside it, it made the window 1,466
    // pixels wide at least, wider than a 1280 × 800 screen.
    m_heatmapHint->setWordWrap(true);
    m_heatmap = new HeatmapWidget(this);
    m_heatmapScroll = new QScrollArea(this);
    m_heatmapScroll->setWidget(m_heatmap);
    m_heatmapScroll->setWidgetResizable(true);
    m_heatmapScroll->setFrameShape(QFrame::StyledPanel);
    auto *heatLayout = new QVBoxLayout;
    auto *heatHeader = new QHBoxLayout;
    heatHeader->addWidget(m_heatmapTitle);
    heatHeader->addStretch(1);
    m_alignment = new QComboBox(this);
    m_alignment->setVisible(false);
    m_alignment->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_kind = new QComboBox(this);
    m_kind->setVisible(false);
    m_kind->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_layerHead = new QComboBox(this);
    m_layerHead->setVisible(false);
    m_layerHead->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_allHeads = new QCheckBox(this);
    m_allHeads->setVisible(false);
    heatHeader->addWidget(m_kind);
    heatHeader->addWidget(m_alignment);
    heatHeader->addWidget(m_layerHead);
    heatHeader->addWidget(m_allHeads);
    m_headGrid = new HeadGridWidget(this);
    m_headGridScroll = new QScrollArea(this);
    m_headGridScroll->setWidget(m_headGrid);
    m_headGridScroll->setWidgetResizable(true);
    m_headGridScroll->setFrameShape(QFrame::StyledPanel);
    m_headGridScroll->setVisible(false);
    heatLayout->addLayout(heatHeader);
    // On a line of its own, the panel's width: beside the title and the selectors, the Spanish
    // hint wrapped onto six lines and pushed the heatmap down.
    heatLayout->addWidget(m_heatmapHint);
    heatLayout->addWidget(m_heatmapScroll, 1);
    heatLayout->addWidget(m_headGridScroll, 1);
    return heatLayout;
}

QLayout *TranslateView::candidatesPanelLayout()
{
    m_candidatesTitle = new QLabel(this);
    m_candidatesTitle->setFont(theme::titleFont(font()));
    m_chart = new ProbabilityChart(this);
    auto *candidatesLayout = new QVBoxLayout;
    candidatesLayout->addWidget(m_candidatesTitle);
    candidatesLayout->addWidget(m_chart, 1);
    return candidatesLayout;
}

void TranslateView::buildAttentionSplitter()
{
    QLayout *heatLayout = attentionPanelLayout();
    QLayout *candidatesLayout = candidatesPanelLayout();
    // Under the attention panel, not beside it: beside it, the Spanish window was 1,300 pixels
    // wide at least, wider than a 1280 × 800 screen.
    // The heatmap takes the room; the candidates card is only as tall as its hint while no word
    // is chosen (updateCandidates), instead of half the window for an empty chart.
    m_bottomSplitter = new QSplitter(Qt::Vertical, this);
    m_bottomSplitter->addWidget(card(this, heatLayout));
    m_candidatesCard = card(this, candidatesLayout);
    m_bottomSplitter->addWidget(m_candidatesCard);
    m_bottomSplitter->setStretchFactor(0, 1);
    m_bottomSplitter->setStretchFactor(1, 0);
    m_bottomSplitter->setHandleWidth(16);
}

QWidget *TranslateView::buildDecodingCard()
{
    m_decodingTitle = new QLabel(this);
    m_decodingTitle->setFont(theme::titleFont(font()));
    m_decoding = new DecodingPanel(this);
    auto *decodingScroll = new QScrollArea(this);
    decodingScroll->setWidget(m_decoding);
    decodingScroll->setWidgetResizable(true);
    decodingScroll->setFrameShape(QFrame::NoFrame);
    // Sideways too: in Spanish at 1280 × 800 the panel is wider than its column, and without a
    // scroll bar its right side (Guardar…, Eliminar, the combo boxes) was cut off.
    decodingScroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAsNeeded);
    auto *decodingLayout = new QVBoxLayout;
    decodingLayout->addWidget(m_decodingTitle);
    decodingLayout->addWidget(decodingScroll, 1);
    QWidget *decodingCard = card(this, decodingLayout);
    decodingCard->setMinimumWidth(340);
    return decodingCard;
}

void TranslateView::connectTranslating()
{
    m_debounce = new QTimer(this);
    m_debounce->setSingleShot(true);
    m_debounce->setInterval(kDebounceMs);
    connect(m_debounce, &QTimer::timeout, this, [this] {
        // Translating as you type never replaces the user's edits; the button asks first.
        if (m_edited) {
            m_status->setText(
                tr("Your edited translation is kept: press Translate to replace it."));
            return;
        }
        translateAutomatically();
    });
    connect(m_source, &QPlainTextEdit::textChanged, this, [this] {
        updateCounts();
        // The coverage underlines belong to the translated text: an edit takes them away.
        updateOverlay();
        if (m_live->isChecked())
            m_debounce->start();
    });
    connect(m_translate, &QPushButton::clicked, this, [this] {
        if (m_edited && QMessageBox::question(
                            this, tr("Replace your edits?"),
                            tr("The translation has your edits. Translate again and "
                               "replace them with the model's translation?")) != QMessageBox::Yes)
            return;
        translateNow();
    });
    connect(m_cancel, &QPushButton::clicked, this, &TranslateView::cancel);
    // The bar's switch chooses the offered model, which translates the text (useModel) once it
    // is loaded.
    connect(m_languageBar, &LanguageWarningBar::goOn, this, &TranslateView::translateNow);
    connect(m_decoding, &DecodingPanel::optionsChanged, this, [this] {
        if (m_live->isChecked() && !m_source->toPlainText().trimmed().isEmpty())
            m_debounce->start();
    });
}

void TranslateView::connectTranslationPane()
{
    connect(m_target, &QPlainTextEdit::textChanged, this, [this] {
        if (m_settingTarget)
            return;
        const TranslationHypothesis *h = shownHypothesis();
        const bool edited = m_target->toPlainText() != (h ? h->text : QString());
        if (!edited && !m_edited)
            return;
        m_edited = edited;
        m_status->setText(edited ? tr("Edited: your version is kept in the history next to the "
                                      "model's.")
                                 : QString());
        updateOverlay();
        emit translationEdited(editedText());
    });
    connect(m_confidence, &QCheckBox::toggled, this, &TranslateView::updateOverlay);
    connect(m_copy, &QPushButton::clicked, this, [this] {
        QApplication::clipboard()->setText(m_target->toPlainText());
    });
    connect(m_alternatives, &QComboBox::activated, this, [this](int index) {
        m_hypothesis = index;
        showResult(m_result);
    });
    connect(m_target, &QPlainTextEdit::selectionChanged, this, &TranslateView::updateOverlay);
    connect(m_chart, &ProbabilityChart::candidateChosen, this,
            &TranslateView::decodeWithCandidate);
    connect(m_back, &QPushButton::clicked, this, &TranslateView::backToOriginal);
    connect(m_source, &QPlainTextEdit::selectionChanged, this, &TranslateView::updateOverlay);
}

void TranslateView::connectAttentionPanel()
{
    connect(m_alignment, &QComboBox::activated, this, [this] {
        if (!m_source->toPlainText().trimmed().isEmpty())
            translateNow(); // the alignment is recorded while decoding
    });
    // The other kinds and the head grid are drawn from the maps the result carries; a result
    // translated without them is translated again with them.
    const auto attentionChoiceChanged = [this] {
        updateLayerHeadChoices();
        if (missingAttentionMaps() && !m_source->toPlainText().trimmed().isEmpty())
            translateNow();
        else
            showAttention();
    };
    connect(m_kind, &QComboBox::activated, this, attentionChoiceChanged);
    connect(m_allHeads, &QCheckBox::toggled, this, attentionChoiceChanged);
    connect(m_layerHead, &QComboBox::activated, this, &TranslateView::showAttention);
    connect(m_headGrid, &HeadGridWidget::headClicked, this, [this](int head) {
        const bool cross = shownAttentionKind() == engine::AttentionKind::Cross;
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
        if (shownAttentionKind() != engine::AttentionKind::Cross)
            return; // the editors' overlay follows the alignment
        m_hoverTarget = row;
        m_hoverSource = -1;
        updateOverlay();
    });
}

void TranslateView::retranslateUi()
{
    setLanguages(m_sourceLanguage, m_targetLanguage);
    m_translate->setText(tr("&Translate"));
    m_translate->setToolTip(tr("Translate now (Ctrl+Enter)"));
    m_cancel->setText(tr("Cancel"));
    m_live->setText(tr("Translate as I type"));
    m_confidence->setText(tr("Shade by confidence"));
    m_confidence->setToolTip(
        tr("Underline target words the model was unsure about (darker: less probable)"));
    m_copy->setText(tr("Copy"));
    m_copy->setToolTip(tr("Copy the translation to the clipboard"));
    m_source->setPlaceholderText(tr("Type or paste text to translate…"));
    m_target->setPlaceholderText(tr("The translation appears here. Hover a word to see which "
                                    "source words it came from."));
    m_source->setAccessibleName(tr("Source text"));
    m_target->setAccessibleName(tr("Translation"));
    m_alternatives->setAccessibleName(tr("Alternative translations"));
    m_heatmap->setAccessibleName(tr("Attention heatmap"));
    m_heatmapTitle->setText(tr("Attention"));
    m_candidatesTitle->setText(tr("Candidates"));
    m_chart->setAccessibleName(tr("Candidates at the selected word"));
    m_chart->setPlaceholderText(tr("Click a word of the translation to see the candidates the "
                                   "model weighed there; click one of them to translate again "
                                   "with it."));
    m_languageBar->setTexts(tr("This text looks like %1, and the model translates from %2."),
                            tr("Translate %1 → %2"), tr("Translate anyway"));
    m_back->setText(tr("Back to the original"));
    m_back->setToolTip(tr("Show the translation this one was steered from"));
    m_decodingTitle->setText(tr("Decoding"));
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
    for (int i = 0; i < m_alternatives->count(); ++i)
        m_alternatives->setItemText(i, tr("Alternative %1").arg(i + 1));
    updateCounts();
    if (!m_worker)
        m_status->setText(unavailableText(m_choice));
}

void TranslateView::changeEvent(QEvent *event)
{
    if (m_decoding && event->type() == QEvent::LanguageChange)
        retranslateUi();
    else if (m_decoding && event->type() == QEvent::PaletteChange)
        updateOverlay();
    QWidget::changeEvent(event);
}

void TranslateView::setLanguages(const QString &source, const QString &target)
{
    m_sourceLanguage = source;
    m_targetLanguage = target;
    m_sourceTitle->setText(source.isEmpty() ? tr("Source") : languageName(source));
    m_targetTitle->setText(target.isEmpty() ? tr("Translation") : languageName(target));
}

void TranslateView::useModel(const ModelChoice &choice)
{
    if (choice.task != AppContext::kTranslation)
        return;
    if (m_worker)
        disconnect(m_worker, nullptr, this, nullptr);
    m_choice = choice;
    m_languageBar->reset(); // a new model: the text is checked against its language again
    InferenceWorker *worker = choice.isReady() ? m_context.workerFor(*choice.model) : nullptr;
    m_worker = worker;
    m_request.reset();
    setLanguages(choice.model ? choice.model->sourceLanguage : QString(),
                 choice.model ? choice.model->targetLanguage : QString());
    const bool usable = worker != nullptr;
    m_translate->setEnabled(usable);
    m_source->setEnabled(true);
    m_status->setText(unavailableText(choice));
    if (!worker)
        return;
    m_decoding->setModelDefaults(worker->modelInfo().decodingDefaults());
    connect(worker, &InferenceWorker::busyChanged, this, [this](bool busy) {
        m_cancel->setEnabled(busy);
        if (!busy)
            m_progress->setVisible(false);
    });
    connect(worker, &InferenceWorker::modelLoaded, this, [this] {
        m_alignment->clear(); // a new model: its default again
        updateAlignmentChoices();
        updateKindChoices();
        if (!m_source->toPlainText().trimmed().isEmpty())
            translateAutomatically();
    });
    m_alignment->clear();
    updateAlignmentChoices();
    updateKindChoices();
    if (worker->isModelLoaded() && !m_source->toPlainText().trimmed().isEmpty())
        translateAutomatically();
}

bool TranslateView::checkSourceLanguage()
{
    return m_languageBar->check(m_source->toPlainText(), m_choice.model);
}

void TranslateView::translateAutomatically()
{
    if (m_worker && checkSourceLanguage()) {
        m_debounce->stop();
        m_request.reset();
        m_worker->cancel();
        m_progress->setVisible(false);
        // What the pane shows is another model's or another text's translation: not this one.
        if (!m_edited)
            showResult(TranslationResult());
        m_status->setText(liveText([language = m_choice.model->sourceLanguage] {
            return tr("Not translated: the text is not in %1.").arg(languageName(language));
        }));
        return;
    }
    translateNow();
}

void TranslateView::updateAlignmentChoices()
{
    const int layers = m_worker && m_worker->isModelLoaded() ? m_worker->alignmentLayers() : 0;
    const int heads = layers > 0 ? m_worker->alignmentHeads() : 0;
    const QVariant current = m_alignment->currentData();
    m_alignment->clear();
    if (layers > 0) {
        const AlignmentChoice preset = m_worker->defaultAlignment();
        for (int layer = 0; layer < layers; ++layer)
            for (int head = engine::AlignmentSource::kAverageHeads; head < heads; ++head) {
                QString text = head == engine::AlignmentSource::kAverageHeads
                                   ? tr("Layer %1 · mean of heads").arg(layer + 1)
                                   : tr("Layer %1 · head %2").arg(layer + 1).arg(head + 1);
                if (preset == AlignmentChoice{layer, head})
                    text = tr("%1 (default)").arg(text);
                m_alignment->addItem(text, QPoint(layer, head));
            }
        const int index = m_alignment->findData(
            current.isValid() ? current : QVariant(QPoint(preset.layer, preset.head)));
        m_alignment->setCurrentIndex(std::max(0, index));
    }
    m_alignment->setVisible(layers > 0 && shownAttentionKind() == engine::AttentionKind::Cross);
}

void TranslateView::updateKindChoices()
{
    const QList<engine::AttentionKind> kinds = m_worker && m_worker->isModelLoaded()
                                                   ? m_worker->attentionKinds()
                                                   : QList<engine::AttentionKind>();
    const engine::AttentionKind current = shownAttentionKind();
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

engine::AttentionKind TranslateView::shownAttentionKind() const
{
    return m_kind->currentIndex() < 0
               ? engine::AttentionKind::Cross
               : static_cast<engine::AttentionKind>(m_kind->currentData().toInt());
}

void TranslateView::updateLayerHeadChoices()
{
    const engine::AttentionKind kind = shownAttentionKind();
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

QPoint TranslateView::shownLayerHead() const
{
    const QComboBox *selector =
        shownAttentionKind() == engine::AttentionKind::Cross ? m_alignment : m_layerHead;
    return selector->currentIndex() >= 0 ? selector->currentData().toPoint()
                                         : QPoint(0, engine::AlignmentSource::kAverageHeads);
}

bool TranslateView::needsEveryAttention() const
{
    return shownAttentionKind() != engine::AttentionKind::Cross || m_allHeads->isChecked();
}

bool TranslateView::missingAttentionMaps() const
{
    const TranslationHypothesis *h = shownHypothesis();
    return needsEveryAttention() && h && h->attentionMaps.isEmpty();
}

void TranslateView::showAttention()
{
    using Kind = engine::AttentionKind;
    const Kind kind = shownAttentionKind();
    const bool grid = m_allHeads->isChecked();
    switch (kind) {
    case Kind::Cross:
        m_heatmapHint->setText(grid ? tr("every head of the layer · click one to see it large")
                                    : tr("rows: translation tokens · columns: source tokens · "
                                         "hover a cell for its weight"));
        break;
    case Kind::EncoderSelf:
        m_heatmapHint->setText(tr("rows and columns: source tokens · each row: what the encoder "
                                  "read for that token"));
        break;
    case Kind::DecoderSelf:
        m_heatmapHint->setText(tr("rows: translation tokens · columns: what the decoder had read "
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
    for (const TokenSpan &t : m_result.sourceTokens)
        sourceLabels << t.surface();
    for (const TokenSpan &t : h->tokens)
        targetLabels << t.surface();
    const QPoint layerHead = shownLayerHead();
    int rows = 0, columns = 0;
    if (grid) {
        QList<QVector<float>> maps;
        for (int head = 0; head < attentionHeads(*h, kind); ++head)
            maps << attentionMatrix(m_result, *h, kind, layerHead.x(), head, &rows, &columns);
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
        attentionMatrix(m_result, *h, kind, layerHead.x(), layerHead.y(), &rows, &columns);
    if (matrix.isEmpty())
        m_heatmap->clear();
    else if (kind == Kind::EncoderSelf)
        m_heatmap->setMatrix(sourceLabels, sourceLabels, matrix);
    else
        m_heatmap->setMatrix(targetLabels, decoderInputLabels(*h, QStringLiteral("<s>")), matrix);
}

void TranslateView::setSourceText(const QString &text)
{
    m_source->setPlainText(text);
}

void TranslateView::showStoredResult(const TranslationResult &result, const QString &status,
                                     const QString &editedText)
{
    m_decoding->setOptions(result.options);
    m_source->setPlainText(result.source);
    // Both edits above start the live-translation timer; the stored result is the translation.
    m_debounce->stop();
    m_request.reset(); // a request still running for the old text must not replace it
    m_hypothesis = 0;
    m_candidateToken = -1;
    m_original = TranslationResult();
    m_steeringBar->setVisible(false);
    showResult(result);
    if (!editedText.isEmpty()) {
        m_settingTarget = true;
        m_target->setPlainText(editedText);
        m_settingTarget = false;
        m_edited = editedText != (result.best() ? result.best()->text : QString());
        updateOverlay();
    }
    m_status->setText(status);
}

void TranslateView::translateNow()
{
    m_debounce->stop();
    if (!m_worker) {
        m_status->setText(unavailableText(m_choice));
        return;
    }
    const QString text = m_source->toPlainText();
    if (text.trimmed().isEmpty()) {
        m_worker->cancel();
        m_languageBar->reset();
        showResult(TranslationResult());
        return;
    }
    // Asked for: translated whatever the language, but not silently.
    checkSourceLanguage();
    engine::DecodingOptions options = m_decoding->options();
    options.trace = false;
    AlignmentChoice alignment;
    if (m_alignment->currentIndex() >= 0) {
        const QPoint choice = m_alignment->currentData().toPoint();
        alignment = {choice.x(), choice.y()};
    }
    m_request = m_worker->translate(text, {options}, alignment, needsEveryAttention());
    m_sentencesShown = false;
    m_translationTime.start();
    connect(m_request.get(), &InferenceRequest::progress, this, [this](int step, int max) {
        if (m_sentencesShown)
            return; // a long text: the bar counts sentences
        m_progress->setVisible(true);
        m_progress->setRange(0, std::max(1, max));
        m_progress->setValue(step);
    });
    // A text of several batches: sentences done of all and the time left, as Documents shows.
    connect(m_request.get(), &InferenceRequest::sentencesDone, this, [this](int done, int total) {
        if (done >= total)
            return; // one batch, or the last: the result follows at once
        m_sentencesShown = true;
        m_progress->setVisible(true);
        m_progress->setRange(0, total);
        m_progress->setValue(done);
        const qint64 left = m_translationTime.elapsed() * (total - done) / std::max(1, done);
        m_status->setText(tr("Translating: %1").arg(sentenceProgressText(done, total, left, true)));
    });
    connect(m_request.get(), &InferenceRequest::translated, this, &TranslateView::onResult);
    connect(m_request.get(), &InferenceRequest::failed, this, &TranslateView::onFailed);
    m_status->setText(tr("Translating…"));
}

void TranslateView::cancel()
{
    m_debounce->stop();
    if (m_worker)
        m_worker->cancel();
    m_progress->setVisible(false);
    // The pane still shows the translation of the text as it was: say so and dim it, rather
    // than let it pass for the translation of what is in the source pane now.
    setStale(!m_result.isEmpty() && m_result.source != m_source->toPlainText());
    m_status->setText(isTranslationStale()
                          ? tr("Cancelled. The translation shown is of the text before your "
                               "last changes.")
                          : tr("Cancelled."));
}

bool TranslateView::saveTranslation(const QString &path, QString *error) const
{
    // SaveFile, not QSaveFile: on a full disk QSaveFile renamed an empty file over the old one
    // and reported success (savefile.h says why).
    SaveFile file(path);
    QByteArray text = m_target->toPlainText().toUtf8();
    if (!text.isEmpty() && !text.endsWith('\n'))
        text += '\n';
    if (file.open(QIODevice::WriteOnly)) {
        file.write(text);
        if (file.commit())
            return true;
    }
    *error = tr("Could not save %1: %2").arg(QDir::toNativeSeparators(path), file.errorString());
    return false;
}

void TranslateView::scrollIntoView(QPlainTextEdit *editor, const TokenSpan &token)
{
    QTextCursor at(editor->document());
    at.setPosition(std::clamp<int>(token.begin, 0, editor->document()->characterCount() - 1));
    const QRect shown = editor->viewport()->rect();
    const QRect where = editor->cursorRect(at);
    if (shown.contains(where))
        return;
    // QPlainTextEdit's scroll bar counts lines, wrapped ones included: the word's line, a
    // half viewport down.
    const QTextBlock block = at.block();
    const QTextLine line =
        block.layout() ? block.layout()->lineForTextPosition(at.positionInBlock()) : QTextLine();
    const int number = block.firstLineNumber() + (line.isValid() ? line.lineNumber() : 0);
    const int visible = shown.height() / std::max(1, editor->fontMetrics().lineSpacing());
    editor->verticalScrollBar()->setValue(number - visible / 2);
}

void TranslateView::setStale(bool stale)
{
    m_stale = stale;
    QPalette palette = m_source->palette(); // the editors' own colours
    if (stale)
        palette.setColor(QPalette::Text, palette.color(QPalette::PlaceholderText));
    m_target->setPalette(palette);
}

void TranslateView::swapTexts()
{
    const QString translation = m_target->toPlainText();
    m_source->setPlainText(translation);
}

void TranslateView::onResult(const QList<TranslationResult> &results)
{
    if (results.isEmpty())
        return;
    // The source may have changed while this ran; the debounce timer will bring a fresh one.
    m_hypothesis = 0;
    // A new translation: the word and the steering were of the old one.
    m_candidateToken = -1;
    m_original = TranslationResult();
    m_steeringBar->setVisible(false);
    showResult(results.first());
    const TranslationResult &r = results.first();
    QString status = tr("%n token(s) in %1 ms", "", r.best() ? int(r.best()->tokens.size()) : 0)
                         .arg(QLocale().toString(r.elapsedMs, 'f', 0));
    if (!r.missingSpans.isEmpty()) {
        QStringList quoted;
        bool keptTerm = false; // one of Settings ▸ Do not translate, which is kept the same way
        for (const QString &span : r.missingSpans) {
            quoted << QStringLiteral("“%1”").arg(span);
            keptTerm = keptTerm || std::find(r.options.keepTerms.begin(), r.options.keepTerms.end(),
                                             span.toStdString()) != r.options.keepTerms.end();
        }
        status += QStringLiteral(" · ") +
                  (keptTerm ? tr("Not in the translation: %1 (this model cannot protect numbers, "
                                 "URLs, code or the terms of your do-not-translate list)")
                            : tr("Not in the translation: %1 (this model cannot protect numbers, "
                                 "URLs and code)"))
                      .arg(QLocale().createSeparatedList(quoted));
    }
    m_status->setText(status);
    emit translationShown(r);
}

void TranslateView::onFailed(const QString &message)
{
    m_status->setText(liveText([message] { return tr("Translation failed: %1").arg(message); }));
    emit statusMessage(message);
}

const TranslationHypothesis *TranslateView::shownHypothesis() const
{
    if (m_result.hypotheses.isEmpty())
        return nullptr;
    return &m_result.hypotheses.at(std::clamp<int>(m_hypothesis, 0,
                                                   m_result.hypotheses.size() - 1));
}

void TranslateView::showResult(const TranslationResult &result)
{
    m_result = result;
    setStale(false);
    m_hoverTarget = m_hoverSource = -1;
    m_alternatives->clear();
    for (int i = 0; i < result.hypotheses.size(); ++i)
        m_alternatives->addItem(tr("Alternative %1").arg(i + 1));
    m_alternatives->setCurrentIndex(std::max(0, std::min<int>(m_hypothesis,
                                                              result.hypotheses.size() - 1)));
    m_alternatives->setVisible(result.hypotheses.size() > 1);
    const TranslationHypothesis *h = shownHypothesis();
    m_settingTarget = true;
    m_target->setPlainText(h ? h->text : QString());
    m_settingTarget = false;
    m_edited = false;
    updateLayerHeadChoices();
    showAttention();
    updateOverlay();
    updateCandidates();
}

void TranslateView::showCandidates(int token)
{
    m_candidateToken = token;
    updateCandidates();
}

void TranslateView::updateCandidates()
{
    updateCandidatesChart();
    // An empty chart is a title and a line of help: the heatmap above gets the rest. With
    // candidates, the card gets the chart's height back.
    const bool shown = m_chart->barCount() > 0;
    const int collapsed = m_candidatesTitle->sizeHint().height() + 4 * fontMetrics().height();
    m_candidatesCard->setMaximumHeight(shown ? QWIDGETSIZE_MAX : collapsed);
    const QList<int> sizes = m_bottomSplitter->sizes();
    const int total = sizes.value(0) + sizes.value(1);
    if (shown && m_candidatesCard->height() < m_chart->sizeHint().height()) {
        const int wanted = std::min(total / 2, m_chart->sizeHint().height() +
                                                   m_candidatesTitle->sizeHint().height());
        m_bottomSplitter->setSizes({total - wanted, wanted});
    } else if (!shown && sizes.value(1) > collapsed) {
        // QSplitter keeps the card's old share and leaves what the maximum cuts off blank
        // (171 px at 1280 × 800): the heatmap takes it.
        m_bottomSplitter->setSizes({total - collapsed, collapsed});
    }
}

void TranslateView::updateCandidatesChart()
{
    const TranslationHypothesis *h = shownHypothesis();
    // The trace follows the best hypothesis; an edited pane has no tokens to point at.
    if (m_candidateToken < 0 || !h || m_hypothesis != 0 || m_edited
        || m_candidateToken >= h->tokens.size()) {
        m_chart->clear();
        return;
    }
    if (m_result.traces.isEmpty()) {
        m_chart->clear();
        if (m_traceRequest || !m_worker)
            return;
        // The same translation again, traced: the same text, settings and seed decode the same.
        engine::DecodingOptions options = m_result.options;
        options.trace = true;
        m_traceRequest = m_worker->translate(m_result.source, {options});
        const QString text = h->text;
        connect(m_traceRequest.get(), &InferenceRequest::translated, this,
                [this, text](const QList<TranslationResult> &results) {
                    m_traceRequest.release()->deleteLater();
                    // Only if it is still the shown translation (and the model still says it).
                    if (!results.isEmpty() && results.first().best() && m_result.best()
                        && results.first().best()->text == text && m_result.best()->text == text
                        && m_result.traces.isEmpty()) {
                        m_result.traces = results.first().traces;
                        updateCandidates();
                    }
                });
        connect(m_traceRequest.get(), &InferenceRequest::failed, this,
                [this] { m_traceRequest.release()->deleteLater(); });
        connect(m_traceRequest.get(), &InferenceRequest::cancelled, this,
                [this] { m_traceRequest.release()->deleteLater(); });
        return;
    }
    const int sentence = m_result.sentenceOfToken(m_candidateToken);
    if (sentence < 0) {
        m_chart->clear();
        return;
    }
    const SentenceTrace &trace = m_result.traces[sentence];
    m_chart->setStep(trace, m_candidateToken - trace.targetOffset);
}

void TranslateView::decodeWithCandidate(int token)
{
    const int sentence = m_result.sentenceOfToken(m_candidateToken);
    if (!m_worker || m_hypothesis != 0 || sentence < 0)
        return;
    const SentenceTrace &trace = m_result.traces[sentence];
    const QList<int> prefix = trace.prefixWith(m_candidateToken - trace.targetOffset, token);
    if (prefix.isEmpty())
        return;
    // The shown translation's settings (a steered one's prefix is replaced), the prefix added.
    engine::DecodingOptions options = m_result.options;
    options.trace = true; // its candidates can be shown and steered in turn
    options.targetPrefix.assign(prefix.begin(), prefix.end());
    options.targetPrefixSentence = sentence;
    options.maxLength = std::max(options.maxLength, int(prefix.size()));
    bool ends = false;
    const QString words = trace.words(prefix, &ends);
    const QString label = steeringLabel(words, ends, sentence, int(m_result.traces.size()));
    AlignmentChoice alignment;
    if (m_alignment->currentIndex() >= 0) {
        const QPoint choice = m_alignment->currentData().toPoint();
        alignment = {choice.x(), choice.y()};
    }
    m_debounce->stop();
    m_request = m_worker->translate(m_result.source, {options}, alignment, needsEveryAttention());
    connect(m_request.get(), &InferenceRequest::translated, this,
            [this, label](const QList<TranslationResult> &results) {
                if (results.isEmpty())
                    return;
                if (m_original.isEmpty())
                    m_original = m_result;
                m_hypothesis = 0;
                showResult(results.first());
                showSteering(label);
                m_status->setText(
                    liveText([] { return tr("Translated again with your choice forced."); }));
                emit translationShown(results.first());
            });
    connect(m_request.get(), &InferenceRequest::failed, this, &TranslateView::onFailed);
    m_status->setText(tr("Translating with your choice…"));
}

void TranslateView::showSteering(const QString &label)
{
    m_steering->setText(label);
    QPalette pal = m_steering->palette();
    pal.setColor(QPalette::WindowText, theme::accent(palette()));
    m_steering->setPalette(pal);
    m_steeringBar->setVisible(true);
}

QString TranslateView::steeringText() const
{
    return isSteered() ? m_steering->text() : QString();
}

void TranslateView::backToOriginal()
{
    if (m_original.isEmpty())
        return;
    m_request.reset(); // a steered translation still on its way must not come back
    const TranslationResult original = m_original;
    m_original = TranslationResult();
    m_steeringBar->setVisible(false);
    m_hypothesis = 0;
    showResult(original);
    m_status->clear();
}

QString TranslateView::editedText() const
{
    return m_edited ? m_target->toPlainText() : QString();
}

int TranslateView::targetTokenAt(int position) const
{
    const TranslationHypothesis *h = shownHypothesis();
    return h && !m_edited ? tokenAt(h->tokens, position) : -1;
}

int TranslateView::sourceTokenAt(int position) const
{
    // Only while the source still says what was translated: positions would be stale otherwise.
    if (m_source->toPlainText() != m_result.source)
        return -1;
    return tokenAt(m_result.sourceTokens, position);
}

bool TranslateView::eventFilter(QObject *watched, QEvent *event)
{
    const bool target = watched == m_target->viewport();
    const bool source = watched == m_source->viewport();
    // The token under the pointer, -1 off the text.
    const auto tokenUnder = [&](const QPoint &pos) {
        QPlainTextEdit *editor = target ? m_target : m_source;
        const QTextCursor cursor = editor->cursorForPosition(pos);
        int position = cursor.position();
        // cursorForPosition() returns the nearest boundary; the character under the pointer is
        // the one before it when the pointer is on its right half.
        const QRect caret = editor->cursorRect(cursor);
        if (pos.x() < caret.x() && position > 0)
            --position;
        const bool onText = std::abs(pos.y() - caret.center().y()) <= caret.height();
        return !onText ? -1 : target ? targetTokenAt(position) : sourceTokenAt(position);
    };
    if ((target || source) && event->type() == QEvent::MouseMove) {
        const int token = tokenUnder(static_cast<QMouseEvent *>(event)->position().toPoint());
        int &hover = target ? m_hoverTarget : m_hoverSource;
        if (token != hover || (target ? m_hoverSource : m_hoverTarget) != -1) {
            hover = token;
            (target ? m_hoverSource : m_hoverTarget) = -1;
            updateOverlay();
        }
    } else if (target && event->type() == QEvent::MouseButtonRelease) {
        // A click (not a drag that selected text) on a word shows its candidates.
        if (!m_target->textCursor().hasSelection())
            showCandidates(tokenUnder(static_cast<QMouseEvent *>(event)->position().toPoint()));
    } else if ((target || source) && event->type() == QEvent::Leave) {
        if (m_hoverTarget != -1 || m_hoverSource != -1) {
            m_hoverTarget = m_hoverSource = -1;
            updateOverlay();
        }
    }
    return QWidget::eventFilter(watched, event);
}

QList<int> TranslateView::selectedTokens(bool target) const
{
    QPlainTextEdit *editor = target ? m_target : m_source;
    const QTextCursor cursor = editor->textCursor();
    QList<int> tokens;
    if (!cursor.hasSelection())
        return tokens;
    const QList<TokenSpan> *spans = nullptr;
    if (target) {
        if (const TranslationHypothesis *h = shownHypothesis())
            spans = &h->tokens;
    } else if (m_source->toPlainText() == m_result.source) {
        spans = &m_result.sourceTokens;
    }
    if (!spans)
        return tokens;
    for (int i = 0; i < spans->size(); ++i) {
        const TokenSpan &t = spans->at(i);
        if (t.end > cursor.selectionStart() && t.begin < cursor.selectionEnd())
            tokens << i;
    }
    return tokens;
}

void TranslateView::updateOverlay()
{
    QList<QTextEdit::ExtraSelection> sourceSelections, targetSelections;
    const TranslationHypothesis *h = shownHypothesis();
    // Token positions hold for the model's texts only, not for edited ones.
    const bool sourceCurrent = m_source->toPlainText() == m_result.source && !m_edited;

    if (h && m_hypothesis == 0 && !m_edited)
        markForcedTokens(*h, targetSelections);
    if (h && m_confidence->isChecked() && !m_edited)
        markConfidence(*h, targetSelections);
    // Likely omissions: source words the best translation gave little attention in all.
    if (h && m_hypothesis == 0 && sourceCurrent && m_result.coverage.available)
        markOmissions(sourceSelections);
    int heatRow = -1, heatColumn = -1;
    if (h && !h->alignment.isEmpty() && sourceCurrent)
        markAlignment(*h, sourceSelections, targetSelections, heatRow, heatColumn);
    m_source->setExtraSelections(sourceSelections);
    m_target->setExtraSelections(targetSelections);
    // Rows and columns are target × source tokens in the cross-attention only.
    const bool cross = shownAttentionKind() == engine::AttentionKind::Cross;
    m_heatmap->setHighlight(cross ? heatRow : -1, cross ? heatColumn : -1);
}

void TranslateView::markForcedTokens(const TranslationHypothesis &h,
                                     QList<QTextEdit::ExtraSelection> &targetSelections) const
{
    const QPalette pal = palette();
    for (int i : m_result.forcedTokens()) {
        if (h.tokens.at(i).begin == h.tokens.at(i).end)
            continue;
        QTextEdit::ExtraSelection s = tokenSelection(m_target, h.tokens.at(i));
        s.format.setUnderlineStyle(QTextCharFormat::DotLine);
        s.format.setUnderlineColor(theme::accent(pal));
        s.format.setProperty(kForcedProperty, true);
        s.format.setToolTip(tr("Forced: part of the prefix you chose"));
        targetSelections << s;
    }
}

void TranslateView::markConfidence(const TranslationHypothesis &h,
                                   QList<QTextEdit::ExtraSelection> &targetSelections) const
{
    const QPalette pal = palette();
    for (int i = 0; i < h.tokens.size() && i < h.tokenLogProbs.size(); ++i) {
        const float p = std::exp(h.tokenLogProbs.at(i));
        if (p > 0.9f || h.tokens.at(i).begin == h.tokens.at(i).end)
            continue;
        QTextEdit::ExtraSelection s = tokenSelection(m_target, h.tokens.at(i));
        s.format.setUnderlineStyle(QTextCharFormat::SingleUnderline);
        s.format.setUnderlineColor(theme::confidenceColor(pal, p));
        s.format.setBackground(theme::confidenceColor(pal, p).lighter(100));
        s.format.setToolTip(tr("Probability %1%").arg(QLocale().toString(p * 100, 'f', 1)));
        targetSelections << s;
    }
}

void TranslateView::markOmissions(QList<QTextEdit::ExtraSelection> &sourceSelections) const
{
    const QPalette pal = palette();
    for (const CoveredWord &word : m_result.coverage.flagged()) {
        QTextEdit::ExtraSelection s =
            tokenSelection(m_source, TokenSpan{-1, {}, word.begin, word.end});
        s.format = omissionFormat(pal, word.mass, m_result.coverage.threshold);
        s.format.setProperty(kCoverageProperty, word.mass);
        sourceSelections << s;
    }
}

void TranslateView::markAlignment(const TranslationHypothesis &h,
                                  QList<QTextEdit::ExtraSelection> &sourceSelections,
                                  QList<QTextEdit::ExtraSelection> &targetSelections, int &heatRow,
                                  int &heatColumn)
{
    const QPalette pal = palette();
    // Which rows (target tokens) or columns (source tokens) are active.
    QList<int> targets = m_hoverTarget >= 0 ? QList<int>{m_hoverTarget} : selectedTokens(true);
    QList<int> sources;
    if (targets.isEmpty())
        sources = m_hoverSource >= 0 ? QList<int>{m_hoverSource} : selectedTokens(false);

    // The words a hovered/selected word attended to (or was attended by), shaded by weight.
    const auto markWeights = [&pal](QPlainTextEdit *editor, const QList<TokenSpan> &spans,
                                    const QVector<float> &weights, const QList<bool> &empty,
                                    QList<QTextEdit::ExtraSelection> &selections) {
        for (int i : overlayWords(weights, empty)) {
            QTextEdit::ExtraSelection s = tokenSelection(editor, spans.at(i));
            s.format.setBackground(theme::attentionColor(pal, weights[i]));
            s.format.setProperty(kTokenProperty, i);
            s.format.setProperty(kWeightProperty, weights[i]);
            s.format.setToolTip(QLocale().toString(weights[i], 'f', 3));
            selections << s;
        }
    };
    if (!targets.isEmpty()) {
        heatRow = targets.size() == 1 ? targets.first() : -1;
        for (int t : targets) {
            QTextEdit::ExtraSelection s = tokenSelection(m_target, h.tokens.at(t));
            s.format.setBackground(theme::attentionColor(pal, 1.0f));
            s.format.setForeground(theme::textOn(theme::attentionColor(pal, 1.0f)));
            s.format.setProperty(kTokenProperty, t);
            targetSelections << s;
        }
        // Several selected target words: each source word shows its strongest weight.
        QVector<float> weights(m_result.sourceTokens.size(), 0.0f);
        QList<bool> empty(weights.size());
        for (int j = 0; j < weights.size(); ++j) {
            for (int t : targets)
                weights[j] = std::max(weights[j], h.alignmentAt(t, j));
            empty[j] = m_result.sourceTokens.at(j).begin == m_result.sourceTokens.at(j).end;
        }
        markWeights(m_source, m_result.sourceTokens, weights, empty, sourceSelections);
        // A hovered word of a long translation attends to source words that may be out of
        // sight: the strongest one is scrolled into view (the source's own cursor stays).
        const QList<int> strongest = overlayWords(weights, empty);
        if (m_hoverTarget >= 0 && !strongest.isEmpty())
            scrollIntoView(m_source, m_result.sourceTokens.at(strongest.first()));
    } else if (!sources.isEmpty()) {
        heatColumn = sources.size() == 1 ? sources.first() : -1;
        for (int j : sources) {
            QTextEdit::ExtraSelection s = tokenSelection(m_source, m_result.sourceTokens.at(j));
            s.format.setBackground(theme::attentionColor(pal, 1.0f));
            s.format.setProperty(kTokenProperty, j);
            sourceSelections << s;
        }
        QVector<float> weights(h.tokens.size(), 0.0f);
        QList<bool> empty(weights.size());
        for (int t = 0; t < weights.size(); ++t) {
            for (int j : sources)
                weights[t] = std::max(weights[t], h.alignmentAt(t, j));
            empty[t] = h.tokens.at(t).begin == h.tokens.at(t).end;
        }
        markWeights(m_target, h.tokens, weights, empty, targetSelections);
    }
}

QList<int> TranslateView::overlayWords(const QVector<float> &weights, const QList<bool> &empty)
{
    QList<int> words;
    for (int i = 0; i < weights.size(); ++i)
        if (weights.at(i) >= kMinOverlayWeight && !empty.value(i))
            words << i;
    std::stable_sort(words.begin(), words.end(),
                     [&](int a, int b) { return weights.at(a) > weights.at(b); });
    if (words.size() > kMaxOverlayWords)
        words.resize(kMaxOverlayWords);
    return words;
}

void TranslateView::updateCounts()
{
    const QString text = m_source->toPlainText();
    m_count->setText(tr("%n character(s)", "", int(text.size())));
}

bool TranslateView::liveTranslate() const { return m_live->isChecked(); }
void TranslateView::setLiveTranslate(bool on) { m_live->setChecked(on); }
bool TranslateView::confidenceShading() const { return m_confidence->isChecked(); }
void TranslateView::setConfidenceShading(bool on) { m_confidence->setChecked(on); }

} // namespace glosa
