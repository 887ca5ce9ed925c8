#include "app/gui/views/historyview.h"

#include "app/core/settings/decodingmaps.h"
#include "app/core/history/export.h"
#include "app/core/history/recorder.h"
#include "app/core/history/results.h"
#include "app/core/history/retention.h"
#include "app/core/platform/savefile.h"
#include "app/gui/filedialogs.h"
#include "app/gui/guiutil.h"
#include "app/gui/views/historymodel.h"
#include "app/gui/theme.h"

#include <algorithm>

#include <QAbstractTextDocumentLayout>
#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDialog>
#include <QDialogButtonBox>
#include <QDir>
#include <QEvent>
#include <QFile>
#include <QFileInfo>
#include <QFormLayout>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QImage>
#include <QLabel>
#include <QLineEdit>
#include <QListView>
#include <QLocale>
#include <QMessageBox>
#include <QPainter>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QSplitter>
#include <QStyledItemDelegate>
#include <QTextBrowser>
#include <QTextDocument>
#include <QTimer>
#include <QVBoxLayout>

namespace glosa {

namespace {
constexpr int kSearchDelayMs = 200;

// Paints HistoryModel::HtmlRole: a header line, the input or the search snippet, the output, each
// on one line and cut at the right edge. Rows of one height let the list use uniform item sizes,
// so laying out thousands of loaded rows costs nothing (wrapped rows of varying height made every
// page that was fetched re-measure all rows before it: 48 ms at 200 rows).
class HistoryDelegate : public QStyledItemDelegate
{
public:
    using QStyledItemDelegate::QStyledItemDelegate;

    void paint(QPainter *painter, const QStyleOptionViewItem &option,
               const QModelIndex &index) const override
    {
        QStyleOptionViewItem opt = option;
        initStyleOption(&opt, index);
        opt.text.clear();
        QStyle *style = opt.widget ? opt.widget->style() : QApplication::style();
        style->drawControl(QStyle::CE_ItemViewItem, &opt, painter, opt.widget);
        QTextDocument doc;
        setUp(doc, option, index);
        painter->save();
        painter->setClipRect(option.rect.adjusted(6, 0, -6, 0));
        painter->translate(option.rect.topLeft() + QPoint(6, 4));
        QAbstractTextDocumentLayout::PaintContext context;
        context.palette = option.palette;
        const bool selected = option.state & QStyle::State_Selected;
        context.palette.setColor(QPalette::Text, option.palette.color(
                                                     selected ? QPalette::HighlightedText
                                                              : QPalette::Text));
        doc.documentLayout()->draw(painter, context);
        painter->restore();
    }

    QSize sizeHint(const QStyleOptionViewItem &option, const QModelIndex &index) const override
    {
        QTextDocument doc;
        setUp(doc, option, index);
        return QSize(120, int(doc.size().height()) + 8); // the list gives rows its full width
    }

private:
    static void setUp(QTextDocument &doc, const QStyleOptionViewItem &option,
                      const QModelIndex &index)
    {
        doc.setDefaultFont(option.font);
        doc.setDocumentMargin(0);
        // On the selection's background the muted output and the accent would not be readable.
        const bool selected = option.state & QStyle::State_Selected;
        const QPalette &pal = option.palette;
        doc.setDefaultStyleSheet(
            QStringLiteral(".output { color: %1; } b { color: %2; }")
                .arg(pal.color(selected ? QPalette::HighlightedText : QPalette::PlaceholderText)
                         .name(),
                     (selected ? pal.color(QPalette::HighlightedText) : theme::accent(pal))
                         .name()));
        QTextOption noWrap;
        noWrap.setWrapMode(QTextOption::NoWrap);
        doc.setDefaultTextOption(noWrap);
        doc.setHtml(index.data(HistoryModel::HtmlRole).toString());
    }
};

QString modelText(const HistoryEntry &e)
{
    return e.modelVersion.isEmpty() ? e.modelId : QStringLiteral("%1 %2").arg(e.modelId, e.modelVersion);
}

QString paragraph(const QString &text)
{
    return text.toHtmlEscaped().replace(QLatin1Char('\n'), QStringLiteral("<br>"));
}

QString cell(const QString &text, bool header = false)
{
    return header ? QStringLiteral("<th align='left'>%1</th>").arg(text.toHtmlEscaped())
                  : QStringLiteral("<td>%1</td>").arg(text.toHtmlEscaped());
}

QString number(double value, int decimals = 2)
{
    return QLocale().toString(value, 'f', decimals);
}

// An evaluation: the test set, a table of scores (one row per model), BLEU by source length as
// a table (the chart's numbers) and the differences the entry kept.
QString evaluationHtml(const HistoryEntry &e)
{
    const StoredEvaluation stored = evaluationFromHistory(e);
    QString html = QStringLiteral("<h4>%1</h4><p>%2</p>")
                       .arg(HistoryView::tr("Test set"),
                            HistoryView::tr("%1 (%n sentence(s))", nullptr, int(stored.sentences))
                                .arg(stored.testSetName)
                                .toHtmlEscaped());
    html += QStringLiteral("<h4>%1</h4><table cellspacing='0' cellpadding='3'><tr>")
                .arg(HistoryView::tr("Scores"));
    for (const QString &title : {HistoryView::tr("Model"), HistoryView::tr("BLEU"),
                                 HistoryView::tr("chrF2"), HistoryView::tr("Brevity penalty"),
                                 HistoryView::tr("Decoding"), HistoryView::tr("Time")})
        html += cell(title, true);
    html += QStringLiteral("</tr>");
    for (const StoredModelScore &m : stored.models) {
        html += QStringLiteral("<tr>") +
                cell(m.version.isEmpty() ? m.id : QStringLiteral("%1 %2").arg(m.id, m.version)) +
                cell(number(m.bleu)) + cell(number(m.chrf)) + cell(number(m.brevityPenalty, 3)) +
                cell(decodingSummary(m.decoding)) +
                cell(HistoryView::tr("%1 s").arg(number(m.seconds, 1))) + QStringLiteral("</tr>");
    }
    html += QStringLiteral("</table>");
    if (!stored.buckets.empty()) {
        html += QStringLiteral("<h4>%1</h4><table cellspacing='0' cellpadding='3'><tr>")
                    .arg(HistoryView::tr("BLEU by source-sentence length (words)"));
        html += cell(HistoryView::tr("Words"), true) + cell(HistoryView::tr("Sentences"), true);
        for (const StoredModelScore &m : stored.models)
            html += cell(m.id, true);
        html += QStringLiteral("</tr>");
        for (const engine::LengthBucket &b : stored.buckets) {
            html += QStringLiteral("<tr>") +
                    cell(QString::fromStdString(engine::lengthBucketLabel(b))) +
                    cell(QLocale().toString(qint64(b.sentences)));
            for (const double bleu : b.bleu)
                html += cell(number(bleu));
            html += QStringLiteral("</tr>");
        }
        html += QStringLiteral("</table>");
    }
    if (!stored.differences.isEmpty() && stored.models.size() >= 2) {
        html += QStringLiteral("<h4>%1</h4><ol>")
                    .arg(HistoryView::tr("Where %1 and %2 differ most (sentence chrF2)")
                             .arg(stored.models[0].id, stored.models[1].id)
                             .toHtmlEscaped());
        for (const StoredDifference &d : stored.differences)
            html += QStringLiteral("<li>%1 <small>(%2 / %3)</small><br>%4: %5<br>%6: %7<br>%8</li>")
                        .arg(paragraph(d.source), number(d.chrfA, 1), number(d.chrfB, 1),
                             stored.models[0].id.toHtmlEscaped(), paragraph(d.hypothesisA),
                             stored.models[1].id.toHtmlEscaped(), paragraph(d.hypothesisB),
                             paragraph(HistoryView::tr("Reference: %1").arg(d.reference)));
        html += QStringLiteral("</ol>");
    }
    return html;
}

// One entry in full for the details pane.
QString entryHtml(const HistoryEntry &e)
{
    QString html =
        QStringLiteral("<p><b>%1</b> · %2 · %3 · %4</p>")
            .arg(HistoryModel::kindLabel(e.kind), modelText(e).toHtmlEscaped(),
                 QLocale().toString(e.time.toLocalTime(), QLocale::LongFormat).toHtmlEscaped(),
                 HistoryView::tr("%1 ms").arg(QLocale().toString(e.elapsedMs, 'f', 0)));
    if (e.kind == HistoryKind::Caption) {
        if (!e.thumbnailPng.isEmpty())
            html += QStringLiteral("<p><img src='history:thumbnail'></p>");
        html += QStringLiteral("<p>%1</p>").arg(paragraph(e.imagePath));
    } else if (e.kind == HistoryKind::Evaluation) {
        return html + evaluationHtml(e);
    } else {
        html += QStringLiteral("<h4>%1</h4><p>%2</p>")
                    .arg(HistoryView::tr("Input"), paragraph(e.inputText));
    }
    const QList<engine::DecodingOptions> columns = historyColumnOptions(e);
    for (int c = 0; c < columns.size(); ++c) {
        const QString title = e.kind == HistoryKind::Comparison
                                  ? HistoryView::tr("Column %1").arg(c + 1)
                                  : HistoryView::tr("Output");
        // A document names its file instead (decoded with the Documents view's own settings).
        const QString about = e.kind == HistoryKind::Document
                                  ? e.settings.value(QStringLiteral("document")).toString()
                                  : decodingSummary(columns[c]);
        html +=
            QStringLiteral("<h4>%1 <small>(%2)</small></h4><ol>").arg(title, about.toHtmlEscaped());
        for (const HistoryOutput &o : e.outputs) {
            if (o.column != c)
                continue;
            html += QStringLiteral("<li>%1").arg(paragraph(o.text));
            if (o.score)
                html +=
                    QStringLiteral(" <small>%1</small>")
                        .arg(HistoryView::tr("score %1").arg(QLocale().toString(*o.score, 'f', 2)));
            html += QStringLiteral("</li>");
        }
        html += QStringLiteral("</ol>");
    }
    if (!e.editedText.isEmpty())
        html += QStringLiteral("<h4>%1</h4><p>%2</p>")
                    .arg(HistoryView::tr("Your version"), paragraph(e.editedText));
    return html;
}

QString rerunTitle(const QString &when, const HistoryEntry &e)
{
    const QList<engine::DecodingOptions> options = historyColumnOptions(e);
    return QStringLiteral("%1 — %2 · %3")
        .arg(when, modelText(e), options.isEmpty() ? QString() : decodingSummary(options.first()));
}
} // namespace

HistoryView::HistoryView(HistoryRecorder *recorder, QWidget *parent)
    : QWidget(parent), m_recorder(recorder)
{
    m_banner = new QLabel(this);
    m_banner->setWordWrap(true);
    m_banner->setVisible(false);
    m_banner->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_banner->setFrameShape(QFrame::StyledPanel);
    m_banner->setMargin(8);

    m_search = new QLineEdit(this);
    m_search->setClearButtonEnabled(true);
    m_kind = new QComboBox(this);
    m_model = new QComboBox(this);
    m_period = new QComboBox(this);
    m_starredOnly = new QCheckBox(this);
    m_export = new QPushButton(this);
    m_clear = new QPushButton(this);
    m_settings = new QPushButton(this);
    for (int i = 0; i < 6; ++i)
        m_kind->addItem(QString());
    m_model->addItem(QString());
    for (int days : {0, 1, 7, 30, 365})
        m_period->addItem(QString(), days);

    m_listModel = new HistoryModel(this);
    connect(m_listModel, &HistoryModel::damageFound, this, &HistoryView::showDamage);
    m_list = new QListView(this);
    m_list->setModel(m_listModel);
    m_list->setItemDelegate(new HistoryDelegate(m_list));
    m_list->setUniformItemSizes(true);
    m_list->setAlternatingRowColors(true);
    m_list->setSelectionMode(QAbstractItemView::SingleSelection);
    m_list->setVerticalScrollMode(QAbstractItemView::ScrollPerPixel);
    m_count = new QLabel(this);
    m_count->setForegroundRole(QPalette::PlaceholderText);

    m_details = new QTextBrowser(this);
    m_details->setOpenLinks(false);
    m_open = new QPushButton(this);
    m_open->setDefault(true);
    m_rerun = new QPushButton(this);
    m_star = new QPushButton(this);
    m_star->setCheckable(true);
    m_delete = new QPushButton(this);

    m_thenTitle = new QLabel(this);
    m_nowTitle = new QLabel(this);
    m_then = new QPlainTextEdit(this);
    m_now = new QPlainTextEdit(this);
    for (QLabel *l : {m_thenTitle, m_nowTitle}) {
        l->setWordWrap(true);
        l->setFont(theme::titleFont(font()));
    }
    for (QPlainTextEdit *e : {m_then, m_now}) {
        e->setReadOnly(true);
        e->setFont(theme::editorFont(font()));
    }
    m_rerunPane = new QWidget(this);
    // A grid keeps both texts level when one title wraps and the other does not.
    auto *rerunLayout = new QGridLayout(m_rerunPane);
    rerunLayout->setContentsMargins(0, 0, 0, 0);
    rerunLayout->addWidget(m_thenTitle, 0, 0, Qt::AlignBottom);
    rerunLayout->addWidget(m_nowTitle, 0, 1, Qt::AlignBottom);
    rerunLayout->addWidget(m_then, 1, 0);
    rerunLayout->addWidget(m_now, 1, 1);
    rerunLayout->setColumnStretch(0, 1);
    rerunLayout->setColumnStretch(1, 1);
    rerunLayout->setRowStretch(1, 1);
    m_rerunPane->setVisible(false);

    auto *filters = new QHBoxLayout;
    filters->addWidget(m_search, 3);
    filters->addWidget(m_kind);
    filters->addWidget(m_model);
    filters->addWidget(m_period);
    filters->addWidget(m_starredOnly);
    filters->addSpacing(12);
    filters->addWidget(m_export);
    filters->addWidget(m_clear);
    filters->addWidget(m_settings);

    auto *left = new QWidget(this);
    auto *leftLayout = new QVBoxLayout(left);
    leftLayout->setContentsMargins(0, 0, 0, 0);
    leftLayout->addWidget(m_list, 1);
    leftLayout->addWidget(m_count);

    auto *right = new QWidget(this);
    auto *rightLayout = new QVBoxLayout(right);
    rightLayout->setContentsMargins(0, 0, 0, 0);
    rightLayout->addWidget(m_details, 2);
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_open);
    buttons->addWidget(m_rerun);
    buttons->addStretch(1);
    buttons->addWidget(m_star);
    buttons->addWidget(m_delete);
    rightLayout->addLayout(buttons);
    rightLayout->addWidget(m_rerunPane, 1);

    auto *splitter = new QSplitter(Qt::Horizontal, this);
    splitter->addWidget(left);
    splitter->addWidget(right);
    splitter->setStretchFactor(0, 2);
    splitter->setStretchFactor(1, 3);
    splitter->setHandleWidth(16);
    splitter->setChildrenCollapsible(false);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(16, 12, 16, 12);
    m_repair = new QPushButton(this);
    m_repair->setVisible(false);
    auto *bannerRow = new QHBoxLayout;
    bannerRow->addWidget(m_banner, 1);
    bannerRow->addWidget(m_repair, 0, Qt::AlignTop);
    layout->addLayout(bannerRow);
    layout->addLayout(filters);
    layout->addWidget(splitter, 1);

    // Names for tests and accessibility tools.
    m_search->setObjectName(QStringLiteral("historySearch"));
    m_list->setObjectName(QStringLiteral("historyList"));
    m_open->setObjectName(QStringLiteral("historyOpen"));
    m_rerun->setObjectName(QStringLiteral("historyRerun"));
    m_star->setObjectName(QStringLiteral("historyStar"));
    m_delete->setObjectName(QStringLiteral("historyDelete"));
    m_export->setObjectName(QStringLiteral("historyExport"));
    m_clear->setObjectName(QStringLiteral("historyClear"));
    m_repair->setObjectName(QStringLiteral("historyRepair"));
    m_settings->setObjectName(QStringLiteral("historySettings"));

    connect(recorder, &HistoryRecorder::storeChanged, this, &HistoryView::storeChanged);
    connect(recorder, &HistoryRecorder::entriesAdded, this, &HistoryView::entriesAdded);
    connect(recorder, &HistoryRecorder::warning, this, &HistoryView::warn);
    connect(recorder, &HistoryRecorder::statusMessage, this, &HistoryView::statusMessage);
    // The main window's children go in the order they were made; the list must not keep the
    // store of a recorder that went first.
    connect(recorder, &QObject::destroyed, m_listModel, [model = m_listModel] {
        model->setStore(nullptr);
    });

    m_searchDelay = new QTimer(this);
    m_searchDelay->setSingleShot(true);
    m_searchDelay->setInterval(kSearchDelayMs);
    connect(m_searchDelay, &QTimer::timeout, this, &HistoryView::refresh);
    connect(m_search, &QLineEdit::textChanged, m_searchDelay, qOverload<>(&QTimer::start));
    connect(m_search, &QLineEdit::returnPressed, this, &HistoryView::refresh);
    for (QComboBox *box : {m_kind, m_model, m_period}) {
        connect(box, &QComboBox::activated, this, &HistoryView::refresh);
        // As wide as their entries in the language shown now, not in the one first shown in.
        box->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    }
    connect(m_starredOnly, &QCheckBox::toggled, this, &HistoryView::refresh);
    connect(m_list->selectionModel(), &QItemSelectionModel::currentChanged, this,
            [this](const QModelIndex &index) {
                if (index.isValid())
                    showEntry(index.data(HistoryModel::IdRole).toLongLong());
            });
    connect(m_list, &QListView::activated, this, &HistoryView::openCurrent);
    // The same commands on the list's context menu, Delete on the keyboard.
    m_list->setContextMenuPolicy(Qt::ActionsContextMenu);
    m_openAction = new QAction(m_list);
    m_rerunAction = new QAction(m_list);
    m_starAction = new QAction(m_list);
    m_deleteAction = new QAction(m_list);
    m_deleteAction->setShortcut(QKeySequence::Delete);
    m_deleteAction->setShortcutContext(Qt::WidgetShortcut);
    connect(m_openAction, &QAction::triggered, this, &HistoryView::openCurrent);
    connect(m_rerunAction, &QAction::triggered, this, &HistoryView::rerunCurrent);
    connect(m_starAction, &QAction::triggered, this, &HistoryView::toggleStarCurrent);
    connect(m_deleteAction, &QAction::triggered, this, &HistoryView::deleteCurrent);
    m_list->addActions({m_openAction, m_rerunAction, m_starAction, m_deleteAction});
    connect(m_open, &QPushButton::clicked, this, &HistoryView::openCurrent);
    connect(m_rerun, &QPushButton::clicked, this, &HistoryView::rerunCurrent);
    connect(m_star, &QPushButton::clicked, this, &HistoryView::toggleStarCurrent);
    connect(m_delete, &QPushButton::clicked, this, &HistoryView::deleteCurrent);
    connect(m_export, &QPushButton::clicked, this, &HistoryView::exportHistory);
    connect(m_clear, &QPushButton::clicked, this, [this] { clearAll(); });
    connect(m_repair, &QPushButton::clicked, this, [this] { repairFile(); });
    connect(m_settings, &QPushButton::clicked, this, &HistoryView::editSettings);

    retranslateUi();
    updateButtons();
}

HistoryStore *HistoryView::store() const
{
    return m_recorder ? m_recorder->store() : nullptr;
}

void HistoryView::retranslateUi()
{
    m_search->setPlaceholderText(tr("Search the history (Ctrl+F)"));
    m_search->setAccessibleName(tr("Search the history"));
    m_kind->setItemText(0, tr("All kinds"));
    m_kind->setItemText(1, tr("Translations"));
    m_kind->setItemText(2, tr("Captions"));
    m_kind->setItemText(3, tr("Comparisons"));
    m_kind->setItemText(4, tr("Documents"));
    m_kind->setItemText(5, tr("Evaluations"));
    m_kind->setAccessibleName(tr("Kind"));
    m_model->setItemText(0, tr("All models"));
    m_model->setAccessibleName(tr("Model"));
    const QStringList periods = {tr("Any time"), tr("Today"), tr("Past 7 days"),
                                 tr("Past 30 days"), tr("Past year")};
    for (int i = 0; i < periods.size(); ++i)
        m_period->setItemText(i, periods[i]);
    m_period->setAccessibleName(tr("Period"));
    m_starredOnly->setText(tr("Starred"));
    m_export->setText(tr("&Export…"));
    m_export->setToolTip(tr("Save the entries the filters select as JSON Lines, CSV or TMX"));
    m_clear->setText(tr("Clear all…"));
    m_repair->setText(tr("Re&pair…"));
    m_repair->setToolTip(tr("Rebuild the history file from the entries that can be read, keeping "
                            "the damaged file beside it"));
    m_settings->setText(tr("Settings…"));
    m_settings->setToolTip(tr("Recording and how long entries are kept"));
    m_list->setAccessibleName(tr("History entries"));
    m_details->setAccessibleName(tr("Entry details"));
    m_open->setText(tr("&Open"));
    m_open->setToolTip(tr("Show this entry in its view, with its model and settings"));
    m_rerun->setText(tr("&Re-run with current settings"));
    m_rerun->setToolTip(tr("Translate the input again with the current model and settings, "
                           "and show both results side by side"));
    m_delete->setText(tr("&Delete"));
    m_openAction->setText(tr("Open"));
    m_rerunAction->setText(tr("Re-run with current settings"));
    m_deleteAction->setText(tr("Delete"));
    updateButtons();
    updateCount();
}

void HistoryView::updateCount()
{
    if (!store() || !store()->isOpen()) {
        m_count->clear();
        return;
    }
    try {
        m_count->setText(m_listModel->search().trimmed().isEmpty()
                             ? tr("%n entry(s)", "", int(store()->count(m_listModel->filter())))
                             : tr("Search results"));
    } catch (const std::exception &) {
        m_count->clear(); // the list query reports store errors; the count is a nicety
    }
}

void HistoryView::changeEvent(QEvent *event)
{
    if (m_delete && event->type() == QEvent::LanguageChange) {
        retranslateUi();
        if (m_current)
            m_details->setHtml(entryHtml(*m_current));
    }
    QWidget::changeEvent(event);
}

void HistoryView::showEvent(QShowEvent *event)
{
    if (m_stale)
        refresh();
    QWidget::showEvent(event);
}

void HistoryView::storeChanged()
{
    m_listModel->setStore(store());
    m_current.reset();
    m_repair->setVisible(false);
    if (!store()) {
        m_banner->setVisible(false);
        if (m_recorder && !m_recorder->openError().isEmpty()) {
            const QString message =
                tr("The history could not be opened, so nothing will be recorded until Glosa "
                   "restarts.");
            warn(QStringLiteral("%1 %2").arg(message, m_recorder->openError()));
        }
    } else if (m_recorder->openResult().status == HistoryOpenResult::Status::Recovered) {
        const HistoryOpenResult &result = m_recorder->openResult();
        if (result.recoveredEntries == 0 && result.lostEntries == 0)
            warn(tr("The history file was damaged and has been set aside as %1. A new, empty "
                    "history was started.")
                     .arg(QDir::toNativeSeparators(result.backupPath)));
        else
            warn(tr("The history file was rebuilt. The damaged one is kept as %1; %n entry(s) "
                    "that could be read were carried over, %2 could not be.",
                    "", result.recoveredEntries)
                     .arg(QDir::toNativeSeparators(result.backupPath))
                     .arg(result.lostEntries));
    } else if (m_recorder->openResult().status == HistoryOpenResult::Status::Damaged) {
        warnDamaged(tr("The history file %1 is damaged in places: the entries stored there cannot "
                       "be read, the others work as usual. Repair rebuilds the file from them "
                       "and keeps the old one.")
                        .arg(QDir::toNativeSeparators(store()->path())));
    }
    refresh();
    updateButtons();
}

void HistoryView::showDamage()
{
    const QList<HistoryDamage> &damaged = m_listModel->damaged();
    QStringList ids;
    for (const HistoryDamage &damage : damaged)
        ids << QString::number(damage.id);
    // Not silently skipped: which entries, and SQLite's reason, for a bug report or the repair.
    warnDamaged(tr("%n history entry(s) cannot be read, the file being damaged where they are "
                   "stored: %1 (%2). The others work as usual; Repair rebuilds the file from them "
                   "and keeps the old one.",
                   "", int(damaged.size()))
                    .arg(ids.join(QStringLiteral(", ")), damaged.first().error));
}

void HistoryView::warnDamaged(const QString &message)
{
    warn(message);
    m_repair->setVisible(store() != nullptr);
}

bool HistoryView::repairFile()
{
    if (!store())
        return false;
    const auto answer = QMessageBox::question(
        this, tr("Repair the history file"),
        tr("Rebuild the history file from the entries that can be read? The damaged file is kept "
           "beside it, and the entries stored in its damaged places cannot be brought back. "
           "Close other Glosa windows and glosa-cli first."),
        QMessageBox::Yes | QMessageBox::No, QMessageBox::No);
    if (answer != QMessageBox::Yes)
        return false;
    // On the GUI thread, with a wait cursor: every reader of the store would wait on its mutex
    // for the rebuild anyway, and a repair is rare and asked for (0.5 s for 10,000 entries,
    // docs/robustness.md).
    QApplication::setOverrideCursor(Qt::WaitCursor);
    const bool repaired = m_recorder->repair(); // storeChanged() shows the result
    QApplication::restoreOverrideCursor();
    return repaired;
}

void HistoryView::showBanner(const QString &text)
{
    m_banner->setText(text);
    m_banner->setVisible(true);
}

void HistoryView::reportError(const QString &what, const std::exception &error)
{
    const auto *history = dynamic_cast<const HistoryError *>(&error);
    const QString why = history ? history->message() : QString::fromLocal8Bit(error.what());
    warn(QStringLiteral("%1 %2").arg(what, why));
}

void HistoryView::warn(const QString &message)
{
    showBanner(message);
    emit statusMessage(message);
}

void HistoryView::entriesAdded(bool writesWork)
{
    const HistoryOpenResult::Status opened = m_recorder->openResult().status;
    if (writesWork && !m_banner->isHidden() && opened != HistoryOpenResult::Status::Recovered &&
        opened != HistoryOpenResult::Status::Damaged && m_listModel->damaged().isEmpty())
    {
        m_banner->setVisible(false); // the earlier write error is over
        m_repair->setVisible(false);
    }
    if (isVisible())
        refresh();
    else
        m_stale = true;
}

void HistoryView::setModelIds(const QStringList &ids)
{
    const QString current = m_model->currentData().toString();
    while (m_model->count() > 1)
        m_model->removeItem(1);
    for (const QString &id : ids)
        m_model->addItem(id, id);
    m_model->setCurrentIndex(std::max(0, m_model->findData(current)));
}

HistoryFilter HistoryView::currentFilter() const
{
    HistoryFilter filter;
    static const HistoryKind kinds[] = {HistoryKind::Translation, HistoryKind::Caption,
                                        HistoryKind::Comparison, HistoryKind::Document,
                                        HistoryKind::Evaluation};
    if (m_kind->currentIndex() > 0)
        filter.kind = kinds[m_kind->currentIndex() - 1];
    filter.modelId = m_model->currentData().toString();
    if (const int days = m_period->currentData().toInt(); days > 0)
        filter.from = QDateTime(QDate::currentDate().addDays(1 - days), QTime(0, 0));
    filter.starredOnly = m_starredOnly->isChecked();
    return filter;
}

void HistoryView::refresh()
{
    m_searchDelay->stop();
    m_stale = false;
    if (!store())
        return;
    const qint64 shown = currentId();
    try {
        m_listModel->setQuery(m_search->text(), currentFilter());
    } catch (const std::exception &e) {
        reportError(tr("The history could not be read:"), e);
        return;
    }
    updateCount();
    // Keep the entry on the right where it was, selected again if the new list has it.
    if (const int row = m_listModel->rowOf(shown); row >= 0)
        m_list->setCurrentIndex(m_listModel->index(row));
}

void HistoryView::showEntry(qint64 id)
{
    if (!store() || (m_current && m_current->id == id))
        return;
    try {
        m_current = store()->entry(id);
    } catch (const std::exception &e) {
        m_current.reset();
        reportError(tr("The entry could not be read:"), e);
    }
    m_rerunPane->setVisible(false);
    if (m_current) {
        if (!m_current->thumbnailPng.isEmpty())
            m_details->document()->addResource(QTextDocument::ImageResource,
                                               QUrl(QStringLiteral("history:thumbnail")),
                                               QImage::fromData(m_current->thumbnailPng));
        m_details->setHtml(entryHtml(*m_current));
    } else {
        m_details->clear();
    }
    updateButtons();
}

void HistoryView::updateButtons()
{
    const bool have = m_current.has_value();
    // A document's translation is shown here only: no view restores or re-runs a whole document.
    // An evaluation opens in the Evaluate dialog as stored; re-running one takes minutes and
    // is the dialog's own Evaluate.
    const bool restorable = have && m_current->kind != HistoryKind::Document;
    const bool rerunnable = restorable && m_current->kind != HistoryKind::Evaluation;
    m_open->setEnabled(restorable);
    m_rerun->setEnabled(rerunnable);
    m_star->setEnabled(have);
    m_delete->setEnabled(have);
    m_star->setChecked(have && m_current->starred);
    m_star->setText(have && m_current->starred ? tr("★ Starred") : tr("☆ Star"));
    m_starAction->setText(have && m_current->starred ? tr("Remove star") : tr("Star"));
    m_openAction->setEnabled(restorable);
    m_rerunAction->setEnabled(rerunnable);
    m_starAction->setEnabled(have);
    m_deleteAction->setEnabled(have);
    m_export->setEnabled(store() != nullptr);
    m_clear->setEnabled(store() != nullptr);
}

void HistoryView::focusSearch()
{
    m_search->setFocus(Qt::ShortcutFocusReason);
    m_search->selectAll();
}

void HistoryView::openCurrent()
{
    if (m_open->isEnabled())
        emit openRequested(*m_current);
}

void HistoryView::rerunCurrent()
{
    if (m_rerun->isEnabled())
        emit rerunRequested(*m_current);
}

void HistoryView::showRerunPending(const HistoryEntry &then)
{
    const HistoryOutput *best = then.bestOutput();
    m_thenTitle->setText(rerunTitle(tr("Then"), then));
    m_then->setPlainText(best ? best->text : QString());
    m_nowTitle->setText(tr("Now"));
    m_now->setPlainText(tr("Running…"));
    m_rerunPane->setVisible(true);
}

void HistoryView::showRerunResult(const HistoryEntry &now)
{
    const HistoryOutput *best = now.bestOutput();
    m_nowTitle->setText(rerunTitle(tr("Now"), now));
    m_now->setPlainText(best ? best->text : QString());
    m_rerunPane->setVisible(true);
}

void HistoryView::showRerunFailed(const QString &message)
{
    m_now->setPlainText(message);
    m_rerunPane->setVisible(true);
}

void HistoryView::toggleStarCurrent()
{
    if (!m_current || !store())
        return;
    const bool starred = !m_current->starred;
    try {
        store()->setStarred(m_current->id, starred);
    } catch (const std::exception &e) {
        reportError(tr("The star could not be saved:"), e);
        updateButtons();
        return;
    }
    m_current->starred = starred;
    m_listModel->setStarred(m_listModel->rowOf(m_current->id), starred);
    updateButtons();
}

void HistoryView::deleteCurrent()
{
    if (!m_current || !store())
        return;
    const qint64 id = m_current->id;
    try {
        store()->removeEntry(id);
    } catch (const std::exception &e) {
        reportError(tr("The entry could not be deleted:"), e);
        return;
    }
    m_current.reset();
    m_details->clear();
    m_rerunPane->setVisible(false);
    m_listModel->removeRowOf(id);
    updateButtons();
    updateCount();
}

qint64 HistoryView::clearAll()
{
    if (!store())
        return 0;
    const auto answer = QMessageBox::question(
        this, tr("Clear the history"),
        tr("Remove every entry from the history, starred ones too? This cannot be undone."),
        QMessageBox::Yes | QMessageBox::No, QMessageBox::No);
    if (answer != QMessageBox::Yes)
        return 0;
    qint64 removed = 0;
    try {
        removed = store()->clear();
    } catch (const std::exception &e) {
        reportError(tr("The history could not be cleared:"), e);
        return 0;
    }
    m_current.reset();
    m_details->clear();
    m_rerunPane->setVisible(false);
    updateButtons();
    refresh();
    emit statusMessage(tr("Removed %n history entry(s).", "", int(removed)));
    return removed;
}

void HistoryView::exportHistory()
{
    if (!store())
        return;
    const QString jsonl = tr("JSON Lines, everything (*.jsonl)");
    const QString csv = tr("CSV, best outputs (*.csv)");
    const QString tmx = tr("TMX translation memory, translations only (*.tmx)");
    QString selected = jsonl;
    const QString path = saveFileName(this, FileKind::Exports, tr("Export history"),
                                      QStringLiteral("glosa-history.jsonl"),
                                      QStringList{jsonl, csv, tmx}.join(QStringLiteral(";;")),
                                      &selected);
    if (path.isEmpty())
        return;
    QString format = QFileInfo(path).suffix().toLower();
    if (!historyExportFormatFromName(format))
        format = selected == csv ? QStringLiteral("csv")
                 : selected == tmx ? QStringLiteral("tmx")
                                   : QStringLiteral("jsonl");
    const qint64 n = exportTo(path, format);
    if (n >= 0)
        emit statusMessage(tr("Exported %n entry(s) to %1", "", int(n))
                               .arg(QDir::toNativeSeparators(path)));
}

qint64 HistoryView::exportTo(const QString &path, const QString &formatName)
{
    const std::optional<HistoryExportFormat> format = historyExportFormatFromName(formatName);
    if (!store() || !format)
        return -1;
    // SaveFile: a failed export (full disk) leaves an earlier file of that name as it was.
    SaveFile file(path);
    try {
        if (const QString problem = historyExportTargetProblem(*store(), path); !problem.isEmpty())
            throw HistoryError(HistoryError::Code::Io, problem);
        if (!file.open(QIODevice::WriteOnly))
            throw HistoryError(HistoryError::Code::Io,
                               tr("Cannot write %1: %2").arg(path, file.errorString()));
        const HistoryExport done = glosa::exportHistory(*store(), *format, file, currentFilter());
        if (!file.commit())
            throw HistoryError(HistoryError::Code::Io,
                               tr("Cannot write %1: %2").arg(path, file.errorString()));
        if (!done.damaged.isEmpty()) {
            // The readable entries are in the file; the ones a damaged page holds are named.
            QStringList ids;
            for (const HistoryDamage &damage : done.damaged)
                ids << QString::number(damage.id);
            warnDamaged(tr("%n history entry(s) could not be exported, the file being damaged "
                    "where they are stored: %1 (%2). Everything else was exported; Repair "
                    "rebuilds the file from it and keeps the old one.",
                    "", int(done.damaged.size()))
                     .arg(ids.join(QStringLiteral(", ")), done.damaged.first().error));
        }
        return done.records;
    } catch (const std::exception &e) { // the SaveFile is not committed: the old file stays
        reportError(tr("The history could not be exported."), e);
        QMessageBox::warning(this, tr("Export history"), m_banner->text());
        return -1;
    }
}

void HistoryView::editSettings()
{
    QDialog dialog(this);
    dialog.setWindowTitle(tr("History settings"));
    auto *form = new QFormLayout(&dialog);
    auto *enabled = new QCheckBox(tr("Record translations, captions and comparisons"), &dialog);
    enabled->setObjectName(QStringLiteral("historyEnabled"));
    enabled->setChecked(settings::historyEnabled.value());
    auto *maxEntries = new QSpinBox(&dialog);
    maxEntries->setObjectName(QStringLiteral("historyMaxEntries"));
    maxEntries->setRange(0, 10'000'000);
    maxEntries->setSingleStep(1000);
    maxEntries->setSpecialValueText(tr("No limit"));
    maxEntries->setValue(int(settings::historyMaxEntries.value()));
    auto *maxAge = new QSpinBox(&dialog);
    maxAge->setObjectName(QStringLiteral("historyMaxAgeDays"));
    maxAge->setRange(0, 36500);
    maxAge->setSuffix(tr(" days"));
    maxAge->setSpecialValueText(tr("No limit"));
    maxAge->setValue(settings::historyMaxAgeDays.value());
    auto *maxSize = new QSpinBox(&dialog);
    maxSize->setObjectName(QStringLiteral("historyMaxMegabytes"));
    maxSize->setRange(0, 1'000'000);
    maxSize->setSingleStep(100);
    maxSize->setSuffix(tr(" MB"));
    maxSize->setSpecialValueText(tr("No limit"));
    maxSize->setValue(int(settings::historyMaxMegabytes.value()));
    auto *note = new QLabel(tr("Starred entries are always kept. Older entries beyond the limits "
                               "are removed now and whenever a new one is recorded."),
                            &dialog);
    note->setWordWrap(true);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, &dialog);
    connect(buttons, &QDialogButtonBox::accepted, &dialog, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    form->addRow(enabled);
    form->addRow(tr("Keep at most:"), maxEntries);
    form->addRow(tr("Remove entries older than:"), maxAge);
    form->addRow(tr("Keep the history file under:"), maxSize);
    form->addRow(note);
    form->addRow(buttons);
    if (dialog.exec() != QDialog::Accepted)
        return;
    settings::historyEnabled.setValue(enabled->isChecked());
    settings::historyMaxEntries.setValue(maxEntries->value());
    settings::historyMaxAgeDays.setValue(maxAge->value());
    settings::historyMaxMegabytes.setValue(maxSize->value());
    const qint64 removed = m_recorder ? m_recorder->applyRetentionSettings() : 0;
    if (removed > 0)
        emit statusMessage(tr("Removed %n old history entry(s).", "", int(removed)));
    refresh();
}

} // namespace glosa
