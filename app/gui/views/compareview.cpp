#include "app/gui/views/compareview.h"

#include "app/core/settings/decodingmaps.h"
#include "app/gui/widgets/beamtreewidget.h"
#include "app/gui/widgets/decodingpanel.h"
#include "app/gui/widgets/languagewarningbar.h"
#include "app/gui/guiutil.h"
#include "app/gui/widgets/probabilitychart.h"
#include "app/gui/theme.h"

#include <QComboBox>
#include <QCoreApplication>
#include <QDialog>
#include <QDialogButtonBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QMouseEvent>
#include <QResizeEvent>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QSet>
#include <QSpinBox>
#include <QSplitter>
#include <QTextEdit>
#include <QToolButton>
#include <QVBoxLayout>

#include <cmath>

namespace glosa {

// ---------------------------------------------------------------------------------------------
// CompareColumn

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
        m_preset->setItemText(i, key.isEmpty() ? tr("Custom") : DecodingPanel::presetDisplayName(key));
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
    else if (m_metrics && event->type() == QEvent::PaletteChange)
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
    setBackgroundRole(selected ? QPalette::AlternateBase : QPalette::Base);
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

// ---------------------------------------------------------------------------------------------
// CompareView

CompareView::CompareView(AppContext &context, QWidget *parent)
    : QWidget(parent), m_context(context), m_presenter(new ComparePresenter(context, this))
{
    m_inputTitle = new QLabel(this);
    m_inputTitle->setFont(theme::titleFont(font()));
    m_input = new QPlainTextEdit(this);
    m_input->setFont(theme::editorFont(font()));
    m_input->document()->setDocumentMargin(10);
    // Three lines: a sentence or two is what one compares, and the search tree below needs
    // the height more at 1280 × 800.
    m_input->setMaximumHeight(3 * m_input->fontMetrics().lineSpacing() + 2 * 10 +
                              2 * m_input->frameWidth() + 4);
    m_input->setTabChangesFocus(true);
    m_columnsLabel = new QLabel(this);
    m_columnCount = new QSpinBox(this);
    m_columnCount->setRange(ComparePresenter::kMinColumns, ComparePresenter::kMaxColumns);
    m_columnsLabel->setBuddy(m_columnCount);
    m_compare = new QPushButton(this);
    m_compare->setDefault(true);
    m_resample = new QPushButton(this);
    m_status = new QLabel(this);
    m_languageBar = new LanguageWarningBar(context, this);

    auto *controls = new QHBoxLayout;
    controls->addWidget(m_columnsLabel);
    controls->addWidget(m_columnCount);
    controls->addSpacing(12);
    controls->addWidget(m_status, 1);
    controls->addWidget(m_resample);
    controls->addWidget(m_compare);

    m_splitter = new QSplitter(Qt::Vertical, this);
    m_splitter->addWidget(makeColumnsPane());
    m_splitter->addWidget(makeTracePane());
    m_splitter->setStretchFactor(0, 1);
    m_splitter->setStretchFactor(1, 2);
    m_splitter->setHandleWidth(16);
    // Dragging the tree larger stops at the columns' minimum instead of squeezing them shut.
    m_splitter->setChildrenCollapsible(false);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(16, 12, 16, 12);
    layout->setSpacing(8);
    layout->addWidget(m_inputTitle);
    layout->addWidget(m_input);
    layout->addLayout(controls);
    layout->addWidget(m_languageBar);
    layout->addWidget(m_splitter, 1);

    // Input goes to the presenter; what it decides comes back as state.
    connect(m_languageBar, &LanguageWarningBar::switched, this, &CompareView::compare);
    connect(m_languageBar, &LanguageWarningBar::goOn, this,
            [this] { m_presenter->compareAnyway(m_input->toPlainText()); });
    connect(m_input, &QPlainTextEdit::textChanged, m_presenter, &ComparePresenter::inputChanged);
    connect(m_columnCount, &QSpinBox::valueChanged, m_presenter,
            &ComparePresenter::setColumnCount);
    connect(m_compare, &QPushButton::clicked, this, &CompareView::compare);
    connect(m_resample, &QPushButton::clicked, this, &CompareView::resample);
    connect(m_tree, &BeamTreeWidget::stepClicked, m_presenter, &ComparePresenter::selectStep);
    connect(m_tree, &BeamTreeWidget::decodeFromNode, m_presenter,
            &ComparePresenter::decodeFromNode);
    connect(m_chart, &ProbabilityChart::candidateChosen, m_presenter,
            &ComparePresenter::decodeFromCandidate);
    connect(m_presenter, &ComparePresenter::columnCountChanged, this, &CompareView::syncColumns);
    connect(m_presenter, &ComparePresenter::columnChanged, this, [this](int index) {
        if (CompareColumn *c = column(index))
            c->render();
    });
    connect(m_presenter, &ComparePresenter::selectionChanged, this, [this] {
        for (CompareColumn *c : std::as_const(m_columns))
            c->render();
        updateTrace();
    });
    connect(m_presenter, &ComparePresenter::statusChanged, this, &CompareView::showStatus);
    connect(m_presenter, &ComparePresenter::availabilityChanged, this,
            &CompareView::showAvailability);
    connect(m_presenter, &ComparePresenter::languageMismatchFound, this,
            &CompareView::showLanguageMismatch);
    connect(m_presenter, &ComparePresenter::languageMismatchCleared, m_languageBar,
            &LanguageWarningBar::reset);
    connect(m_presenter, &ComparePresenter::comparisonShown, this, &CompareView::comparisonShown);

    syncColumns();
    showAvailability();
    retranslateUi();
}

QWidget *CompareView::makeColumnsPane()
{
    auto *columnsHost = new QWidget(this);
    m_columnsLayout = new QHBoxLayout(columnsHost);
    m_columnsLayout->setContentsMargins(0, 0, 0, 0);
    m_columnsLayout->setSpacing(10);
    return columnsHost;
}

QWidget *CompareView::makeTracePane()
{
    m_treeTitle = new QLabel(this);
    m_treeTitle->setFont(theme::titleFont(font()));
    m_legend = new QLabel(this);
    m_legend->setTextFormat(Qt::RichText);
    m_tree = new BeamTreeWidget(this);
    m_treeScroll = new QScrollArea(this);
    m_treeScroll->setWidget(m_tree);
    m_treeScroll->setWidgetResizable(true);
    auto *treeBox = new QWidget(this);
    auto *treeLayout = new QVBoxLayout(treeBox);
    treeLayout->setContentsMargins(0, 0, 0, 0);
    auto *treeHeader = new QHBoxLayout;
    treeHeader->addWidget(m_treeTitle);
    treeHeader->addStretch(1);
    treeHeader->addWidget(m_legend);
    treeLayout->addLayout(treeHeader);
    treeLayout->addWidget(m_treeScroll, 1);

    m_chartTitle = new QLabel(this);
    m_chartTitle->setFont(theme::titleFont(font()));
    m_chart = new ProbabilityChart(this);
    auto *chartBox = new QWidget(this);
    auto *chartLayout = new QVBoxLayout(chartBox);
    chartLayout->setContentsMargins(0, 0, 0, 0);
    chartLayout->addWidget(m_chartTitle);
    chartLayout->addWidget(m_chart, 1);

    auto *bottom = new QSplitter(Qt::Horizontal, this);
    bottom->addWidget(treeBox);
    bottom->addWidget(chartBox);
    bottom->setStretchFactor(0, 3);
    bottom->setStretchFactor(1, 2);
    bottom->setHandleWidth(16);
    return bottom;
}

CompareView::~CompareView() = default;

void CompareView::retranslateUi()
{
    m_inputTitle->setText(tr("Sentence to compare"));
    m_input->setPlaceholderText(tr("Type a sentence and compare how each strategy translates it…"));
    m_input->setAccessibleName(tr("Sentence to compare"));
    m_columnsLabel->setText(tr("&Columns:"));
    m_columnCount->setAccessibleName(tr("Number of columns"));
    m_compare->setText(tr("&Compare"));
    m_compare->setToolTip(tr("Decode the sentence with every column's strategy (Ctrl+Shift+C)"));
    m_resample->setText(tr("&Re-sample"));
    m_resample->setToolTip(tr("Draw new seeds for the sampling columns and compare again"));
    m_languageBar->setTexts(tr("This text looks like %1, and the model translates from %2."),
                            tr("Compare %1 → %2"), tr("Compare anyway"));
    m_treeTitle->setText(tr("Search tree"));
    m_chartTitle->setText(tr("Candidates at the selected step"));
    m_tree->setAccessibleName(tr("Search tree"));
    m_chart->setAccessibleName(tr("Probability chart"));
    const QPalette pal = palette();
    auto dot = [](const QColor &c, const QString &text) {
        return QStringLiteral("<span style=\"color:%1\">●</span> %2&nbsp;&nbsp;")
            .arg(c.name(), text.toHtmlEscaped());
    };
    m_legend->setText(dot(theme::keptColor(pal), tr("kept")) + dot(theme::prunedColor(pal), tr("pruned"))
                      + dot(theme::finishedColor(pal), tr("finished"))
                      + dot(theme::blockedColor(pal), tr("blocked")));
    showStatus();
}

void CompareView::changeEvent(QEvent *event)
{
    if (m_chart && (event->type() == QEvent::LanguageChange
                    || event->type() == QEvent::PaletteChange))
        retranslateUi();
    QWidget::changeEvent(event);
}

void CompareView::showAvailability()
{
    m_compare->setEnabled(m_presenter->canCompare());
    m_resample->setEnabled(m_presenter->canCompare());
    showStatus();
}

void CompareView::showStatus()
{
    using Kind = ComparePresenter::Status::Kind;
    const ComparePresenter::Status &status = m_presenter->status();
    const std::optional<ModelInfo> &model = m_presenter->choice().model;
    QString text;
    switch (status.kind) {
    case Kind::None: break;
    case Kind::Unavailable: text = unavailableText(m_presenter->choice()); break;
    case Kind::Decoding: text = tr("Decoding %n column(s)…", "", status.number); break;
    case Kind::DecodingColumn:
        text = tr("Decoding column %1 with its new settings…").arg(status.number);
        break;
    case Kind::DecodingPrefix:
        text = tr("Decoding column %1 from the chosen prefix…").arg(status.number);
        break;
    case Kind::Done: text = tr("Done."); break;
    case Kind::Failed: text = tr("Comparison failed: %1").arg(status.text); break;
    case Kind::WrongLanguage:
        text = tr("Not compared: the text is not in %1.")
                   .arg(model ? languageName(model->sourceLanguage) : QString());
        break;
    case Kind::StillRunning:
        text = tr("The comparison is still running: decode from here once it is done.");
        break;
    case Kind::Full:
        text = tr("All %1 columns are in use: lower the number of columns to make room for a "
                  "decode from here.")
                   .arg(status.number);
        break;
    case Kind::Stored: text = status.text; break;
    }
    m_status->setText(text);
}

void CompareView::showLanguageMismatch()
{
    const std::optional<ModelInfo> &model = m_presenter->choice().model;
    m_languageBar->showMismatch(m_presenter->languageMismatch(),
                                model ? model->sourceLanguage : QString());
}

void CompareView::syncColumns()
{
    const int count = m_presenter->columnCount();
    while (m_columns.size() < count) {
        auto *c = new CompareColumn(*m_presenter, int(m_columns.size()), this);
        m_columnsLayout->addWidget(c, 1);
        m_columns.append(c);
    }
    while (m_columns.size() > count)
        delete m_columns.takeLast();
    if (m_columnCount->value() != count)
        m_columnCount->setValue(count);
}

void CompareView::compare()
{
    m_presenter->compare(m_input->toPlainText());
}

void CompareView::resample()
{
    m_presenter->resample(m_input->toPlainText());
}

void CompareView::showStoredComparison(const QString &input,
                                       const QList<TranslationResult> &columns,
                                       const QString &status)
{
    m_presenter->showStoredComparison(input, columns, status);
    m_input->setPlainText(input);
}

void CompareView::updateTrace()
{
    const SentenceTrace *trace = m_presenter->selectedTrace();
    if (!trace) {
        m_tree->clear();
        m_chart->clear();
        return;
    }
    m_tree->setTrace(*trace);
    const int step = m_presenter->selectedStep();
    m_tree->setSelectedStep(step);
    if (step < 0 || step >= m_tree->bestPath().size()) {
        m_chart->clear();
        return;
    }
    // Long sentences run off the right: bring the selected step into view. The new trace's size
    // is only a pending layout request so far; apply it first.
    QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
    const QPoint at = m_tree->stepPosition(step);
    m_treeScroll->ensureVisible(at.x(), at.y(), 120, 40);
    m_chart->setStep(*trace, step);
}

} // namespace glosa
