#include "app/gui/views/translateview.h"

#include "app/core/inference/inferenceworker.h"
#include "app/core/presenters/translatepresenter.h"
#include "app/gui/widgets/alignmentoverlay.h"
#include "app/gui/widgets/attentionpanel.h"
#include "app/gui/widgets/candidatespanel.h"
#include "app/gui/widgets/decodingpanel.h"
#include "app/core/displaynames.h"
#include "app/gui/composedtext.h"
#include "app/gui/livetext.h"
#include "app/gui/widgets/probabilitychart.h"
#include "app/gui/widgets/sourcepane.h"
#include "app/gui/widgets/steeringbar.h"
#include "app/gui/widgets/targetpane.h"
#include "app/gui/theme.h"

#include <QApplication>
#include <QCheckBox>
#include <QClipboard>
#include <QComboBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollArea>
#include <QSplitter>
#include <QTimer>
#include <QVBoxLayout>

#include <algorithm>

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

} // namespace

TranslateView::TranslateView(AppContext &context, QWidget *parent)
    : QWidget(parent), m_context(context), m_presenter(new TranslatePresenter(context, this))
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

    m_presenter->setOptionsSource([this] { return m_decoding->options(); });
    connectTranslating();
    connectTranslationPane();
    connectAttentionPanel();
    connectPresenter();
    onModelChanged();
    retranslateUi();
}

TranslateView::~TranslateView() = default;

void TranslateView::createEditors()
{
    m_sourcePane = new SourcePane(this);
    m_source = m_sourcePane->editor();
    m_targetPane = new TargetPane(m_context, this);
    m_target = m_targetPane->editor(); // editable: post-editing
    for (QPlainTextEdit *editor : {m_source, m_target}) {
        editor->setFont(theme::editorFont(font()));
        editor->setFrameShape(QFrame::StyledPanel);
        editor->document()->setDocumentMargin(12);
        editor->setTabChangesFocus(true);
    }
    m_overlay = new AlignmentOverlay(this, m_source, m_target);
    connect(m_overlay, &AlignmentOverlay::omissionsMarked, m_sourcePane,
            &SourcePane::setOmissionLegendVisible);
    connect(m_overlay, &AlignmentOverlay::unknownWordsMarked, this,
            [this](bool marked) { m_wordLegend->setVisible(marked); });
}

void TranslateView::createControls()
{
    m_translate = m_sourcePane->translateButton();
    m_cancel = m_sourcePane->cancelButton();
    m_live = m_sourcePane->liveToggle();
    m_targetTitle = m_targetPane->title();
    m_alternatives = m_targetPane->alternatives();
    m_steeringBar = m_targetPane->steeringBar();
    m_languageBar = m_targetPane->languageBar();
    m_wordLegend = m_targetPane->wordLegend();
    m_progress = m_targetPane->progress();
    m_status = m_targetPane->status();
    m_confidence = m_targetPane->confidenceToggle();
    m_copy = m_targetPane->copyButton();
    // Tab goes from the source to the translation, then to the source pane's buttons (made with
    // the source editor, before the translation's).
    setTabOrder(m_source, m_target);
    setTabOrder(m_target, m_translate);
    setTabOrder(m_translate, m_cancel);
    setTabOrder(m_cancel, m_live);
    setTabOrder(m_live, m_confidence);
}

void TranslateView::buildEditorSplitter()
{
    m_editorSplitter = new QSplitter(Qt::Horizontal, this);
    m_editorSplitter->addWidget(m_sourcePane);
    m_editorSplitter->addWidget(m_targetPane);
    m_editorSplitter->setChildrenCollapsible(false);
    m_editorSplitter->setHandleWidth(16);
}

void TranslateView::buildAttentionSplitter()
{
    m_attention = new AttentionPanel(this);
    // Under the attention panel, not beside it: beside it, the Spanish window was 1,300 pixels
    // wide at least, wider than a 1280 × 800 screen.
    // The heatmap takes the room; the candidates card is only as tall as its hint while no word
    // is chosen (updateCandidates), instead of half the window for an empty chart.
    m_bottomSplitter = new QSplitter(Qt::Vertical, this);
    m_bottomSplitter->addWidget(m_attention);
    m_candidates = new CandidatesPanel(this);
    m_bottomSplitter->addWidget(m_candidates);
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
        if (m_presenter->isEdited()) {
            m_status->setText(
                tr("Your edited translation is kept: press Translate to replace it."));
            return;
        }
        translateAutomatically();
    });
    connect(m_source, &QPlainTextEdit::textChanged, this, [this] {
        m_presenter->setSource(m_source->toPlainText());
        // The coverage underlines belong to the translated text: an edit takes them away.
        updateOverlay();
        if (m_live->isChecked())
            m_debounce->start();
    });
    connect(m_translate, &QPushButton::clicked, this, [this] {
        if (m_presenter->isEdited()
            && QMessageBox::question(this, tr("Replace your edits?"),
                                     tr("The translation has your edits. Translate again and "
                                        "replace them with the model's translation?"))
                   != QMessageBox::Yes)
            return;
        translateNow();
    });
    connect(m_cancel, &QPushButton::clicked, this, &TranslateView::cancel);
    // The bar's switch chooses the offered model, which translates the text once it is loaded.
    connect(m_languageBar, &LanguageWarningBar::goOn, m_presenter,
            &TranslatePresenter::translateAnyway);
    connect(m_decoding, &DecodingPanel::optionsChanged, this, [this] {
        if (m_live->isChecked() && !m_source->toPlainText().trimmed().isEmpty())
            m_debounce->start();
    });
}

void TranslateView::connectTranslationPane()
{
    connect(m_target, &QPlainTextEdit::textChanged, this, [this] {
        if (!m_settingTarget)
            m_presenter->setTargetText(m_target->toPlainText());
    });
    connect(m_confidence, &QCheckBox::toggled, m_overlay, &AlignmentOverlay::setConfidenceShading);
    connect(m_overlay, &AlignmentOverlay::targetClicked, this, &TranslateView::showCandidates);
    connect(m_overlay, &AlignmentOverlay::highlighted, m_attention,
            &AttentionPanel::setHighlight);
    connect(m_copy, &QPushButton::clicked, this, [this] {
        QApplication::clipboard()->setText(m_target->toPlainText());
    });
    connect(m_alternatives, &QComboBox::activated, m_presenter,
            &TranslatePresenter::chooseHypothesis);
    connect(m_candidates->chart(), &ProbabilityChart::candidateChosen, this,
            &TranslateView::decodeWithCandidate);
    connect(m_steeringBar, &SteeringBar::backClicked, this, &TranslateView::backToOriginal);
}

void TranslateView::connectPresenter()
{
    TranslatePresenter *p = m_presenter;
    connect(p, &TranslatePresenter::modelChanged, this, &TranslateView::onModelChanged);
    connect(p, &TranslatePresenter::modelLoaded, this, &TranslateView::updateAttentionModel);
    connect(p, &TranslatePresenter::busyChanged, this, [this](bool busy) {
        m_cancel->setEnabled(busy);
        if (!busy)
            m_progress->setVisible(false);
    });
    connect(p, &TranslatePresenter::requestStarted, this, [this](TranslatePresenter::Request r) {
        m_debounce->stop();
        m_status->setText(r == TranslatePresenter::Request::Steering
                              ? tr("Translating with your choice…")
                              : tr("Translating…"));
    });
    connect(p, &TranslatePresenter::progress, this, [this](int step, int max) {
        m_progress->setVisible(true);
        m_progress->setRange(0, std::max(1, max));
        m_progress->setValue(step);
    });
    // A text of several batches: sentences done of all and the time left, as Documents shows.
    connect(p, &TranslatePresenter::sentencesDone, this, [this](int done, int total, qint64 left) {
        m_progress->setVisible(true);
        m_progress->setRange(0, total);
        m_progress->setValue(done);
        m_status->setText(tr("Translating: %1").arg(sentenceProgressText(done, total, left, true)));
    });
    connect(p, &TranslatePresenter::resultChanged, this, &TranslateView::showResult);
    connect(p, &TranslatePresenter::translated, this, &TranslateView::onTranslated);
    connect(p, &TranslatePresenter::translationShown, this, &TranslateView::translationShown);
    connect(p, &TranslatePresenter::failed, this, [this](const QString &message) {
        m_status->setText(liveText([message] { return tr("Translation failed: %1").arg(message); }));
        emit statusMessage(message);
    });
    connect(p, &TranslatePresenter::notTranslated, this, [this] {
        m_debounce->stop();
        m_progress->setVisible(false);
        m_status->setText(liveText([language = m_presenter->choice().model->sourceLanguage] {
            return tr("Not translated: the text is not in %1.").arg(languageName(language));
        }));
    });
    connect(p, &TranslatePresenter::languageMismatchChanged, this, [this] {
        const std::optional<ModelInfo> &model = m_presenter->choice().model;
        m_languageBar->showMismatch(m_presenter->languageMismatch(),
                                    model ? model->sourceLanguage : QString());
    });
    connect(p, &TranslatePresenter::candidatesChanged, this, &TranslateView::updateCandidates);
    connect(p, &TranslatePresenter::unknownWordsChanged, this, &TranslateView::updateOverlay);
    connect(p, &TranslatePresenter::editedChanged, this, [this](bool edited) {
        m_status->setText(edited ? tr("Edited: your version is kept in the history next to the "
                                      "model's.")
                                 : QString());
        updateOverlay();
    });
    connect(p, &TranslatePresenter::translationEdited, this, &TranslateView::translationEdited);
}

void TranslateView::connectAttentionPanel()
{
    connect(m_attention, &AttentionPanel::alignmentChosen, this,
            [this](const AlignmentChoice &alignment) {
                m_presenter->setAlignment(alignment);
                if (!m_source->toPlainText().trimmed().isEmpty())
                    translateNow(); // the alignment is recorded while decoding
            });
    // The other kinds and the head grid are drawn from the maps the result carries; a result
    // translated without them is translated again with them.
    connect(m_attention, &AttentionPanel::attentionChoiceChanged, this, [this] {
        m_presenter->setEveryAttention(m_attention->needsEveryAttention());
        if (m_presenter->missingAttentionMaps() && !m_source->toPlainText().trimmed().isEmpty())
            translateNow();
    });
    connect(m_attention, &AttentionPanel::rowHovered, this, [this](int row) {
        m_overlay->hoverTarget(row);
    });
}

void TranslateView::updateAttentionModel()
{
    m_attention->setModel(m_presenter->isModelLoaded() ? m_presenter->worker() : nullptr,
                          m_presenter->alignment());
    m_presenter->setEveryAttention(m_attention->needsEveryAttention());
}

void TranslateView::retranslateUi()
{
    setLanguages(m_sourceLanguage, m_targetLanguage);
    m_confidence->setText(tr("Shade by confidence"));
    m_confidence->setToolTip(
        tr("Underline target words the model was unsure about (darker: less probable)"));
    m_copy->setText(tr("Copy"));
    m_copy->setToolTip(tr("Copy the translation to the clipboard"));
    m_target->setPlaceholderText(tr("The translation appears here. Hover a word to see which "
                                    "source words it came from."));
    m_target->setAccessibleName(tr("Translation"));
    m_alternatives->setAccessibleName(tr("Alternative translations"));
    m_languageBar->setTexts(tr("This text looks like %1, and the model translates from %2."),
                            tr("Translate %1 → %2"), tr("Translate anyway"));
    m_decodingTitle->setText(tr("Decoding"));
    for (int i = 0; i < m_alternatives->count(); ++i)
        m_alternatives->setItemText(i, tr("Alternative %1").arg(i + 1));
    if (!m_presenter->worker())
        m_status->setText(unavailableText(m_presenter->choice()));
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
    m_sourcePane->setLanguage(source);
    m_targetTitle->setText(target.isEmpty() ? tr("Translation") : languageName(target));
    m_wordLegend->setText(tr("┈ Dotted red underline: not a known %1 word. Click it to see what "
                             "else the model weighed there.")
                              .arg(languageName(target)));
}

void TranslateView::onModelChanged()
{
    const ModelChoice &choice = m_presenter->choice();
    InferenceWorker *worker = m_presenter->worker();
    setLanguages(choice.model ? choice.model->sourceLanguage : QString(),
                 choice.model ? choice.model->targetLanguage : QString());
    m_translate->setEnabled(worker != nullptr);
    m_source->setEnabled(true);
    m_status->setText(unavailableText(choice));
    if (!worker)
        return;
    m_decoding->setModelDefaults(worker->modelInfo().decodingDefaults());
    updateAttentionModel();
}

void TranslateView::translateAutomatically()
{
    if (!m_presenter->worker())
        m_status->setText(unavailableText(m_presenter->choice()));
    else
        m_presenter->translateAutomatically();
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
    m_presenter->showStoredResult(result, editedText);
    if (!editedText.isEmpty()) {
        m_settingTarget = true;
        m_target->setPlainText(editedText);
        m_settingTarget = false;
        updateOverlay();
    }
    m_status->setText(status);
}

void TranslateView::translateNow()
{
    m_debounce->stop();
    if (!m_presenter->worker())
        m_status->setText(unavailableText(m_presenter->choice()));
    else
        m_presenter->translate();
}

void TranslateView::cancel()
{
    m_debounce->stop();
    m_presenter->cancel();
    m_progress->setVisible(false);
    // The pane still shows the translation of the text as it was: say so and dim it, rather
    // than let it pass for the translation of what is in the source pane now.
    setStale(m_presenter->isStale());
    m_status->setText(isTranslationStale()
                          ? tr("Cancelled. The translation shown is of the text before your "
                               "last changes.")
                          : tr("Cancelled."));
}

bool TranslateView::saveTranslation(const QString &path, QString *error) const
{
    return m_presenter->saveTranslation(path, error);
}

void TranslateView::setStale(bool stale)
{
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

void TranslateView::onTranslated(const TranslationResult &r, bool steered)
{
    if (steered) {
        m_status->setText(
            liveText([] { return tr("Translated again with your choice forced."); }));
        return;
    }
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
}

void TranslateView::showResult()
{
    const TranslationResult &result = m_presenter->result();
    setStale(m_presenter->isStale());
    m_overlay->clearHover();
    m_alternatives->clear();
    for (int i = 0; i < result.hypotheses.size(); ++i)
        m_alternatives->addItem(tr("Alternative %1").arg(i + 1));
    m_alternatives->setCurrentIndex(
        std::max(0, std::min<int>(m_presenter->hypothesis(), result.hypotheses.size() - 1)));
    m_alternatives->setVisible(result.hypotheses.size() > 1);
    const TranslationHypothesis *h = shownHypothesis();
    m_settingTarget = true;
    m_target->setPlainText(h ? h->text : QString());
    m_settingTarget = false;
    const TranslatePresenter::Steering &steering = m_presenter->steering();
    m_steeringBar->setLabel(m_presenter->isSteered()
                                ? steeringLabel(steering.words, steering.ends, steering.sentence,
                                                steering.sentences)
                                : QString());
    m_attention->setResult(result, m_presenter->hypothesis());
    updateOverlay();
    updateCandidates();
}

void TranslateView::showCandidates(int token)
{
    m_presenter->showCandidates(token);
}

void TranslateView::updateCandidates()
{
    int step = 0;
    const SentenceTrace *trace = m_presenter->candidatesTrace(&step);
    m_candidates->showStep(trace, step);
}

void TranslateView::decodeWithCandidate(int token)
{
    m_presenter->decodeWithCandidate(token);
}

QString TranslateView::steeringText() const
{
    return isSteered() ? m_steeringBar->label() : QString();
}

void TranslateView::backToOriginal()
{
    if (!m_presenter->isSteered())
        return;
    m_presenter->backToOriginal();
    m_status->clear();
}

bool TranslateView::liveTranslate() const { return m_live->isChecked(); }
void TranslateView::setLiveTranslate(bool on) { m_live->setChecked(on); }

void TranslateView::updateOverlay()
{
    m_overlay->setUnknownWords(m_presenter->unknownWords(), m_presenter->wordCheckLanguage());
    m_overlay->setResult(m_presenter->result(), m_presenter->hypothesis(), m_presenter->isEdited());
}

int TranslateView::targetTokenAt(int position) const { return m_overlay->targetTokenAt(position); }
int TranslateView::sourceTokenAt(int position) const { return m_overlay->sourceTokenAt(position); }

QList<int> TranslateView::overlayWords(const QVector<float> &weights, const QList<bool> &empty)
{
    return AlignmentOverlay::overlayWords(weights, empty);
}

bool TranslateView::confidenceShading() const { return m_confidence->isChecked(); }
void TranslateView::setConfidenceShading(bool on) { m_confidence->setChecked(on); }

} // namespace glosa
