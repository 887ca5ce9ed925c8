#include "app/core/settings.h"
#include "mainwindow.h"

#include <QApplication>
#include <QIcon>
#include <QSettings>

int main(int argc, char *argv[])
{
    QApplication::setHighDpiScaleFactorRoundingPolicy(
        Qt::HighDpiScaleFactorRoundingPolicy::PassThrough);
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("Glosa"));
    QApplication::setOrganizationName(QStringLiteral("Glosa"));
    QApplication::setApplicationVersion(QStringLiteral(GLOSA_VERSION));
    QApplication::setDesktopFileName(QStringLiteral("org.glosa.Glosa"));
    QApplication::setWindowIcon(QIcon(QStringLiteral(":/icons/glosa.png")));
    glosa::MainWindow::setUiLanguage(
        QSettings().value(QLatin1String(glosa::settingsKeys::kLanguage)).toString());
    glosa::MainWindow window;
    window.show();
    return app.exec();
}
