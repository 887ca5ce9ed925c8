#include "app/core/openmpsetup.h"
#include "app/core/settings.h"
#include "captionview.h"
#include "compareview.h"
#include "documentsview.h"
#include "historymodel.h"
#include "historyview.h"
#include "mainwindow.h"
#include "translateview.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QLineEdit>
#include <QListView>
#include <QIcon>
#include <QPlainTextEdit>
#include <QSettings>
#include <QTabWidget>

int main(int argc, char *argv[])
{
    glosa::setUpOpenMp(argv);
    QApplication::setHighDpiScaleFactorRoundingPolicy(
        Qt::HighDpiScaleFactorRoundingPolicy::PassThrough);
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("Glosa"));
    QApplication::setOrganizationName(QStringLiteral("Glosa"));
    QApplication::setApplicationVersion(QStringLiteral(GLOSA_VERSION));
    QApplication::setDesktopFileName(QStringLiteral("org.glosa.Glosa"));
    QApplication::setWindowIcon(QIcon(QStringLiteral(":/icons/glosa.png")));

    // Lets a launcher (or tools/screenshots) open Glosa on a model, a view and a text.
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Glosa, the offline translator that shows its work"));
    parser.addHelpOption();
    parser.addVersionOption();
    const QCommandLineOption modelOption(QStringLiteral("model"),
                                         QStringLiteral("Model id to select."), QStringLiteral("ID"));
    const QCommandLineOption viewOption(QStringLiteral("view"),
                                        QStringLiteral("View to show: translate, compare, caption, documents "
                                                       "or history."),
                                        QStringLiteral("NAME"));
    parser.addOption(modelOption);
    parser.addOption(viewOption);
    parser.addPositionalArgument(QStringLiteral("text"),
                                 QStringLiteral("Text to put into the view's input (caption: image "
                                                "files; history: "
                                                "what to search for; documents: a file to "
                                                "open and translate)."));
    parser.process(app);

    glosa::MainWindow::setUiLanguage(
        QSettings().value(QLatin1String(glosa::settingsKeys::kLanguage)).toString());
    glosa::MainWindow window;
    if (parser.isSet(modelOption))
        window.selectModel(parser.value(modelOption));
    const QString view = parser.value(viewOption);
    const QString text = parser.positionalArguments().join(QLatin1Char(' '));
    if (view == QLatin1String("compare")) {
        window.tabs()->setCurrentIndex(glosa::MainWindow::CompareTab);
        if (!text.isEmpty()) {
            window.compareView()->input()->setPlainText(text);
            QMetaObject::invokeMethod(window.compareView(), &glosa::CompareView::compare,
                                      Qt::QueuedConnection);
        }
    } else if (view == QLatin1String("caption")) {
        window.tabs()->setCurrentIndex(glosa::MainWindow::CaptionTab);
        window.captionView()->addImages(parser.positionalArguments()); // image files to caption
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
    } else if (view == QLatin1String("translate") || !text.isEmpty()) {
        window.tabs()->setCurrentIndex(glosa::MainWindow::TranslateTab);
        if (!text.isEmpty())
            window.translateView()->sourceEditor()->setPlainText(text);
    }
    window.show();
    return app.exec();
}
