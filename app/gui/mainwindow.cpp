#include "app/gui/mainwindow.h"

#include "app/core/appcontext.h"
#include "app/core/history/recorder.h"
#include "app/core/models/modelimport.h"
#include "app/core/platform/handoff.h"
#include "app/core/platform/regularfile.h"
#include "app/core/presenters/modelpickerpresenter.h"
#include "app/core/settings/decodingmaps.h"
#include "app/core/settings/settings.h"
#include "app/core/settings/settingsfile.h"
#include "app/core/uilanguage.h"
#include "app/gui/dialogs/aboutdialog.h"
#include "app/gui/dialogs/evaluatedialog.h"
#include "app/gui/dialogs/getmodelsdialog.h"
#include "app/gui/dialogs/keeptermsdialog.h"
#include "app/gui/dialogs/modelsdialog.h"
#include "app/gui/filedialogs.h"
#include "app/gui/recentfiles.h"
#include "app/gui/historycontroller.h"
#include "app/gui/mainmenus.h"
#include "app/gui/modelbar.h"
#include "app/gui/views/captionview.h"
#include "app/gui/views/compareview.h"
#include "app/gui/views/documentsview.h"
#include "app/gui/views/historyview.h"
#include "app/gui/views/translateview.h"
#include "app/gui/widgets/decodingpanel.h"

#include <QApplication>
#include <QCloseEvent>
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QFont>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QProgressDialog>
#include <QSplitter>
#include <QStatusBar>
#include <QTabWidget>
#include <QVBoxLayout>

#include <atomic>
#include <memory>
#include <optional>

namespace glosa {

namespace {
// The application's font before Korean asked for Hangul families; put back when the interface
// leaves Korean, so that a switch there and back leaves nothing of it behind.
std::optional<QFont> g_fontBeforeKorean;

// Korean needs a font with Hangul: the one fontconfig picks for the text already, else one of
// those scripts/setup-common.sh installs, rather than boxes. As the application font's fallback
// families (not a global substitution, which outlived the language and drew the whole interface
// in the Hangul font after switching back).
void applyLanguageFont(const QString &code)
{
    if (code == QLatin1String("ko")) {
        if (!g_fontBeforeKorean)
            g_fontBeforeKorean = QApplication::font();
        QFont font = *g_fontBeforeKorean;
        font.setFamilies({g_fontBeforeKorean->family(), QStringLiteral("Noto Sans CJK KR"),
                          QStringLiteral("NanumGothic"), QStringLiteral("UnDotum"),
                          QStringLiteral("Baekmuk Gulim")});
        QApplication::setFont(font);
    } else if (g_fontBeforeKorean) {
        QApplication::setFont(*g_fontBeforeKorean);
        g_fontBeforeKorean.reset();
    }
}
// What the menus act on: the window's views and its commands.
MainMenus::Window menusWindow(MainWindow &w)
{
    return {.window = &w,
            .context = &w.context(),
            .tabs = w.tabs(),
            .translate = w.translateView(),
            .compare = w.compareView(),
            .caption = w.captionView(),
            .documents = w.documentsView(),
            .history = w.historyView(),
            .openFile = [&w] { w.openFile(); },
            .saveTranslation = [&w] { w.saveTranslation(); },
            .importModel = [&w] { w.importModel(); },
            .getModels = [&w] { w.showGetModels(); },
            .find = [&w] { w.showFindBar(); },
            .swapDirection = [&w] { w.swapDirection(); },
            .evaluate = [&w] { w.showEvaluate(); },
            .keepTerms = [&w] { w.editKeptTerms(); },
            .models = [&w] { w.showModels(); },
            .about = [&w] { w.showAbout(); },
            .openRecent = [&w](const RecentFile &file) { w.openRecent(file); },
            .setUiLanguage = [](const QString &language) { MainWindow::setUiLanguage(language); }};
}
} // namespace

bool MainWindow::setUiLanguage(const QString &language)
{
    const QString code = resolveUiLanguage(language);
    applyLanguageFont(code);
    const bool ok = installUiLanguage(language);
    // English installs no translator: the windows are told now (a removed translator's event
    // reaches them only through the event loop).
    if (code == QLatin1String("en")) {
        QEvent change(QEvent::LanguageChange);
        for (QWidget *w : QApplication::topLevelWidgets())
            QCoreApplication::sendEvent(w, &change);
    }
    QGuiApplication::setLayoutDirection(Qt::LeftToRight);
    return ok;
}

QString MainWindow::uiLanguage()
{
    return installedUiLanguage();
}

MainWindow::MainWindow(AppContext &context, QWidget *parent)
    : QMainWindow(parent), m_context(context)
{
    setWindowIcon(QIcon(QStringLiteral(":/icons/glosa.png")));
    m_modelBar = new ModelBar(context, this);
    connect(m_modelBar, &ModelBar::getModelsRequested, this, &MainWindow::showGetModels);
    connect(m_modelBar, &ModelBar::swapRequested, this, &MainWindow::swapDirection);
    createViews();
    auto *central = new QWidget(this);
    auto *centralLayout = new QVBoxLayout(central);
    centralLayout->setContentsMargins(0, 0, 0, 0);
    centralLayout->setSpacing(6);
    centralLayout->addWidget(m_modelBar);
    centralLayout->addWidget(createFindBar());
    centralLayout->addWidget(m_tabs, 1);
    setCentralWidget(central);

    m_menus = new MainMenus(menusWindow(*this));
    const auto showSwap = [this] {
        m_menus->setSwapEnabled(bool(m_modelBar->presenter()->reverseModel()));
    };
    connect(m_modelBar->presenter(), &ModelPickerPresenter::choiceChanged, this, showSwap);
    showSwap();
    connect(&context, &AppContext::modelsChanged, this, &MainWindow::listModelIds);
    connect(m_tabs, &QTabWidget::currentChanged, this,
            [this](int tab) { m_modelBar->setForCaptions(tab == CaptionTab); });
    connectStatusMessages();

    listModelIds();
    retranslateUi();
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

void MainWindow::createViews()
{
    m_tabs = new QTabWidget(this);
    m_tabs->setDocumentMode(true);
    m_translate = new TranslateView(m_context, m_tabs);
    m_compare = new CompareView(m_context, m_tabs);
    m_caption = new CaptionView(m_context, m_tabs);
    m_documents = new DocumentsView(m_context, m_tabs);
    m_history = new HistoryView(m_context.history(), m_tabs);
    for (QWidget *view : std::initializer_list<QWidget *>{m_translate, m_compare, m_caption,
                                                          m_documents, m_history})
        m_tabs->addTab(view, QString());
}

QWidget *MainWindow::createFindBar()
{
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
    return m_findBar;
}

void MainWindow::connectStatusMessages()
{
    connect(&m_context, &AppContext::modelLoaded, this, [this](const ModelInfo &info) {
        statusBar()->showMessage(tr("Loaded %1").arg(info.id), 4000);
    });
    connect(
        &m_context, &AppContext::modelLoadFailed, this,
        [this](const ModelInfo &, const QString &message) { statusBar()->showMessage(message); });
    const auto show = [this](const QString &m) { statusBar()->showMessage(m, 8000); };
    connect(m_translate, &TranslateView::statusMessage, this, show);
    connect(m_documents, &DocumentsView::statusMessage, this, show);
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
}

void MainWindow::retranslateUi()
{
    setWindowTitle(tr("Glosa"));
    m_tabs->setTabText(TranslateTab, tr("Translate"));
    m_tabs->setTabText(CompareTab, tr("Compare"));
    m_tabs->setTabText(CaptionTab, tr("Caption"));
    m_tabs->setTabText(DocumentsTab, tr("Documents"));
    m_tabs->setTabText(HistoryTab, tr("History"));
    m_findEdit->setPlaceholderText(tr("Find in the texts (Enter: next)"));
    m_findEdit->setAccessibleName(tr("Find"));
}

void MainWindow::changeEvent(QEvent *event)
{
    if (m_findEdit && event->type() == QEvent::LanguageChange)
        retranslateUi();
    QMainWindow::changeEvent(event);
}

void MainWindow::listModelIds()
{
    QStringList modelIds;
    for (const ModelInfo &info : m_context.catalog().models())
        modelIds << info.id;
    m_history->setModelIds(modelIds);
}

QComboBox *MainWindow::modelPicker() const
{
    return m_modelBar->picker();
}

QLabel *MainWindow::hubHint() const
{
    return m_modelBar->hubHint();
}

QString MainWindow::currentModelId() const
{
    return m_modelBar->currentModelId();
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

void MainWindow::swapDirection()
{
    // The reverse direction's model by the same rule as everywhere (the user's last choice for it,
    // else its default), never merely the first one listed: that was the Tatoeba-only model.
    const std::optional<ModelInfo> reverse = m_modelBar->presenter()->reverseModel();
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
    const QString path = openFileName(this, FileKind::Documents, tr("Open text"),
                                      tr("Text files (*.txt *.md);;All files (*)"));
    if (path.isEmpty())
        return;
    rememberOpened(OpenedAs::Text, path);
    openText(path);
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
    const QString path =
        saveFileName(this, FileKind::Exports, tr("Save translation"),
                     QStringLiteral("translation.%1.txt")
                         .arg(model ? model->targetLanguage : QStringLiteral("txt")),
                     tr("Text files (*.txt);;All files (*)"));
    if (path.isEmpty())
        return;
    QString error;
    if (!m_translate->saveTranslation(path, &error))
        QMessageBox::warning(this, tr("Save translation"), error);
    else
        statusBar()->showMessage(tr("Saved %1").arg(QDir::toNativeSeparators(path)), 6000);
}

void MainWindow::importModel()
{
    const QString folder =
        existingFolder(this, FileKind::Models,
                       tr("Import model (a Glosa package or a Hugging Face MarianMT folder)"));
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
            [this, &dialog, &reopen](const QString &id) { reopen = removeModel(dialog, id); });
    connect(&dialog, &ModelsDialog::defaultRequested, this,
            [this, &dialog, &reopen](const QString &id) { reopen = makeDefault(dialog, id); });
    dialog.exec();
    if (getModels)
        showGetModels();
    else if (reopen) // the dialog lists the catalog as it was: show it again, rescanned
        showModels();
}

bool MainWindow::removeModel(ModelsDialog &dialog, const QString &id)
{
    if (QMessageBox::question(&dialog, tr("Remove model"),
                              tr("Remove the imported model %1 from this computer?").arg(id)) !=
        QMessageBox::Yes)
        return false;
    QString folder, error;
    if (!removeImportedModel(id, &folder, &error)) {
        QMessageBox::warning(&dialog, tr("Remove model"), error);
        return false;
    }
    m_context.rescanModels();
    statusBar()->showMessage(tr("Removed %1").arg(id), 6000);
    dialog.accept();
    return true;
}

bool MainWindow::makeDefault(ModelsDialog &dialog, const QString &id)
{
    const std::optional<ModelInfo> info = m_context.catalog().find(id);
    QString error;
    if (!info || !ModelCatalog::setUserDefault(*info, &error)) {
        QMessageBox::warning(&dialog, tr("Use as default"), error);
        return false;
    }
    m_context.rescanModels();
    statusBar()->showMessage(tr("%1 is now the default for its direction").arg(id), 6000);
    dialog.accept();
    return true;
}

void MainWindow::editKeptTerms()
{
    KeepTermsDialog::edit(this);
}

void MainWindow::showAbout()
{
    AboutDialog(windowIcon(), this).exec();
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
