// The main window's menu bar: File, Edit, Translate, View, Settings and Help with the standard
// shortcuts, built once and retranslated on QEvent::LanguageChange. Each action calls the
// window's command or the view that does the work, both handed over in a MainMenus::Window, so
// that the menus do not know the window that owns them; the menus hold no state of their own
// beyond the checked language, appearance and arithmetic.
#pragma once

#include <QList>
#include <QObject>
#include <QString>

#include <functional>

class QAction;
class QMainWindow;
class QMenu;
class QTabWidget;

namespace glosa {

class AppContext;
class CaptionView;
class CompareView;
class DocumentsView;
class HistoryView;
class TranslateView;
struct RecentFile;

class MainMenus : public QObject
{
    Q_OBJECT
public:
    // What the menus act on: the window, its tabs and views, and its commands.
    struct Window
    {
        QMainWindow *window = nullptr; // holds the menu bar; its LanguageChange retranslates them
        AppContext *context = nullptr; // Settings ▸ Arithmetic loads its models again
        QTabWidget *tabs = nullptr;    // one tab per view below
        TranslateView *translate = nullptr;
        CompareView *compare = nullptr;
        CaptionView *caption = nullptr;
        DocumentsView *documents = nullptr;
        HistoryView *history = nullptr;
        // The window's commands (its dialogs and what they lead to).
        std::function<void()> openFile, saveTranslation, importModel, getModels, find,
            swapDirection, evaluate, keepTerms, models, about;
        std::function<void(const RecentFile &)> openRecent;
        // Installs the interface language ("" = the system's) in every window.
        std::function<void(const QString &)> setUiLanguage;
    };

    explicit MainMenus(const Window &window);

    // ⇄ is offered only while the reverse direction has a model.
    void setSwapEnabled(bool enabled);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void createFileMenu();
    void createEditMenu();
    void createTranslateMenu();
    void createViewMenu();
    void createSettingsMenu();
    void createLanguageMenu();
    void createAppearanceMenu();
    void createComputeMenu();
    void createHelpMenu();
    void fillRecentMenu();
    void retranslateUi();
    void retranslateSettings();

    Window m_window;
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
    QList<QAction *> m_languageActions;   // system, en, ko, es
    QMenu *m_helpMenu = nullptr;
    QMenu *m_recentMenu = nullptr;
    QAction *m_openAction = nullptr;
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
    QList<QAction *> m_tabActions;
    QAction *m_historySettingsAction = nullptr;
    QAction *m_keepTermsAction = nullptr;
    QAction *m_modelsAction = nullptr;
    QAction *m_aboutAction = nullptr;
    QAction *m_aboutQtAction = nullptr;
};

} // namespace glosa
