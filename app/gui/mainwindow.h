// The main window: a model / direction bar over one tab per view (Translate, Compare, Caption,
// Documents, History), menus with the standard shortcuts, settings that survive a restart, and
// one InferenceWorker per loaded model.
#pragma once

#include "app/core/modelcatalog.h"
#include "app/core/pluginregistry.h"

#include <QHash>
#include <QMainWindow>

#include <memory>

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

class CaptionView;
class CompareView;
class HistoryRecorder;
class HistoryView;
class DocumentsView;
class InferenceWorker;
class TranslateView;

class MainWindow : public QMainWindow
{
    Q_OBJECT
public:
    enum Tab { TranslateTab, CompareTab, CaptionTab, DocumentsTab, HistoryTab };

    explicit MainWindow(QWidget *parent = nullptr);
    ~MainWindow() override;

    // Installs the translators for `language` ("ko", "es", "en"; "" = system locale) on the
    // application; every window retranslates itself through QEvent::LanguageChange.
    static bool setUiLanguage(const QString &language);
    static QString uiLanguage();

    TranslateView *translateView() const { return m_translate; }
    CompareView *compareView() const { return m_compare; }
    CaptionView *captionView() const { return m_caption; }
    HistoryView *historyView() const { return m_history; }
    HistoryRecorder *historyRecorder() const { return m_historyRecorder; }
    DocumentsView *documentsView() const { return m_documents; }
    QTabWidget *tabs() const { return m_tabs; }
    QComboBox *modelPicker() const { return m_models; }
    const ModelCatalog &catalog() const { return m_catalog; }
    const PluginRegistry &plugins() const { return *m_plugins; }
    // The worker of a model, created (and the model loaded) on first use.
    InferenceWorker *workerFor(const ModelInfo &info);
    QString currentModelId() const;
    bool selectModel(const QString &id);

public slots:
    void openFile();
    void importModel();
    void showModels();
    void showAbout();
    void swapDirection();
    void rescanModels();

protected:
    void closeEvent(QCloseEvent *event) override;
    void changeEvent(QEvent *event) override;

private:
    void createMenus();
    void retranslateUi();
    void restoreSettings();
    void saveSettings() const;
    void onModelChosen(int index);
    void updateSwap();
    void showFindBar();

    // Shared with the worker threads that load from it: the workers are children, destroyed
    // after these members, and may still be inside ModelCatalog::load then. Never changed
    // after it is set (so that no thread reads it while it changes).
    std::shared_ptr<const PluginRegistry> m_plugins;
    ModelCatalog m_catalog;
    QHash<QString, InferenceWorker *> m_workers;

    QTabWidget *m_tabs = nullptr;
    TranslateView *m_translate = nullptr;
    CompareView *m_compare = nullptr;
    CaptionView *m_caption = nullptr;
    DocumentsView *m_documents = nullptr;
    HistoryView *m_history = nullptr;
    HistoryRecorder *m_historyRecorder = nullptr;

    QLabel *m_modelLabel = nullptr;
    QComboBox *m_models = nullptr;
    QToolButton *m_swap = nullptr;
    QLabel *m_modelState = nullptr;
    QWidget *m_findBar = nullptr;
    QLineEdit *m_findEdit = nullptr;

    QMenu *m_fileMenu = nullptr;
    QMenu *m_editMenu = nullptr;
    QMenu *m_viewMenu = nullptr;
    QMenu *m_translateMenu = nullptr;
    QMenu *m_settingsMenu = nullptr;
    QMenu *m_languageMenu = nullptr;
    QMenu *m_helpMenu = nullptr;
    QAction *m_openAction = nullptr;
    QAction *m_importAction = nullptr;
    QAction *m_quitAction = nullptr;
    QAction *m_copyAction = nullptr;
    QAction *m_pasteAction = nullptr;
    QAction *m_findAction = nullptr;
    QAction *m_translateAction = nullptr;
    QAction *m_cancelAction = nullptr;
    QAction *m_swapAction = nullptr;
    QAction *m_compareAction = nullptr;
    QList<QAction *> m_tabActions;
    QAction *m_historySettingsAction = nullptr;
    QAction *m_modelsAction = nullptr;
    QAction *m_aboutAction = nullptr;
    QAction *m_aboutQtAction = nullptr;
    QActionGroup *m_languageGroup = nullptr;
    QList<QAction *> m_languageActions;
};

} // namespace glosa
