// The main window: a model / direction bar over one tab per view (Translate, Compare, Caption,
// Documents, History), menus with the standard shortcuts, and settings that survive a restart.
// What the views share (models, workers, the history) is the AppContext's, which outlives it.
#pragma once

#include <QMainWindow>
#include <QPointer>

class QAction;
class QActionGroup;
class QComboBox;
class QLabel;
class QLineEdit;
class QMenu;
class QTabWidget;
class QToolButton;
class QTranslator;

namespace glosa {

class AppContext;
class CaptionView;
class CompareView;
class HistoryView;
class DocumentsView;
class EvaluateDialog;
class GetModelsDialog;
class TranslateView;
struct ModelChoice;
struct RecentFile;

class MainWindow : public QMainWindow
{
    Q_OBJECT
public:
    enum Tab { TranslateTab, CompareTab, CaptionTab, DocumentsTab, HistoryTab };

    explicit MainWindow(AppContext &context, QWidget *parent = nullptr);
    ~MainWindow() override;

    // Installs the translators for `language` ("ko", "es", "en"; "" = system locale) on the
    // application; every window retranslates itself through QEvent::LanguageChange.
    static bool setUiLanguage(const QString &language);
    static QString uiLanguage();

    TranslateView *translateView() const { return m_translate; }
    CompareView *compareView() const { return m_compare; }
    CaptionView *captionView() const { return m_caption; }
    HistoryView *historyView() const { return m_history; }
    DocumentsView *documentsView() const { return m_documents; }
    QTabWidget *tabs() const { return m_tabs; }
    QComboBox *modelPicker() const { return m_models; }
    AppContext &context() const { return m_context; }
    // The translation model in the picker (the context's choice).
    QString currentModelId() const;

public slots:
    void openFile();
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
    QLabel *hubHint() const { return m_hubHint; }
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

protected:
    void closeEvent(QCloseEvent *event) override;
    void changeEvent(QEvent *event) override;

private:
    void createMenus();
    void retranslateUi();
    void restoreSettings();
    void saveSettings() const;
    // The picker lists the installed translation models, and shows the chosen one and its state.
    void fillModelPicker();
    void showModelChoice(const glosa::ModelChoice &choice);
    void updateSwap();
    void updateHubHint();
    void updateModelLabel();
    // Reads a text file into the Translate view.
    void openText(const QString &path);
    void fillRecentMenu();
    void openRecent(const glosa::RecentFile &file);
    void showFindBar();

    AppContext &m_context;

    QTabWidget *m_tabs = nullptr;
    TranslateView *m_translate = nullptr;
    CompareView *m_compare = nullptr;
    CaptionView *m_caption = nullptr;
    DocumentsView *m_documents = nullptr;
    HistoryView *m_history = nullptr;

    QLabel *m_modelLabel = nullptr;
    QComboBox *m_models = nullptr;
    QToolButton *m_swap = nullptr;
    QLabel *m_modelState = nullptr;
    QLabel *m_hubHint = nullptr;
    QPointer<GetModelsDialog> m_getModels; // while open
    QWidget *m_findBar = nullptr;
    QLineEdit *m_findEdit = nullptr;

    QMenu *m_fileMenu = nullptr;
    QMenu *m_editMenu = nullptr;
    QMenu *m_viewMenu = nullptr;
    QMenu *m_translateMenu = nullptr;
    QMenu *m_settingsMenu = nullptr;
    QMenu *m_languageMenu = nullptr;
    QMenu *m_computeMenu = nullptr;
    QList<QAction *> m_computeActions; // auto, float32, int8
    QMenu *m_appearanceMenu = nullptr;
    QList<QAction *> m_appearanceActions; // system, light, dark
    QMenu *m_helpMenu = nullptr;
    QAction *m_openAction = nullptr;
    QMenu *m_recentMenu = nullptr;
    QAction *m_saveAction = nullptr;
    QAction *m_importAction = nullptr;
    QAction *m_getModelsAction = nullptr;
    QAction *m_quitAction = nullptr;
    QAction *m_copyAction = nullptr;
    QAction *m_pasteAction = nullptr;
    QAction *m_findAction = nullptr;
    QAction *m_translateAction = nullptr;
    QAction *m_cancelAction = nullptr;
    QAction *m_swapAction = nullptr;
    QAction *m_compareAction = nullptr;
    QAction *m_evaluateAction = nullptr;
    EvaluateDialog *m_evaluate = nullptr;
    QList<QAction *> m_tabActions;
    QAction *m_historySettingsAction = nullptr;
    QAction *m_keepTermsAction = nullptr;
    QAction *m_modelsAction = nullptr;
    QAction *m_aboutAction = nullptr;
    QAction *m_aboutQtAction = nullptr;
    QActionGroup *m_languageGroup = nullptr;
    QList<QAction *> m_languageActions;
};

} // namespace glosa
