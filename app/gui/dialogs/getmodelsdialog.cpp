#include "app/gui/dialogs/getmodelsdialog.h"

#include "app/core/appcontext.h"
#include "app/core/hub/knownmodels.h"
#include "app/core/hub/modeldownloads.h"
#include "app/core/displaynames.h"

#include <QDialogButtonBox>
#include <QDir>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QProgressBar>
#include <QPushButton>
#include <QRegularExpression>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace glosa {

namespace {

enum Column { LanguagesColumn, RepositoryColumn, SizeColumn, LicenceColumn, DownloadsColumn };

// The pair an OPUS-MT name spells ("opus-mt-en-es"), else the hub's language tags.
QString languagesText(const HubModelSummary &model)
{
    static const QRegularExpression opus(QStringLiteral("opus-mt-([a-z]{2,3})-([a-z]{2,3})$"));
    const QRegularExpressionMatch pair = opus.match(model.id);
    if (pair.hasMatch())
        return QStringLiteral("%1 → %2").arg(languageName(pair.captured(1)),
                                             languageName(pair.captured(2)));
    QStringList names;
    for (const QString &code : model.languages.mid(0, 6))
        names << languageName(code);
    if (model.languages.size() > 6)
        names << QStringLiteral("…");
    return names.join(names.size() == 2 ? QStringLiteral(" → ") : QStringLiteral(", "));
}

HubModelSummary summaryOf(const KnownHubModel &known)
{
    HubModelSummary model;
    model.id = known.repo;
    model.licence = known.licence;
    model.languages = {known.source, known.target};
    model.downloads = -1; // not known without asking the hub
    return model;
}

} // namespace

GetModelsDialog::GetModelsDialog(AppContext &context, QWidget *parent)
    : QDialog(parent), m_context(context),
      m_downloads(new ModelDownloads(HubConfig::fromEnvironment(), this))
{
    setWindowTitle(tr("Get models"));
    resize(820, 460);
    m_search = new QLineEdit(this);
    m_search->setObjectName(QStringLiteral("hubSearch"));
    m_search->setClearButtonEnabled(true);
    m_search->setPlaceholderText(
        tr("Languages such as en-fr, or a repository such as Helsinki-NLP/opus-mt-en-fr"));
    m_search->setAccessibleName(tr("Search models"));
    m_searchButton = new QPushButton(tr("Search"), this);
    auto *searchRow = new QHBoxLayout;
    searchRow->addWidget(m_search, 1);
    searchRow->addWidget(m_searchButton);

    m_results = new QTableWidget(0, 5, this);
    m_results->setObjectName(QStringLiteral("hubResults"));
    m_results->setHorizontalHeaderLabels(
        {tr("Languages"), tr("Repository"), tr("Size"), tr("Licence"), tr("Downloads")});
    m_results->setAccessibleName(tr("Models on the hub"));
    m_results->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_results->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_results->setSelectionMode(QAbstractItemView::SingleSelection);
    m_results->verticalHeader()->hide();
    m_results->horizontalHeader()->setStretchLastSection(true);
    m_results->setAlternatingRowColors(true);

    m_status = new QLabel(tr("OPUS-MT models from the University of Helsinki, published on the "
                             "Hugging Face hub. Nothing is downloaded until you click Download."),
                          this);
    m_status->setObjectName(QStringLiteral("hubStatus"));
    m_status->setWordWrap(true);
    m_progress = new QProgressBar(this);
    m_progress->setObjectName(QStringLiteral("hubProgress"));
    m_progress->setRange(0, 1000);
    m_progress->setTextVisible(false);
    m_progress->setVisible(false);

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    m_download = buttons->addButton(tr("Download"), QDialogButtonBox::ActionRole);
    m_cancel = buttons->addButton(tr("Cancel download"), QDialogButtonBox::ActionRole);
    m_download->setObjectName(QStringLiteral("hubDownload"));
    m_cancel->setObjectName(QStringLiteral("hubCancel"));

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(searchRow);
    layout->addWidget(m_results, 1);
    layout->addWidget(m_status);
    layout->addWidget(m_progress);
    layout->addWidget(buttons);

    connect(m_search, &QLineEdit::returnPressed, this, &GetModelsDialog::search);
    connect(m_searchButton, &QPushButton::clicked, this, &GetModelsDialog::search);
    connect(m_download, &QPushButton::clicked, this, &GetModelsDialog::downloadSelected);
    connect(m_cancel, &QPushButton::clicked, m_downloads, &ModelDownloads::cancel);
    connect(buttons, &QDialogButtonBox::rejected, this, &GetModelsDialog::reject);
    connect(m_results, &QTableWidget::itemSelectionChanged, this, &GetModelsDialog::updateButtons);
    connect(m_results, &QTableWidget::cellDoubleClicked, this, &GetModelsDialog::downloadSelected);
    connect(m_downloads, &ModelDownloads::searchFinished, this, &GetModelsDialog::showResults);
    connect(m_downloads, &ModelDownloads::progressChanged, this, &GetModelsDialog::showProgress);
    connect(m_downloads, &ModelDownloads::installFinished, this, &GetModelsDialog::finishInstall);
    connect(m_downloads, &ModelDownloads::cachedModelsFound, this,
            [this] { fillTable(QString()); });
    m_downloads->findCachedModels(); // local folders only: nothing is sent
    updateButtons();
}

GetModelsDialog::~GetModelsDialog() = default;

void GetModelsDialog::search()
{
    const QString query = m_search->text().trimmed();
    if (query.isEmpty())
        return;
    m_status->setText(tr("Searching for “%1”…").arg(query));
    m_downloads->search(query);
    updateButtons();
}

void GetModelsDialog::showResults(const HubError &error)
{
    if (!error.ok()) {
        m_status->setText(tr("Could not search the hub: %1").arg(error.message));
        updateButtons();
        return;
    }
    m_rows = m_downloads->results();
    // A repository id typed in full is offered even when the search does not find it by name:
    // any MarianMT publisher's model can be downloaded.
    const QString typed = m_search->text().trimmed();
    const bool listed = std::any_of(m_rows.begin(), m_rows.end(), [&](const HubModelSummary &m) {
        return m.id.compare(typed, Qt::CaseInsensitive) == 0;
    });
    if (isValidRepoId(typed) && typed.contains(QLatin1Char('/')) && !listed) {
        HubModelSummary model;
        model.id = typed;
        model.downloads = -1;
        m_rows.append(model);
    }
    fillTable(m_rows.isEmpty() ? QString() : m_rows.first().id);
    m_status->setText(
        m_rows.isEmpty()
            ? tr("Nothing found for “%1”.").arg(typed)
            : tr("Models found: %1. Choose one and click Download.").arg(m_rows.size()));
}

bool GetModelsDialog::isInstalled(const QString &repo) const
{
    const std::optional<ModelInfo> info =
        m_context.catalog().find(repo.section(QLatin1Char('/'), -1));
    return info && info->isValid();
}

void GetModelsDialog::fillTable(const QString &select)
{
    const QString keep = select.isEmpty() ? selectedRepository() : select;
    m_results->setRowCount(0);
    QStringList listed;
    // Models on this computer first: they need no download.
    for (const CachedHubModel &cached : m_downloads->cachedModels()) {
        if (isInstalled(cached.repo) || listed.contains(cached.repo, Qt::CaseInsensitive))
            continue;
        HubModelSummary model;
        model.id = cached.repo;
        model.downloads = -1;
        addRow(model, cached.folder);
        listed << cached.repo;
    }
    for (const HubModelSummary &model : std::as_const(m_rows))
        if (!listed.contains(model.id, Qt::CaseInsensitive)) {
            addRow(model, {});
            listed << model.id;
        }
    m_results->resizeColumnsToContents();
    const QList<QTableWidgetItem *> found = m_results->findItems(keep, Qt::MatchFixedString);
    if (!keep.isEmpty() && !found.isEmpty())
        m_results->selectRow(found.first()->row());
    updateButtons();
}

void GetModelsDialog::addRow(const HubModelSummary &model, const QString &cachedFolder)
{
    const std::optional<KnownHubModel> known = knownHubModel(model.id);
    const QString size = !cachedFolder.isEmpty() ? tr("On this computer")
                         : known                 ? tr("≈ %1").arg(QLocale().formattedDataSize(
                                                       known->approximateBytes, 0, QLocale::DataSizeSIFormat))
                                                 : QStringLiteral("—");
    const QStringList cells = {languagesText(model), model.id, size,
                               model.licence.isEmpty() ? QStringLiteral("—") : model.licence,
                               model.downloads < 0 ? QStringLiteral("—")
                                                   : QLocale().toString(model.downloads)};
    const int row = m_results->rowCount();
    m_results->insertRow(row);
    for (int c = 0; c < cells.size(); ++c) {
        auto *item = new QTableWidgetItem(cells[c]);
        item->setToolTip(c == SizeColumn && !cachedFolder.isEmpty()
                             ? QDir::toNativeSeparators(cachedFolder)
                             : cells[c]);
        item->setData(Qt::UserRole, model.id);
        item->setData(Qt::UserRole + 1, cachedFolder);
        m_results->setItem(row, c, item);
    }
}

void GetModelsDialog::selectRepository(const QString &repo)
{
    if (m_results->findItems(repo, Qt::MatchFixedString).isEmpty()) {
        const std::optional<KnownHubModel> known = knownHubModel(repo);
        HubModelSummary model;
        model.id = repo;
        model.downloads = -1;
        m_rows.append(known ? summaryOf(*known) : model);
    }
    fillTable(repo);
    m_download->setFocus();
}

QString GetModelsDialog::selectedRepository() const
{
    const QList<QTableWidgetItem *> selected = m_results->selectedItems();
    return selected.isEmpty() ? QString() : selected.first()->data(Qt::UserRole).toString();
}

QString GetModelsDialog::selectedCachedFolder() const
{
    const QList<QTableWidgetItem *> selected = m_results->selectedItems();
    return selected.isEmpty() ? QString() : selected.first()->data(Qt::UserRole + 1).toString();
}

void GetModelsDialog::downloadSelected()
{
    const QString repo = selectedRepository();
    const QString folder = selectedCachedFolder();
    if (repo.isEmpty())
        return;
    if (!folder.isEmpty()) {
        const QList<CachedHubModel> &cached = m_downloads->cachedModels();
        const auto it = std::find_if(cached.begin(), cached.end(),
                                     [&](const CachedHubModel &c) { return c.folder == folder; });
        if (it == cached.end() || !m_downloads->importCached(*it))
            return;
        m_status->setText(tr("Importing %1 from this computer…").arg(repo));
    } else {
        if (!m_downloads->install(repo))
            return;
        m_status->setText(tr("Connecting to the hub for %1…").arg(repo));
    }
    m_progress->setValue(0);
    m_progress->setVisible(true);
    updateButtons();
}

void GetModelsDialog::showProgress()
{
    const DownloadProgress &p = m_downloads->progress();
    m_progress->setValue(int(p.fraction() * 1000));
    const QString repo = m_downloads->installingRepo();
    if (p.phase == DownloadProgress::Phase::Importing) {
        m_status->setText(
            tr("Converting %1 for Glosa… %2%").arg(repo).arg(int(p.importFraction * 100)));
        return;
    }
    if (p.total <= 0)
        return;
    QString text =
        tr("Downloading %1: %2 of %3").arg(repo, formatBytes(p.bytes), formatBytes(p.total));
    if (p.bytesPerSecond > 0)
        text += tr(", %1/s").arg(formatBytes(qint64(p.bytesPerSecond)));
    const double left = p.secondsLeft();
    if (left >= 0)
        text += left < 60 ? tr(", %1 s left").arg(qMax(1, int(left + 0.5)))
                          : tr(", about %1 min left").arg(int(left / 60 + 0.5));
    m_status->setText(text);
}

void GetModelsDialog::finishInstall(const QString &id, const HubError &error)
{
    m_progress->setVisible(false);
    updateButtons();
    if (error.kind == HubErrorKind::Cancelled) {
        m_status->setText(tr("Download cancelled. Downloading it again resumes where it stopped."));
        return;
    }
    if (!error.ok()) {
        m_status->setText(tr("Could not install the model: %1").arg(error.message));
        return;
    }
    // Usable at once: the catalog sees the new package, and it becomes the choice.
    m_context.rescanModels();
    m_context.chooseModel(id, AppContext::ChosenBy::User);
    fillTable(QString()); // an imported cache model is no longer offered
    m_status->setText(tr("Installed %1. It is now the model for its languages.").arg(id));
    emit modelInstalled(id);
}

void GetModelsDialog::updateButtons()
{
    const bool installing = m_downloads->isInstalling();
    m_download->setEnabled(!installing && !selectedRepository().isEmpty());
    // A model on this computer is imported, not downloaded.
    m_download->setText(selectedCachedFolder().isEmpty() ? tr("Download") : tr("Import"));
    m_cancel->setVisible(installing);
    m_searchButton->setEnabled(!m_downloads->isSearching());
}

void GetModelsDialog::reject()
{
    // Closing cancels a download that runs; what arrived is kept for the next attempt.
    m_downloads->cancel();
    QDialog::reject();
}

} // namespace glosa
