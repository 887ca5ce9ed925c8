#include "app/gui/mainwindow.h"

#include "app/core/appcontext.h"
#include "app/core/hub/knownmodels.h"
#include "app/core/platform/handoff.h"
#include "app/core/history/recorder.h"
#include "app/core/inference/inferenceworker.h"
#include "app/core/models/modelimport.h"
#include "app/core/platform/regularfile.h"
#include "app/core/settings/decodingmaps.h"
#include "app/core/settings/settings.h"
#include "app/core/settings/settingsfile.h"
#include "app/gui/views/captionview.h"
#include "app/gui/views/compareview.h"
#include "app/gui/widgets/decodingpanel.h"
#include "app/gui/views/documentsview.h"
#include "app/gui/dialogs/evaluatedialog.h"
#include "app/gui/dialogs/getmodelsdialog.h"
#include "app/gui/guiutil.h"
#include "app/gui/historycontroller.h"
#include "app/gui/views/historyview.h"
#include "app/gui/dialogs/modelsdialog.h"
#include "app/gui/theme.h"
#include "app/gui/views/translateview.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QClipboard>
#include <QCloseEvent>
#include <QComboBox>
#include <QDialog>
#include <QDialogButtonBox>
#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QFont>
#include <QHBoxLayout>
#include <QLabel>
#include <QLibraryInfo>
#include <QLineEdit>
#include <QLocale>
#include <QMenuBar>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPointer>
#include <QProgressDialog>
#include <QSplitter>
#include <QStatusBar>
#include <QTabWidget>
#include <QTextBrowser>
#include <QToolButton>
#include <QTranslator>
#include <QVBoxLayout>

#include <algorithm>
#include <atomic>
#include <memory>

namespace glosa {

namespace {
// The translators currently installed on the application (ours and Qt's own).
QPointer<QTranslator> g_appTranslator;
QPointer<QTranslator> g_qtTranslator;
QString g_language;

// The model picker's entry: direction and architecture in the UI language. The package's own
// name (English, and repeating the direction) is the entry's tooltip and in the Models dialog.
// Where several models share direction and architecture (the general and the Tatoeba-only
// Transformer, three RNNs), the architecture gives way to what tells them apart: the
// parenthesis of the package name ("Transformer, general domain", "RNN, Bahdanau attention"),
// or the id.
QString modelItemText(const ModelInfo &info, const QList<ModelInfo> &all)
{
    const auto alike = std::count_if(all.begin(), all.end(), [&](const ModelInfo &other) {
        return other.task == info.task && other.sourceLanguage == info.sourceLanguage &&
               other.targetLanguage == info.targetLanguage &&
               other.architecture == info.architecture;
    });
    QString kind = architectureName(info.architecture);
    if (alike > 1) {
        const QString name = modelName(info);
        const qsizetype open = name.lastIndexOf(QLatin1Char('('));
        const qsizetype close = name.lastIndexOf(QLatin1Char(')'));
        kind = open >= 0 && close > open + 1 ? name.mid(open + 1, close - open - 1) : info.id;
    }
    return QStringLiteral("%1 → %2 · %3")
        .arg(languageName(info.sourceLanguage), languageName(info.targetLanguage), kind);
}
} // namespace

bool MainWindow::setUiLanguage(const QString &language)
{
    QString code = language;
    if (code.isEmpty()) {
        const QStringList ui = QLocale().uiLanguages();
        code = QStringLiteral("en");
        for (const QString &l : ui) {
            const QString base = l.section(QLatin1Char('-'), 0, 0);
            if (base == QLatin1String("ko") || base == QLatin1String("es") ||
                base == QLatin1String("en")) {
                code = base;
                break;
            }
        }
    }
    if (g_appTranslator) {
        QCoreApplication::removeTranslator(g_appTranslator);
        delete g_appTranslator;
    }
    if (g_qtTranslator) {
        QCoreApplication::removeTranslator(g_qtTranslator);
        delete g_qtTranslator;
    }
    g_language = language;
    // Dates and numbers follow the UI language when one is chosen (12,5 in Spanish); following
    // the system, they follow the system's locale, region included.
    if (!language.isEmpty())
        QLocale::setDefault(QLocale(code));
    // Korean needs a font with Hangul: the one fontconfig picks for the text already, else one
    // of those scripts/setup-common.sh installs, rather than boxes.
    if (code == QLatin1String("ko"))
        QFont::insertSubstitutions(QApplication::font().family(),
                                   {QStringLiteral("Noto Sans CJK KR"),
                                    QStringLiteral("NanumGothic"), QStringLiteral("UnDotum"),
                                    QStringLiteral("Baekmuk Gulim")});
    bool ok = true;
    if (code != QLatin1String("en")) {
        auto *app = new QTranslator(qApp);
        ok = app->load(QStringLiteral(":/i18n/glosa_%1.qm").arg(code));
        if (ok) {
            QCoreApplication::installTranslator(app);
            g_appTranslator = app;
        } else {
            delete app;
        }
        // Qt's own strings (dialog buttons, context menus), when the system has them.
        auto *qt = new QTranslator(qApp);
        if (qt->load(QStringLiteral("qtbase_%1").arg(code),
                     QLibraryInfo::path(QLibraryInfo::TranslationsPath))) {
            QCoreApplication::installTranslator(qt);
            g_qtTranslator = qt;
        } else {
            delete qt;
        }
    } else {
        // No translator: the application's event still has to reach every window.
        QEvent change(QEvent::LanguageChange);
        for (QWidget *w : QApplication::topLevelWidgets())
            QCoreApplication::sendEvent(w, &change);
    }
    QGuiApplication::setLayoutDirection(Qt::LeftToRight);
    return ok;
}

QString MainWindow::uiLanguage()
{
    return g_language;
}

MainWindow::MainWindow(AppContext &context, QWidget *parent)
    : QMainWindow(parent), m_context(context)
{
    setWindowIcon(QIcon(QStringLiteral(":/icons/glosa.png")));

    // Model bar: what translates, in which direction.
    auto *bar = new QWidget(this);
    auto *barLayout = new QHBoxLayout(bar);
    barLayout->setContentsMargins(16, 10, 16, 0);
    m_modelLabel = new QLabel(bar);
    m_models = new QComboBox(bar);
    m_models->setObjectName(QStringLiteral("modelPicker"));
    m_models->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_models->setMinimumContentsLength(28);
    m_modelLabel->setBuddy(m_models);
    m_swap = new QToolButton(bar);
    m_swap->setText(QStringLiteral("⇄"));
    m_modelState = new QLabel(bar);
    m_modelState->setForegroundRole(QPalette::PlaceholderText);
    barLayout->addWidget(m_modelLabel);
    barLayout->addWidget(m_models);
    barLayout->addWidget(m_swap);
    barLayout->addSpacing(12);
    barLayout->addWidget(m_modelState);
    // A quiet offer of a stronger model for the direction (updateHubHint()); nothing is sent to
    // the network until it is clicked.
    m_hubHint = new QLabel(bar);
    m_hubHint->setObjectName(QStringLiteral("hubHint"));
    m_hubHint->setTextFormat(Qt::RichText);
    m_hubHint->setForegroundRole(QPalette::PlaceholderText);
    m_hubHint->setVisible(false);
    connect(m_hubHint, &QLabel::linkActivated, this, &MainWindow::showGetModels);
    barLayout->addWidget(m_hubHint, 1, Qt::AlignRight);

    // Find bar (Ctrl+F): searches the visible editors.
    m_findBar = new QWidget(this);
    auto *findLayout = new QHBoxLayout(m_findBar);
    findLayout->setContentsMargins(16, 6, 16, 0);
    m_findEdit = new QLineEdit(m_findBar);
    m_findEdit->setClearButtonEnabled(true);
    findLayout->addWidget(m_findEdit);
    m_findBar->setVisible(false);
    connect(m_findEdit, &QLineEdit::returnPressed, this, [this] {
        const QString needle = m_findEdit->text();
        for (QPlainTextEdit *e : {m_translate->sourceEditor(), m_translate->targetEditor()})
            if (e->find(needle) || (e->moveCursor(QTextCursor::Start), e->find(needle)))
                return;
    });

    m_tabs = new QTabWidget(this);
    m_tabs->setDocumentMode(true);
    m_translate = new TranslateView(context, m_tabs);
    m_compare = new CompareView(context, m_tabs);
    m_caption = new CaptionView(context, m_tabs);
    m_documents = new DocumentsView(context, m_tabs);
    m_history = new HistoryView(context.history(), m_tabs);
    m_tabs->addTab(m_translate, QString());
    m_tabs->addTab(m_compare, QString());
    m_tabs->addTab(m_caption, QString());
    m_tabs->addTab(m_documents, QString());
    m_tabs->addTab(m_history, QString());

    auto *central = new QWidget(this);
    auto *centralLayout = new QVBoxLayout(central);
    centralLayout->setContentsMargins(0, 0, 0, 0);
    centralLayout->setSpacing(6);
    centralLayout->addWidget(bar);
    centralLayout->addWidget(m_findBar);
    centralLayout->addWidget(m_tabs, 1);
    setCentralWidget(central);

    createMenus();
    connect(m_models, &QComboBox::currentIndexChanged, this,
            [this] { m_context.chooseModel(currentModelId(), AppContext::ChosenBy::User); });
    connect(&context, &AppContext::modelsChanged, this, &MainWindow::fillModelPicker);
    connect(&context, &AppContext::modelChosen, this, &MainWindow::showModelChoice);
    connect(&context, &AppContext::modelLoaded, this, [this](const ModelInfo &info) {
        if (info.id == currentModelId())
            m_modelState->setText(tr("Ready"));
        statusBar()->showMessage(tr("Loaded %1").arg(info.id), 4000);
    });
    connect(&context, &AppContext::modelLoadFailed, this,
            [this](const ModelInfo &, const QString &message) {
                m_modelState->setText(tr("Could not load the model"));
                statusBar()->showMessage(message);
            });
    connect(m_swap, &QToolButton::clicked, this, &MainWindow::swapDirection);
    connect(m_tabs, &QTabWidget::currentChanged, this, &MainWindow::updateModelLabel);
    connect(m_translate, &TranslateView::statusMessage, this,
            [this](const QString &m) { statusBar()->showMessage(m, 8000); });
    connect(m_documents, &DocumentsView::statusMessage, this,
            [this](const QString &m) { statusBar()->showMessage(m, 8000); });
    // A settings file that could not be written is as it was before; the values are written at
    // the next change once there is room (QSettings keeps them), so this says so only.
    connect(SettingsFileReporter::instance(), &SettingsFileReporter::writeFailed, this,
            [this](const QString &, const QString &reason) {
                statusBar()->showMessage(tr("Could not save settings: %1").arg(reason), 15000);
            });
    // Settings that could not be read start from their defaults: said once, with where the old
    // file is kept.
    connect(SettingsFileReporter::instance(), &SettingsFileReporter::resetFound, this,
            [this](const QString &, const QString &keptAs, const QString &reason) {
                statusBar()->showMessage(
                    keptAs.isEmpty()
                        ? tr("The settings could not be read (%1) and start from their "
                             "defaults.")
                              .arg(reason)
                        : tr("The settings could not be read (%1) and start from their "
                             "defaults; the old file is kept as %2.")
                              .arg(reason, keptAs),
                    30000);
            });

    fillModelPicker();
    retranslateUi(); // shows the model choice too
    restoreSettings();

    // Last, so that every view is connected before the first entry is recorded, and a damaged
    // history file found by open() is reported in the status bar.
    connect(m_history, &HistoryView::statusMessage, this,
            [this](const QString &m) { statusBar()->showMessage(m, 15000); });
    new HistoryController(context,
                          {m_tabs, m_translate, m_compare, m_caption, m_history,
                           [this] {
                               showEvaluate();
                               return m_evaluate;
                           }},
                          this);
    context.history()->open(HistoryStore::defaultPath());
}

MainWindow::~MainWindow() = default;

void MainWindow::createMenus()
{
    m_fileMenu = menuBar()->addMenu(QString());
    m_openAction =
        m_fileMenu->addAction(QString(), QKeySequence::Open, this, &MainWindow::openFile);
    m_recentMenu = m_fileMenu->addMenu(QString());
    connect(m_recentMenu, &QMenu::aboutToShow, this, &MainWindow::fillRecentMenu);
    m_saveAction =
        m_fileMenu->addAction(QString(), QKeySequence::Save, this, &MainWindow::saveTranslation);
    m_fileMenu->addSeparator();
    m_importAction = m_fileMenu->addAction(QString(), this, &MainWindow::importModel);
    m_getModelsAction = m_fileMenu->addAction(QString(), this, [this] { showGetModels(); });
    m_fileMenu->addSeparator();
    m_quitAction = m_fileMenu->addAction(QString(), QKeySequence::Quit, this, &QWidget::close);

    m_editMenu = menuBar()->addMenu(QString());
    m_copyAction = m_editMenu->addAction(
        QString(), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Y), this,
        [this] { QApplication::clipboard()->setText(m_translate->targetEditor()->toPlainText()); });
    m_pasteAction = m_editMenu->addAction(
        QString(), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_V), this, [this] {
            m_tabs->setCurrentIndex(TranslateTab);
            m_translate->setSourceText(QApplication::clipboard()->text());
        });
    m_editMenu->addSeparator();
    m_findAction =
        m_editMenu->addAction(QString(), QKeySequence::Find, this, &MainWindow::showFindBar);

    m_translateMenu = menuBar()->addMenu(QString());
    m_translateAction = m_translateMenu->addAction(QString(), this, [this] {
        if (m_tabs->currentIndex() == CompareTab)
            m_compare->compare();
        else if (m_tabs->currentIndex() == CaptionTab)
            m_caption->captionSelected();
        else if (m_tabs->currentIndex() == DocumentsTab)
            m_documents->translateDocument();
        else
            m_translate->translateNow();
    });
    m_translateAction->setShortcuts(
        {QKeySequence(Qt::CTRL | Qt::Key_Return), QKeySequence(Qt::CTRL | Qt::Key_Enter)});
    m_cancelAction =
        m_translateMenu->addAction(QString(), QKeySequence(Qt::Key_Escape), this, [this] {
            if (m_tabs->currentIndex() == DocumentsTab)
                m_documents->cancel();
            else
                m_translate->cancel();
        });
    m_swapAction =
        m_translateMenu->addAction(QString(), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_S), this,
                                   &MainWindow::swapDirection);
    m_compareAction = m_translateMenu->addAction(
        QString(), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_C), this, [this] {
            // Carry the sentence over when Compare has none yet: "compare what I just typed".
            if (m_compare->input()->toPlainText().trimmed().isEmpty())
                m_compare->input()->setPlainText(m_translate->sourceEditor()->toPlainText());
            m_tabs->setCurrentIndex(CompareTab);
            m_compare->compare();
        });

    m_evaluateAction = m_translateMenu->addAction(QString(), this, &MainWindow::showEvaluate);

    m_viewMenu = menuBar()->addMenu(QString());
    for (int i = 0; i < 5; ++i) {
        QAction *a = m_viewMenu->addAction(QString(), QKeySequence(Qt::CTRL | (Qt::Key_1 + i)),
                                           this, [this, i] { m_tabs->setCurrentIndex(i); });
        m_tabActions << a;
    }

    m_settingsMenu = menuBar()->addMenu(QString());
    m_languageMenu = m_settingsMenu->addMenu(QString());
    m_languageGroup = new QActionGroup(this);
    for (const char *code : {"", "en", "ko", "es"}) {
        QAction *a = m_languageMenu->addAction(QString());
        a->setCheckable(true);
        a->setData(QString::fromLatin1(code));
        m_languageGroup->addAction(a);
        m_languageActions << a;
        connect(a, &QAction::triggered, this, [code] {
            const QString language = QString::fromLatin1(code);
            MainWindow::setUiLanguage(language);
            settings::language.setValue(language);
        });
    }
    m_appearanceMenu = m_settingsMenu->addMenu(QString());
    auto *appearanceGroup = new QActionGroup(this);
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
        appearanceGroup->addAction(a);
        m_appearanceActions << a;
        connect(a, &QAction::triggered, this, [name] {
            theme::applyAppearance(QString::fromLatin1(name));
            settings::appearance.setValue(QString::fromLatin1(name));
        });
    }
    // The arithmetic every model loads with; changing it loads the models in use again.
    m_computeMenu = m_settingsMenu->addMenu(QString());
    auto *computeGroup = new QActionGroup(this);
    const engine::ComputeType current = computeTypeFromSettings();
    for (engine::ComputeType type :
         {engine::ComputeType::Auto, engine::ComputeType::Float32, engine::ComputeType::Int8}) {
        QAction *a = m_computeMenu->addAction(QString());
        a->setCheckable(true);
        a->setChecked(type == current);
        a->setData(QString::fromLatin1(engine::computeTypeName(type)));
        computeGroup->addAction(a);
        m_computeActions << a;
        connect(a, &QAction::triggered, this, [this, a] {
            // Picking the arithmetic already in use would load every model again for nothing.
            if (a->data().toString() == engine::computeTypeName(computeTypeFromSettings()))
                return;
            settings::computeType.setValue(a->data().toString());
            m_context.reloadModels();
        });
    }
    m_historySettingsAction =
        m_settingsMenu->addAction(QString(), m_history, &HistoryView::editSettings);
    m_keepTermsAction = m_settingsMenu->addAction(QString(), this, &MainWindow::editKeptTerms);
    m_keepTermsAction->setObjectName(QStringLiteral("keepTermsAction"));

    m_helpMenu = menuBar()->addMenu(QString());
    m_modelsAction = m_helpMenu->addAction(QString(), this, &MainWindow::showModels);
    m_helpMenu->addSeparator();
    m_aboutAction = m_helpMenu->addAction(QString(), this, &MainWindow::showAbout);
    m_aboutQtAction = m_helpMenu->addAction(QString(), qApp, &QApplication::aboutQt);
}

void MainWindow::retranslateUi()
{
    setWindowTitle(tr("Glosa"));
    m_tabs->setTabText(TranslateTab, tr("Translate"));
    m_tabs->setTabText(CompareTab, tr("Compare"));
    m_tabs->setTabText(CaptionTab, tr("Caption"));
    m_tabs->setTabText(DocumentsTab, tr("Documents"));
    m_tabs->setTabText(HistoryTab, tr("History"));
    updateModelLabel();
    m_models->setAccessibleName(tr("Translation model"));
    m_swap->setToolTip(tr("Swap languages (Ctrl+Shift+S)"));
    m_swap->setAccessibleName(tr("Swap languages"));
    m_findEdit->setPlaceholderText(tr("Find in the texts (Enter: next)"));
    m_findEdit->setAccessibleName(tr("Find"));

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
        a->setChecked(a->data().toString() == g_language);
    m_helpMenu->setTitle(tr("&Help"));
    m_modelsAction->setText(tr("&Models…"));
    m_aboutAction->setText(tr("&About Glosa"));
    m_aboutQtAction->setText(tr("About &Qt"));
    const QList<ModelInfo> available = m_context.catalog().availableModels();
    for (int i = 0; i < m_models->count(); ++i) {
        const QString id = m_models->itemData(i).toString();
        if (const auto info = m_context.catalog().find(id))
            m_models->setItemText(i, modelItemText(*info, available));
    }
    showModelChoice(m_context.choice(AppContext::kTranslation));
}

void MainWindow::changeEvent(QEvent *event)
{
    if (m_aboutQtAction && event->type() == QEvent::LanguageChange)
        retranslateUi();
    QMainWindow::changeEvent(event);
}

void MainWindow::fillModelPicker()
{
    const QSignalBlocker block(m_models); // the context's choice selects the entry
    m_models->clear();
    const QList<ModelInfo> available = m_context.catalog().availableModels();
    for (const ModelInfo &info : available)
        if (info.task == AppContext::kTranslation) {
            m_models->addItem(modelItemText(info, available), info.id);
            m_models->setItemData(m_models->count() - 1, modelName(info), Qt::ToolTipRole);
        }
    m_models->setEnabled(m_models->count() > 0);
    QStringList modelIds;
    for (const ModelInfo &info : m_context.catalog().models())
        modelIds << info.id;
    m_history->setModelIds(modelIds);
}

QString MainWindow::currentModelId() const
{
    return m_models->currentData().toString();
}

void MainWindow::showModelChoice(const ModelChoice &choice)
{
    if (choice.task != AppContext::kTranslation)
        return;
    {
        const QSignalBlocker block(m_models);
        m_models->setCurrentIndex(choice.model ? m_models->findData(choice.model->id) : -1);
    }
    if (choice.isReady())
        m_modelState->setText(m_context.workerFor(*choice.model)->isModelLoaded() ? tr("Ready")
                                                                                  : tr("Loading…"));
    else
        m_modelState->setText(unavailableText(choice));
    updateSwap();
    updateHubHint();
}

void MainWindow::updateHubHint()
{
    const std::optional<ModelInfo> model = m_context.choice(AppContext::kTranslation).model;
    const std::optional<KnownHubModel> offer =
        model ? suggestedHubModel(m_context.catalog(), model->sourceLanguage,
                                  model->targetLanguage)
              : std::nullopt;
    m_hubHint->setVisible(bool(offer));
    if (!offer)
        return;
    const QString text = tr("A stronger %1 → %2 model is available from OPUS-MT (≈ %3)")
                             .arg(languageName(offer->source), languageName(offer->target),
                                  QLocale().formattedDataSize(offer->approximateBytes, 0,
                                                              QLocale::DataSizeSIFormat));
    m_hubHint->setText(QStringLiteral("<a href=\"%1\">%2</a>")
                           .arg(offer->repo.toHtmlEscaped(), text.toHtmlEscaped()));
    m_hubHint->setToolTip(tr("Opens Get models… with %1 chosen; nothing is downloaded until you "
                             "click Download")
                              .arg(offer->repo));
}

GetModelsDialog *MainWindow::getModelsDialog() const
{
    return m_getModels;
}

void MainWindow::showGetModels(const QString &repo)
{
    // Not modal: a download takes minutes, and the window stays usable meanwhile. One at a time;
    // closing it cancels its download (the files that arrived are kept to resume).
    if (!m_getModels) {
        m_getModels = new GetModelsDialog(m_context, this);
        connect(m_getModels, &QDialog::finished, m_getModels, &QObject::deleteLater);
        connect(m_getModels, &GetModelsDialog::modelInstalled, this, [this](const QString &id) {
            statusBar()->showMessage(tr("Installed %1").arg(id), 6000);
        });
    }
    if (!repo.isEmpty())
        m_getModels->selectRepository(repo);
    m_getModels->show();
    m_getModels->raise();
    m_getModels->activateWindow();
}

void MainWindow::updateModelLabel()
{
    // On the Caption tab the picker chooses what translates captions; the view names its
    // captioner itself.
    m_modelLabel->setText(m_tabs->currentIndex() == CaptionTab ? tr("Translate captions &with:")
                                                               : tr("&Model:"));
}

void MainWindow::updateSwap()
{
    const auto info = m_context.catalog().find(currentModelId());
    const bool reverse =
        info && m_context.modelForDirection(info->targetLanguage, info->sourceLanguage);
    m_swap->setEnabled(reverse);
    m_swapAction->setEnabled(reverse);
    if (info && !reverse)
        m_swap->setToolTip(
            tr("No %1 → %2 model is installed")
                .arg(languageName(info->targetLanguage), languageName(info->sourceLanguage)));
    else
        m_swap->setToolTip(tr("Swap languages (Ctrl+Shift+S)"));
}

void MainWindow::swapDirection()
{
    // The reverse direction's model by the same rule as everywhere (the user's last choice for it,
    // else its default), never merely the first one listed: that was the Tatoeba-only model.
    const auto info = m_context.catalog().find(currentModelId());
    const auto reverse =
        info ? m_context.modelForDirection(info->targetLanguage, info->sourceLanguage)
             : std::nullopt;
    if (!reverse)
        return;
    m_translate->swapTexts();
    m_context.chooseModel(reverse->id);
}

void MainWindow::showFindBar()
{
    if (m_tabs->currentIndex() == HistoryTab) { // Ctrl+F there searches the history
        m_findBar->setVisible(false);
        m_history->focusSearch();
        return;
    }
    m_findBar->setVisible(true);
    m_findEdit->setFocus();
    m_findEdit->selectAll();
}

void MainWindow::openText(const QString &path)
{
    QFile file(path);
    QString why;
    if (!openRegularFile(file, &why)) {
        QMessageBox::warning(this, tr("Open text"), tr("Could not open %1: %2").arg(path, why));
        return;
    }
    m_tabs->setCurrentIndex(TranslateTab);
    m_translate->setSourceText(QString::fromUtf8(file.readAll()));
}

void MainWindow::openFile()
{
    if (m_tabs->currentIndex() == CaptionTab) {
        m_caption->openImages();
        return;
    }
    if (m_tabs->currentIndex() == DocumentsTab) {
        m_documents->chooseDocument();
        return;
    }
    const QString path = QFileDialog::getOpenFileName(this, tr("Open text"), documentsFolder(),
                                                      tr("Text files (*.txt *.md);;All files (*)"));
    if (path.isEmpty())
        return;
    rememberOpened(OpenedAs::Text, path);
    openText(path);
}

void MainWindow::fillRecentMenu()
{
    m_recentMenu->clear();
    const QList<RecentFile> recent = recentFiles();
    for (const RecentFile &file : recent)
        m_recentMenu->addAction(QDir::toNativeSeparators(file.path), this,
                                [this, file] { openRecent(file); });
    if (recent.isEmpty())
        m_recentMenu->addAction(tr("No recent files"))->setEnabled(false);
}

void MainWindow::openRecent(const RecentFile &file)
{
    rememberOpened(file.kind, file.path); // first again
    switch (file.kind) {
    case OpenedAs::Text:
        openText(file.path);
        break;
    case OpenedAs::Document:
        m_tabs->setCurrentIndex(DocumentsTab);
        m_documents->openDocument(file.path);
        break;
    case OpenedAs::Image:
        m_tabs->setCurrentIndex(CaptionTab);
        m_caption->addImages({file.path});
        break;
    }
}

void MainWindow::saveTranslation()
{
    if (m_tabs->currentIndex() == DocumentsTab) {
        m_documents->exportDocument();
        return;
    }
    const auto model = m_context.choice(AppContext::kTranslation).model;
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Save translation"),
        documentsFolder() + QStringLiteral("/translation.%1.txt")
                                .arg(model ? model->targetLanguage : QStringLiteral("txt")),
        tr("Text files (*.txt);;All files (*)"));
    if (path.isEmpty())
        return;
    rememberFolder(path);
    QString error;
    if (!m_translate->saveTranslation(path, &error))
        QMessageBox::warning(this, tr("Save translation"), error);
    else
        statusBar()->showMessage(tr("Saved %1").arg(QDir::toNativeSeparators(path)), 6000);
}

void MainWindow::importModel()
{
    const QString folder = QFileDialog::getExistingDirectory(
        this, tr("Import model (a Glosa package or a Hugging Face MarianMT folder)"));
    if (folder.isEmpty())
        return;
    // Converting an OPUS-MT model takes seconds: on the thread pool, with progress and Cancel.
    auto *progress = new QProgressDialog(tr("Importing %1…").arg(QDir(folder).dirName()),
                                         tr("Cancel"), 0, 100, this);
    progress->setWindowTitle(tr("Import model"));
    progress->setWindowModality(Qt::WindowModal);
    progress->setMinimumDuration(0);
    progress->setAutoClose(false);
    progress->setAutoReset(false);
    progress->setAttribute(Qt::WA_DeleteOnClose);
    auto cancelled = std::make_shared<std::atomic<bool>>(false);
    connect(progress, &QProgressDialog::canceled, this, [cancelled] { *cancelled = true; });
    ModelImportRequest request;
    request.folder = folder;
    startOnPool([window = QPointer<MainWindow>(this), dialog = QPointer<QProgressDialog>(progress),
                 request, cancelled] {
        const ModelImportResult result = importModelFolder(
            request,
            [window, dialog](double fraction) {
                postCall(window, [dialog, fraction] {
                    if (dialog)
                        dialog->setValue(int(fraction * 100));
                });
            },
            [cancelled] { return cancelled->load(); });
        postCall(window, [window, dialog, result] {
            if (dialog)
                dialog->close();
            if (window)
                window->finishImport(result.id, result.error);
        });
    });
}

void MainWindow::finishImport(const QString &id, const QString &error)
{
    if (!error.isEmpty()) {
        QMessageBox::warning(this, tr("Import model"), error);
        return;
    }
    m_context.rescanModels();
    m_context.chooseModel(id);
    statusBar()->showMessage(tr("Imported %1").arg(id), 6000);
}

void MainWindow::showEvaluate()
{
    if (!m_evaluate) {
        m_evaluate = new EvaluateDialog(m_context, this);
        connect(m_evaluate, &EvaluateDialog::compareRequested, this, [this](const QString &source) {
            m_compare->input()->setPlainText(source);
            m_tabs->setCurrentIndex(CompareTab);
            m_compare->compare();
        });
    }
    m_evaluate->show();
    m_evaluate->raise();
    m_evaluate->activateWindow();
}

void MainWindow::showModels()
{
    ModelsDialog dialog(m_context.catalog(), *m_context.plugins(), this);
    connect(&dialog, &ModelsDialog::importRequested, this, [this, &dialog] {
        dialog.accept();
        importModel();
    });
    bool reopen = false, getModels = false;
    connect(&dialog, &ModelsDialog::getModelsRequested, this, [&dialog, &getModels] {
        getModels = true;
        dialog.accept();
    });
    connect(&dialog, &ModelsDialog::removeRequested, this,
            [this, &dialog, &reopen](const QString &id) {
                if (QMessageBox::question(
                        &dialog, tr("Remove model"),
                        tr("Remove the imported model %1 from this computer?").arg(id)) !=
                    QMessageBox::Yes)
                    return;
                QString folder, error;
                if (!removeImportedModel(id, &folder, &error)) {
                    QMessageBox::warning(&dialog, tr("Remove model"), error);
                    return;
                }
                m_context.rescanModels();
                statusBar()->showMessage(tr("Removed %1").arg(id), 6000);
                reopen = true;
                dialog.accept();
            });
    connect(&dialog, &ModelsDialog::defaultRequested, this,
            [this, &dialog, &reopen](const QString &id) {
                const std::optional<ModelInfo> info = m_context.catalog().find(id);
                QString error;
                if (!info || !ModelCatalog::setUserDefault(*info, &error)) {
                    QMessageBox::warning(&dialog, tr("Use as default"), error);
                    return;
                }
                m_context.rescanModels();
                statusBar()->showMessage(tr("%1 is now the default for its direction").arg(id),
                                         6000);
                reopen = true;
                dialog.accept();
            });
    dialog.exec();
    if (getModels)
        showGetModels();
    else if (reopen) // the dialog lists the catalog as it was: show it again, rescanned
        showModels();
}

void MainWindow::editKeptTerms()
{
    QDialog dialog(this);
    dialog.setWindowTitle(tr("Do not translate"));
    auto *layout = new QVBoxLayout(&dialog);
    auto *label = new QLabel(tr("Terms that every translation copies as they are, such as product "
                                "and people's names, one a line (whole words, matching case):"),
                             &dialog);
    label->setWordWrap(true);
    auto *terms = new QPlainTextEdit(&dialog);
    terms->setObjectName(QStringLiteral("keepTerms"));
    terms->setAccessibleName(tr("Terms not to translate"));
    terms->setPlainText(settings::keepTerms.value().join(QLatin1Char('\n')));
    label->setBuddy(terms);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, &dialog);
    connect(buttons, &QDialogButtonBox::accepted, &dialog, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    layout->addWidget(label);
    layout->addWidget(terms, 1);
    layout->addWidget(buttons);
    dialog.resize(420, 320);
    if (dialog.exec() != QDialog::Accepted)
        return;
    QStringList list;
    for (const QString &line : terms->toPlainText().split(QLatin1Char('\n')))
        if (!line.trimmed().isEmpty())
            list << line.trimmed();
    settings::keepTerms.setValue(list);
}

void MainWindow::showAbout()
{
    QDialog dialog(this);
    dialog.setWindowTitle(tr("About Glosa"));
    dialog.resize(560, 520);
    auto *layout = new QVBoxLayout(&dialog);
    auto *header = new QHBoxLayout;
    auto *icon = new QLabel(&dialog);
    icon->setPixmap(windowIcon().pixmap(72, 72));
    auto *title = new QLabel(&dialog);
    title->setText(
        QStringLiteral("<h2>Glosa %1</h2><p>%2</p>")
            .arg(QStringLiteral(GLOSA_VERSION),
                 tr("An offline translator that shows why it chose its words.").toHtmlEscaped()));
    header->addWidget(icon);
    header->addWidget(title, 1);
    layout->addLayout(header);
    auto *text = new QTextBrowser(&dialog);
    text->setOpenExternalLinks(true);
    text->setHtml(
        QStringLiteral("<h3>%1</h3><ul>"
                       "<li>%2</li><li>%3</li><li>%4</li></ul>"
                       "<h3>%5</h3><ul><li>%6</li><li>%7</li><li>%8</li><li>%9</li>"
                       "</ul>")
            .arg(tr("Data and models").toHtmlEscaped(),
                 tr("Translation models are trained on sentence pairs from Tatoeba "
                    "(CC-BY 2.0 FR), www.manythings.org/anki and tatoeba.org.")
                     .toHtmlEscaped(),
                 tr("The captioner is trained on Flickr8k, for research use only; the "
                    "images belong to their owners and are not distributed.")
                     .toHtmlEscaped(),
                 tr("Image features come from MobileNetV2 (Apache License 2.0).").toHtmlEscaped(),
                 tr("Software").toHtmlEscaped(), tr("Qt 6 (LGPL 3.0)").toHtmlEscaped(),
                 tr("oneDNN (Apache License 2.0)").toHtmlEscaped(),
                 tr("SentencePiece (Apache License 2.0), ICU (Unicode License)").toHtmlEscaped(),
                 tr("SQLite (public domain), nlohmann/json (MIT)").toHtmlEscaped()));
    layout->addWidget(text, 1);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, &dialog);
    connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    layout->addWidget(buttons);
    dialog.exec();
}

void MainWindow::restoreSettings()
{
    if (!restoreGeometry(settings::windowGeometry.value()))
        resize(1280, 800);
    restoreState(settings::windowState.value());
    m_translate->mainSplitter()->restoreState(settings::translateSplitter.value());
    m_translate->editorSplitter()->restoreState(settings::translateEditors.value());
    m_translate->verticalSplitter()->restoreState(settings::translateVertical.value());
    m_translate->attentionSplitter()->restoreState(settings::translateAttention.value());
    const QString last = settings::lastModel.value();
    if (!last.isEmpty())
        m_context.chooseModel(last);
    // A preset (the model's defaults unless the user chose another) is applied again, so that
    // it follows the model; custom settings are restored as they were.
    if (!m_translate->decodingPanel()->applyPreset(settings::decodingPreset.value()) &&
        settings::decoding.isSet())
        m_translate->decodingPanel()->setOptions(
            decodingOptionsFromMap(settings::decoding.value()));
    m_translate->setLiveTranslate(settings::liveTranslate.value());
    m_translate->setConfidenceShading(settings::confidence.value());
    m_compare->setColumnCount(settings::compareColumns.value());
    m_tabs->setCurrentIndex(settings::currentTab.value());
}

void MainWindow::saveSettings() const
{
    settings::windowGeometry.setValue(saveGeometry());
    settings::windowState.setValue(saveState());
    settings::translateSplitter.setValue(m_translate->mainSplitter()->saveState());
    settings::translateEditors.setValue(m_translate->editorSplitter()->saveState());
    settings::translateVertical.setValue(m_translate->verticalSplitter()->saveState());
    settings::translateAttention.setValue(m_translate->attentionSplitter()->saveState());
    settings::currentTab.setValue(m_tabs->currentIndex());
    settings::lastModel.setValue(currentModelId());
    settings::decoding.setValue(decodingOptionsToMap(m_translate->decodingPanel()->options()));
    settings::decodingPreset.setValue(m_translate->decodingPanel()->currentPresetName());
    settings::liveTranslate.setValue(m_translate->liveTranslate());
    settings::confidence.setValue(m_translate->confidenceShading());
    settings::compareColumns.setValue(m_compare->columnCount());
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    saveSettings();
    QMainWindow::closeEvent(event);
}

} // namespace glosa
