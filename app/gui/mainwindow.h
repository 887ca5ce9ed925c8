// The main window: a model / direction bar (ModelBar) over one tab per view (Translate, Compare,
// Caption, Documents, History), the menus (MainMenus), and settings that survive a restart.
// What the views share (models, workers, the history) is the AppContext's, which outlives it.
#pragma once

#include <QMainWindow>
#include <QPointer>

class QComboBox;
class QLabel;
class QLineEdit;
class QTabWidget;

namespace glosa {

class AppContext;
class CaptionView;
class CompareView;
class HistoryView;
class DocumentsView;
class EvaluateDialog;
class GetModelsDialog;
class MainMenus;
class ModelBar;
class ModelsDialog;
class TranslateView;
struct RecentFile;

class MainWindow : public QMainWindow
{
    Q_OBJECT
public:
    enum Tab { TranslateTab, CompareTab, CaptionTab, DocumentsTab, HistoryTab };

    explicit MainWindow(AppContext &context, QWidget *parent = nullptr);
    ~MainWindow() override;

    // Installs the translators for `language` ("ko", "es", "en"; "" = system locale) on the
    // application (app/core/uilanguage.h) and the font its script needs; every window
    // retranslates itself through QEvent::LanguageChange.
    static bool setUiLanguage(const QString &language);
    static QString uiLanguage();

    TranslateView *translateView() const { return m_translate; }
    CompareView *compareView() const { return m_compare; }
    CaptionView *captionView() const { return m_caption; }
    HistoryView *historyView() const { return m_history; }
    DocumentsView *documentsView() const { return m_documents; }
    QTabWidget *tabs() const { return m_tabs; }
    ModelBar *modelBar() const { return m_modelBar; }
    QComboBox *modelPicker() const;
    AppContext &context() const { return m_context; }
    // The translation model in the picker (the context's choice).
    QString currentModelId() const;

public slots:
    void openFile();
    // File ▸ Open Recent: the file in the view it was opened in.
    void openRecent(const glosa::RecentFile &file);
    void importModel();
    // The end of importModel()'s work on the pool: a message for an error, else the new model
    // listed and chosen.
    void finishImport(const QString &id, const QString &error);
    void showModels();
    // Get models… (File menu, the model manager, the picker's offer): search and download from
    // the hub; `repo` is listed and chosen without asking the hub.
    void showGetModels(const QString &repo = {});
    // The dialog while it is open (tests).
    GetModelsDialog *getModelsDialog() const;
    // The picker's offer of an OPUS-MT model for the direction (hidden when there is none).
    QLabel *hubHint() const;
    // Translate ▸ Evaluate models…: one dialog, kept while the window lives (not modal, so that a
    // sentence it opens in Compare can be looked at beside it).
    void showEvaluate();
    EvaluateDialog *evaluateDialog() const { return m_evaluate; }
    void showAbout();
    // Settings ▸ Do not translate: the terms every translation copies as they are.
    void editKeptTerms();
    void swapDirection();
    // File ▸ Save translation…: the Translate view's translation as a text file (the Documents
    // view exports its document).
    void saveTranslation();
    // Edit ▸ Find (Ctrl+F): the find bar over the texts, or History's search there.
    void showFindBar();

protected:
    void closeEvent(QCloseEvent *event) override;
    void changeEvent(QEvent *event) override;

private:
    void createViews();
    QWidget *createFindBar();
    void connectStatusMessages();
    void retranslateUi();
    void restoreSettings();
    void saveSettings() const;
    void listModelIds();
    // Reads a text file into the Translate view.
    void openText(const QString &path);
    // The Models dialog's requests; true when the dialog is to be shown again, rescanned.
    bool removeModel(ModelsDialog &dialog, const QString &id);
    bool makeDefault(ModelsDialog &dialog, const QString &id);

    AppContext &m_context;

    QTabWidget *m_tabs = nullptr;
    TranslateView *m_translate = nullptr;
    CompareView *m_compare = nullptr;
    CaptionView *m_caption = nullptr;
    DocumentsView *m_documents = nullptr;
    HistoryView *m_history = nullptr;

    ModelBar *m_modelBar = nullptr;
    MainMenus *m_menus = nullptr;
    QPointer<GetModelsDialog> m_getModels; // while open
    QWidget *m_findBar = nullptr;
    QLineEdit *m_findEdit = nullptr;
    EvaluateDialog *m_evaluate = nullptr;
};

} // namespace glosa
