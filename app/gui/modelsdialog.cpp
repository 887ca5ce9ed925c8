#include "modelsdialog.h"

#include "app/core/modelcatalog.h"
#include "app/core/pluginregistry.h"
#include "guiutil.h"

#include <QDialogButtonBox>
#include <QDir>
#include <QHeaderView>
#include <QJsonObject>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QTabWidget>
#include <QTableWidget>
#include <QVBoxLayout>

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
    m_models->setColumnCount(8);
    m_models->setHorizontalHeaderLabels({tr("Name"), tr("Languages"), tr("Architecture"),
                                         tr("Scores"), tr("Size"), tr("Licence"), tr("Status"),
                                         tr("Folder")});
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
    QPushButton *import = buttons->addButton(tr("Import model…"), QDialogButtonBox::ActionRole);
    connect(import, &QPushButton::clicked, this, &ModelsDialog::importRequested);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_tabs, 1);
    layout->addWidget(m_paths);
    layout->addWidget(buttons);
    fill();
}

void ModelsDialog::fill()
{
    const QList<ModelInfo> &models = m_catalog.models();
    m_models->setRowCount(models.size());
    for (int r = 0; r < models.size(); ++r) {
        const ModelInfo &m = models[r];
        QString status;
        if (!m.isValid())
            status = tr("Broken: %1").arg(m.error);
        else if (!m.shadowedBy.isEmpty())
            status = tr("Hidden by %1").arg(QDir::toNativeSeparators(m.shadowedBy));
        else if (!m_plugins.pluginForArchitecture(m.architecture))
            status = tr("No plugin for “%1” is installed").arg(m.architecture);
        else
            status = tr("Ready");
        const QString languages =
            m.task == QLatin1String("captioning")
                ? tr("Image → %1").arg(languageName(m.targetLanguage))
                : QStringLiteral("%1 → %2").arg(languageName(m.sourceLanguage),
                                               languageName(m.targetLanguage));
        const QStringList cells = {m.name.isEmpty() ? m.id : m.name,
                                   languages,
                                   m.architecture,
                                   scoresText(m.scores),
                                   formatBytes(m.sizeOnDisk),
                                   m.licence,
                                   status,
                                   QDir::toNativeSeparators(m.folder)};
        for (int c = 0; c < cells.size(); ++c) {
            auto *item = new QTableWidgetItem(cells[c]);
            item->setToolTip(cells[c]);
            m_models->setItem(r, c, item);
        }
    }
    m_models->resizeColumnsToContents();
    m_models->resizeRowsToContents();

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
