// HistoryBanner: what the History tab says about its file above the list (its words are
// HistoryView's): a history that could not be opened, a damaged file set aside or damaged in
// places (with Repair beside it), the entries the list or an export could not read, and failed
// writes, until writes work again. Each message goes to the status bar too (statusMessage).
#pragma once

#include "app/core/history/entry.h"

#include <QPointer>
#include <QWidget>

class QLabel;
class QPushButton;

namespace glosa {

class HistoryRecorder;

class HistoryBanner : public QWidget
{
    Q_OBJECT
public:
    explicit HistoryBanner(HistoryRecorder *recorder, QWidget *parent = nullptr);

    QLabel *label() const { return m_label; }
    QPushButton *repairButton() const { return m_repair; }

    void warn(const QString &message);
    // A damaged file's message, with the Repair button.
    void warnDamaged(const QString &message);
    // What the recorder's (re)opened store is: nothing to say, or why it is not used or was
    // rebuilt or is damaged in places.
    void showStoreState();
    // The entries a query met that cannot be read.
    void showDamage(const QList<HistoryDamage> &damaged);
    // Entries were recorded: an earlier write error is over (damage stays said).
    void writesWork(bool listDamaged);
    // Asks, then rebuilds the file from the entries that can be read (HistoryRecorder::repair),
    // keeping the old file. Returns whether it was rebuilt.
    bool repair();
    void retranslateUi();

signals:
    void statusMessage(const QString &message);

private:
    void hideAll();
    void sync();

    QPointer<HistoryRecorder> m_recorder;
    QLabel *m_label = nullptr;
    QPushButton *m_repair = nullptr;
};

} // namespace glosa
