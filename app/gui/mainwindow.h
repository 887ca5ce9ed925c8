#pragma once

#include <QMainWindow>

class QTabWidget;

namespace glosa {

// The main window: one tab per view (Translate, Compare, Caption, Documents, History).
class MainWindow : public QMainWindow
{
    Q_OBJECT
public:
    explicit MainWindow(QWidget *parent = nullptr);

private:
    QTabWidget *m_tabs = nullptr;
};

} // namespace glosa
