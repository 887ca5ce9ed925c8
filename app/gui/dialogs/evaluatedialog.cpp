#include "app/gui/dialogs/evaluatedialog.h"

#include "app/core/appcontext.h"
#include "app/core/evaluation/testsets.h"
#include "app/core/history/recorder.h"
#include "app/core/history/entrykinds.h"
#include "app/core/inference/languageguess.h"
#include "app/core/settings/settings.h"
#include "app/gui/filedialogs.h"
#include "app/core/displaynames.h"
#include "app/gui/theme.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QListWidget>
#include <QPainter>
#include <QProgressBar>
#include <QPushButton>
#include <QSplitter>
#include <QTableWidget>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace glosa {

namespace {

enum TestSetChoice { BundledSample, TsvFile, AlignedFiles };

// Distinct colours for up to six models, from the palette's accent around the hue circle.
QColor seriesColor(const QPalette &palette, int index)
{
    const QColor accent = theme::accent(palette);
    return QColor::fromHsv((accent.hue() + index * 67) % 360, std::max(accent.saturation(), 140),
                           theme::isDark(palette) ? 230 : 190);
}

} // namespace

LengthChart::LengthChart(QWidget *parent) : QWidget(parent)
{
    setMinimumHeight(160);
}

void LengthChart::setData(const QStringList &models, const std::vector<engine::LengthBucket> &buckets)
{
    m_models = models;
    m_buckets = buckets;
    update();
}

void LengthChart::paintEvent(QPaintEvent *)
{
    QPainter painter(this);
    const QPalette pal = palette();
    painter.fillRect(rect(), pal.color(QPalette::Base));
    const QFontMetrics fm(font());
    if (m_buckets.empty()) {
        painter.setPen(pal.color(QPalette::PlaceholderText));
        painter.drawText(rect(), Qt::AlignCenter | Qt::TextWordWrap,
                         tr("BLEU by source-sentence length appears here after an evaluation."));
        return;
    }
    double top = 10.0;
    for (const auto &b : m_buckets)
        for (double v : b.bleu)
            top = std::max(top, std::ceil(v / 10.0) * 10.0);
    const int legendHeight = fm.height() + 6;
    const QRect plot = rect().adjusted(fm.horizontalAdvance(QStringLiteral("100")) + 14,
                                       legendHeight + 6, -8, -(2 * fm.height() + 8));
    painter.setPen(pal.color(QPalette::Mid));
    for (int tick = 0; tick <= int(top); tick += 10) {
        const int y = plot.bottom() - int(plot.height() * tick / top);
        painter.drawLine(plot.left(), y, plot.right(), y);
        painter.setPen(pal.color(QPalette::Text));
        painter.drawText(QRect(0, y - fm.height() / 2, plot.left() - 6, fm.height()),
                         Qt::AlignRight | Qt::AlignVCenter, QString::number(tick));
        painter.setPen(pal.color(QPalette::Mid));
    }
    const int groups = int(m_buckets.size());
    const int series = std::max<int>(1, int(m_models.size()));
    const double groupWidth = double(plot.width()) / groups;
    const double barWidth = groupWidth * 0.8 / series;
    for (int g = 0; g < groups; ++g) {
        const auto &bucket = m_buckets[std::size_t(g)];
        for (int s = 0; s < int(bucket.bleu.size()); ++s) {
            const double v = bucket.bleu[std::size_t(s)];
            const int h = int(plot.height() * v / top);
            const QRectF bar(plot.left() + g * groupWidth + groupWidth * 0.1 + s * barWidth,
                             plot.bottom() - h, barWidth - 2, h);
            painter.fillRect(bar, seriesColor(pal, s));
        }
        painter.setPen(pal.color(QPalette::Text));
        const QRect label(int(plot.left() + g * groupWidth), plot.bottom() + 4, int(groupWidth),
                          fm.height());
        painter.drawText(label, Qt::AlignCenter, QString::fromStdString(engine::lengthBucketLabel(bucket)));
        painter.setPen(pal.color(QPalette::PlaceholderText));
        painter.drawText(label.translated(0, fm.height()), Qt::AlignCenter,
                         tr("%n sentence(s)", nullptr, int(bucket.sentences)));
    }
    // Legend: a swatch and the model id for each series.
    int x = plot.left();
    for (int s = 0; s < m_models.size(); ++s) {
        painter.fillRect(QRect(x, 4, fm.height(), fm.height()), seriesColor(pal, s));
        x += fm.height() + 4;
        painter.setPen(pal.color(QPalette::Text));
        painter.drawText(QPoint(x, 4 + fm.ascent()), m_models[s]);
        x += fm.horizontalAdvance(m_models[s]) + 16;
    }
}

namespace {

// The results, one above the other: the scores and the chart under its title, then the
// sentences where the models differ.
QSplitter *resultsPane(QWidget *parent, QTableWidget *scores, LengthChart *chart,
                       QTreeWidget *differences, const QString &chartTitle)
{
    auto *results = new QSplitter(Qt::Vertical, parent);
    auto *top = new QWidget(results);
    auto *topLayout = new QVBoxLayout(top);
    topLayout->setContentsMargins(0, 0, 0, 0);
    topLayout->addWidget(scores);
    auto *title = new QLabel(chartTitle, top);
    title->setFont(theme::titleFont(parent->font()));
    topLayout->addWidget(title);
    topLayout->addWidget(chart, 1);
    results->addWidget(top);
    results->addWidget(differences);
    return results;
}

} // namespace

EvaluateDialog::EvaluateDialog(AppContext &context, QWidget *parent)
    : QDialog(parent), m_context(context), m_worker(new EvaluationWorker(this))
{
    setWindowTitle(tr("Evaluate models"));
    m_direction = new QComboBox(this);
    m_models = new QListWidget(this);
    m_models->setMaximumHeight(110);
    m_testSet = new QComboBox(this);
    // Its sentences are fewer than its pairs (a sentence with several translations is one
    // sentence, scored against all of them): the status counts sentences, so this says both.
    m_testSet->addItem(tr("Bundled sample (520 Tatoeba pairs: each sentence once, scored against "
                          "all its translations)"));
    m_testSet->addItem(tr("A TSV file (source, tab, reference)…"));
    m_testSet->addItem(tr("Two aligned files (sources, references)…"));
    m_testSetFile = new QLabel(this);
    m_testSetFile->setWordWrap(true);
    m_greedy = new QCheckBox(tr("Greedy search (faster; otherwise each model's own settings)"), this);
    m_greedy->setChecked(true);
    m_run = new QPushButton(tr("&Evaluate"), this);
    m_run->setDefault(true);
    m_cancel = new QPushButton(tr("&Cancel"), this);
    m_progress = new QProgressBar(this);
    m_status = new QLabel(this);
    m_status->setWordWrap(true);

    m_scores = new QTableWidget(0, 5, this);
    m_scores->setHorizontalHeaderLabels(
        {tr("Model"), tr("BLEU"), tr("chrF2"), tr("Brevity penalty"), tr("Time")});
    m_scores->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
    m_scores->verticalHeader()->hide();
    m_scores->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_scores->setMaximumHeight(140);
    m_chart = new LengthChart(this);
    m_differences = new QTreeWidget(this);
    m_differences->setRootIsDecorated(false);
    m_differences->setToolTip(tr("Sentences where the first two models differ most (sentence "
                                 "chrF2). Double-click one to open it in Compare."));

    auto *form = new QFormLayout;
    form->addRow(tr("&Direction:"), m_direction);
    form->addRow(tr("&Models:"), m_models);
    form->addRow(tr("&Test set:"), m_testSet);
    form->addRow(QString(), m_testSetFile);
    form->addRow(QString(), m_greedy);
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_run);
    buttons->addWidget(m_cancel);
    buttons->addWidget(m_progress, 1);
    QSplitter *results = resultsPane(this, m_scores, m_chart, m_differences,
                                     tr("BLEU by source-sentence length (words)"));
    auto *close = new QDialogButtonBox(QDialogButtonBox::Close, this);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addLayout(buttons);
    layout->addWidget(m_status);
    layout->addWidget(results, 1);
    layout->addWidget(close);
    resize(820, 760);

    connect(close, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_run, &QPushButton::clicked, this, &EvaluateDialog::evaluate);
    connect(m_cancel, &QPushButton::clicked, this, &EvaluateDialog::cancel);
    connect(m_direction, &QComboBox::currentIndexChanged, this, &EvaluateDialog::fillModels);
    connect(m_testSet, &QComboBox::activated, this, &EvaluateDialog::chooseTestSet);
    connect(m_worker, &EvaluationWorker::progress, this, &EvaluateDialog::showProgress);
    connect(m_worker, &EvaluationWorker::failed, this,
            [this](const QString &message) { m_status->setText(message); });
    connect(m_worker, &EvaluationWorker::finished, this, &EvaluateDialog::showResults);
    connect(m_differences, &QTreeWidget::itemDoubleClicked, this,
            [this](QTreeWidgetItem *item) { emit compareRequested(item->data(0, Qt::UserRole).toString()); });
    fillDirections();
    setRunning(false);
}

EvaluateDialog::~EvaluateDialog() = default;

void EvaluateDialog::fillDirections()
{
    QStringList pairs;
    for (const ModelInfo &info : m_context.catalog().availableModels())
        if (info.is(engine::Task::Translation)) {
            const QString pair = info.sourceLanguage + QStringLiteral(" → ") + info.targetLanguage;
            if (!pairs.contains(pair))
                pairs << pair;
        }
    m_direction->clear();
    for (const QString &pair : pairs)
        m_direction->addItem(pair, pair);
    fillModels();
}

void EvaluateDialog::fillModels()
{
    m_models->clear();
    const QStringList pair = m_direction->currentData().toString().split(QStringLiteral(" → "));
    if (pair.size() != 2)
        return;
    for (const ModelInfo &info : m_context.catalog().availableModels()) {
        if (!info.is(engine::Task::Translation) || info.sourceLanguage != pair[0] ||
            info.targetLanguage != pair[1])
            continue;
        auto *item = new QListWidgetItem(info.id, m_models);
        item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
        item->setCheckState(Qt::Checked);
        item->setToolTip(info.name);
    }
}

void EvaluateDialog::useTestSetFiles(const QString &path, const QString &referencePath)
{
    m_tsvPath = path;
    m_referencePath = referencePath;
    m_testSet->setCurrentIndex(path.isEmpty()          ? BundledSample
                               : referencePath.isEmpty() ? TsvFile
                                                         : AlignedFiles);
    m_testSetFile->setText(path.isEmpty() ? QString()
                           : referencePath.isEmpty()
                               ? path
                               : tr("%1 with references %2").arg(path, referencePath));
}

void EvaluateDialog::chooseTestSet(int index)
{
    if (index == BundledSample) {
        useTestSetFiles(QString());
        return;
    }
    const QString path = openFileName(
        this, FileKind::Documents, index == TsvFile ? tr("Test set (TSV)") : tr("Source sentences"));
    if (path.isEmpty()) {
        useTestSetFiles(m_tsvPath, m_referencePath); // back to what was chosen
        return;
    }
    if (index == TsvFile) {
        useTestSetFiles(path);
        return;
    }
    const QString references =
        openFileName(this, FileKind::Documents, tr("Reference translations"));
    if (references.isEmpty())
        useTestSetFiles(m_tsvPath, m_referencePath);
    else
        useTestSetFiles(path, references);
}

void EvaluateDialog::evaluate()
{
    if (m_worker->isBusy())
        return;
    QList<ModelInfo> models;
    for (int i = 0; i < m_models->count(); ++i)
        if (m_models->item(i)->checkState() == Qt::Checked)
            if (const auto info = m_context.catalog().find(m_models->item(i)->text()))
                models << *info;
    if (models.isEmpty()) {
        m_status->setText(tr("Choose at least one model."));
        return;
    }
    // Reading a test set is bounded (64 MB) and quick; the translation is the worker's.
    QString error;
    const std::optional<engine::TestSet> set =
        m_tsvPath.isEmpty() ? bundledTestSet(models[0].sourceLanguage, models[0].targetLanguage, &error)
        : m_referencePath.isEmpty() ? readTsvTestSet(m_tsvPath, models[0].sourceLanguage, &error)
                                    : readAlignedTestSet(m_tsvPath, m_referencePath, &error);
    if (!set) {
        m_status->setText(error);
        return;
    }
    // The language guard: scores of a set in another language than the models' say nothing.
    const LanguageMismatch mismatch = checkSourceLanguage(
        testSetLanguageSample(*set), models[0], [this](const QString &source, const QString &target) {
            return m_context.modelForDirection(source, target);
        });
    if (mismatch.found()) {
        m_status->setText(tr("Not evaluated: the test set's sentences look like %1, and the "
                             "models translate from %2. Choose a test set in %2.")
                              .arg(languageName(mismatch.language),
                                   languageName(models[0].sourceLanguage)));
        return;
    }
    m_scores->setRowCount(0);
    m_chart->setData({}, {});
    m_differences->clear();
    m_status->setText(tr("Evaluating %n model(s) on %1…", nullptr, int(models.size()))
                          .arg(QString::fromStdString(set->name)));
    m_progress->setRange(0, int(set->size() * std::size_t(models.size())));
    m_progress->setValue(0);
    m_cancelled = false;
    if (m_worker->start(models, *set, m_greedy->isChecked(), m_context.modelLoader(),
                        computeTypeFromSettings()))
        setRunning(true);
}

void EvaluateDialog::cancel()
{
    m_cancelled = m_worker->isBusy();
    m_worker->cancel();
}

void EvaluateDialog::showProgress(int model, int done, int total)
{
    m_progress->setValue(model * total + done);
    m_status->setText(tr("%1: %2 of %3 sentences")
                          .arg(m_worker->models().value(model).id)
                          .arg(done)
                          .arg(total));
}

void EvaluateDialog::showResults(bool complete)
{
    setRunning(false);
    if (!complete) {
        if (m_cancelled) // else failed() has said why
            m_status->setText(tr("Cancelled: no scores, since a score of part of the set would "
                                 "not compare with others."));
        return;
    }
    const engine::TestSet &set = m_worker->testSet();
    const std::vector<engine::ModelEvaluation> &evaluations = m_worker->evaluations();
    const QList<ModelInfo> &models = m_worker->models();
    m_status->setText(tr("%1: %2 sentences. BLEU and chrF2 as sacrebleu computes them.")
                          .arg(QString::fromStdString(set.name))
                          .arg(set.size()));
    m_scores->setRowCount(int(evaluations.size()));
    QStringList ids;
    std::vector<const engine::ModelEvaluation *> pointers;
    for (int m = 0; m < int(evaluations.size()); ++m) {
        const engine::ModelEvaluation &e = evaluations[std::size_t(m)];
        ids << models[m].id;
        pointers.push_back(&e);
        const QStringList cells{models[m].id, QString::number(e.bleu.score, 'f', 2),
                                QString::number(e.chrf, 'f', 2),
                                QString::number(e.bleu.brevityPenalty, 'f', 3),
                                tr("%1 s").arg(e.seconds, 0, 'f', 1)};
        for (int c = 0; c < cells.size(); ++c)
            m_scores->setItem(m, c, new QTableWidgetItem(cells[c]));
    }
    m_chart->setData(ids, engine::bleuByLength(set, pointers));
    // Recorded whatever the rest shows: the scores are the result.
    if (HistoryRecorder *history = m_context.history())
        history->record(evaluationHistoryEntry(set, models, evaluations, m_worker->options()));
    if (evaluations.size() < 2) {
        m_differences->setHeaderLabels({tr("Choose two models to see where they differ.")});
        return;
    }
    m_differences->setHeaderLabels({tr("Δ chrF2"), tr("Source"), ids[0], ids[1]});
    const std::vector<engine::SentenceDifference> diffs =
        engine::differences(evaluations[0], evaluations[1]);
    for (const engine::SentenceDifference &d : diffs) {
        if (d.chrfA == d.chrfB)
            continue; // the same score says nothing about which is better
        const std::size_t i = d.sentence;
        auto *item = new QTreeWidgetItem(
            m_differences,
            {QString::number(d.chrfA - d.chrfB, 'f', 1), QString::fromStdString(set.sources[i]),
             QString::fromStdString(evaluations[0].hypotheses[i]),
             QString::fromStdString(evaluations[1].hypotheses[i])});
        item->setData(0, Qt::UserRole, QString::fromStdString(set.sources[i]));
        item->setToolTip(1, tr("Reference: %1").arg(QString::fromStdString(set.references[i].front())));
    }
}

void EvaluateDialog::showStoredEvaluation(const StoredEvaluation &stored, const QString &status)
{
    if (m_worker->isBusy())
        return;
    m_status->setText(tr("%1: %2 sentences. %3")
                          .arg(stored.testSetName)
                          .arg(stored.sentences)
                          .arg(status));
    m_progress->setValue(0);
    m_scores->setRowCount(int(stored.models.size()));
    QStringList ids;
    for (int m = 0; m < stored.models.size(); ++m) {
        const StoredModelScore &score = stored.models[m];
        ids << score.id;
        const QStringList cells{score.id, QString::number(score.bleu, 'f', 2),
                                QString::number(score.chrf, 'f', 2),
                                QString::number(score.brevityPenalty, 'f', 3),
                                tr("%1 s").arg(score.seconds, 0, 'f', 1)};
        for (int c = 0; c < cells.size(); ++c)
            m_scores->setItem(m, c, new QTableWidgetItem(cells[c]));
    }
    m_chart->setData(ids, stored.buckets);
    m_differences->clear();
    if (stored.models.size() < 2) {
        m_differences->setHeaderLabels({tr("Choose two models to see where they differ.")});
        return;
    }
    m_differences->setHeaderLabels({tr("Δ chrF2"), tr("Source"), ids[0], ids[1]});
    for (const StoredDifference &d : stored.differences) {
        auto *item = new QTreeWidgetItem(
            m_differences, {QString::number(d.chrfA - d.chrfB, 'f', 1), d.source, d.hypothesisA,
                            d.hypothesisB});
        item->setData(0, Qt::UserRole, d.source);
        item->setToolTip(1, tr("Reference: %1").arg(d.reference));
    }
}

void EvaluateDialog::setRunning(bool running)
{
    m_run->setEnabled(!running);
    m_cancel->setEnabled(running);
    m_direction->setEnabled(!running);
    m_models->setEnabled(!running);
    m_testSet->setEnabled(!running);
    m_greedy->setEnabled(!running);
}

} // namespace glosa
