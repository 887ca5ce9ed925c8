// ModelsDialog: every installed model package (languages, architecture, scores, size, licence,
// and why a broken one cannot be used) and every plugin file the registry examined.
#pragma once

#include <QDialog>

class QLabel;
class QPushButton;
class QTableWidget;
class QTabWidget;

namespace glosa {

class ModelCatalog;
class PluginRegistry;

class ModelsDialog : public QDialog
{
    Q_OBJECT
public:
    ModelsDialog(const ModelCatalog &catalog, const PluginRegistry &plugins,
                 QWidget *parent = nullptr);
    QTableWidget *modelTable() const { return m_models; }

signals:
    void importRequested();

private:
    void fill();

    const ModelCatalog &m_catalog;
    const PluginRegistry &m_plugins;
    QTabWidget *m_tabs = nullptr;
    QTableWidget *m_models = nullptr;
    QTableWidget *m_pluginTable = nullptr;
    QLabel *m_paths = nullptr;
};

} // namespace glosa
