#include "app/gui/views/compareview.h"

#include "app/core/displaynames.h"
#include "app/gui/theme.h"
#include "app/gui/widgets/beamtreewidget.h"
#include "app/gui/widgets/languagewarningbar.h"
#include "app/gui/widgets/probabilitychart.h"

#include <QCoreApplication>
#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QSpinBox>
#include <QSplitter>
#include <QVBoxLayout>

namespace glosa {

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
    connectPresenter();

    syncColumns();
    showAvailability();
    retranslateUi();
}

void CompareView::connectPresenter()
{
    connect(m_presenter, &ComparePresenter::columnCountChanged, this,
            &CompareView::syncColumns);
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
    m_input->setPlaceholderText(
        tr("Type a sentence and compare how each strategy translates it…"));
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
    m_legend->setText(dot(theme::keptColor(pal), tr("kept")) +
                      dot(theme::prunedColor(pal), tr("pruned")) +
                      dot(theme::finishedColor(pal), tr("finished")) +
                      dot(theme::blockedColor(pal), tr("blocked")));
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
