#include "app/gui/views/comparecolumn.h"

#include "app/core/settings/decodingmaps.h"
#include "app/gui/composedtext.h"
#include "app/gui/theme.h"
#include "app/gui/widgets/decodingpanel.h"

#include <QComboBox>
#include <QDialog>
#include <QDialogButtonBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QMouseEvent>
#include <QResizeEvent>
#include <QSet>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace glosa {

CompareColumn::CompareColumn(ComparePresenter &presenter, int index, QWidget *parent)
    : QWidget(parent), m_presenter(presenter), m_index(index)
{
    setAutoFillBackground(true);
    setBackgroundRole(QPalette::Base);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(8, 8, 8, 8);
    layout->setSpacing(4);
    auto *header = new QHBoxLayout;
    m_preset = new QComboBox(this);
    // Six columns must fit a 1280-pixel window: the preset box gives up width (the header's
    // stretch gives it back when there is room), the labels wrap.
    m_preset->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_preset->setMinimumContentsLength(8);
    m_edit = new QToolButton(this);
    header->addWidget(m_preset, 1);
    header->addWidget(m_edit);
    layout->addLayout(header);
    m_summary = new QLabel(this);
    m_summary->setWordWrap(true);
    m_summary->setForegroundRole(QPalette::PlaceholderText);
    layout->addWidget(m_summary);
    m_steering = new QLabel(this);
    m_steering->setWordWrap(true);
    m_steering->setVisible(false);
    layout->addWidget(m_steering);
    m_output = new QTextEdit(this);
    m_output->setReadOnly(true);
    m_output->setFont(theme::editorFont(font()));
    m_output->setFrameShape(QFrame::NoFrame);
    m_output->viewport()->installEventFilter(this);
    // No fixed minimum: a widget never shrinks below one, so a squeezed column drew the output
    // over the footer. minimumSizeHint() asks for room for the notes and a few lines instead.
    m_output->setMinimumHeight(0);
    layout->addWidget(m_output, 1);
    m_metrics = new QLabel(this);
    m_metrics->setWordWrap(true);
    m_metrics->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_metrics);

    for (const DecodingPreset &preset : builtInPresets())
        m_preset->addItem(QString(), preset.name);
    m_preset->addItem(QString(), QString());
    connect(m_preset, &QComboBox::activated, this, [this](int i) {
        const QString key = m_preset->itemData(i).toString();
        for (const DecodingPreset &preset : builtInPresets())
            if (preset.name == key)
                m_presenter.editColumnOptions(m_index, preset.options, key);
    });
    connect(m_edit, &QToolButton::clicked, this, &CompareColumn::editOptions);
    retranslateUi();
    render();
}

void CompareColumn::retranslateUi()
{
    for (int i = 0; i < m_preset->count(); ++i) {
        const QString key = m_preset->itemData(i).toString();
        m_preset->setItemText(i, key.isEmpty() ? tr("Custom")
                                               : DecodingPanel::presetDisplayName(key));
    }
    m_edit->setText(tr("Edit…"));
    m_edit->setToolTip(tr("Edit every decoding setting of this column"));
    m_preset->setAccessibleName(tr("Strategy of column %1").arg(m_index + 1));
    m_output->setAccessibleName(tr("Output of column %1").arg(m_index + 1));
    m_summary->setText(decodingSummary(options())); // composed of words in the UI language
    m_steering->setText(steeringText());
    showMetrics();
}

void CompareColumn::changeEvent(QEvent *event)
{
    // Palette changes arrive during construction (setBackgroundRole), before the children exist.
    if (m_metrics && event->type() == QEvent::LanguageChange)
        retranslateUi();
    else if (m_metrics && !m_rendering && event->type() == QEvent::PaletteChange)
        repaintTokens();
    QWidget::changeEvent(event);
}

void CompareColumn::setOptions(const engine::DecodingOptions &options, const QString &preset)
{
    m_presenter.setColumnOptions(m_index, options, preset);
}

void CompareColumn::render()
{
    const CompareColumnState &c = state();
    const int index = m_preset->findData(c.preset);
    m_preset->setCurrentIndex(index < 0 ? m_preset->count() - 1 : index);
    m_summary->setText(decodingSummary(c.options));
    m_steering->setText(steeringText());
    m_steering->setVisible(!m_steering->text().isEmpty());
    QPalette pal = m_steering->palette();
    pal.setColor(QPalette::WindowText, theme::accent(palette()));
    m_steering->setPalette(pal);
    const TranslationHypothesis *h = c.result.best();
    const QString text = h ? h->text : QString();
    if (text != m_shownText || m_output->document()->isEmpty() != text.isEmpty()) {
        m_shownText = text;
        m_output->setPlainText(text);
    }
    const bool selected = m_presenter.selectedColumn() == m_index;
    // Another background role is a palette change, whose handler repaints the tokens: they are
    // painted once, below.
    m_rendering = true;
    setBackgroundRole(selected ? QPalette::AlternateBase : QPalette::Base);
    m_rendering = false;
    showMetrics();
    repaintTokens();
    updateGeometry();
}

QString CompareColumn::steeringText() const
{
    const CompareColumnState &c = state();
    if (!c.isSteered() || (c.steering.words.isEmpty() && !c.steering.ends))
        return QString();
    return steeringLabel(c.steering.words, c.steering.ends, c.steering.sentence,
                         c.steering.sentences);
}

void CompareColumn::showMetrics()
{
    const CompareColumnState &c = state();
    if (c.pending) {
        m_metrics->setText(tr("Decoding…"));
        return;
    }
    const bool stale = c.isStale();
    const TranslationHypothesis *h = c.result.best();
    QString text =
        stale ? tr("Out of date: the settings changed after this result") : metricsText();
    if (h && h->tokens.size() > kMaxMarkedTokens)
        text += QLatin1Char('\n') +
                tr("Probabilities and differences are shown for the first %n token(s).", "",
                   kMaxMarkedTokens);
    if (!stale && c.sameAs >= 0)
        text += QLatin1Char('\n') + tr("Same output as column %1: these settings changed nothing "
                                       "on this text.")
                                        .arg(c.sameAs + 1);
    else if (!stale && c.divergence.token >= 0)
        text += QLatin1Char('\n') + divergenceText();
    m_metrics->setText(text);
    m_metrics->setForegroundRole(stale ? QPalette::PlaceholderText : QPalette::WindowText);
    m_output->setForegroundRole(stale ? QPalette::PlaceholderText : QPalette::Text);
}

QString CompareColumn::divergenceText() const
{
    const Divergence &d = divergence();
    const auto percent = [](float p) { return QLocale().toString(p * 100, 'f', 1); };
    if (d.theirs.isEmpty()) // this column adds words the other does not have
        return tr("Parts from column %1 at “%2” (%3%).")
            .arg(d.column + 1)
            .arg(d.mine, percent(d.myProbability));
    return tr("Parts from column %1 at “%2” (%3%), where it has “%4” (%5%).")
        .arg(d.column + 1)
        .arg(d.mine, percent(d.myProbability), d.theirs, percent(d.theirProbability));
}

void CompareColumn::editOptions()
{
    QDialog dialog(this);
    dialog.setWindowTitle(tr("Column %1 decoding").arg(m_index + 1));
    auto *layout = new QVBoxLayout(&dialog);
    auto *panel = new DecodingPanel(&dialog);
    panel->setOptions(options());
    layout->addWidget(panel);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, &dialog);
    layout->addWidget(buttons);
    connect(buttons, &QDialogButtonBox::accepted, &dialog, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    if (dialog.exec() == QDialog::Accepted)
        m_presenter.editColumnOptions(m_index, panel->options(), panel->currentPresetName());
}

QString CompareColumn::metricsText() const
{
    const TranslationHypothesis *h = result().best();
    if (!h)
        return QString();
    return tr("score %1 · %n token(s) · %2 ms", "", int(h->tokens.size()))
        .arg(QLocale().toString(double(h->score), 'f', 2),
             QLocale().toString(result().elapsedMs, 'f', 0));
}

int CompareColumn::tokenAtPosition(int position) const
{
    const TranslationHypothesis *h = result().best();
    if (!h)
        return -1;
    for (int i = 0; i < h->tokens.size(); ++i)
        if (h->tokens[i].begin <= position && position < h->tokens[i].end)
            return i;
    return -1;
}

QTextEdit::ExtraSelection CompareColumn::tokenSelection(int i, bool forced, bool differing) const
{
    const TranslationHypothesis &h = *result().best();
    const TokenSpan &t = h.tokens[i];
    const QPalette pal = palette();
    QTextEdit::ExtraSelection s;
    s.cursor = QTextCursor(m_output->document());
    s.cursor.setPosition(t.begin);
    s.cursor.setPosition(t.end, QTextCursor::KeepAnchor);
    if (forced) {
        // Forced tokens have probability 1 by construction: shading them as certain would say
        // the model chose them. A dotted line says the user did.
        s.format.setUnderlineStyle(QTextCharFormat::DotLine);
        s.format.setUnderlineColor(theme::accent(pal));
        s.format.setProperty(kForcedProperty, true);
        s.format.setToolTip(tr("Forced: part of the prefix you chose"));
    } else {
        const float p = i < h.tokenLogProbs.size() ? std::exp(h.tokenLogProbs[i]) : 1.0f;
        s.format.setBackground(theme::confidenceColor(pal, p));
        s.format.setToolTip(tr("Probability %1%").arg(QLocale().toString(p * 100, 'f', 1)));
    }
    if (differing) {
        s.format.setFontWeight(QFont::DemiBold);
        s.format.setUnderlineStyle(QTextCharFormat::SingleUnderline);
        s.format.setUnderlineColor(theme::accent(pal));
    }
    if (i == divergence().token) // where the two searches part: said on hover too
        s.format.setToolTip(divergenceText());
    const bool selected =
        m_presenter.selectedColumn() == m_index && m_presenter.selectedToken() == i;
    if (selected) {
        s.format.setBackground(theme::attentionColor(pal, 1.0f));
        s.format.setForeground(theme::textOn(theme::attentionColor(pal, 1.0f)));
    }
    return s;
}

void CompareColumn::repaintTokens()
{
    const TranslationHypothesis *h = result().best();
    QList<QTextEdit::ExtraSelection> selections;
    if (h && m_shownText.size() == h->text.size()) {
        const QList<int> &differingList = state().differing;
        const QSet<int> differing(differingList.begin(), differingList.end());
        const QList<int> forcedList = result().forcedTokens();
        const QSet<int> forced(forcedList.begin(), forcedList.end());
        for (int i = 0; i < h->tokens.size() && i < kMaxMarkedTokens; ++i)
            if (h->tokens[i].begin != h->tokens[i].end)
                selections << tokenSelection(i, forced.contains(i), differing.contains(i));
    }
    m_output->setExtraSelections(selections);
}

QSize CompareColumn::minimumSizeHint() const
{
    // The labels wrap, and a layout's minimum counts one line of each: at five or six columns
    // the notes need several. The minimum holds them at the column's width, and a few lines of
    // the output (which scrolls), up to a bound past which they are cut rather than the window
    // grown off the screen.
    const QSize base = QWidget::minimumSizeHint();
    const QMargins m = layout()->contentsMargins();
    const int width = std::max(base.width(), this->width()) - m.left() - m.right();
    const int line = m_output->fontMetrics().lineSpacing();
    int height = m.top() + m.bottom() + 4 * layout()->spacing() +
                 layout()->itemAt(0)->sizeHint().height() +
                 std::max(m_output->minimumSizeHint().height(), 2 * line);
    for (const QLabel *label : {m_summary, m_steering, m_metrics})
        if (!label->isHidden())
            height += label->heightForWidth(width);
    return {base.width(), std::clamp(height, base.height(), 30 * line)};
}

QSize CompareColumn::sizeHint() const
{
    // A few more lines of output than the minimum; the search tree below takes the rest.
    return {QWidget::sizeHint().width(),
            minimumSizeHint().height() + 2 * m_output->fontMetrics().lineSpacing()};
}

void CompareColumn::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    if (event->size().width() != event->oldSize().width())
        updateGeometry(); // the labels wrap into another number of lines
}

bool CompareColumn::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_output->viewport() && event->type() == QEvent::MouseButtonRelease) {
        auto *mouse = static_cast<QMouseEvent *>(event);
        const QTextCursor cursor = m_output->cursorForPosition(mouse->position().toPoint());
        int position = cursor.position();
        if (mouse->position().x() < m_output->cursorRect(cursor).x() && position > 0)
            --position;
        const int token = tokenAtPosition(position);
        if (token >= 0)
            m_presenter.selectToken(m_index, token);
    }
    return QWidget::eventFilter(watched, event);
}

} // namespace glosa
