#include "app/gui/views/historybanner.h"

#include "app/core/history/recorder.h"
#include "app/core/history/store.h"
#include "app/gui/historytexts.h"

#include <QApplication>
#include <QDir>
#include <QHBoxLayout>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>

namespace glosa {

HistoryBanner::HistoryBanner(HistoryRecorder *recorder, QWidget *parent)
    : QWidget(parent), m_recorder(recorder), m_label(new QLabel(this)),
      m_repair(new QPushButton(this))
{
    m_label->setWordWrap(true);
    m_label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_label->setFrameShape(QFrame::StyledPanel);
    m_label->setMargin(8);
    auto *row = new QHBoxLayout(this);
    row->setContentsMargins(0, 0, 0, 0);
    row->addWidget(m_label, 1);
    row->addWidget(m_repair, 0, Qt::AlignTop);
    m_repair->setObjectName(QStringLiteral("historyRepair"));
    connect(m_repair, &QPushButton::clicked, this, [this] { repair(); });
    hideAll();
    retranslateUi();
}

void HistoryBanner::retranslateUi()
{
    m_repair->setText(HistoryTexts::tr("Re&pair…"));
    m_repair->setToolTip(HistoryTexts::tr("Rebuild the history file from the entries that can be "
                                          "read, keeping the damaged file beside it"));
}

void HistoryBanner::sync()
{
    setVisible(!m_label->isHidden() || !m_repair->isHidden());
}

void HistoryBanner::hideAll()
{
    m_label->setVisible(false);
    m_repair->setVisible(false);
    sync();
}

void HistoryBanner::warn(const QString &message)
{
    m_label->setText(message);
    m_label->setVisible(true);
    sync();
    emit statusMessage(message);
}

void HistoryBanner::warnDamaged(const QString &message)
{
    warn(message);
    m_repair->setVisible(m_recorder && m_recorder->store());
    sync();
}

void HistoryBanner::showStoreState()
{
    m_repair->setVisible(false);
    sync();
    if (!m_recorder)
        return;
    const HistoryOpenResult &result = m_recorder->openResult();
    if (!m_recorder->store()) {
        hideAll();
        if (!m_recorder->openError().isEmpty())
            warn(QStringLiteral("%1 %2").arg(
                HistoryTexts::tr("The history could not be opened, so nothing will be recorded "
                                 "until Glosa restarts."),
                m_recorder->openError()));
    } else if (result.status == HistoryOpenResult::Status::Recovered) {
        if (result.recoveredEntries == 0 && result.lostEntries == 0)
            warn(HistoryTexts::tr("The history file was damaged and has been set aside as %1. A "
                                  "new, empty history was started.")
                     .arg(QDir::toNativeSeparators(result.backupPath)));
        else
            warn(HistoryTexts::tr("The history file was rebuilt. The damaged one is kept as %1; "
                                  "%n entry(s) that could be read were carried over, %2 could "
                                  "not be.",
                                  "", result.recoveredEntries)
                     .arg(QDir::toNativeSeparators(result.backupPath))
                     .arg(result.lostEntries));
    } else if (result.status == HistoryOpenResult::Status::Damaged) {
        warnDamaged(HistoryTexts::tr("The history file %1 is damaged in places: the entries "
                                     "stored there cannot be read, the others work as usual. "
                                     "Repair rebuilds the file from them and keeps the old one.")
                        .arg(QDir::toNativeSeparators(m_recorder->store()->path())));
    }
}

void HistoryBanner::showDamage(const QList<HistoryDamage> &damaged)
{
    if (damaged.isEmpty())
        return;
    QStringList ids;
    for (const HistoryDamage &damage : damaged)
        ids << QString::number(damage.id);
    // Not silently skipped: which entries, and SQLite's reason, for a bug report or the repair.
    warnDamaged(HistoryTexts::tr("%n history entry(s) cannot be read, the file being damaged "
                                 "where they are stored: %1 (%2). The others work as usual; "
                                 "Repair rebuilds the file from them and keeps the old one.",
                                 "", int(damaged.size()))
                    .arg(ids.join(QStringLiteral(", ")), damaged.first().error));
}

void HistoryBanner::writesWork(bool listDamaged)
{
    if (!m_recorder || m_label->isHidden() || listDamaged)
        return;
    const HistoryOpenResult::Status opened = m_recorder->openResult().status;
    if (opened != HistoryOpenResult::Status::Recovered &&
        opened != HistoryOpenResult::Status::Damaged)
        hideAll(); // the earlier write error is over
}

bool HistoryBanner::repair()
{
    if (!m_recorder || !m_recorder->store())
        return false;
    const auto answer = QMessageBox::question(
        this, HistoryTexts::tr("Repair the history file"),
        HistoryTexts::tr("Rebuild the history file from the entries that can be read? The "
                         "damaged file is kept beside it, and the entries stored in its damaged "
                         "places cannot be brought back. Close other Glosa windows and glosa-cli "
                         "first."),
        QMessageBox::Yes | QMessageBox::No, QMessageBox::No);
    if (answer != QMessageBox::Yes)
        return false;
    // On the GUI thread, with a wait cursor: every reader of the store would wait on its mutex
    // for the rebuild anyway, and a repair is rare and asked for (0.5 s for 10,000 entries,
    // docs/robustness.md).
    QApplication::setOverrideCursor(Qt::WaitCursor);
    const bool repaired = m_recorder->repair(); // storeChanged shows the result
    QApplication::restoreOverrideCursor();
    return repaired;
}

} // namespace glosa
