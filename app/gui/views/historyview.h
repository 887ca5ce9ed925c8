// HistoryView: the History tab. Renders the history a HistoryRecorder records into: lists entries
// newest first with previews, searches them as you type (hits highlighted in the snippet), filters
// by kind, model, period and star; shows one entry in full with Open (restore its view), Re-run
// with current settings (then and now side by side), Star and Delete; exports (JSON Lines, CSV,
// TMX), clears everything after asking, and edits the retention and recording settings (kept in
// QSettings; the recorder applies them).
//
// What the recorder reports is shown here: a damaged file set aside at start, a file damaged in
// places (kept in use) and the entries in it the list cannot read (id and SQLite's error), a
// history that could not be opened, and failed writes (banner + statusMessage); the banner goes
// once writes work again, unless it reports damage.
#pragma once

#include "app/core/history/entry.h"
#include "app/core/presenters/historypresenter.h"

#include <QPointer>
#include <QWidget>

#include <optional>

class QAction;
class QCheckBox;
class QComboBox;
class QLabel;
class QLayout;
class QLineEdit;
class QListView;
class QPlainTextEdit;
class QPushButton;
class QTextBrowser;
class QTimer;

namespace glosa {

class HistoryBanner;
class HistoryModel;
class HistoryRerunPane;
class HistoryRecorder;
class HistoryStore;

class HistoryView : public QWidget
{
    Q_OBJECT
public:
    // Shows what `recorder` records (it may go first; the view then shows nothing).
    explicit HistoryView(HistoryRecorder *recorder, QWidget *parent = nullptr);

    // Model ids offered by the model filter (installed models; entries of others still show
    // under "All models").
    void setModelIds(const QStringList &ids);

    // Shows the entry "then" next to a fresh result "now" (Re-run with current settings).
    void showRerunPending(const HistoryEntry &then);
    void showRerunResult(const HistoryEntry &now);
    void showRerunFailed(const QString &message);

    void focusSearch();
    QLineEdit *searchEdit() const { return m_search; }
    QComboBox *kindFilter() const { return m_kind; }
    QComboBox *modelFilter() const { return m_model; }
    QComboBox *periodFilter() const { return m_period; }
    QCheckBox *starredFilter() const { return m_starredOnly; }
    QListView *list() const { return m_list; }
    HistoryModel *model() const { return m_listModel; }
    QTextBrowser *details() const { return m_details; }
    QPlainTextEdit *rerunThen() const;
    QPlainTextEdit *rerunNow() const;
    QLabel *banner() const;
    qint64 currentId() const;
    HistoryPresenter *presenter() const { return m_presenter; }
    // Runs the query now (what typing in the search field does after a short pause).
    void refresh();

public slots:
    void openCurrent();
    void rerunCurrent();
    void toggleStarCurrent();
    void deleteCurrent();
    // Asks first; returns how many entries were removed (0 when the user said no).
    qint64 clearAll();
    // Asks for a file; exportTo() writes what the list shows (the search and the filters) and
    // returns the records written (lines, CSV rows, TMX units; -1 on failure); the status
    // message says how many entries.
    void exportHistory();
    qint64 exportTo(const QString &path, const QString &formatName);
    // Offered while the file is known to be damaged: asks, then rebuilds it from the entries that
    // can be read (HistoryRecorder::repair), keeping the old file. Returns whether it was rebuilt.
    bool repairFile();
    // The retention / recording settings dialog.
    void editSettings();

signals:
    void openRequested(const glosa::HistoryEntry &entry);
    void rerunRequested(const glosa::HistoryEntry &entry);
    void statusMessage(const QString &message);

protected:
    void changeEvent(QEvent *event) override;
    void showEvent(QShowEvent *event) override;

private:
    QLayout *makeFilterRow();
    QWidget *makeListPane();
    QWidget *makeEntryPane();
    void connectCommands();
    void retranslateUi();
    HistoryStore *store() const;
    // The presenter's entry in the details pane.
    void showCurrent();
    void showFailure(HistoryPresenter::Action action, const QString &reason);
    void syncQuery();
    HistoryPresenter::Exported exportEntries(const QString &path, const QString &formatName);
    void reportError(const QString &what, const std::exception &error);
    // The recorder's signals.
    void storeChanged();
    void warn(const QString &message);
    void entriesAdded(bool writesWork);
    void updateButtons();
    void updateCount();

    QPointer<HistoryRecorder> m_recorder;
    HistoryPresenter *m_presenter = nullptr;
    HistoryModel *m_listModel = nullptr;
    qint64 m_detailsId = 0; // the entry the details pane shows
    bool m_stale = false; // entries were added while the tab was hidden

    HistoryBanner *m_banner = nullptr;
    QLineEdit *m_search = nullptr;
    QComboBox *m_kind = nullptr;
    QComboBox *m_model = nullptr;
    QComboBox *m_period = nullptr;
    QCheckBox *m_starredOnly = nullptr;
    QPushButton *m_export = nullptr;
    QPushButton *m_clear = nullptr;
    QPushButton *m_settings = nullptr;
    QListView *m_list = nullptr;
    QLabel *m_count = nullptr;
    QTextBrowser *m_details = nullptr;
    QPushButton *m_open = nullptr;
    QPushButton *m_rerun = nullptr;
    QPushButton *m_star = nullptr;
    QPushButton *m_delete = nullptr;
    QAction *m_openAction = nullptr;
    QAction *m_rerunAction = nullptr;
    QAction *m_starAction = nullptr;
    QAction *m_deleteAction = nullptr;
    HistoryRerunPane *m_rerunPane = nullptr;
    QTimer *m_searchDelay = nullptr;
};

} // namespace glosa
