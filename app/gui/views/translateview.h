// TranslateView: source and target editors with the alignment overlay (AlignmentOverlay: hover
// or select a word and the words it attended to, or that attended to it, light up), the
// attention panel (AttentionPanel), the candidates chart and the decoding panel. What the tab
// shows and decides is its presenter's (TranslatePresenter: the translation, steering, the
// language guard, the history); the view renders it and forwards input.
//
// The candidates panel: click a word of the translation and the chart shows what the model
// weighed at that step. Clicking another candidate translates again with the translation up to
// that word and the candidate forced, in that sentence only; the result is labelled with the
// prefix (forced words underlined with dots) and "Back to the original" returns to the
// translation it came from. A word of the translation its language does not know (WordCheck)
// is underlined with red dots, a line under the pane says what they mean, and a click on one
// shows the candidates of its least probable piece.
#pragma once

#include "app/core/appcontext.h"
#include "app/core/inference/inferenceresult.h"
#include "app/core/presenters/translatepresenter.h"
#include "app/gui/widgets/alignmentoverlay.h"
#include "app/gui/widgets/attentionpanel.h"
#include "app/gui/widgets/candidatespanel.h"
#include "app/gui/widgets/languagewarningbar.h"
#include "app/gui/widgets/steeringbar.h"
#include "engine/layers/attentioninspector.h"

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
class AttentionPanel;
class SourcePane;
class TargetPane;
class CandidatesPanel;
class SteeringBar;
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
    // What the editors' extra selections carry, and how many words they light up
    // (AlignmentOverlay says why).
    static constexpr int kTokenProperty = AlignmentOverlay::kTokenProperty;
    static constexpr int kWeightProperty = AlignmentOverlay::kWeightProperty;
    static constexpr int kForcedProperty = AlignmentOverlay::kForcedProperty;
    static constexpr int kCoverageProperty = AlignmentOverlay::kCoverageProperty;
    static constexpr int kMaxOverlayWords = AlignmentOverlay::kMaxOverlayWords;
    static constexpr float kMinOverlayWeight = AlignmentOverlay::kMinOverlayWeight;
    static QList<int> overlayWords(const QVector<float> &weights, const QList<bool> &empty);

    explicit TranslateView(AppContext &context, QWidget *parent = nullptr);
    ~TranslateView() override;

    void setLanguages(const QString &source, const QString &target);

    QPlainTextEdit *sourceEditor() const { return m_source; }
    QPlainTextEdit *targetEditor() const { return m_target; }
    // The attention panel's parts (AttentionPanel says what each does).
    AttentionPanel *attentionPanel() const { return m_attention; }
    HeatmapWidget *heatmap() const { return m_attention->heatmap(); }
    QComboBox *alignmentSelector() const { return m_attention->alignmentSelector(); }
    QComboBox *attentionKindSelector() const { return m_attention->kindSelector(); }
    engine::AttentionKind shownAttentionKind() const { return m_attention->shownKind(); }
    QComboBox *layerHeadSelector() const { return m_attention->layerHeadSelector(); }
    QCheckBox *allHeadsToggle() const { return m_attention->allHeadsToggle(); }
    HeadGridWidget *headGrid() const { return m_attention->headGrid(); }
    DecodingPanel *decodingPanel() const { return m_decoding; }
    QSplitter *mainSplitter() const { return m_mainSplitter; }
    QSplitter *editorSplitter() const { return m_editorSplitter; }
    // The editors over the attention panel, and the attention panel over the candidates (their
    // positions are saved with the window's).
    QSplitter *verticalSplitter() const { return m_verticalSplitter; }
    QSplitter *attentionSplitter() const { return m_bottomSplitter; }
    QWidget *candidatesPanel() const { return m_candidates; }
    // What the view shows and decides (the view renders it and forwards input to it).
    TranslatePresenter *presenter() const { return m_presenter; }
    const TranslationResult &result() const { return m_presenter->result(); }
    // The candidates panel and the steering (see the header comment).
    ProbabilityChart *candidatesChart() const { return m_candidates->chart(); }
    int candidatesToken() const { return m_presenter->candidatesToken(); }
    bool isSteered() const { return m_presenter->isSteered(); }
    QString steeringText() const;
    QPushButton *backToOriginalButton() const { return m_steeringBar->backButton(); }
    // Shown instead of translating when the text does not look like the model's source language
    // (LanguageGuess): it names the language and offers that direction's model, or to translate
    // anyway.
    QWidget *languageWarning() const { return m_languageBar; }
    QPushButton *switchDirectionButton() const { return m_languageBar->switchButton(); }
    QPushButton *translateAnywayButton() const { return m_languageBar->goOnButton(); }
    const TranslationHypothesis *shownHypothesis() const { return m_presenter->shownHypothesis(); }

    bool liveTranslate() const;
    void setLiveTranslate(bool on);
    bool confidenceShading() const;
    void setConfidenceShading(bool on);

    // Post-editing: the translation pane is editable. The user's version of the shown
    // translation, empty while it is the model's own.
    QString editedText() const { return m_presenter->editedText(); }
    // Writes the translation pane's text (the user's edits included) to `path` as UTF-8; false
    // with the reason in *error.
    bool saveTranslation(const QString &path, QString *error) const;
    // After a Cancel: the translation shown is of an earlier text (dimmed, and the status says
    // so) until the next one is shown.
    bool isTranslationStale() const { return m_presenter->isStale(); }

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

private:
    // The constructor's parts (the widgets are made in the focus chain's order: see there).
    void createEditors();
    void createControls(); // the panes' buttons, titles, status and progress bar
    void buildEditorSplitter();      // the source pane beside the target pane
    void buildAttentionSplitter(); // the attention panel over the candidates
    QWidget *buildDecodingCard();
    // What asks for a translation (typing, the buttons, the language warning, the decoding panel).
    void connectTranslating();
    // The translation pane: post-editing, copy, alternatives, the overlay, steering.
    void connectTranslationPane();
    void connectAttentionPanel();
    void connectPresenter();
    // The attention panel's choices for the presenter's model, and what it asks of requests.
    void updateAttentionModel();

    void retranslateUi();
    // What translates without being asked (typing, a setting): the presenter's guard first.
    void translateAutomatically();
    void setStale(bool stale);
    // The presenter's model: its languages, decoding defaults and attention, or why there is
    // none.
    void onModelChanged();
    void onTranslated(const glosa::TranslationResult &result, bool steered);
    // Renders the presenter's result: the hypothesis shown, its attention, the steering.
    void showResult();
    // The overlay's marks for the presenter's result, hypothesis and edits.
    void updateOverlay();
    // The chart for the presenter's candidates.
    void updateCandidates();

    AppContext &m_context;
    TranslatePresenter *m_presenter; // a child
    bool m_settingTarget = false; // the view, not the user, is filling the target pane
    AlignmentOverlay *m_overlay = nullptr;

    QLabel *m_targetTitle = nullptr;
    QString m_sourceLanguage;
    QString m_targetLanguage;
    SourcePane *m_sourcePane = nullptr;
    QPlainTextEdit *m_source = nullptr; // the source pane's
    TargetPane *m_targetPane = nullptr; // m_target and the target side's widgets below are its
    QPlainTextEdit *m_target = nullptr;
    QPushButton *m_translate = nullptr;
    QPushButton *m_cancel = nullptr;
    QCheckBox *m_live = nullptr;
    QCheckBox *m_confidence = nullptr;
    QComboBox *m_alternatives = nullptr;
    QPushButton *m_copy = nullptr;
    QLabel *m_status = nullptr;
    QLabel *m_wordLegend = nullptr;
    QProgressBar *m_progress = nullptr;
    AttentionPanel *m_attention = nullptr;
    CandidatesPanel *m_candidates = nullptr;
    SteeringBar *m_steeringBar = nullptr;
    LanguageWarningBar *m_languageBar = nullptr; // "Translate anyway": none until the model changes
    QLabel *m_decodingTitle = nullptr;
    DecodingPanel *m_decoding = nullptr;
    QSplitter *m_mainSplitter = nullptr;
    QSplitter *m_editorSplitter = nullptr;
    QSplitter *m_verticalSplitter = nullptr;
    QSplitter *m_bottomSplitter = nullptr; // the attention panel over the candidates
    QTimer *m_debounce = nullptr;
};

} // namespace glosa
