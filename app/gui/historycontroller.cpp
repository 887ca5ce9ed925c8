#include "app/gui/historycontroller.h"

#include "app/core/appcontext.h"
#include "app/core/history/entrykinds.h"
#include "app/core/presenters/translatepresenter.h"
#include "app/gui/dialogs/evaluatedialog.h"
#include "app/gui/livetext.h"
#include "app/gui/views/captionview.h"
#include "app/gui/views/compareview.h"
#include "app/gui/views/historyview.h"
#include "app/gui/views/translateview.h"
#include "app/gui/widgets/decodingpanel.h"

#include <QEvent>
#include <QLocale>
#include <QTabWidget>

namespace glosa {

HistoryController::HistoryController(AppContext &context, const Views &views, QWidget *window)
    : QObject(window), m_context(context), m_views(views), m_window(window), m_view(views.history),
      m_rerunner(new HistoryRerunner(context, this))
{
    TranslatePresenter *translate = views.translate->presenter();
    connect(translate, &TranslatePresenter::historyChanged, m_view, &HistoryView::refresh);
    connect(translate, &TranslatePresenter::historyFailed, this,
            [this](TranslatePresenter::HistoryFailure failure, const QString &reason) {
                emit m_view->statusMessage(
                    (failure == TranslatePresenter::HistoryFailure::SaveEdit
                         ? tr("Your edit was not saved to the history: %1")
                         : tr("An earlier version of this translation could not be replaced "
                              "in the history: %1"))
                        .arg(reason));
            });
    connect(views.tabs, &QTabWidget::currentChanged, this, [this] { flush(); });
    connect(m_view, &HistoryView::openRequested, this, &HistoryController::openEntry);
    connect(m_view, &HistoryView::rerunRequested, this, &HistoryController::rerun);
    connect(m_rerunner, &HistoryRerunner::finished, m_view, &HistoryView::showRerunResult);
    connect(m_rerunner, &HistoryRerunner::failed, this, &HistoryController::showRerunFailure);
    window->installEventFilter(this); // flush on close
}

HistoryController::~HistoryController() = default;

bool HistoryController::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_window && event->type() == QEvent::Close)
        flush();
    return QObject::eventFilter(watched, event);
}

void HistoryController::flush()
{
    m_views.translate->presenter()->flushHistory();
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
    switch (entry.kind) {
    case HistoryKind::Translation:
        m_views.translate->presenter()->historyEntryOpened(entry);
        break;
    case HistoryKind::Comparison:
        m_views.compare->presenter()->historyEntryOpened(entry);
        break;
    case HistoryKind::Caption:
        m_views.caption->presenter()->historyEntryOpened(entry);
        break;
    case HistoryKind::Document:
    case HistoryKind::Evaluation:
        break;
    }
    if (entry.kind != HistoryKind::Translation)
        m_rerunner->historyEntryOpened(entry); // re-running it unchanged records nothing new
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

void HistoryController::rerun(const HistoryEntry &entry)
{
    m_view->showRerunPending(entry);
    m_rerunner->rerun(entry, m_views.caption->decodingPanel()->options(),
                      m_views.translate->decodingPanel()->options());
}

void HistoryController::showRerunFailure(HistoryRerunner::Failure failure, const QString &detail)
{
    using Failure = HistoryRerunner::Failure;
    switch (failure) {
    case Failure::NoCaptioner:
        m_view->showRerunFailed(tr("No captioning model is installed."));
        break;
    case Failure::ImageGone:
        m_view->showRerunFailed(tr("The image %1 is gone.").arg(detail));
        break;
    case Failure::NoTranslator:
        m_view->showRerunFailed(tr("No translation model is installed."));
        break;
    case Failure::Worker:
        m_view->showRerunFailed(detail);
        break;
    }
}

} // namespace glosa
