// The main window's menu bar: File, Edit, Translate, View, Settings and Help with the standard
// shortcuts, built once and retranslated on QEvent::LanguageChange. Each action calls the
// window's slot or view that does the work; the menus hold no state of their own beyond the
// checked language, appearance and arithmetic.
#pragma once

#include <QList>
#include <QObject>

class QAction;
class QMenu;

namespace glosa {

class MainWindow;
struct RecentFile;

class MainMenus : public QObject
{
    Q_OBJECT
public:
    explicit MainMenus(MainWindow &window);

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

    MainWindow &m_window;
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
