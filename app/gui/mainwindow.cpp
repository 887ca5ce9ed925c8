#include "mainwindow.h"

#include <QLabel>
#include <QTabWidget>

namespace glosa {

static QWidget *comingView(const QString &text)
{
    auto *label = new QLabel(text);
    label->setAlignment(Qt::AlignCenter);
    label->setWordWrap(true);
    return label;
}

MainWindow::MainWindow(QWidget *parent) : QMainWindow(parent), m_tabs(new QTabWidget(this))
{
    setWindowTitle(tr("Glosa"));
    m_tabs->addTab(comingView(tr("No translation model is installed yet.")), tr("Translate"));
    m_tabs->addTab(comingView(tr("No translation model is installed yet.")), tr("Compare"));
    m_tabs->addTab(comingView(tr("No captioning model is installed yet.")), tr("Caption"));
    m_tabs->addTab(comingView(tr("Document translation is not available yet.")), tr("Documents"));
    m_tabs->addTab(comingView(tr("History is not available yet.")), tr("History"));
    setCentralWidget(m_tabs);
    resize(1100, 720);
}

} // namespace glosa
