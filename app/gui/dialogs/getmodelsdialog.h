// GetModelsDialog: Get models… of the model manager. Lists the MarianMT models already in the
// Hugging Face cache ("on this computer", imported without a download), searches the hub for
// OPUS-MT (or any MarianMT repository the user types), lists the hits with their language pair
// in the interface language, size when known, licence and downloads, and downloads the chosen one
// with a progress bar and Cancel. The work is ModelDownloads' (app/core/hub), off the GUI thread;
// the installed model is usable at once (AppContext::rescanModels, then chooseModel). Nothing is
// sent to the network until the user searches or clicks Download.
#pragma once

#include "app/core/hub/hubapi.h"

#include <QDialog>
#include <QList>

class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QTableWidget;

namespace glosa {

class AppContext;
class ModelDownloads;

class GetModelsDialog : public QDialog
{
    Q_OBJECT
public:
    explicit GetModelsDialog(AppContext &context, QWidget *parent = nullptr);
    ~GetModelsDialog() override;

    ModelDownloads &downloads() const { return *m_downloads; }
    // Lists `repo` (from the built-in table of OPUS-MT repositories, or as typed) and selects
    // it, without asking the hub anything.
    void selectRepository(const QString &repo);
    QString selectedRepository() const;

    QLineEdit *searchField() const { return m_search; }
    QTableWidget *resultTable() const { return m_results; }
    QPushButton *downloadButton() const { return m_download; }
    QPushButton *cancelButton() const { return m_cancel; }
    QProgressBar *progressBar() const { return m_progress; }
    QLabel *statusLabel() const { return m_status; }

signals:
    // A model was downloaded, imported and chosen.
    void modelInstalled(const QString &id);

public slots:
    void search();
    void downloadSelected();
    // Close: cancels a download that runs (what arrived is kept for the next attempt).
    void reject() override;

private:
    void showResults(const HubError &error);
    // The models of the Hugging Face cache not installed yet, then m_rows; `select` (else the
    // row selected before) is selected again.
    void fillTable(const QString &select);
    void addRow(const HubModelSummary &model, const QString &cachedFolder);
    bool isInstalled(const QString &repo) const;
    QString selectedCachedFolder() const;
    void showProgress();
    void finishInstall(const QString &id, const HubError &error);
    void updateButtons();

    AppContext &m_context;
    ModelDownloads *m_downloads = nullptr; // a child
    QLineEdit *m_search = nullptr;
    QPushButton *m_searchButton = nullptr;
    QTableWidget *m_results = nullptr;
    QList<HubModelSummary> m_rows; // the last search's hits, and repositories listed by name
    QLabel *m_status = nullptr;
    QProgressBar *m_progress = nullptr;
    QPushButton *m_download = nullptr;
    QPushButton *m_cancel = nullptr;
};

} // namespace glosa
