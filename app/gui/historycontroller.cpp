#include "app/gui/historycontroller.h"

#include "app/core/appcontext.h"
#include "app/core/platform/handoff.h"
#include "app/core/history/recorder.h"
#include "app/core/history/results.h"
#include "app/core/inference/inferenceworker.h"
#include "app/gui/views/captionview.h"
#include "app/gui/views/compareview.h"
#include "app/gui/widgets/decodingpanel.h"
#include "app/gui/dialogs/evaluatedialog.h"
#include "app/gui/livetext.h"
#include "app/gui/views/historyview.h"
#include "app/gui/views/translateview.h"

#include <QApplication>
#include <QEvent>
#include <QFileInfo>
#include <QJsonDocument>
#include <QLocale>
#include <QTabWidget>

namespace glosa {

namespace {
QString keyOf(const HistoryEntry &e)
{
    return QStringList{historyKindName(e.kind), e.modelId, e.inputText, e.imagePath,
                       QString::fromUtf8(QJsonDocument(e.settings).toJson(QJsonDocument::Compact))}
        .join(QChar(0));
}

ModelInfo modelInfo(const ModelCatalog &catalog, const QString &id)
{
    if (const std::optional<ModelInfo> info = catalog.find(id))
        return *info;
    ModelInfo unknown;
    unknown.id = id;
    return unknown;
}
} // namespace

HistoryController::HistoryController(AppContext &context, const Views &views, QWidget *window)
    : QObject(window), m_context(context), m_views(views), m_window(window),
      m_recorder(context.history()), m_view(views.history)
{
    m_clock.start();
    m_settle.setSingleShot(true);
    // A coarse timer may fire up to 5% early, before the policy's settling time.
    m_settle.setTimerType(Qt::PreciseTimer);
    connect(&m_settle, &QTimer::timeout, this, &HistoryController::onSettleTimer);
    connect(views.translate, &TranslateView::translationShown, this,
            &HistoryController::onTranslation);
    connect(views.compare, &CompareView::comparisonShown, this, &HistoryController::onComparison);
    connect(views.caption, &CaptionView::captionShown, this, &HistoryController::onCaption);
    connect(views.caption, &CaptionView::captionTranslated, this,
            [this](const TranslationResult &result) {
                recordOnce(translationHistoryEntry(result,
                                                   modelInfo(m_context.catalog(), result.modelId)));
            });
    connect(views.tabs, &QTabWidget::currentChanged, this, [this] { flush(); });
    m_editSettle.setSingleShot(true);
    m_editSettle.setInterval(kSettleMs / 2);
    connect(&m_editSettle, &QTimer::timeout, this, &HistoryController::saveEdit);
    connect(views.translate, &TranslateView::translationEdited, this, [this](const QString &text) {
        m_editToSave = text;
        m_editSettle.start();
    });
    connect(m_view, &HistoryView::openRequested, this, &HistoryController::openEntry);
    connect(m_view, &HistoryView::rerunRequested, this, &HistoryController::rerun);
    window->installEventFilter(this); // flush on close
}

HistoryController::~HistoryController()
{
    *m_alive = false;
}

bool HistoryController::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_window && event->type() == QEvent::Close) {
        flush();
        saveEdit();
    }
    return QObject::eventFilter(watched, event);
}

void HistoryController::onTranslation(const TranslationResult &result)
{
    if (result.isEmpty()) // the source was cleared: what was there before still settles
        return;
    if (m_policy.hold(result.source, m_clock.elapsed()))
        recordPending(); // a different text, not the next state of the one being typed
    m_pending = result;
    m_shownTranslationId = 0; // a new translation replaced the recorded one in the view
    m_editToSave.reset();
    m_settle.start(static_cast<int>(*m_policy.settlesAt() - m_clock.elapsed()));
}

void HistoryController::onSettleTimer()
{
    const qint64 now = m_clock.elapsed();
    if (m_policy.takeSettled(now))
        recordPending();
    else if (const std::optional<qint64> at = m_policy.settlesAt())
        m_settle.start(static_cast<int>(std::max<qint64>(*at - now, 1)));
}

void HistoryController::flush()
{
    m_settle.stop();
    if (m_policy.release())
        recordPending();
}

void HistoryController::recordPending()
{
    if (!m_pending)
        return;
    const TranslationResult result = *m_pending;
    m_pending.reset();
    record(
        QList<TranslationResult>{result},
        [result, info = modelInfo(m_context.catalog(), result.modelId)] {
            return translationHistoryEntry(result, info);
        },
        &HistoryController::recordInSession);
}

void HistoryController::recordInSession(const HistoryEntry &entry)
{
    m_policy.enterSession(entry.inputText);
    const bool duplicate = m_policy.isDuplicate(keyOf(entry));
    recordOnce(entry);
    const qint64 id = m_policy.lastId();
    if (duplicate || id <= 0) // nothing new, or queued behind another process's lock
        return;
    const qint64 previous = m_policy.replaceInSession(entry.modelId, id);
    HistoryStore *store = m_recorder->store();
    if (previous <= 0 || !store)
        return;
    try {
        // An entry holding the user's own version of the translation is theirs: kept.
        const std::optional<HistoryEntry> old = store->entry(previous);
        if (!old || !old->editedText.isEmpty())
            return;
        if (old->starred)
            store->setStarred(id, true);
        store->removeEntry(previous);
        m_view->refresh();
    } catch (const std::exception &e) {
        // The new entry is recorded; the earlier one merely stays.
        emit m_view->statusMessage(tr("An earlier version of this translation could not be "
                                      "replaced in the history: %1")
                                       .arg(QString::fromUtf8(e.what())));
    }
}

void HistoryController::onComparison()
{
    const CompareView *compare = m_views.compare;
    QList<TranslationResult> columns;
    for (int i = 0; i < compare->columnCount(); ++i)
        columns << compare->column(i)->result();
    if (columns.isEmpty() || columns.first().isEmpty())
        return;
    record(columns, [columns, info = modelInfo(m_context.catalog(), columns.first().modelId)] {
        return comparisonHistoryEntry(columns.first().source, columns, info);
    });
}

void HistoryController::record(const QList<TranslationResult> &results,
                               std::function<HistoryEntry()> makeEntry, Recording how)
{
    // Making the entry reads every alignment cell: for a long text (5,000 words: ~40 million
    // per hypothesis) that takes the GUI thread hundreds of milliseconds, so it is made on the
    // thread pool and recorded back here. Usual sizes are recorded at once, so that the History
    // tab lists a translation the moment it is opened.
    qsizetype cells = 0;
    for (const TranslationResult &r : results)
        for (const TranslationHypothesis &h : r.hypotheses)
            cells += h.alignment.size();
    if (cells < kLargeAlignmentCells)
        (this->*how)(makeEntry());
    else
        recordInBackground(std::move(makeEntry), how);
}

void HistoryController::saveEdit()
{
    m_editSettle.stop();
    if (!m_editToSave)
        return;
    flush(); // the model's translation first
    if (m_shownTranslationId <= 0 || !m_recorder->store())
        return; // recorded later (recordOnce() comes back here), or not recorded at all
    try {
        m_recorder->store()->setEditedText(m_shownTranslationId, *m_editToSave);
        m_editToSave.reset();
        m_view->refresh();
    } catch (const std::exception &e) {
        emit m_view->statusMessage(
            tr("Your edit was not saved to the history: %1").arg(QString::fromUtf8(e.what())));
        m_editToSave.reset();
    }
}

void HistoryController::recordInBackground(std::function<HistoryEntry()> makeEntry, Recording how)
{
    // Recorded back on the GUI thread, where m_alive is read and written, so the check there is
    // not racy.
    startOnPool([this, makeEntry = std::move(makeEntry), alive = m_alive, how] {
        HistoryEntry entry = makeEntry();
        postCall(qApp, [this, alive, entry = std::move(entry), how] {
            if (*alive)
                (this->*how)(entry);
        });
    });
}

void HistoryController::onCaption(const CaptionResult &result)
{
    // The entry reads, hashes, decodes and shrinks the image file: 362 ms for a 12-megapixel
    // JPEG here.
    recordInBackground([result, info = modelInfo(m_context.catalog(), result.modelId)] {
        return captionHistoryEntry(result, info);
    });
}

void HistoryController::recordOnce(const HistoryEntry &entry)
{
    const QString key = keyOf(entry);
    qint64 id = m_policy.lastId(); // the same as the last one: that entry
    if (!m_policy.isDuplicate(key)) {
        id = m_recorder->record(entry);
        if (id != 0) // saved, or waiting for another process's lock
            m_policy.recorded(key, id);
    }
    // The entry of the translation on show: later edits of it go there.
    const TranslationResult &shown = m_views.translate->result();
    if (id > 0 && entry.kind == HistoryKind::Translation && !shown.isEmpty() &&
        entry.inputText == shown.source && entry.modelId == shown.modelId) {
        m_shownTranslationId = id;
        if (m_editToSave && !m_editSettle.isActive())
            saveEdit();
    }
}

QString HistoryController::versionNote(const HistoryEntry &entry) const
{
    const std::optional<ModelInfo> installed = m_context.catalog().find(entry.modelId);
    if (!installed)
        return tr("The model %1 is no longer installed; the recorded result is shown as it was.")
            .arg(entry.modelId);
    if (installed->version != entry.modelVersion)
        return tr("Recorded with %1 version %2; version %3 is installed now.")
            .arg(entry.modelId, entry.modelVersion, installed->version);
    return QString();
}

void HistoryController::openEntry(const HistoryEntry &entry)
{
    // The view about to be filled may re-translate what it restores; that must not be recorded
    // as a new entry, and a translation still held back belongs to what the view showed before.
    flush();
    m_policy.opened(keyOf(entry), entry.id);
    // Dates follow the interface language too: the whole line is built again on a change.
    const QString status = liveText([time = entry.time] {
        return tr("From the history (%1).")
            .arg(QLocale().toString(time.toLocalTime(), QLocale::ShortFormat));
    });
    const QString note = versionNote(entry);
    switch (entry.kind) {
    case HistoryKind::Translation:
        m_context.chooseModel(entry.modelId);
        m_views.tabs->setCurrentWidget(m_views.translate);
        m_views.translate->showStoredResult(translationResultFromHistory(entry), status,
                                            entry.editedText);
        m_shownTranslationId = entry.id; // edits of the reopened translation go to its entry
        m_editToSave.reset();
        break;
    case HistoryKind::Comparison: {
        m_context.chooseModel(entry.modelId);
        m_views.tabs->setCurrentWidget(m_views.compare);
        QList<TranslationResult> columns;
        const QList<engine::DecodingOptions> options = historyColumnOptions(entry);
        for (int c = 0; c < options.size(); ++c)
            columns << translationResultFromHistory(entry, c);
        m_views.compare->showStoredComparison(entry.inputText, columns, status);
        break;
    }
    case HistoryKind::Caption:
        m_views.tabs->setCurrentWidget(m_views.caption);
        m_views.caption->showStoredCaption(captionResultFromHistory(entry),
                                           QImage::fromData(entry.thumbnailPng), status);
        break;
    case HistoryKind::Document: // shown in the History view only (it offers no Open)
        break;
    case HistoryKind::Evaluation: // the scores as stored, not re-run (that takes minutes)
        if (EvaluateDialog *dialog = m_views.evaluate ? m_views.evaluate() : nullptr)
            dialog->showStoredEvaluation(evaluationFromHistory(entry), status);
        break;
    }
    if (!note.isEmpty())
        emit m_view->statusMessage(note);
}

InferenceWorker *HistoryController::captionWorker() const
{
    const ModelChoice captioner = m_context.choice(AppContext::kCaptioning);
    return captioner.isReady() ? m_context.workerFor(*captioner.model) : nullptr;
}

void HistoryController::showRerun(const HistoryEntry &now)
{
    m_view->showRerunResult(now);
    recordOnce(now);
}

void HistoryController::rerun(const HistoryEntry &entry)
{
    m_view->showRerunPending(entry);
    if (entry.kind == HistoryKind::Caption) {
        InferenceWorker *worker = captionWorker();
        if (!worker || !QFileInfo::exists(entry.imagePath)) {
            m_view->showRerunFailed(!worker ? tr("No captioning model is installed.")
                                            : tr("The image %1 is gone.").arg(entry.imagePath));
            return;
        }
        m_rerun = worker->caption(entry.imagePath, m_views.caption->decodingPanel()->options());
        connect(m_rerun.get(), &InferenceRequest::captioned, this, [this](const CaptionResult &r) {
            showRerun(captionHistoryEntry(r, modelInfo(m_context.catalog(), r.modelId)));
        });
        connect(m_rerun.get(), &InferenceRequest::failed, m_view, &HistoryView::showRerunFailed);
        return;
    }
    // Translations and comparisons: the input with the Translate view's model and settings.
    const ModelChoice translation = m_context.choice(AppContext::kTranslation);
    if (!translation.isReady()) {
        m_view->showRerunFailed(tr("No translation model is installed."));
        return;
    }
    engine::DecodingOptions options = m_views.translate->decodingPanel()->options();
    options.trace = false;
    m_rerun = m_context.workerFor(*translation.model)->translate(entry.inputText, {options});
    connect(m_rerun.get(), &InferenceRequest::translated, this,
            [this, info = *translation.model](const QList<TranslationResult> &results) {
                if (!results.isEmpty())
                    showRerun(translationHistoryEntry(results.first(), info));
            });
    connect(m_rerun.get(), &InferenceRequest::failed, m_view, &HistoryView::showRerunFailed);
}

} // namespace glosa
