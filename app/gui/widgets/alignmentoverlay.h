// AlignmentOverlay: what the Translate view's source and target editors show over their text.
// Hover or select a target word and the source words it attended to light up with intensity by
// weight; hover a source word and the target words that attended to it light up. Also the
// forced words of a steered translation (dotted), the words the target language does not know
// (dotted, in the warning colour; a click shows their candidates), the confidence shading and
// the likely omissions the coverage check flagged. The marks are the editors' extra selections,
// each carrying properties that tests (and accessibility tools) read: the token index and its
// attention weight.
#pragma once

#include "app/core/inference/inferenceresult.h"
#include "app/core/inference/wordcheck.h"

#include <QObject>
#include <QTextEdit>
#include <QTextFormat>

class QPlainTextEdit;

namespace glosa {

class AlignmentOverlay : public QObject
{
    Q_OBJECT
public:
    static constexpr int kTokenProperty = QTextFormat::UserProperty + 1;
    static constexpr int kWeightProperty = QTextFormat::UserProperty + 2;
    static constexpr int kForcedProperty = QTextFormat::UserProperty + 3; // a forced token
    // On a source word the coverage check flagged (engine/decoding/coverage.h): its attention
    // mass.
    static constexpr int kCoverageProperty = QTextFormat::UserProperty + 4;
    // On a word the target language does not know (WordCheck): the token whose candidates a
    // click on it shows.
    static constexpr int kUnknownWordProperty = QTextFormat::UserProperty + 5;
    // The overlay lights up at most this many words, the strongest, and none under the minimum
    // weight: QTextLayout unites the regions of all extra selections of a paragraph into one
    // QPainterPath on every paint, which is quadratic in their number (255 faint selections on a
    // 40-sentence paragraph took 50 ms a paint), and weights under 1% are barely visible anyway.
    static constexpr int kMaxOverlayWords = 40;
    static constexpr float kMinOverlayWeight = 0.01f;
    // Which of `weights` the overlay shows (indices, strongest first), skipping `empty` ones.
    static QList<int> overlayWords(const QVector<float> &weights, const QList<bool> &empty);

    // Marks `source` and `target`, in `view`'s colours.
    AlignmentOverlay(QWidget *view, QPlainTextEdit *source, QPlainTextEdit *target);

    // What the editors show: hypothesis `hypothesis` of `result`; `edited`: the target pane
    // holds the user's version (its words are not the model's tokens). Marks again.
    void setResult(const TranslationResult &result, int hypothesis, bool edited);
    // The shown hypothesis's words that `language` (the target's) does not know; marked while
    // the pane holds the model's text, from the next setResult() or update() on.
    void setUnknownWords(const QList<UnknownWord> &words, const QString &language);
    void setConfidenceShading(bool on);
    bool confidenceShading() const { return m_confidence; }
    // The words of `row` (a target token; the heatmap's hovered row) light up.
    void hoverTarget(int row);
    void clearHover();
    // Index of the target / source token at a text position, -1 when none.
    int targetTokenAt(int position) const;
    int sourceTokenAt(int position) const;
    // Marks again (the selections, the texts or the colours changed).
    void update();
    // The explanation of the mark under `pos` in `editor`'s viewport (a likely omission, a forced
    // word, a probability): what hovering there shows. Empty off the marks.
    static QString toolTipAt(const QPlainTextEdit *editor, const QPoint &pos);
    // What hovering a word `language` does not know says.
    static QString unknownWordToolTip(const QString &language);

signals:
    // A click (not a drag that selected text) on target token `token` (-1: off the words).
    void targetClicked(int token);
    // The heatmap cell of the hovered or selected words (-1: none).
    void highlighted(int row, int column);
    // Whether the source words now carry likely-omission underlines (a legend says what they
    // are while they do).
    void omissionsMarked(bool marked);
    // Whether target words now carry the unknown-word underline (its legend shows while they do).
    void unknownWordsMarked(bool marked);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    // The character under `pos` in `editor`'s viewport, -1 off the text.
    static int characterAt(const QPlainTextEdit *editor, const QPoint &pos);
    const TranslationHypothesis *shownHypothesis() const;
    QList<int> selectedTokens(bool target) const;
    // Scrolls `editor` (not its cursor) so that `token` is in sight.
    void scrollIntoView(QPlainTextEdit *editor, const TokenSpan &token);
    // update()'s marks, each appended to an editor's extra selections.
    void markForcedTokens(const TranslationHypothesis &h,
                          QList<QTextEdit::ExtraSelection> &targetSelections) const;
    void markUnknownWords(QList<QTextEdit::ExtraSelection> &targetSelections) const;
    // The unknown word at `position` of the target pane, null when none is marked there.
    const UnknownWord *unknownWordAt(int position) const;
    void markConfidence(const TranslationHypothesis &h,
                        QList<QTextEdit::ExtraSelection> &targetSelections) const;
    void markOmissions(QList<QTextEdit::ExtraSelection> &sourceSelections) const;
    void markAlignment(const TranslationHypothesis &h,
                       QList<QTextEdit::ExtraSelection> &sourceSelections,
                       QList<QTextEdit::ExtraSelection> &targetSelections, int &heatRow,
                       int &heatColumn);

    QWidget *m_view;
    QPlainTextEdit *m_source;
    QPlainTextEdit *m_target;
    TranslationResult m_result; // implicitly shared with the presenter's
    int m_hypothesis = 0;
    bool m_edited = false;
    bool m_confidence = false;
    int m_hoverTarget = -1;
    bool m_omissionsMarked = false;
    QList<UnknownWord> m_unknownWords;
    QString m_unknownLanguage;
    bool m_unknownMarked = false;
    int m_hoverSource = -1;
};

} // namespace glosa
