// HistoryView: the History tab. Owns the HistoryStore the app records into; lists entries newest
// first with previews, searches them as you type (hits highlighted in the snippet), filters by
// kind, model, period and star; shows one entry in full with Open (restore its view), Re-run with
// current settings (then and now side by side), Star and Delete; exports (JSON Lines, CSV, TMX),
// clears everything after asking, and edits the retention settings (kept in QSettings, applied to
// the store at once and on every insert).
//
// Store failures never stop the app: a damaged file found at start is moved aside by the store and
// reported here (banner + statusMessage); a full disk or a locked file makes record() return 0 and
// say why, and the next record() tries again.
#pragma once

#include "app/core/history/entry.h"
#include "app/core/history/store.h"

#include <QWidget>

#include <memory>

class QAction;
class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QListView;
class QPlainTextEdit;
class QPushButton;
class QTextBrowser;
class QTimer;

namespace glosa {

class HistoryModel;

class HistoryView : public QWidget
{
    Q_OBJECT
public:
    explicit HistoryView(QWidget *parent = nullptr);
    ~HistoryView() override;

    // The GUI thread writes to the store directly (an insert takes ~0.1 ms), so it must not wait
    // the store's default 4 × 5 s for a lock another Glosa process holds: 4 × 100 ms (about half
    // a second in tst_historyview) at most; then the entry waits in a queue and is written later
    // (see record()). Another process's writes hold the lock for well under a millisecond each.
    static HistoryStore::Options defaultOptions();
    // Opens (or creates) the database; the retention settings from QSettings are applied. On
    // failure the view stays usable but empty and says why. Returns whether a store is open.
    bool openStore(const QString &path, HistoryStore::Options options = defaultOptions());
    HistoryStore *store() const { return m_store.get(); }
    // What openStore() found (Recovered: the damaged file's backup path and a message).
    const HistoryOpenResult &openResult() const { return m_openResult; }

    // Adds an entry when recording is on; returns its id, kQueued, or 0 when it was not recorded
    // (off, or a store error, which is reported through statusMessage and the banner).
    // kQueued: another process holds the database's lock (or earlier entries still wait for it),
    // so the entry waits, in order, and is written when the lock is free — retried after
    // kRetryFirstMs, doubling up to kRetryMaxMs, and once more when the view is destroyed — rather
    // than lost. At most kMaxQueued entries wait; beyond that the oldest is dropped, and reported.
    static constexpr qint64 kQueued = -1;
    static constexpr int kRetryFirstMs = 1000;
    static constexpr int kRetryMaxMs = 30000;
    static constexpr int kMaxQueued = 200;
    qint64 record(const HistoryEntry &entry);
    int queuedCount() const { return int(m_queued.size()); }
    // Writes the waiting entries now (what the retry timer does); returns how many still wait.
    int retryQueued();
    bool isRecording() const;

    // Model ids offered by the model filter (installed models; entries of others still show
    // under "All models").
    void setModelIds(const QStringList &ids);

    // Retention from QSettings (kHistoryMaxEntries, kHistoryMaxAgeDays) applied to the store;
    // returns how many entries went.
    qint64 applyRetentionSettings();

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
    QPlainTextEdit *rerunThen() const { return m_then; }
    QPlainTextEdit *rerunNow() const { return m_now; }
    QLabel *banner() const { return m_banner; }
    qint64 currentId() const { return m_current ? m_current->id : 0; }
    // Runs the query now (what typing in the search field does after a short pause).
    void refresh();

public slots:
    void openCurrent();
    void rerunCurrent();
    void toggleStarCurrent();
    void deleteCurrent();
    // Asks first; returns how many entries were removed (0 when the user said no).
    qint64 clearAll();
    // Asks for a file; exportTo() writes what the filters select (the search text does not apply:
    // exports take whole entries, and a search is for finding one).
    void exportHistory();
    qint64 exportTo(const QString &path, const QString &formatName);
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
    void retranslateUi();
    void showEntry(qint64 id);
    void reportError(const QString &what, const std::exception &error);
    void showBanner(const QString &text);
    // The list shows the new entries; writesWork: the last writes succeeded, so an earlier
    // write error's banner can go.
    void entryAdded(bool writesWork);
    void updateButtons();
    void updateCount();
    HistoryFilter currentFilter() const;

    std::unique_ptr<HistoryStore> m_store;
    HistoryOpenResult m_openResult;
    HistoryModel *m_listModel = nullptr;
    std::optional<HistoryEntry> m_current;
    bool m_stale = false; // entries were added while the tab was hidden
    QList<HistoryEntry> m_queued; // kept out by another process's lock, oldest first
    QTimer *m_retry = nullptr;

    QLabel *m_banner = nullptr;
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
    QWidget *m_rerunPane = nullptr;
    QLabel *m_thenTitle = nullptr;
    QLabel *m_nowTitle = nullptr;
    QPlainTextEdit *m_then = nullptr;
    QPlainTextEdit *m_now = nullptr;
    QTimer *m_searchDelay = nullptr;
};

} // namespace glosa
