#include "app/core/presenters/historyrerunner.h"

#include "app/core/history/entrykinds.h"
#include "app/core/inference/inferenceworker.h"

#include <QFileInfo>

namespace glosa {

HistoryRerunner::HistoryRerunner(AppContext &context, QObject *parent)
    : QObject(parent), m_context(context), m_history(context.history(), this)
{
}

HistoryRerunner::~HistoryRerunner() = default;

void HistoryRerunner::rerun(const HistoryEntry &entry,
                            const engine::DecodingOptions &captionOptions,
                            const engine::DecodingOptions &translationOptions)
{
    m_request.reset();
    if (entry.kind == HistoryKind::Caption)
        rerunCaption(entry, captionOptions);
    else
        rerunTranslation(entry, translationOptions); // translations and comparisons: the input
}

void HistoryRerunner::rerunCaption(const HistoryEntry &entry,
                                   const engine::DecodingOptions &options)
{
    const ModelChoice captioner = m_context.choice(AppContext::kCaptioning);
    if (!captioner.isReady()) {
        emit failed(Failure::NoCaptioner, QString());
        return;
    }
    if (!QFileInfo::exists(entry.imagePath)) {
        emit failed(Failure::ImageGone, entry.imagePath);
        return;
    }
    m_request = m_context.workerFor(*captioner.model)->caption(entry.imagePath, options);
    connect(m_request.get(), &InferenceRequest::captioned, this, [this](const CaptionResult &r) {
        finish(captionHistoryEntry(r, historyModelInfo(m_context.catalog(), r.modelId)));
    });
    connect(m_request.get(), &InferenceRequest::failed, this,
            [this](const QString &message) { emit failed(Failure::Worker, message); });
}

void HistoryRerunner::rerunTranslation(const HistoryEntry &entry, engine::DecodingOptions options)
{
    const ModelChoice translation = m_context.choice(AppContext::kTranslation);
    if (!translation.isReady()) {
        emit failed(Failure::NoTranslator, QString());
        return;
    }
    options.trace = false;
    m_request = m_context.workerFor(*translation.model)->translate(entry.inputText, {options});
    connect(m_request.get(), &InferenceRequest::translated, this,
            [this, info = *translation.model](const QList<TranslationResult> &results) {
                if (!results.isEmpty())
                    finish(translationHistoryEntry(results.first(), info));
            });
    connect(m_request.get(), &InferenceRequest::failed, this,
            [this](const QString &message) { emit failed(Failure::Worker, message); });
}

void HistoryRerunner::finish(const HistoryEntry &now)
{
    m_history.record(
        false, [now] { return now; }, [this](qint64 id) { emit entryRecorded(id); });
    emit finished(now);
}

void HistoryRerunner::historyEntryOpened(const HistoryEntry &entry)
{
    m_history.opened(entry);
}

} // namespace glosa
