#include "app/gui/mainmenus.h"

#include "app/core/appcontext.h"
#include "app/core/settings/settings.h"
#include "app/core/uilanguage.h"
#include "app/gui/recentfiles.h"
#include "app/gui/theme.h"
#include "app/gui/views/captionview.h"
#include "app/gui/views/compareview.h"
#include "app/gui/views/documentsview.h"
#include "app/gui/views/historyview.h"
#include "app/gui/views/translateview.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QClipboard>
#include <QDir>
#include <QEvent>
#include <QMainWindow>
#include <QMenu>
#include <QMenuBar>
#include <QPlainTextEdit>
#include <QTabWidget>

namespace glosa {

MainMenus::MainMenus(const Window &window) : QObject(window.window), m_window(window)
{
    createFileMenu();
    createEditMenu();
    createTranslateMenu();
    createViewMenu();
    createSettingsMenu();
    createHelpMenu();
    retranslateUi();
    window.window->installEventFilter(this);
}

void MainMenus::setSwapEnabled(bool enabled)
{
    m_swapAction->setEnabled(enabled);
}

bool MainMenus::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_window.window && event->type() == QEvent::LanguageChange)
        retranslateUi();
    return QObject::eventFilter(watched, event);
}

void MainMenus::createFileMenu()
{
    const Window &w = m_window;
    m_fileMenu = w.window->menuBar()->addMenu(QString());
    m_openAction = m_fileMenu->addAction(QString(), QKeySequence::Open, w.window, w.openFile);
    m_recentMenu = m_fileMenu->addMenu(QString());
    connect(m_recentMenu, &QMenu::aboutToShow, this, &MainMenus::fillRecentMenu);
    m_saveAction =
        m_fileMenu->addAction(QString(), QKeySequence::Save, w.window, w.saveTranslation);
    m_fileMenu->addSeparator();
    m_importAction = m_fileMenu->addAction(QString(), w.window, w.importModel);
    m_getModelsAction = m_fileMenu->addAction(QString(), w.window, w.getModels);
    m_fileMenu->addSeparator();
    m_quitAction = m_fileMenu->addAction(QString(), QKeySequence::Quit, w.window, &QWidget::close);
}

void MainMenus::fillRecentMenu()
{
    m_recentMenu->clear();
    const QList<RecentFile> recent = recentFiles();
    for (const RecentFile &file : recent)
        m_recentMenu->addAction(QDir::toNativeSeparators(file.path), m_window.window,
                                [this, file] { m_window.openRecent(file); });
    if (recent.isEmpty())
        m_recentMenu->addAction(tr("No recent files"))->setEnabled(false);
}

void MainMenus::createEditMenu()
{
    const Window &w = m_window;
    m_editMenu = w.window->menuBar()->addMenu(QString());
    m_copyAction = m_editMenu->addAction(
        QString(), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Y), w.window,
        [w] { QApplication::clipboard()->setText(w.translate->targetEditor()->toPlainText()); });
    m_pasteAction = m_editMenu->addAction(
        QString(), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_V), w.window, [w] {
            w.tabs->setCurrentWidget(w.translate);
            w.translate->setSourceText(QApplication::clipboard()->text());
        });
    m_editMenu->addSeparator();
    m_findAction = m_editMenu->addAction(QString(), QKeySequence::Find, w.window, w.find);
}

void MainMenus::createTranslateMenu()
{
    const Window &w = m_window;
    m_translateMenu = w.window->menuBar()->addMenu(QString());
    m_translateAction = m_translateMenu->addAction(QString(), w.window, [w] {
        const QWidget *tab = w.tabs->currentWidget();
        if (tab == w.compare)
            w.compare->compare();
        else if (tab == w.caption)
            w.caption->captionSelected();
        else if (tab == w.documents)
            w.documents->translateDocument();
        else
            w.translate->translateNow();
    });
    m_translateAction->setShortcuts(
        {QKeySequence(Qt::CTRL | Qt::Key_Return), QKeySequence(Qt::CTRL | Qt::Key_Enter)});
    m_cancelAction =
        m_translateMenu->addAction(QString(), QKeySequence(Qt::Key_Escape), w.window, [w] {
            if (w.tabs->currentWidget() == w.documents)
                w.documents->cancel();
            else
                w.translate->cancel();
        });
    m_swapAction = m_translateMenu->addAction(
        QString(), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_S), w.window, w.swapDirection);
    m_compareAction = m_translateMenu->addAction(
        QString(), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_C), w.window, [w] {
            // Carry the sentence over when Compare has none yet: "compare what I just typed".
            if (w.compare->input()->toPlainText().trimmed().isEmpty())
                w.compare->input()->setPlainText(w.translate->sourceEditor()->toPlainText());
            w.tabs->setCurrentWidget(w.compare);
            w.compare->compare();
        });
    m_evaluateAction = m_translateMenu->addAction(QString(), w.window, w.evaluate);
}

void MainMenus::createViewMenu()
{
    m_viewMenu = m_window.window->menuBar()->addMenu(QString());
    for (int i = 0; i < 5; ++i)
        m_tabActions << m_viewMenu->addAction(QString(), QKeySequence(Qt::CTRL | (Qt::Key_1 + i)),
                                              m_window.window,
                                              [this, i] { m_window.tabs->setCurrentIndex(i); });
}

void MainMenus::createSettingsMenu()
{
    m_settingsMenu = m_window.window->menuBar()->addMenu(QString());
    createLanguageMenu();
    createAppearanceMenu();
    createComputeMenu();
    m_historySettingsAction =
        m_settingsMenu->addAction(QString(), m_window.history, &HistoryView::editSettings);
    m_keepTermsAction = m_settingsMenu->addAction(QString(), m_window.window, m_window.keepTerms);
    m_keepTermsAction->setObjectName(QStringLiteral("keepTermsAction"));
}

void MainMenus::createLanguageMenu()
{
    m_languageMenu = m_settingsMenu->addMenu(QString());
    auto *group = new QActionGroup(this);
    for (const char *code : {"", "en", "ko", "es"}) {
        QAction *a = m_languageMenu->addAction(QString());
        a->setCheckable(true);
        a->setData(QString::fromLatin1(code));
        group->addAction(a);
        m_languageActions << a;
        connect(a, &QAction::triggered, this, [this, code] {
            const QString language = QString::fromLatin1(code);
            m_window.setUiLanguage(language);
            settings::language.setValue(language);
        });
    }
}

void MainMenus::createAppearanceMenu()
{
    m_appearanceMenu = m_settingsMenu->addMenu(QString());
    auto *group = new QActionGroup(this);
    const QString appearance = settings::appearance.value();
    for (const char *name : {"system", "light", "dark"}) {
        QAction *a = m_appearanceMenu->addAction(QString());
        a->setCheckable(true);
        // Anything but "light" and "dark" is the system's (applyAppearance()).
        const bool chosen =
            QLatin1String(name) == QLatin1String("system")
                ? appearance != QLatin1String("light") && appearance != QLatin1String("dark")
                : appearance == QLatin1String(name);
        a->setChecked(chosen);
        group->addAction(a);
        m_appearanceActions << a;
        connect(a, &QAction::triggered, this, [name] {
            theme::applyAppearance(QString::fromLatin1(name));
            settings::appearance.setValue(QString::fromLatin1(name));
        });
    }
}

void MainMenus::createComputeMenu()
{
    // The arithmetic every model loads with; changing it loads the models in use again.
    m_computeMenu = m_settingsMenu->addMenu(QString());
    auto *group = new QActionGroup(this);
    const engine::ComputeType current = computeTypeFromSettings();
    for (engine::ComputeType type :
         {engine::ComputeType::Auto, engine::ComputeType::Float32, engine::ComputeType::Int8}) {
        QAction *a = m_computeMenu->addAction(QString());
        a->setCheckable(true);
        a->setChecked(type == current);
        a->setData(QString::fromLatin1(engine::computeTypeName(type)));
        group->addAction(a);
        m_computeActions << a;
        connect(a, &QAction::triggered, this, [this, a] {
            // Picking the arithmetic already in use would load every model again for nothing.
            if (a->data().toString() == engine::computeTypeName(computeTypeFromSettings()))
                return;
            settings::computeType.setValue(a->data().toString());
            m_window.context->reloadModels();
        });
    }
}

void MainMenus::createHelpMenu()
{
    m_helpMenu = m_window.window->menuBar()->addMenu(QString());
    m_modelsAction = m_helpMenu->addAction(QString(), m_window.window, m_window.models);
    m_helpMenu->addSeparator();
    m_aboutAction = m_helpMenu->addAction(QString(), m_window.window, m_window.about);
    m_aboutQtAction = m_helpMenu->addAction(QString(), qApp, &QApplication::aboutQt);
}

void MainMenus::retranslateUi()
{
    m_fileMenu->setTitle(tr("&File"));
    m_openAction->setText(tr("&Open…"));
    m_recentMenu->setTitle(tr("Open &Recent"));
    m_saveAction->setText(tr("&Save translation…"));
    m_importAction->setText(tr("&Import model…"));
    m_getModelsAction->setText(tr("&Get models…"));
    m_quitAction->setText(tr("&Quit"));
    m_editMenu->setTitle(tr("&Edit"));
    m_copyAction->setText(tr("&Copy translation"));
    m_pasteAction->setText(tr("&Paste as source"));
    m_findAction->setText(tr("&Find…"));
    m_translateMenu->setTitle(tr("&Translate"));
    m_translateAction->setText(tr("&Translate"));
    m_cancelAction->setText(tr("&Cancel"));
    m_swapAction->setText(tr("&Swap languages"));
    m_compareAction->setText(tr("C&ompare strategies"));
    m_evaluateAction->setText(tr("&Evaluate models…"));
    m_viewMenu->setTitle(tr("&View"));
    const QStringList tabNames = {tr("Translate"), tr("Compare"), tr("Caption"), tr("Documents"),
                                  tr("History")};
    for (int i = 0; i < m_tabActions.size(); ++i)
        m_tabActions[i]->setText(tabNames[i]);
    m_helpMenu->setTitle(tr("&Help"));
    m_modelsAction->setText(tr("&Models…"));
    m_aboutAction->setText(tr("&About Glosa"));
    m_aboutQtAction->setText(tr("About &Qt"));
    retranslateSettings();
}

void MainMenus::retranslateSettings()
{
    m_settingsMenu->setTitle(tr("&Settings"));
    m_languageMenu->setTitle(tr("&Language"));
    m_historySettingsAction->setText(tr("&History…"));
    m_keepTermsAction->setText(tr("&Do not translate…"));
    m_computeMenu->setTitle(tr("&Arithmetic"));
    m_appearanceMenu->setTitle(tr("A&ppearance"));
    m_appearanceActions[0]->setText(tr("As the system has it"));
    m_appearanceActions[1]->setText(tr("Light"));
    m_appearanceActions[2]->setText(tr("Dark"));
    m_computeActions[0]->setText(tr("Automatic: int8 where the model stores it"));
    m_computeActions[1]->setText(tr("Float32: the reference, slower"));
    m_computeActions[2]->setText(tr("Int8: about 1.5-3x faster, nearly always the same words"));
    // Language names in their own language, so that anyone can find theirs.
    m_languageActions[0]->setText(tr("System default"));
    m_languageActions[1]->setText(QStringLiteral("English"));
    m_languageActions[2]->setText(QStringLiteral("한국어"));
    m_languageActions[3]->setText(QStringLiteral("Español"));
    for (QAction *a : m_languageActions)
        a->setChecked(a->data().toString() == installedUiLanguage());
}

} // namespace glosa
