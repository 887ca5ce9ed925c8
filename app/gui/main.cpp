#include "app/core/appcontext.h"
#include "app/core/platform/openmpsetup.h"
#include "app/core/settings/settings.h"
#include "app/core/settings/settingsfile.h"
#include "app/gui/views/captionview.h"
#include "app/gui/views/compareview.h"
#include "app/gui/views/documentsview.h"
#include "app/gui/dialogs/evaluatedialog.h"
#include "app/gui/dialogs/getmodelsdialog.h"
#include "app/gui/views/historymodel.h"
#include "app/gui/views/historyview.h"
#include "app/gui/mainwindow.h"
#include "app/gui/theme.h"
#include "app/gui/views/translateview.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QIcon>
#include <QLineEdit>
#include <QListView>
#include <QPlainTextEdit>
#include <QTabWidget>

namespace {

// What a launcher (or tools/screenshots) may pass: a model, a view and a text.
struct CommandLine
{
    QCommandLineParser parser;
    QCommandLineOption model{QStringLiteral("model"), QStringLiteral("Model id to select."),
                             QStringLiteral("ID")};
    QCommandLineOption view{QStringLiteral("view"),
                            QStringLiteral("View to show: translate, compare, caption, documents, "
                                           "history, evaluate (the Evaluate dialog, run at "
                                           "once on the bundled sample), or get-models (Get "
                                           "models…, downloading the repository given as text)."),
                            QStringLiteral("NAME")};

    CommandLine()
    {
        parser.setApplicationDescription(
            QStringLiteral("Glosa, the offline translator that shows its work"));
        parser.addHelpOption();
        parser.addVersionOption();
        parser.addOption(model);
        parser.addOption(view);
        parser.addPositionalArgument(QStringLiteral("text"),
                                     QStringLiteral("Text to put into the view's input (caption: "
                                                    "image files; history: what to search for; "
                                                    "documents: a file to open and translate; "
                                                    "get-models: a repository id)."));
    }
};

void setApplicationNames()
{
    QCoreApplication::setApplicationName(QStringLiteral("Glosa"));
    QCoreApplication::setOrganizationName(QStringLiteral("Glosa"));
    QCoreApplication::setApplicationVersion(QStringLiteral(GLOSA_VERSION));
}

// Opens `view` of --view with the positional arguments (`args`), as a launcher or
// tools/screenshots asks.
void openView(glosa::MainWindow &window, const QString &view, const QStringList &args)
{
    const QString text = args.join(QLatin1Char(' '));
    if (view == QLatin1String("compare")) {
        window.tabs()->setCurrentIndex(glosa::MainWindow::CompareTab);
        if (!text.isEmpty()) {
            window.compareView()->input()->setPlainText(text);
            QMetaObject::invokeMethod(window.compareView(), &glosa::CompareView::compare,
                                      Qt::QueuedConnection);
        }
    } else if (view == QLatin1String("caption")) {
        window.tabs()->setCurrentIndex(glosa::MainWindow::CaptionTab);
        window.captionView()->addImages(args); // image files to caption
    } else if (view == QLatin1String("documents")) {
        window.tabs()->setCurrentIndex(glosa::MainWindow::DocumentsTab);
        if (!text.isEmpty()) {
            glosa::DocumentsView *documents = window.documentsView();
            QObject::connect(documents, &glosa::DocumentsView::opened, documents,
                             &glosa::DocumentsView::translateDocument, Qt::SingleShotConnection);
            documents->openDocument(text);
        }
    } else if (view == QLatin1String("history")) {
        window.tabs()->setCurrentIndex(glosa::MainWindow::HistoryTab);
        glosa::HistoryView *history = window.historyView();
        history->searchEdit()->setText(text);
        history->refresh();
        history->list()->setCurrentIndex(history->model()->index(0, 0));
    } else if (view == QLatin1String("evaluate")) {
        // Every model of the first direction, checked as the dialog checks them, on the bundled
        // sample: what tools/screenshots shows of the bottleneck (BLEU by sentence length).
        window.showEvaluate();
        QMetaObject::invokeMethod(window.evaluateDialog(), &glosa::EvaluateDialog::evaluate,
                                  Qt::QueuedConnection);
    } else if (view == QLatin1String("get-models")) {
        // Get models… with the repository of the text chosen and its download started (the
        // command line asked for it, as a click on Download does): what tools/screenshots shows.
        window.showGetModels(text);
        if (!text.isEmpty())
            QMetaObject::invokeMethod(window.getModelsDialog(),
                                      &glosa::GetModelsDialog::downloadSelected,
                                      Qt::QueuedConnection);
    } else if (view == QLatin1String("translate") || !text.isEmpty()) {
        window.tabs()->setCurrentIndex(glosa::MainWindow::TranslateTab);
        if (!text.isEmpty())
            window.translateView()->sourceEditor()->setPlainText(text);
    }
}

} // namespace

int main(int argc, char *argv[])
{
    glosa::setUpOpenMp(argv);
    // --help and --version print and exit before any window system is needed, so that they work
    // over ssh or in a script with no display. (Only then: QApplication also takes options of
    // its own, such as -platform, that QCoreApplication does not know.)
    const auto asks = [&](std::initializer_list<const char *> flags) {
        for (int i = 1; i < argc; ++i)
            for (const char *flag : flags)
                if (qstrcmp(argv[i], flag) == 0)
                    return true;
        return false;
    };
    if (asks({"-h", "--help", "--help-all", "-?", "-v", "--version"})) {
        QCoreApplication console(argc, argv);
        setApplicationNames();
        CommandLine commandLine;
        commandLine.parser.process(console);
    }
    QApplication::setHighDpiScaleFactorRoundingPolicy(
        Qt::HighDpiScaleFactorRoundingPolicy::PassThrough);
    QApplication app(argc, argv);
    setApplicationNames();
    glosa::installSettingsFile();
    QApplication::setDesktopFileName(QStringLiteral("org.glosa.Glosa"));
    QApplication::setWindowIcon(QIcon(QStringLiteral(":/icons/glosa.png")));
    CommandLine commandLine;
    commandLine.parser.process(app);
    const QCommandLineParser &parser = commandLine.parser;
    const QCommandLineOption &modelOption = commandLine.model;
    const QCommandLineOption &viewOption = commandLine.view;

    glosa::MainWindow::setUiLanguage(glosa::settings::language.value());
    glosa::theme::applyAppearance(glosa::settings::appearance.value());
    // The window shows the context's models, workers and history; it goes first.
    glosa::AppContext context;
    glosa::MainWindow window(context);
    if (parser.isSet(modelOption))
        context.chooseModel(parser.value(modelOption));
    openView(window, parser.value(viewOption), parser.positionalArguments());
    window.show();
    return app.exec();
}
