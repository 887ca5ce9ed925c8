// TranslateView: source and target editors with the alignment overlay, the attention panel and
// the decoding panel. Hover or select a target word and the source words it attended to light up
// with intensity by weight; hover a source word and the target words that attended to it light up.
//
// The attention panel shows the cross-attention (the alignment the search recorded) by default;
// for a model with an AttentionInspector (engine/layers/attentioninspector.h) it also offers
// encoder and decoder self-attention, any layer and head or their mean, and a grid of every head
// of a layer. Those maps are asked of the worker only while one of them is shown.
//
// The candidates panel: click a word of the translation and the chart shows what the model
// weighed at that step (the search trace, asked of the worker on the first click, since tracing
// every translation as you type would slow it). Clicking another candidate translates again with
// the translation up to that word and the candidate forced, in that sentence only; the result is
// labelled with the prefix (forced words underlined with dots) and "Back to the original"
// returns to the translation it came from.
#pragma once

#include "app/core/appcontext.h"
#include "app/core/inference/inferenceresult.h"
#include "app/gui/widgets/languagewarningbar.h"
#include "engine/layers/attentioninspector.h"

#include <QElapsedTimer>
#include <QTextEdit>
#include <QTextFormat>
#include <QWidget>

#include <memory>

class QCheckBox;
class QComboBox;
class QLabel;
class QLayout;
class QPlainTextEdit;
class QProgressBar;
class QPushButton;
class QScrollArea;
class QSplitter;
class QTimer;

namespace glosa {

class AppContext;
class DecodingPanel;
class ProbabilityChart;
class HeadGridWidget;
class HeatmapWidget;
class InferenceRequest;
class InferenceWorker;
class TranslatePresenter;

class TranslateView : public QWidget
{
    Q_OBJECT
public:
    // Properties stored in the editors' extra selections, so that tests (and accessibility
    // tools) can read what the overlay shows: the token index and its attention weight.
    static constexpr int kTokenProperty = QTextFormat::UserProperty + 1;
    static constexpr int kWeightProperty = QTextFormat::UserProperty + 2;
    static constexpr int kForcedProperty = QTextFormat::UserProperty + 3; // a forced token
    // On a source word the coverage check flagged (engine/decoding/coverage.h): its attention
    // mass.
    static constexpr int kCoverageProperty = QTextFormat::UserProperty + 4;
    // The overlay lights up at most this many words, the strongest, and none under the minimum
    // weight: QTextLayout unites the regions of all extra selections of a paragraph into one
    // QPainterPath on every paint, which is quadratic in their number (255 faint selections on a
    // 40-sentence paragraph took 50 ms a paint), and weights under 1% are barely visible anyway.
    static constexpr int kMaxOverlayWords = 40;
    static constexpr float kMinOverlayWeight = 0.01f;
    // Which of `weights` the overlay shows (indices, strongest first), skipping `empty` ones.
    static QList<int> overlayWords(const QVector<float> &weights, const QList<bool> &empty);

    explicit TranslateView(AppContext &context, QWidget *parent = nullptr);
    ~TranslateView() override;

    void setLanguages(const QString &source, const QString &target);

    QPlainTextEdit *sourceEditor() const { return m_source; }
    QPlainTextEdit *targetEditor() const { return m_target; }
    HeatmapWidget *heatmap() const { return m_heatmap; }
    // Which layer and head the alignment comes from (models with several; hidden otherwise).
    QComboBox *alignmentSelector() const { return m_alignment; }
    // Which attention the panel shows: one entry per kind the model has (hidden with one).
    QComboBox *attentionKindSelector() const { return m_kind; }
    engine::AttentionKind shownAttentionKind() const;
    // The layer and head of a self-attention kind (the cross-attention's is alignmentSelector()).
    QComboBox *layerHeadSelector() const { return m_layerHead; }
    // Shows every head of the chosen layer side by side instead of one map.
    QCheckBox *allHeadsToggle() const { return m_allHeads; }
    HeadGridWidget *headGrid() const { return m_headGrid; }
    DecodingPanel *decodingPanel() const { return m_decoding; }
    QSplitter *mainSplitter() const { return m_mainSplitter; }
    QSplitter *editorSplitter() const { return m_editorSplitter; }
    // The editors over the attention panel, and the attention panel over the candidates (their
    // positions are saved with the window's).
    QSplitter *verticalSplitter() const { return m_verticalSplitter; }
    QSplitter *attentionSplitter() const { return m_bottomSplitter; }
    QWidget *candidatesPanel() const { return m_candidatesCard; }
    // What the view shows and decides (the view renders it and forwards input to it).
    TranslatePresenter *presenter() const { return m_presenter; }
    const TranslationResult &result() const;
    // The candidates panel and the steering (see the header comment).
    ProbabilityChart *candidatesChart() const { return m_chart; }
    int candidatesToken() const;
    bool isSteered() const;
    QString steeringText() const;
    QPushButton *backToOriginalButton() const { return m_back; }
    // Shown instead of translating when the text does not look like the model's source language
    // (LanguageGuess): it names the language and offers that direction's model, or to translate
    // anyway.
    QWidget *languageWarning() const { return m_languageBar; }
    QPushButton *switchDirectionButton() const { return m_languageBar->switchButton(); }
    QPushButton *translateAnywayButton() const { return m_languageBar->goOnButton(); }
    const TranslationHypothesis *shownHypothesis() const;

    bool liveTranslate() const;
    void setLiveTranslate(bool on);
    bool confidenceShading() const;
    void setConfidenceShading(bool on);

    // Post-editing: the translation pane is editable. The user's version of the shown
    // translation, empty while it is the model's own.
    QString editedText() const;
    // Writes the translation pane's text (the user's edits included) to `path` as UTF-8; false
    // with the reason in *error.
    bool saveTranslation(const QString &path, QString *error) const;
    // After a Cancel: the translation shown is of an earlier text (dimmed, and the status says
    // so) until the next one is shown.
    bool isTranslationStale() const;

    // Index of the target / source token at a text position, -1 when none.
    int targetTokenAt(int position) const;
    int sourceTokenAt(int position) const;

public slots:
    void translateNow();
    void cancel();
    void swapTexts(); // the translation becomes the source (after a direction swap)
    void setSourceText(const QString &text);
    // Shows the candidates of the best translation's token `token` (what clicking it does);
    // -1 clears the chart.
    void showCandidates(int token);
    // Translates again with the best translation up to the shown candidates' step and `token`
    // there forced (what clicking a candidate does).
    void decodeWithCandidate(int token);
    void backToOriginal();
    // Shows a result recorded earlier (History ▸ Open) as if it had just been translated: its
    // source, decoding settings, hypotheses and alignment, without translating again.
    void showStoredResult(const glosa::TranslationResult &result, const QString &status,
                          const QString &editedText = QString());

signals:
    void translationShown(const glosa::TranslationResult &result);
    // The user changed the translation pane (post-editing): `text` is their version of the
    // translation of the shown result, "" when they went back to the model's.
    void translationEdited(const QString &text);
    void statusMessage(const QString &message);

protected:
    void changeEvent(QEvent *event) override;
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    // The constructor's parts (the widgets are made in the focus chain's order: see there).
    void createEditors();
    void createControls(); // the editors' buttons, titles, status and progress bar
    QLayout *sourcePaneLayout();
    QLayout *targetPaneLayout();
    // Above the translation: the steering label with "Back to the original", and the language
    // warning; both hidden until needed.
    QWidget *createSteeringBar();
    QWidget *createLanguageBar();
    void buildEditorSplitter();      // the source pane beside the target pane
    QLayout *attentionPanelLayout(); // the heatmap, its selectors and the head grid
    QLayout *candidatesPanelLayout();
    void buildAttentionSplitter(); // the attention panel over the candidates
    QWidget *buildDecodingCard();
    // What asks for a translation (typing, the buttons, the language warning, the decoding panel).
    void connectTranslating();
    // The translation pane: post-editing, copy, alternatives, the overlay, steering.
    void connectTranslationPane();
    void connectAttentionPanel();
    void connectPresenter();

    void retranslateUi();
    // What translates without being asked (typing, a setting): the presenter's guard first.
    void translateAutomatically();
    void setStale(bool stale);
    // Scrolls `editor` (not its cursor) so that `token` is in sight.
    void scrollIntoView(QPlainTextEdit *editor, const TokenSpan &token);
    // The presenter's model: its languages, decoding defaults and attention, or why there is
    // none.
    void onModelChanged();
    void onTranslated(const glosa::TranslationResult &result, bool steered);
    // Renders the presenter's result: the hypothesis shown, its attention, the steering.
    void showResult();
    void updateOverlay();
    // updateOverlay()'s marks, each appended to an editor's extra selections: the forced words of
    // a steered translation, the confidence shading, the likely omissions, and the words aligned
    // to the hovered or selected ones (with the heatmap cell to highlight in heatRow/heatColumn).
    void markForcedTokens(const TranslationHypothesis &h,
                          QList<QTextEdit::ExtraSelection> &targetSelections) const;
    void markConfidence(const TranslationHypothesis &h,
                        QList<QTextEdit::ExtraSelection> &targetSelections) const;
    void markOmissions(QList<QTextEdit::ExtraSelection> &sourceSelections) const;
    void markAlignment(const TranslationHypothesis &h,
                       QList<QTextEdit::ExtraSelection> &sourceSelections,
                       QList<QTextEdit::ExtraSelection> &targetSelections, int &heatRow,
                       int &heatColumn);
    void updateCounts();
    void updateAlignmentChoices();
    void updateKindChoices();
    void updateLayerHeadChoices();
    // The heatmap or the head grid for the shown hypothesis, kind, layer and head.
    void showAttention();
    // Whether what the panel shows needs every attention map (TranslationHypothesis::
    // attentionMaps).
    bool needsEveryAttention() const;
    // The layer and head shown: the cross-attention's from alignmentSelector(), the others' from
    // layerHeadSelector().
    QPoint shownLayerHead() const;
    QList<int> selectedTokens(bool target) const;
    // The chart for the presenter's candidates, and the candidates card sized to it: collapsed
    // while empty.
    void updateCandidates();
    void updateCandidatesChart();

    AppContext &m_context;
    TranslatePresenter *m_presenter; // a child
    bool m_settingTarget = false; // the view, not the user, is filling the target pane
    int m_hoverTarget = -1;
    int m_hoverSource = -1;

    QLabel *m_sourceTitle = nullptr;
    QLabel *m_targetTitle = nullptr;
    QString m_sourceLanguage;
    QString m_targetLanguage;
    QPlainTextEdit *m_source = nullptr;
    QPlainTextEdit *m_target = nullptr;
    QLabel *m_count = nullptr;
    QPushButton *m_translate = nullptr;
    QPushButton *m_cancel = nullptr;
    QCheckBox *m_live = nullptr;
    QCheckBox *m_confidence = nullptr;
    QComboBox *m_alternatives = nullptr;
    QPushButton *m_copy = nullptr;
    QLabel *m_status = nullptr;
    QProgressBar *m_progress = nullptr;
    QLabel *m_heatmapTitle = nullptr;
    QLabel *m_heatmapHint = nullptr;
    QComboBox *m_alignment = nullptr;
    QComboBox *m_kind = nullptr;
    QComboBox *m_layerHead = nullptr;
    QCheckBox *m_allHeads = nullptr;
    HeatmapWidget *m_heatmap = nullptr;
    QScrollArea *m_heatmapScroll = nullptr;
    HeadGridWidget *m_headGrid = nullptr;
    QScrollArea *m_headGridScroll = nullptr;
    QLabel *m_candidatesTitle = nullptr;
    ProbabilityChart *m_chart = nullptr;
    QWidget *m_steeringBar = nullptr;
    LanguageWarningBar *m_languageBar = nullptr; // "Translate anyway": none until the model changes
    QLabel *m_steering = nullptr;
    QPushButton *m_back = nullptr;
    QLabel *m_decodingTitle = nullptr;
    DecodingPanel *m_decoding = nullptr;
    QSplitter *m_mainSplitter = nullptr;
    QSplitter *m_editorSplitter = nullptr;
    QSplitter *m_verticalSplitter = nullptr;
    QSplitter *m_bottomSplitter = nullptr; // the attention panel over the candidates
    QWidget *m_candidatesCard = nullptr;
    QTimer *m_debounce = nullptr;
};

} // namespace glosa
