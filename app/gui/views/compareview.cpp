#include "app/gui/views/compareview.h"

#include "app/core/inference/inferenceworker.h"
#include "app/core/settings/decodingmaps.h"
#include "app/gui/widgets/beamtreewidget.h"
#include "app/gui/widgets/decodingpanel.h"
#include "app/gui/widgets/languagewarningbar.h"
#include "app/gui/guiutil.h"
#include "app/gui/livetext.h"
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
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRandomGenerator>
#include <QScrollArea>
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

CompareColumn::CompareColumn(int index, QWidget *parent) : QWidget(parent), m_index(index)
{
    setAutoFillBackground(true);
    setBackgroundRole(QPalette::Base);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(10, 10, 10, 10);
    layout->setSpacing(6);
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
    m_output->setMinimumHeight(70);
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
                setOptionsKeepingSteering(preset.options, key);
        emit optionsEdited(m_index);
    });
    connect(m_edit, &QToolButton::clicked, this, &CompareColumn::editOptions);
    const QList<DecodingPreset> presets = builtInPresets();
    const DecodingPreset &initial = presets.at(index % presets.size());
    setOptions(initial.options, initial.name);
    retranslateUi();
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
    m_summary->setText(decodingSummary(m_options)); // composed of words in the UI language
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
    m_options = options;
    const int index = m_preset->findData(preset);
    m_preset->setCurrentIndex(index < 0 ? m_preset->count() - 1 : index);
    m_summary->setText(decodingSummary(options));
    showMetrics();
}

void CompareColumn::setOptionsKeepingSteering(engine::DecodingOptions options,
                                              const QString &preset)
{
    options.targetPrefix = m_options.targetPrefix;
    options.targetPrefixSentence = m_options.targetPrefixSentence;
    setOptions(options, preset);
}

void CompareColumn::setSteering(const QString &label)
{
    m_steering->setText(label);
    m_steering->setVisible(!label.isEmpty());
    QPalette pal = m_steering->palette();
    pal.setColor(QPalette::WindowText, theme::accent(palette()));
    m_steering->setPalette(pal);
}

QString CompareColumn::steeringText() const
{
    return m_steering->text();
}

bool CompareColumn::isStale() const
{
    if (!hasResult())
        return false;
    // The view asks for traces; they are not a setting.
    return decodingPresetKey(m_result.options) != decodingPresetKey(m_options);
}

void CompareColumn::showMetrics()
{
    const bool stale = isStale();
    const TranslationHypothesis *h = m_result.best();
    QString text =
        stale ? tr("Out of date: the settings changed after this result") : metricsText();
    if (h && h->tokens.size() > kMaxMarkedTokens)
        text += QLatin1Char('\n') +
                tr("Probabilities and differences are shown for the first %n token(s).", "",
                   kMaxMarkedTokens);
    if (!stale && m_sameAs >= 0)
        text += QLatin1Char('\n') + tr("Same output as column %1: these settings changed nothing "
                                       "on this text.")
                                        .arg(m_sameAs + 1);
    else if (!stale && m_divergence.token >= 0)
        text += QLatin1Char('\n') + divergenceText();
    m_metrics->setText(text);
    m_metrics->setForegroundRole(stale ? QPalette::PlaceholderText : QPalette::WindowText);
    m_output->setForegroundRole(stale ? QPalette::PlaceholderText : QPalette::Text);
}

QString CompareColumn::divergenceText() const
{
    const auto percent = [](float p) { return QLocale().toString(p * 100, 'f', 1); };
    if (m_divergence.theirs.isEmpty()) // this column adds words the other does not have
        return tr("Parts from column %1 at “%2” (%3%).")
            .arg(m_divergence.column + 1)
            .arg(m_divergence.mine, percent(m_divergence.myProbability));
    return tr("Parts from column %1 at “%2” (%3%), where it has “%4” (%5%).")
        .arg(m_divergence.column + 1)
        .arg(m_divergence.mine, percent(m_divergence.myProbability), m_divergence.theirs,
             percent(m_divergence.theirProbability));
}

QString CompareColumn::presetName() const
{
    return m_preset->currentData().toString();
}

void CompareColumn::editOptions()
{
    QDialog dialog(this);
    dialog.setWindowTitle(tr("Column %1 decoding").arg(m_index + 1));
    auto *layout = new QVBoxLayout(&dialog);
    auto *panel = new DecodingPanel(&dialog);
    panel->setOptions(m_options);
    layout->addWidget(panel);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, &dialog);
    layout->addWidget(buttons);
    connect(buttons, &QDialogButtonBox::accepted, &dialog, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    if (dialog.exec() == QDialog::Accepted) {
        setOptionsKeepingSteering(panel->options(), panel->currentPresetName());
        emit optionsEdited(m_index);
    }
}

void CompareColumn::setPending()
{
    m_metrics->setText(tr("Decoding…"));
}

QString CompareColumn::metricsText() const
{
    const TranslationHypothesis *h = m_result.best();
    if (!h)
        return QString();
    return tr("score %1 · %n token(s) · %2 ms", "", int(h->tokens.size()))
        .arg(QLocale().toString(double(h->score), 'f', 2),
             QLocale().toString(m_result.elapsedMs, 'f', 0));
}

void CompareColumn::setResult(const TranslationResult &result, const QList<int> &differing)
{
    m_result = result;
    m_differing = differing;
    m_selectedToken = -1;
    const TranslationHypothesis *h = result.best();
    m_output->setPlainText(h ? h->text : QString());
    showMetrics();
    repaintTokens();
}

void CompareColumn::setDiffering(const QList<int> &differing)
{
    m_differing = differing;
    repaintTokens();
}

void CompareColumn::setComparison(int sameAs, const Divergence &divergence)
{
    m_sameAs = sameAs;
    m_divergence = divergence;
    showMetrics();
    repaintTokens();
}

void CompareColumn::setSelected(bool selected)
{
    m_selected = selected;
    setBackgroundRole(selected ? QPalette::AlternateBase : QPalette::Base);
}

void CompareColumn::setSelectedToken(int token)
{
    m_selectedToken = token;
    repaintTokens();
}

int CompareColumn::tokenAtPosition(int position) const
{
    const TranslationHypothesis *h = m_result.best();
    if (!h)
        return -1;
    for (int i = 0; i < h->tokens.size(); ++i)
        if (h->tokens[i].begin <= position && position < h->tokens[i].end)
            return i;
    return -1;
}

void CompareColumn::repaintTokens()
{
    const TranslationHypothesis *h = m_result.best();
    QList<QTextEdit::ExtraSelection> selections;
    if (h) {
        const QPalette pal = palette();
        const QSet<int> differing(m_differing.begin(), m_differing.end());
        const QList<int> forcedList = m_result.forcedTokens();
        const QSet<int> forced(forcedList.begin(), forcedList.end());
        for (int i = 0; i < h->tokens.size() && i < kMaxMarkedTokens; ++i) {
            const TokenSpan &t = h->tokens[i];
            if (t.begin == t.end)
                continue;
            QTextEdit::ExtraSelection s;
            s.cursor = QTextCursor(m_output->document());
            s.cursor.setPosition(t.begin);
            s.cursor.setPosition(t.end, QTextCursor::KeepAnchor);
            if (forced.contains(i)) {
                // Forced tokens have probability 1 by construction: shading them as certain
                // would say the model chose them. A dotted line says the user did.
                s.format.setUnderlineStyle(QTextCharFormat::DotLine);
                s.format.setUnderlineColor(theme::accent(pal));
                s.format.setProperty(kForcedProperty, true);
                s.format.setToolTip(tr("Forced: part of the prefix you chose"));
            } else {
                const float p =
                    i < h->tokenLogProbs.size() ? std::exp(h->tokenLogProbs[i]) : 1.0f;
                s.format.setBackground(theme::confidenceColor(pal, p));
                s.format.setToolTip(
                    tr("Probability %1%").arg(QLocale().toString(p * 100, 'f', 1)));
            }
            if (differing.contains(i)) {
                s.format.setFontWeight(QFont::DemiBold);
                s.format.setUnderlineStyle(QTextCharFormat::SingleUnderline);
                s.format.setUnderlineColor(theme::accent(pal));
            }
            if (i == m_divergence.token) // where the two searches part: said on hover too
                s.format.setToolTip(divergenceText());
            if (i == m_selectedToken) {
                s.format.setBackground(theme::attentionColor(pal, 1.0f));
                s.format.setForeground(theme::textOn(theme::attentionColor(pal, 1.0f)));
            }
            selections << s;
        }
    }
    m_output->setExtraSelections(selections);
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
            emit tokenClicked(m_index, token);
    }
    return QWidget::eventFilter(watched, event);
}

// ---------------------------------------------------------------------------------------------
// CompareView

CompareView::CompareView(AppContext &context, QWidget *parent) : QWidget(parent), m_context(context)
{
    m_inputTitle = new QLabel(this);
    m_inputTitle->setFont(theme::titleFont(font()));
    m_input = new QPlainTextEdit(this);
    m_input->setFont(theme::editorFont(font()));
    m_input->setMaximumHeight(110);
    m_input->document()->setDocumentMargin(10);
    m_input->setTabChangesFocus(true);
    m_columnsLabel = new QLabel(this);
    m_columnCount = new QSpinBox(this);
    m_columnCount->setRange(2, 6);
    m_columnsLabel->setBuddy(m_columnCount);
    m_compare = new QPushButton(this);
    m_compare->setDefault(true);
    m_resample = new QPushButton(this);
    m_status = new QLabel(this);
    m_languageBar = new LanguageWarningBar(context, this);
    // Compare with the offered model (chosen: useModel() has run), or with this one anyway.
    connect(m_languageBar, &LanguageWarningBar::switched, this, &CompareView::compare);
    connect(m_languageBar, &LanguageWarningBar::goOn, this, &CompareView::compare);
    connect(m_input, &QPlainTextEdit::textChanged, m_languageBar, &LanguageWarningBar::reset);

    auto *controls = new QHBoxLayout;
    controls->addWidget(m_columnsLabel);
    controls->addWidget(m_columnCount);
    controls->addSpacing(12);
    controls->addWidget(m_status, 1);
    controls->addWidget(m_resample);
    controls->addWidget(m_compare);

    auto *columnsHost = new QWidget(this);
    m_columnsLayout = new QHBoxLayout(columnsHost);
    m_columnsLayout->setContentsMargins(0, 0, 0, 0);
    m_columnsLayout->setSpacing(10);

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

    m_splitter = new QSplitter(Qt::Vertical, this);
    m_splitter->addWidget(columnsHost);
    m_splitter->addWidget(bottom);
    m_splitter->setStretchFactor(0, 1);
    m_splitter->setStretchFactor(1, 1);
    m_splitter->setHandleWidth(16);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(16, 12, 16, 12);
    layout->setSpacing(8);
    layout->addWidget(m_inputTitle);
    layout->addWidget(m_input);
    layout->addLayout(controls);
    layout->addWidget(m_languageBar);
    layout->addWidget(m_splitter, 1);

    connect(m_columnCount, &QSpinBox::valueChanged, this, &CompareView::setColumnCount);
    connect(m_compare, &QPushButton::clicked, this, &CompareView::compare);
    connect(m_resample, &QPushButton::clicked, this, &CompareView::resample);
    connect(m_tree, &BeamTreeWidget::stepClicked, this, [this](int step) {
        const CompareColumn *c = column(m_selectedColumn);
        if (!c || m_treeSentence >= c->result().traces.size())
            return;
        selectToken(m_selectedColumn, c->result().traces[m_treeSentence].targetOffset + step);
    });
    connect(m_tree, &BeamTreeWidget::decodeFromNode, this, &CompareView::steerFromNode);
    connect(m_chart, &ProbabilityChart::candidateChosen, this, &CompareView::steerFromCandidate);

    setColumnCount(3);
    connect(&context, &AppContext::modelChosen, this, &CompareView::useModel);
    useModel(context.choice(AppContext::kTranslation));
    retranslateUi();
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
    if (!m_worker)
        m_status->setText(unavailableText(m_choice));
}

void CompareView::changeEvent(QEvent *event)
{
    if (m_chart && (event->type() == QEvent::LanguageChange
                    || event->type() == QEvent::PaletteChange))
        retranslateUi();
    QWidget::changeEvent(event);
}

void CompareView::useModel(const ModelChoice &choice)
{
    if (choice.task != AppContext::kTranslation)
        return;
    m_choice = choice;
    m_languageBar->reset(); // checked against the new model's language
    InferenceWorker *worker = choice.isReady() ? m_context.workerFor(*choice.model) : nullptr;
    m_worker = worker;
    m_request.reset();
    m_comparing = false;
    m_columnRequest.reset();
    m_compare->setEnabled(worker != nullptr);
    m_resample->setEnabled(worker != nullptr);
    m_status->setText(unavailableText(choice));
}

void CompareView::setColumnCount(int count)
{
    count = std::clamp(count, 2, 6);
    while (m_columns.size() < count) {
        auto *c = new CompareColumn(m_columns.size(), this);
        connect(c, &CompareColumn::tokenClicked, this, &CompareView::selectToken);
        connect(c, &CompareColumn::optionsEdited, this, &CompareView::rerunColumn);
        m_columnsLayout->addWidget(c, 1);
        m_columns.append(c);
    }
    while (m_columns.size() > count)
        delete m_columns.takeLast();
    if (m_columnCount->value() != count)
        m_columnCount->setValue(count);
    m_selectedColumn = std::min(m_selectedColumn, count - 1);
}

void CompareView::compare()
{
    if (!m_worker) {
        m_status->setText(unavailableText(m_choice));
        return;
    }
    const QString text = m_input->toPlainText();
    if (text.trimmed().isEmpty())
        return;
    if (m_languageBar->check(text, m_choice.model)) {
        m_status->setText(liveText([language = m_choice.model->sourceLanguage] {
            return tr("Not compared: the text is not in %1.").arg(languageName(language));
        }));
        return;
    }
    // A prefix belongs to a sentence of the text it was chosen in; another text drops it (the
    // column keeps its strategy). The same text (Re-sample) keeps it.
    if (text != m_comparedText)
        for (CompareColumn *c : m_columns)
            if (c->isSteered()) {
                engine::DecodingOptions o = c->options();
                o.targetPrefix.clear();
                o.targetPrefixSentence = -1;
                c->setOptions(o, c->presetName());
                c->setSteering(QString());
            }
    QList<engine::DecodingOptions> options;
    for (CompareColumn *c : m_columns) {
        engine::DecodingOptions o = c->options();
        o.trace = true;
        options << o;
        c->setPending();
    }
    m_request = m_worker->translate(text, options);
    connect(m_request.get(), &InferenceRequest::columnReady, this, &CompareView::showColumn);
    connect(m_request.get(), &InferenceRequest::translated, this, [this] {
        m_comparing = false;
        m_status->setText(liveText([] { return tr("Done."); }));
        // Until a word is picked, the tree shows the first beam search: greedy's is one line.
        if (m_selectedToken < 0)
            for (int i = 0; i < m_columns.size(); ++i)
                if (m_columns[i]->hasResult() &&
                    m_columns[i]->result().options.strategy == engine::SearchStrategy::Beam) {
                    selectToken(i, -1);
                    break;
                }
        emit comparisonShown();
    });
    connect(m_request.get(), &InferenceRequest::failed, this, [this](const QString &message) {
        m_comparing = false;
        showFailure(message);
    });
    connect(m_request.get(), &InferenceRequest::cancelled, this, [this] { m_comparing = false; });
    m_comparing = true;
    m_comparedText = text;
    m_status->setText(tr("Decoding %n column(s)…", "", int(options.size())));
}

void CompareView::rerunColumn(int index)
{
    CompareColumn *c = m_columns.value(index);
    // While the whole comparison runs its result for this column arrives marked out of date;
    // starting another request now would cancel it (the worker runs the latest only).
    if (!c || !c->isStale() || !m_worker || m_comparing || m_comparedText.isEmpty())
        return;
    decodeColumn(index, tr("Decoding column %1 with its new settings…").arg(index + 1));
}

void CompareView::decodeColumn(int index, const QString &status)
{
    CompareColumn *c = m_columns.value(index);
    if (!c || !m_worker)
        return;
    engine::DecodingOptions o = c->options();
    o.trace = true;
    m_columnRequest = m_worker->translate(m_comparedText, {o});
    connect(m_columnRequest.get(), &InferenceRequest::columnReady, this,
            [this, index](int, const TranslationResult &result) { showColumn(index, result); });
    connect(m_columnRequest.get(), &InferenceRequest::translated, this,
            [this] { m_status->setText(liveText([] { return tr("Done."); })); });
    connect(m_columnRequest.get(), &InferenceRequest::failed, this, &CompareView::showFailure);
    c->setPending();
    m_status->setText(status);
}

void CompareView::steerFromNode(int node)
{
    const CompareColumn *c = column(m_selectedColumn);
    if (!c || m_treeSentence >= c->result().traces.size())
        return;
    const SentenceTrace &trace = c->result().traces[m_treeSentence];
    const QList<int> prefix = trace.pathTokens(node);
    bool ends = false;
    const QString words = trace.words(prefix, &ends);
    decodeWithPrefix(m_selectedColumn, m_treeSentence, prefix,
                     steeringLabel(words, ends, m_treeSentence, int(c->result().traces.size())));
}

void CompareView::steerFromCandidate(int token)
{
    // The chart shows the step of the selected token: the best path up to it, then `token`.
    const CompareColumn *c = column(m_selectedColumn);
    if (!c || m_selectedToken < 0 || m_treeSentence >= c->result().traces.size())
        return;
    const SentenceTrace &trace = c->result().traces[m_treeSentence];
    const QList<int> prefix = trace.prefixWith(m_selectedToken - trace.targetOffset, token);
    bool ends = false;
    const QString words = trace.words(prefix, &ends);
    decodeWithPrefix(m_selectedColumn, m_treeSentence, prefix,
                     steeringLabel(words, ends, m_treeSentence, int(c->result().traces.size())));
}

void CompareView::decodeWithPrefix(int from, int sentence, const QList<int> &prefix,
                                   const QString &label)
{
    const CompareColumn *source = column(from);
    if (!source || !source->hasResult() || prefix.isEmpty() || !m_worker)
        return;
    // Starting now would cancel the comparison (the worker runs the latest request only).
    if (m_comparing) {
        m_status->setText(tr("The comparison is still running: decode from here once it is done."));
        return;
    }
    // The settings that made the tree (the column's may have changed since), the prefix added.
    engine::DecodingOptions options = source->result().options;
    options.targetPrefix.assign(prefix.begin(), prefix.end());
    options.targetPrefixSentence = sentence;
    // A prefix longer than the maximum length (the tree never has one) would be refused.
    options.maxLength = std::max(options.maxLength, int(prefix.size()));
    int target = -1;
    if (m_columns.size() < m_columnCount->maximum()) {
        setColumnCount(int(m_columns.size()) + 1);
        target = int(m_columns.size()) - 1;
    } else {
        for (int i = int(m_columns.size()) - 1; i >= 0 && target < 0; --i)
            if (m_columns[i]->isSteered())
                target = i;
    }
    if (target < 0) {
        m_status->setText(tr("All %1 columns are in use: lower the number of columns to make "
                             "room for a decode from here.")
                              .arg(m_columns.size()));
        return;
    }
    CompareColumn *c = m_columns[target];
    c->setOptions(options, source->presetName());
    c->setSteering(label);
    decodeColumn(target, tr("Decoding column %1 from the chosen prefix…").arg(target + 1));
}

void CompareView::resample()
{
    for (CompareColumn *c : m_columns) {
        engine::DecodingOptions o = c->options();
        if (o.strategy != engine::SearchStrategy::Sample)
            continue;
        o.seed = QRandomGenerator::global()->generate64();
        // Keep the preset name when only the seed changed: the strategy is still the preset's.
        c->setOptions(o, c->presetName());
    }
    compare();
}

namespace {
// Word-level LCS on surface forms of a[a0, a1) and b[b0, b1); whatever of `a` is not in it
// differs (indices into a).
QList<int> lcsDiffering(const QList<TokenSpan> &a, int a0, int a1, const QList<TokenSpan> &b,
                        int b0, int b1)
{
    const int n = std::max(0, a1 - a0), m = std::max(0, b1 - b0);
    std::vector<std::vector<int>> lcs(n + 1, std::vector<int>(m + 1, 0));
    for (int i = n - 1; i >= 0; --i)
        for (int j = m - 1; j >= 0; --j)
            lcs[i][j] = a[a0 + i].surface() == b[b0 + j].surface()
                            ? lcs[i + 1][j + 1] + 1
                            : std::max(lcs[i + 1][j], lcs[i][j + 1]);
    QList<int> differing;
    int i = 0, j = 0;
    while (i < n) {
        if (j < m && a[a0 + i].surface() == b[b0 + j].surface()) {
            ++i;
            ++j;
        } else if (j < m && lcs[i][j + 1] >= lcs[i + 1][j]) {
            ++j;
        } else {
            differing << a0 + i++;
        }
    }
    return differing;
}
} // namespace

QList<int> CompareView::differingTokens(const TranslationHypothesis &a,
                                        const TranslationHypothesis &b)
{
    return lcsDiffering(a.tokens, 0, int(a.tokens.size()), b.tokens, 0, int(b.tokens.size()));
}

QList<int> CompareView::differingTokens(const TranslationResult &a, const TranslationResult &b)
{
    const TranslationHypothesis *x = a.best(), *y = b.best();
    if (!x || !y)
        return {};
    if (!a.traces.isEmpty() && a.traces.size() == b.traces.size()) {
        QList<int> differing;
        for (int s = 0; s < a.traces.size(); ++s) {
            const SentenceTrace &p = a.traces[s], &q = b.traces[s];
            differing += lcsDiffering(x->tokens, p.targetOffset, p.targetOffset + p.tokenCount,
                                      y->tokens, q.targetOffset, q.targetOffset + q.tokenCount);
        }
        return differing;
    }
    return lcsDiffering(x->tokens, 0,
                        std::min<int>(x->tokens.size(), CompareColumn::kMaxMarkedTokens), y->tokens,
                        0, std::min<int>(y->tokens.size(), CompareColumn::kMaxMarkedTokens));
}

void CompareView::showStoredComparison(const QString &input,
                                       const QList<TranslationResult> &columns,
                                       const QString &status)
{
    m_request.reset(); // a comparison still running must not overwrite the stored one
    m_columnRequest.reset();
    m_comparing = false;
    m_comparedText = input;
    setColumnCount(int(columns.size()));
    m_input->setPlainText(input);
    for (int i = 0; i < m_columns.size() && i < columns.size(); ++i) {
        // The preset's name when the settings are one (the history keeps settings, not names).
        QString preset;
        for (const DecodingPreset &p : builtInPresets())
            if (decodingPresetKey(p.options) == decodingPresetKey(columns[i].options))
                preset = p.name;
        m_columns[i]->setOptions(columns[i].options, preset);
        m_columns[i]->setResult(columns[i], {});
        // Stored results have no traces, so the prefix's words come from the output itself (and
        // only a first sentence's tokens are known: forcedTokens()).
        const QList<int> forced = columns[i].forcedTokens();
        const TranslationHypothesis *h = columns[i].best();
        QString label;
        if (h && !forced.isEmpty()) {
            const TokenSpan &first = h->tokens[forced.first()], &last = h->tokens[forced.last()];
            label = steeringLabel(h->text.mid(first.begin, last.end - first.begin),
                                  int(columns[i].options.targetPrefix.size()) > forced.size(),
                                  columns[i].options.targetPrefixSentence, 1);
        }
        m_columns[i]->setSteering(label);
    }
    refreshDifferences();
    updateTrace();
    m_status->setText(status);
}

void CompareView::showFailure(const QString &message)
{
    m_status->setText(liveText([message] { return tr("Comparison failed: %1").arg(message); }));
}

void CompareView::showColumn(int index, const TranslationResult &result)
{
    if (index < 0 || index >= m_columns.size())
        return;
    m_columns[index]->setResult(result, {});
    refreshDifferences();
    if (index == m_selectedColumn)
        updateTrace();
}

void CompareView::refreshDifferences()
{
    // Each column is compared with its neighbour on the left (the first with the second), so a
    // reader scanning left to right sees what each strategy changed.
    for (int i = 0; i < m_columns.size(); ++i) {
        CompareColumn *c = m_columns[i];
        CompareColumn *other = m_columns.value(i == 0 ? 1 : i - 1);
        if (!c->hasResult() || !other || !other->hasResult())
            continue;
        const QList<int> differing = differingTokens(c->result(), other->result());
        c->setDiffering(differing);

        // The nearest column on the left with other settings and the same words: this column's
        // settings had no effect (an n-gram block that never fired).
        int sameAs = -1;
        const TranslationHypothesis *mine = c->result().best();
        for (int j = i - 1; j >= 0 && sameAs < 0 && mine; --j) {
            const TranslationHypothesis *theirs = m_columns[j]->result().best();
            if (theirs && theirs->text == mine->text &&
                decodingPresetKey(m_columns[j]->options()) != decodingPresetKey(c->options()))
                sameAs = j;
        }
        // The first step at which the two searches chose differently, and each one's
        // probability of its own choice there (one pass: a 5,000-word output costs no more than
        // its tokens).
        CompareColumn::Divergence divergence;
        const TranslationHypothesis *theirs = other->result().best();
        if (mine && theirs && mine->text != theirs->text) {
            int t = 0;
            while (t < mine->tokens.size() && t < theirs->tokens.size() &&
                   mine->tokens[t].id == theirs->tokens[t].id)
                ++t;
            const auto probability = [](const TranslationHypothesis &h, int i) {
                return i < h.tokenLogProbs.size() ? std::exp(h.tokenLogProbs[i]) : 0.0f;
            };
            if (t < mine->tokens.size()) {
                divergence.token = t;
                divergence.column = int(m_columns.indexOf(other));
                divergence.mine = mine->tokens[t].surface();
                divergence.myProbability = probability(*mine, t);
                if (t < theirs->tokens.size()) {
                    divergence.theirs = theirs->tokens[t].surface();
                    divergence.theirProbability = probability(*theirs, t);
                }
            }
        }
        c->setComparison(sameAs, divergence);
    }
}

void CompareView::selectToken(int columnIndex, int token)
{
    for (int i = 0; i < m_columns.size(); ++i) {
        m_columns[i]->setSelected(i == columnIndex);
        m_columns[i]->setSelectedToken(i == columnIndex ? token : -1);
    }
    m_selectedColumn = columnIndex;
    m_selectedToken = token;
    updateTrace();
}

void CompareView::updateTrace()
{
    const CompareColumn *c = column(m_selectedColumn);
    if (!c || !c->hasResult() || c->result().traces.isEmpty()) {
        m_tree->clear();
        m_chart->clear();
        return;
    }
    // The sentence the selected token belongs to (the first one when none is selected).
    const QList<SentenceTrace> &traces = c->result().traces;
    const int sentence = std::max(0, c->result().sentenceOfToken(m_selectedToken));
    m_treeSentence = sentence;
    const SentenceTrace &trace = traces[sentence];
    m_tree->setTrace(trace);
    const int step = m_selectedToken < 0 ? -1 : m_selectedToken - trace.targetOffset;
    m_tree->setSelectedStep(step);
    if (step >= 0 && step < m_tree->bestPath().size()) {
        // Long sentences run off the right: bring the selected step into view. The new trace's
        // size is only a pending layout request so far; apply it first.
        QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
        const QPoint at = m_tree->stepPosition(step);
        m_treeScroll->ensureVisible(at.x(), at.y(), 120, 40);
    }
    if (step < 0 || step >= m_tree->bestPath().size()) {
        m_chart->clear();
        return;
    }
    m_chart->setStep(trace, step);
}

} // namespace glosa
