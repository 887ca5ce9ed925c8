#include "app/gui/widgets/alignmentoverlay.h"

#include "app/core/displaynames.h"
#include "app/gui/omissionmarks.h"
#include "app/gui/theme.h"

#include <QEvent>
#include <QLocale>
#include <QMouseEvent>
#include <QPlainTextEdit>
#include <QScrollBar>
#include <QTextBlock>
#include <QTextLayout>
#include <QToolTip>

#include <algorithm>
#include <cmath>

namespace glosa {

namespace {
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

AlignmentOverlay::AlignmentOverlay(QWidget *view, QPlainTextEdit *source, QPlainTextEdit *target)
    : QObject(view), m_view(view), m_source(source), m_target(target)
{
    for (QPlainTextEdit *editor : {m_source, m_target}) {
        editor->viewport()->setMouseTracking(true);
        editor->viewport()->installEventFilter(this);
    }
    connect(m_target, &QPlainTextEdit::selectionChanged, this, &AlignmentOverlay::update);
    connect(m_source, &QPlainTextEdit::selectionChanged, this, &AlignmentOverlay::update);
}

void AlignmentOverlay::setResult(const TranslationResult &result, int hypothesis, bool edited)
{
    m_result = result;
    m_hypothesis = hypothesis;
    m_edited = edited;
    update();
}

void AlignmentOverlay::setUnknownWords(const QList<UnknownWord> &words, const QString &language)
{
    m_unknownWords = words;
    m_unknownLanguage = language;
}

const UnknownWord *AlignmentOverlay::unknownWordAt(int position) const
{
    if (m_edited)
        return nullptr;
    for (const UnknownWord &word : m_unknownWords)
        if (word.begin <= position && position < word.end)
            return &word;
    return nullptr;
}

void AlignmentOverlay::setConfidenceShading(bool on)
{
    m_confidence = on;
    update();
}

void AlignmentOverlay::hoverTarget(int row)
{
    m_hoverTarget = row;
    m_hoverSource = -1;
    update();
}

void AlignmentOverlay::clearHover()
{
    m_hoverTarget = m_hoverSource = -1;
}

const TranslationHypothesis *AlignmentOverlay::shownHypothesis() const
{
    if (m_result.hypotheses.isEmpty())
        return nullptr;
    return &m_result.hypotheses.at(
        std::clamp<int>(m_hypothesis, 0, m_result.hypotheses.size() - 1));
}

void AlignmentOverlay::scrollIntoView(QPlainTextEdit *editor, const TokenSpan &token)
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

int AlignmentOverlay::targetTokenAt(int position) const
{
    const TranslationHypothesis *h = shownHypothesis();
    return h && !m_edited ? tokenAt(h->tokens, position) : -1;
}

int AlignmentOverlay::sourceTokenAt(int position) const
{
    // Only while the source still says what was translated: positions would be stale otherwise.
    if (m_source->toPlainText() != m_result.source)
        return -1;
    return tokenAt(m_result.sourceTokens, position);
}

int AlignmentOverlay::characterAt(const QPlainTextEdit *editor, const QPoint &pos)
{
    const QTextCursor cursor = editor->cursorForPosition(pos);
    int position = cursor.position();
    // cursorForPosition() returns the nearest boundary; the character under the pointer is the
    // one before it when the pointer is on its right half.
    const QRect caret = editor->cursorRect(cursor);
    if (pos.x() < caret.x() && position > 0)
        --position;
    return std::abs(pos.y() - caret.center().y()) <= caret.height() ? position : -1;
}

QString AlignmentOverlay::toolTipAt(const QPlainTextEdit *editor, const QPoint &pos)
{
    const int position = characterAt(editor, pos);
    if (position < 0)
        return {};
    for (const QTextEdit::ExtraSelection &s : editor->extraSelections())
        if (s.cursor.selectionStart() <= position && position < s.cursor.selectionEnd() &&
            !s.format.toolTip().isEmpty())
            return s.format.toolTip();
    return {};
}

bool AlignmentOverlay::eventFilter(QObject *watched, QEvent *event)
{
    const bool target = watched == m_target->viewport();
    const bool source = watched == m_source->viewport();
    // The token under the pointer, -1 off the text.
    const auto tokenUnder = [&](const QPoint &pos) {
        const int position = characterAt(target ? m_target : m_source, pos);
        return position < 0 ? -1 : target ? targetTokenAt(position) : sourceTokenAt(position);
    };
    if ((target || source) && event->type() == QEvent::ToolTip) {
        // The marks' explanations (a likely omission, a forced word, a probability) are in their
        // formats; an editor shows no tooltip of an extra selection by itself.
        const auto *help = static_cast<QHelpEvent *>(event);
        const QString tip = toolTipAt(target ? m_target : m_source, help->pos());
        if (tip.isEmpty())
            QToolTip::hideText();
        else
            QToolTip::showText(help->globalPos(), tip, static_cast<QWidget *>(watched));
        return true;
    }
    if ((target || source) && event->type() == QEvent::MouseMove) {
        const int token = tokenUnder(static_cast<QMouseEvent *>(event)->position().toPoint());
        int &hover = target ? m_hoverTarget : m_hoverSource;
        if (token != hover || (target ? m_hoverSource : m_hoverTarget) != -1) {
            hover = token;
            (target ? m_hoverSource : m_hoverTarget) = -1;
            update();
        }
    } else if (target && event->type() == QEvent::MouseButtonRelease) {
        // A click (not a drag that selected text) on a word shows its candidates; on an unknown
        // word, those of its least probable piece, wherever in the word the click was.
        const QPoint pos = static_cast<QMouseEvent *>(event)->position().toPoint();
        const UnknownWord *unknown = unknownWordAt(characterAt(m_target, pos));
        if (!m_target->textCursor().hasSelection())
            emit targetClicked(unknown && unknown->token >= 0 ? unknown->token : tokenUnder(pos));
    } else if ((target || source) && event->type() == QEvent::Leave) {
        if (m_hoverTarget != -1 || m_hoverSource != -1) {
            m_hoverTarget = m_hoverSource = -1;
            update();
        }
    }
    return QObject::eventFilter(watched, event);
}

QList<int> AlignmentOverlay::selectedTokens(bool target) const
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

void AlignmentOverlay::update()
{
    QList<QTextEdit::ExtraSelection> sourceSelections, targetSelections;
    const TranslationHypothesis *h = shownHypothesis();
    // Token positions hold for the model's texts only, not for edited ones.
    const bool edited = m_edited;
    const bool best = m_hypothesis == 0;
    const bool sourceCurrent = m_source->toPlainText() == m_result.source && !edited;

    if (h && best && !edited)
        markForcedTokens(*h, targetSelections);
    if (h && !edited)
        markUnknownWords(targetSelections);
    const bool unknown = h && !edited && !m_unknownWords.isEmpty();
    if (h && m_confidence && !edited)
        markConfidence(*h, targetSelections);
    // Likely omissions: source words the best translation gave little attention in all.
    if (h && best && sourceCurrent && m_result.coverage.available)
        markOmissions(sourceSelections);
    const bool omissions = !sourceSelections.isEmpty();
    int heatRow = -1, heatColumn = -1;
    if (h && !h->alignment.isEmpty() && sourceCurrent)
        markAlignment(*h, sourceSelections, targetSelections, heatRow, heatColumn);
    m_source->setExtraSelections(sourceSelections);
    m_target->setExtraSelections(targetSelections);
    if (omissions != m_omissionsMarked) {
        m_omissionsMarked = omissions;
        emit omissionsMarked(omissions);
    }
    if (unknown != m_unknownMarked) {
        m_unknownMarked = unknown;
        emit unknownWordsMarked(unknown);
    }
    emit highlighted(heatRow, heatColumn);
}

void AlignmentOverlay::markForcedTokens(const TranslationHypothesis &h,
                                        QList<QTextEdit::ExtraSelection> &targetSelections) const
{
    const QPalette pal = m_view->palette();
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

void AlignmentOverlay::markUnknownWords(QList<QTextEdit::ExtraSelection> &targetSelections) const
{
    const QPalette pal = m_view->palette();
    const QString tip = unknownWordToolTip(m_unknownLanguage);
    const int length = m_target->document()->characterCount() - 1;
    for (const UnknownWord &word : m_unknownWords) {
        if (word.end > length) // of a text the pane no longer shows
            continue;
        QTextEdit::ExtraSelection s =
            tokenSelection(m_target, TokenSpan{-1, {}, word.begin, word.end});
        s.format.setUnderlineStyle(QTextCharFormat::DotLine);
        s.format.setUnderlineColor(theme::confidenceColor(pal, 0.0f));
        s.format.setProperty(kUnknownWordProperty, word.token);
        s.format.setToolTip(tip);
        targetSelections << s;
    }
}

QString AlignmentOverlay::unknownWordToolTip(const QString &language)
{
    return tr("Not a known %1 word: the model may have made it up. Click it to see the words it "
              "weighed there.")
        .arg(languageName(language));
}

void AlignmentOverlay::markConfidence(const TranslationHypothesis &h,
                                      QList<QTextEdit::ExtraSelection> &targetSelections) const
{
    const QPalette pal = m_view->palette();
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

void AlignmentOverlay::markOmissions(QList<QTextEdit::ExtraSelection> &sourceSelections) const
{
    const QPalette pal = m_view->palette();
    const TranslationCoverage &coverage = m_result.coverage;
    for (const CoveredWord &word : coverage.flagged()) {
        QTextEdit::ExtraSelection s =
            tokenSelection(m_source, TokenSpan{-1, {}, word.begin, word.end});
        s.format = omissionFormat(pal, word.mass, coverage.threshold);
        s.format.setProperty(kCoverageProperty, word.mass);
        sourceSelections << s;
    }
}

void AlignmentOverlay::markAlignment(const TranslationHypothesis &h,
                                     QList<QTextEdit::ExtraSelection> &sourceSelections,
                                     QList<QTextEdit::ExtraSelection> &targetSelections,
                                     int &heatRow, int &heatColumn)
{
    const QPalette pal = m_view->palette();
    const QList<TokenSpan> &sourceTokens = m_result.sourceTokens;
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
        QVector<float> weights(sourceTokens.size(), 0.0f);
        QList<bool> empty(weights.size());
        for (int j = 0; j < weights.size(); ++j) {
            for (int t : targets)
                weights[j] = std::max(weights[j], h.alignmentAt(t, j));
            empty[j] = sourceTokens.at(j).begin == sourceTokens.at(j).end;
        }
        markWeights(m_source, sourceTokens, weights, empty, sourceSelections);
        // A hovered word of a long translation attends to source words that may be out of
        // sight: the strongest one is scrolled into view (the source's own cursor stays).
        const QList<int> strongest = overlayWords(weights, empty);
        if (m_hoverTarget >= 0 && !strongest.isEmpty())
            scrollIntoView(m_source, sourceTokens.at(strongest.first()));
    } else if (!sources.isEmpty()) {
        heatColumn = sources.size() == 1 ? sources.first() : -1;
        for (int j : sources) {
            QTextEdit::ExtraSelection s = tokenSelection(m_source, sourceTokens.at(j));
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

QList<int> AlignmentOverlay::overlayWords(const QVector<float> &weights, const QList<bool> &empty)
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

} // namespace glosa
