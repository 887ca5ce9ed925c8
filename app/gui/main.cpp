#include "mainwindow.h"

#include <QApplication>

int main(int argc, char *argv[])
{
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("Glosa"));
    QApplication::setOrganizationName(QStringLiteral("Glosa"));
    QApplication::setApplicationVersion(QStringLiteral(GLOSA_VERSION));
    glosa::MainWindow window;
    window.show();
    return app.exec();
}
