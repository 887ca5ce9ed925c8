#include "app/gui/dialogs/modelsdialog.h"

#include "app/core/models/modelcatalog.h"
#include "app/core/models/pluginregistry.h"
#include "app/core/displaynames.h"

#include <QDialogButtonBox>
#include <QDir>
#include <QFileInfo>
#include <QHeaderView>
#include <QJsonObject>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QTabWidget>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace glosa {

namespace {
QString scoresText(const QJsonObject &scores)
{
    QStringList parts;
    for (auto it = scores.begin(); it != scores.end(); ++it) {
        const QJsonObject s = it.value().toObject();
        QStringList metrics;
        // Translation models report BLEU and chrF, the captioner BLEU-4; numbers in the UI's
        // locale (21,4 in Spanish).
        const std::pair<const char *, const char *> names[] = {
            {"bleu", "BLEU"}, {"bleu4", "BLEU-4"}, {"chrf", "chrF"}};
        for (const auto &[key, label] : names)
            if (s.contains(QLatin1String(key)))
                metrics << QStringLiteral("%1 %2").arg(
                    QLatin1String(label),
                    QLocale().toString(s.value(QLatin1String(key)).toDouble(), 'f', 1));
        if (metrics.isEmpty())
            continue;
        parts << QStringLiteral("%1: %2").arg(it.key(), metrics.join(QStringLiteral(", ")));
    }
    return parts.join(QStringLiteral("\n"));
}
} // namespace

ModelsDialog::ModelsDialog(const ModelCatalog &catalog, const PluginRegistry &plugins,
                           QWidget *parent)
    : QDialog(parent), m_catalog(catalog), m_plugins(plugins)
{
    setWindowTitle(tr("Models"));
    resize(980, 480);
    m_tabs = new QTabWidget(this);
    m_models = new QTableWidget(this);
    m_models->setObjectName(QStringLiteral("modelsTable"));
    m_models->setColumnCount(9);
    m_models->setHorizontalHeaderLabels({tr("Name"), tr("Languages"), tr("Architecture"),
                                         tr("Scores"), tr("Size"), tr("Licence"), tr("Status"),
                                         tr("Origin"), tr("Folder")});
    m_models->setAccessibleName(tr("Installed models"));
    m_pluginTable = new QTableWidget(this);
    m_pluginTable->setColumnCount(4);
    m_pluginTable->setHorizontalHeaderLabels(
        {tr("Plugin"), tr("Architectures"), tr("Status"), tr("File")});
    m_pluginTable->setAccessibleName(tr("Plugins"));
    for (QTableWidget *table : {m_models, m_pluginTable}) {
        table->setEditTriggers(QAbstractItemView::NoEditTriggers);
        table->setSelectionBehavior(QAbstractItemView::SelectRows);
        table->verticalHeader()->hide();
        table->horizontalHeader()->setStretchLastSection(true);
        table->setWordWrap(true);
        table->setAlternatingRowColors(true);
    }
    m_tabs->addTab(m_models, tr("Models"));
    m_tabs->addTab(m_pluginTable, tr("Plugins"));
    m_paths = new QLabel(this);
    m_paths->setWordWrap(true);
    m_paths->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_paths->setForegroundRole(QPalette::PlaceholderText);

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    QPushButton *get = buttons->addButton(tr("Get models…"), QDialogButtonBox::ActionRole);
    get->setObjectName(QStringLiteral("getModels"));
    get->setToolTip(tr("Search and download OPUS-MT models from the Hugging Face hub"));
    connect(get, &QPushButton::clicked, this, &ModelsDialog::getModelsRequested);
    QPushButton *import = buttons->addButton(tr("Import model…"), QDialogButtonBox::ActionRole);
    connect(import, &QPushButton::clicked, this, &ModelsDialog::importRequested);
    m_remove = buttons->addButton(tr("Remove"), QDialogButtonBox::ActionRole);
    m_remove->setEnabled(false);
    m_default =
        buttons->addButton(tr("Use as default for this direction"), QDialogButtonBox::ActionRole);
    m_default->setEnabled(false);
    connect(m_models, &QTableWidget::itemSelectionChanged, this, [this] {
        const QTableWidgetItem *item = m_models->item(m_models->currentRow(), 0);
        const bool selected = m_models->selectionModel()->hasSelection() && item;
        m_remove->setEnabled(selected && item->data(Qt::UserRole + 1).toBool());
        m_default->setEnabled(selected && item->data(Qt::UserRole + 2).toBool());
    });
    connect(m_default, &QPushButton::clicked, this, [this] {
        if (const QTableWidgetItem *item = m_models->item(m_models->currentRow(), 0))
            emit defaultRequested(item->data(Qt::UserRole).toString());
    });
    connect(m_remove, &QPushButton::clicked, this, [this] {
        if (const QTableWidgetItem *item = m_models->item(m_models->currentRow(), 0))
            emit removeRequested(item->data(Qt::UserRole).toString());
    });
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_tabs, 1);
    layout->addWidget(m_paths);
    layout->addWidget(buttons);
    fill();
}

void ModelsDialog::fitColumns()
{
    m_models->resizeColumnsToContents();
    QHeaderView *header = m_models->horizontalHeader();
    QList<int> widths;
    for (int c = 0; c < header->count(); ++c)
        widths << header->sectionSize(c);
    // The widest width every column may keep so that all fit: the largest cap whose total fits.
    const int available = m_models->viewport()->width();
    const auto total = [&](int cap) {
        int sum = 0;
        for (int w : widths)
            sum += std::min(w, cap);
        return sum;
    };
    int low = header->minimumSectionSize(), high = *std::max_element(widths.begin(), widths.end());
    while (low < high) {
        const int cap = (low + high + 1) / 2;
        if (total(cap) <= available)
            low = cap;
        else
            high = cap - 1;
    }
    for (int c = 0; c < widths.size(); ++c)
        header->resizeSection(c, std::min(widths[c], low));
    m_models->resizeRowsToContents();
}

void ModelsDialog::showEvent(QShowEvent *event)
{
    QDialog::showEvent(event);
    fitColumns();
}

void ModelsDialog::resizeEvent(QResizeEvent *event)
{
    QDialog::resizeEvent(event);
    if (isVisible())
        fitColumns();
}

bool ModelsDialog::isDirectionDefault(const ModelInfo &m) const
{
    // The model the app takes for the direction when the user has not picked one in it:
    // "Use as default for this direction", else the package that declares itself the default.
    const std::optional<ModelInfo> chosen =
        m_catalog.defaultModel(m.task, m.sourceLanguage, m.targetLanguage);
    return chosen && chosen->id == m.id && chosen->folder == m.folder;
}

void ModelsDialog::fill()
{
    const QList<ModelInfo> &models = m_catalog.models();
    m_models->setRowCount(models.size());
    const QString userRoot = QFileInfo(ModelCatalog::userModelsDir()).canonicalFilePath();
    for (int r = 0; r < models.size(); ++r) {
        const ModelInfo &m = models[r];
        QString status;
        if (!m.isValid())
            status = tr("Broken: %1").arg(m.error);
        else if (!m.shadowedBy.isEmpty())
            status = tr("Hidden by %1").arg(QDir::toNativeSeparators(m.shadowedBy));
        else if (!m_plugins.pluginForArchitecture(m.architecture))
            status = tr("No plugin for “%1” is installed").arg(m.architecture);
        else if (isDirectionDefault(m))
            status = tr("Ready · the default for its direction");
        else
            status = tr("Ready");
        // A multi-target model names each of its target languages.
        QStringList targets;
        for (const QString &target :
             m.targetLanguages.isEmpty() ? QStringList{m.targetLanguage} : m.targetLanguages)
            targets << languageName(target);
        const QString languages =
            m.is(engine::Task::Captioning)
                ? tr("Image → %1").arg(targets.join(QStringLiteral(", ")))
                : QStringLiteral("%1 → %2").arg(languageName(m.sourceLanguage),
                                                targets.join(QStringLiteral(", ")));
        // Imported models live directly in the user's models folder and may be removed.
        const bool imported =
            !userRoot.isEmpty() && QFileInfo(m.folder).canonicalPath() == userRoot;
        const QString importedFrom = m.manifest.value(QLatin1String("imported_from"))
                                         .toObject()
                                         .value(QLatin1String("folder"))
                                         .toString();
        const QString origin =
            !imported ? tr("Bundled or on GLOSA_MODEL_PATH")
            : importedFrom.isEmpty()
                ? tr("Imported")
                : tr("Imported from %1").arg(QDir::toNativeSeparators(importedFrom));
        const QString marian = m.manifest.value(QLatin1String("imported_from"))
                                   .toObject()
                                   .value(QLatin1String("format"))
                                   .toString();
        // Names and architectures in the interface language, as the model picker shows them.
        const QString architecture = architectureName(m.architecture);
        const QStringList cells = {m.name.isEmpty() ? m.id : modelName(m),
                                   languages,
                                   marian.isEmpty() ? architecture
                                                    : tr("%1 (MarianMT)").arg(architecture),
                                   scoresText(m.scores),
                                   formatBytes(m.sizeOnDisk),
                                   m.licence,
                                   status,
                                   origin,
                                   QDir::toNativeSeparators(m.folder)};
        for (int c = 0; c < cells.size(); ++c) {
            auto *item = new QTableWidgetItem(cells[c]);
            item->setToolTip(cells[c]);
            m_models->setItem(r, c, item);
        }
        m_models->item(r, 0)->setData(Qt::UserRole, m.id);
        m_models->item(r, 0)->setData(Qt::UserRole + 1, imported && !m.id.isEmpty());
        m_models->item(r, 0)->setData(Qt::UserRole + 2, m.isValid() && m.shadowedBy.isEmpty());
    }
    fitColumns();
    fillPlugins();
}

void ModelsDialog::fillPlugins()
{
    const QList<PluginRecord> &records = m_plugins.records();
    m_pluginTable->setRowCount(records.size());
    for (int r = 0; r < records.size(); ++r) {
        const PluginRecord &p = records[r];
        const QStringList cells = {p.name, p.architectures.join(QStringLiteral(", ")),
                                   p.isLoaded() ? tr("Loaded") : p.reason,
                                   QDir::toNativeSeparators(p.fileName)};
        for (int c = 0; c < cells.size(); ++c)
            m_pluginTable->setItem(r, c, new QTableWidgetItem(cells[c]));
    }
    m_pluginTable->resizeColumnsToContents();
    QStringList folders;
    for (const QString &f : m_catalog.searchPaths())
        folders << QDir::toNativeSeparators(f);
    m_paths->setText(tr("Models are looked for in: %1")
                         .arg(folders.isEmpty() ? tr("(no folder exists yet)")
                                                : folders.join(QStringLiteral(" · "))));
}

} // namespace glosa
