// ModelsDialog: every installed model package (languages, architecture, scores, size, licence,
// where it came from, which one is its direction's default, and why a broken one cannot be used)
// and every plugin file the registry examined. Get models…, Import… and Remove (imported models
// only) are requests the window carries out.
#pragma once

#include <QDialog>

class QLabel;
class QPushButton;
class QTableWidget;
class QTabWidget;

namespace glosa {

class ModelCatalog;
struct ModelInfo;
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
    // Get models… was clicked: search and download from the hub.
    void getModelsRequested();
    // Remove was clicked on an imported model (one in ModelCatalog::userModelsDir()).
    void removeRequested(const QString &id);
    // "Use as default for this direction" was clicked on a usable model.
    void defaultRequested(const QString &id);

protected:
    void showEvent(QShowEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;

private:
    void fill();
    // The Plugins tab and the folders models are looked for in.
    void fillPlugins();
    // The columns as wide as their text, the widest narrowed (wrapped, or elided with the whole
    // text in the tooltip) until the table fits the dialog: no column scrolled out of sight.
    void fitColumns();
    bool isDirectionDefault(const ModelInfo &m) const;

    const ModelCatalog &m_catalog;
    const PluginRegistry &m_plugins;
    QTabWidget *m_tabs = nullptr;
    QTableWidget *m_models = nullptr;
    QTableWidget *m_pluginTable = nullptr;
    QLabel *m_paths = nullptr;
    QPushButton *m_remove = nullptr;
    QPushButton *m_default = nullptr;
};

} // namespace glosa
