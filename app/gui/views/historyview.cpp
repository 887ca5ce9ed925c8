#include "app/gui/views/historyview.h"

#include "app/core/history/recorder.h"
#include "app/core/history/retention.h"
#include "app/core/history/store.h"
#include "app/core/presenters/historypresenter.h"
#include "app/gui/dialogs/historysettingsdialog.h"
#include "app/gui/filedialogs.h"
#include "app/gui/views/historybanner.h"
#include "app/gui/views/historyentryhtml.h"
#include "app/gui/views/historymodel.h"
#include "app/gui/views/historyrerunpane.h"

#include <algorithm>

#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QEvent>
#include <QHBoxLayout>
#include <QImage>
#include <QLabel>
#include <QLineEdit>
#include <QListView>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSplitter>
#include <QStyledItemDelegate>
#include <QTextBrowser>
#include <QTextDocument>
#include <QTimer>
#include <QVBoxLayout>

namespace glosa {

namespace {
constexpr int kSearchDelayMs = 200;
constexpr HistoryKind kKinds[] = {HistoryKind::Translation, HistoryKind::Caption,
                                  HistoryKind::Comparison, HistoryKind::Document,
                                  HistoryKind::Evaluation};
} // namespace

HistoryView::HistoryView(HistoryRecorder *recorder, QWidget *parent)
    : QWidget(parent), m_recorder(recorder), m_presenter(new HistoryPresenter(recorder, this))
{
    m_banner = new HistoryBanner(recorder, this);
    connect(m_banner, &HistoryBanner::statusMessage, this, &HistoryView::statusMessage);

    auto *splitter = new QSplitter(Qt::Horizontal, this);
    splitter->addWidget(makeListPane());
    splitter->addWidget(makeEntryPane());
    splitter->setStretchFactor(0, 2);
    splitter->setStretchFactor(1, 3);
    splitter->setHandleWidth(16);
    splitter->setChildrenCollapsible(false);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(16, 12, 16, 12);
    layout->addWidget(m_banner);
    layout->addLayout(makeFilterRow());
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
    connect(m_presenter, &HistoryPresenter::currentChanged, this, &HistoryView::showCurrent);
    connect(m_presenter, &HistoryPresenter::failed, this, &HistoryView::showFailure);
    connect(m_presenter, &HistoryPresenter::entryRemoved, this, [this](qint64 id) {
        m_listModel->removeRowOf(id);
        updateCount();
    });
    connectCommands();

    retranslateUi();
    updateButtons();
}

QLayout *HistoryView::makeFilterRow()
{
    m_search = new QLineEdit(this);
    m_search->setClearButtonEnabled(true);
    m_kind = new QComboBox(this);
    m_model = new QComboBox(this);
    m_period = new QComboBox(this);
    m_starredOnly = new QCheckBox(this);
    m_export = new QPushButton(this);
    m_clear = new QPushButton(this);
    m_settings = new QPushButton(this);
    for (int i = 0; i <= int(std::size(kKinds)); ++i)
        m_kind->addItem(QString());
    m_model->addItem(QString());
    for (int days : HistoryPresenter::kPeriods)
        m_period->addItem(QString(), days);

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
    return filters;
}

QWidget *HistoryView::makeListPane()
{
    m_listModel = new HistoryModel(this);
    connect(m_listModel, &HistoryModel::damageFound, this,
            [this] { m_banner->showDamage(m_listModel->damaged()); });
    m_list = new QListView(this);
    m_list->setModel(m_listModel);
    m_list->setItemDelegate(makeHistoryDelegate(m_list));
    m_list->setUniformItemSizes(true);
    m_list->setAlternatingRowColors(true);
    m_list->setSelectionMode(QAbstractItemView::SingleSelection);
    m_list->setVerticalScrollMode(QAbstractItemView::ScrollPerPixel);
    m_count = new QLabel(this);
    m_count->setForegroundRole(QPalette::PlaceholderText);

    auto *left = new QWidget(this);
    auto *leftLayout = new QVBoxLayout(left);
    leftLayout->setContentsMargins(0, 0, 0, 0);
    leftLayout->addWidget(m_list, 1);
    leftLayout->addWidget(m_count);
    return left;
}

QWidget *HistoryView::makeEntryPane()
{
    m_details = new QTextBrowser(this);
    m_details->setOpenLinks(false);
    m_open = new QPushButton(this);
    m_open->setDefault(true);
    m_rerun = new QPushButton(this);
    m_star = new QPushButton(this);
    m_star->setCheckable(true);
    m_delete = new QPushButton(this);

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
    m_rerunPane = new HistoryRerunPane(this);
    rightLayout->addWidget(m_rerunPane, 1);
    return right;
}

void HistoryView::connectCommands()
{
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
                    m_presenter->select(index.data(HistoryModel::IdRole).toLongLong());
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
    connect(m_settings, &QPushButton::clicked, this, &HistoryView::editSettings);
}

HistoryStore *HistoryView::store() const
{
    return m_presenter->store();
}

qint64 HistoryView::currentId() const
{
    return m_presenter->currentId();
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
    m_export->setToolTip(tr("Save the entries the list shows as JSON Lines, CSV or TMX"));
    m_clear->setText(tr("Clear all…"));
    m_banner->retranslateUi();
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
    if (!store() || !store()->isOpen())
        m_count->clear();
    else if (const std::optional<qint64> count = m_presenter->count())
        m_count->setText(tr("%n entry(s)", "", int(*count)));
    else
        m_count->setText(m_presenter->search().trimmed().isEmpty() ? QString()
                                                                   : tr("Search results"));
}

void HistoryView::changeEvent(QEvent *event)
{
    if (m_delete && event->type() == QEvent::LanguageChange) {
        retranslateUi();
        if (const std::optional<HistoryEntry> &current = m_presenter->current())
            m_details->setHtml(historyEntryHtml(*current));
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
    m_presenter->clearCurrent();
    m_banner->showStoreState();
    refresh();
    updateButtons();
}

bool HistoryView::repairFile()
{
    return m_banner->repair();
}

QLabel *HistoryView::banner() const
{
    return m_banner->label();
}

void HistoryView::warn(const QString &message)
{
    m_banner->warn(message);
}

void HistoryView::reportError(const QString &what, const std::exception &error)
{
    const auto *history = dynamic_cast<const HistoryError *>(&error);
    warn(QStringLiteral("%1 %2").arg(
        what, history ? history->message() : QString::fromLocal8Bit(error.what())));
}

void HistoryView::entriesAdded(bool writesWork)
{
    if (writesWork)
        m_banner->writesWork(!m_listModel->damaged().isEmpty());
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

void HistoryView::syncQuery()
{
    // The presenter holds what the list shows (an export takes the same).
    const int kind = m_kind->currentIndex();
    m_presenter->setSearch(m_search->text());
    m_presenter->setFilter(HistoryPresenter::makeFilter(
        kind > 0 ? std::optional(kKinds[kind - 1]) : std::nullopt,
        m_model->currentData().toString(), m_period->currentData().toInt(),
        m_starredOnly->isChecked()));
}

void HistoryView::refresh()
{
    m_searchDelay->stop();
    m_stale = false;
    syncQuery();
    if (!store())
        return;
    const qint64 shown = currentId();
    try {
        m_listModel->setQuery(m_presenter->search(), m_presenter->filter());
    } catch (const std::exception &e) {
        reportError(tr("The history could not be read:"), e);
        return;
    }
    updateCount();
    // Keep the entry on the right where it was, selected again if the new list has it.
    if (const int row = m_listModel->rowOf(shown); row >= 0)
        m_list->setCurrentIndex(m_listModel->index(row));
}

void HistoryView::showCurrent()
{
    const std::optional<HistoryEntry> &current = m_presenter->current();
    if (current && current->id != m_detailsId) {
        m_rerunPane->setVisible(false);
        if (!current->thumbnailPng.isEmpty())
            m_details->document()->addResource(QTextDocument::ImageResource,
                                               QUrl(QStringLiteral("history:thumbnail")),
                                               QImage::fromData(current->thumbnailPng));
        m_details->setHtml(historyEntryHtml(*current));
    } else if (!current) {
        m_rerunPane->setVisible(false);
        m_details->clear();
    }
    m_detailsId = current ? current->id : 0;
    updateButtons();
}

void HistoryView::showFailure(HistoryPresenter::Action action, const QString &reason)
{
    QString what;
    switch (action) {
    case HistoryPresenter::Action::Read: what = tr("The history could not be read:"); break;
    case HistoryPresenter::Action::ReadEntry: what = tr("The entry could not be read:"); break;
    case HistoryPresenter::Action::Star: what = tr("The star could not be saved:"); break;
    case HistoryPresenter::Action::Delete: what = tr("The entry could not be deleted:"); break;
    case HistoryPresenter::Action::Clear: what = tr("The history could not be cleared:"); break;
    case HistoryPresenter::Action::Export: what = tr("The history could not be exported."); break;
    }
    warn(QStringLiteral("%1 %2").arg(what, reason));
}

void HistoryView::updateButtons()
{
    const std::optional<HistoryEntry> &current = m_presenter->current();
    const bool have = current.has_value();
    const bool restorable = m_presenter->canOpen();
    const bool rerunnable = m_presenter->canRerun();
    const bool starred = have && current->starred;
    m_open->setEnabled(restorable);
    m_rerun->setEnabled(rerunnable);
    m_star->setEnabled(have);
    m_delete->setEnabled(have);
    m_star->setChecked(starred);
    m_star->setText(starred ? tr("★ Starred") : tr("☆ Star"));
    m_starAction->setText(starred ? tr("Remove star") : tr("Star"));
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
        emit openRequested(*m_presenter->current());
}

void HistoryView::rerunCurrent()
{
    if (m_rerun->isEnabled())
        emit rerunRequested(*m_presenter->current());
}

void HistoryView::showRerunPending(const HistoryEntry &then)
{
    m_rerunPane->showPending(then);
}

void HistoryView::showRerunResult(const HistoryEntry &now)
{
    m_rerunPane->showResult(now);
}

void HistoryView::showRerunFailed(const QString &message)
{
    m_rerunPane->showFailed(message);
}

QPlainTextEdit *HistoryView::rerunThen() const
{
    return m_rerunPane->thenText();
}

QPlainTextEdit *HistoryView::rerunNow() const
{
    return m_rerunPane->nowText();
}

void HistoryView::toggleStarCurrent()
{
    if (m_presenter->toggleStarCurrent()) {
        const HistoryEntry &current = *m_presenter->current();
        m_listModel->setStarred(m_listModel->rowOf(current.id), current.starred);
    }
    updateButtons();
}

void HistoryView::deleteCurrent()
{
    m_presenter->deleteCurrent(); // entryRemoved and currentChanged show it
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
    const qint64 removed = m_presenter->clearAll();
    if (removed < 0)
        return 0;
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
    const QString chosen = selected == csv   ? QStringLiteral("csv")
                           : selected == tmx ? QStringLiteral("tmx")
                                             : QStringLiteral("jsonl");
    const HistoryPresenter::Exported done =
        exportEntries(path, HistoryPresenter::exportFormat(path, chosen));
    if (done.entries >= 0)
        emit statusMessage(tr("Exported %n entry(s) to %1", "", int(done.entries))
                               .arg(QDir::toNativeSeparators(path)));
}

qint64 HistoryView::exportTo(const QString &path, const QString &formatName)
{
    return exportEntries(path, formatName).records;
}

HistoryPresenter::Exported HistoryView::exportEntries(const QString &path,
                                                      const QString &formatName)
{
    syncQuery(); // the search and the filters as they are set now
    const HistoryPresenter::Exported done = m_presenter->exportTo(path, formatName);
    if (done.entries < 0 && !banner()->isHidden() && store()) {
        QMessageBox::warning(this, tr("Export history"), banner()->text());
        return done;
    }
    if (!done.damaged.isEmpty()) {
        // The readable entries are in the file; the ones a damaged page holds are named.
        QStringList ids;
        for (const HistoryDamage &damage : done.damaged)
            ids << QString::number(damage.id);
        m_banner->warnDamaged(
            tr("%n history entry(s) could not be exported, the file being damaged where they "
               "are stored: %1 (%2). Everything else was exported; Repair rebuilds the file from "
               "it and keeps the old one.",
               "", int(done.damaged.size()))
                .arg(ids.join(QStringLiteral(", ")), done.damaged.first().error));
    }
    return done;
}

void HistoryView::editSettings()
{
    if (!editHistorySettings(this))
        return;
    const qint64 removed = m_recorder ? m_recorder->applyRetentionSettings() : 0;
    if (removed > 0)
        emit statusMessage(tr("Removed %n old history entry(s).", "", int(removed)));
    refresh();
}

} // namespace glosa
