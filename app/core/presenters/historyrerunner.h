// HistoryRerunner: History's "Re-run with current settings" without its widgets. It runs a
// recorded entry's input again — a caption's image with the captioning model chosen now, a
// translation's or a comparison's text with the translation model chosen now — with the decoding
// its caller gives (the Caption or the Translate tab's), and records the new result as an entry
// of its own (ExplicitRecorder: not again when it repeats the last one). Failures are reported as
// what failed; the view words them.
//
// Basic usage:
//     HistoryRerunner rerunner(context);
//     connect(&rerunner, &HistoryRerunner::finished, ...); // the new entry, recorded
//     rerunner.rerun(entry, captionOptions, translationOptions);
#pragma once

#include "app/core/appcontext.h"
#include "app/core/history/explicitrecorder.h"

#include <QObject>

#include <memory>

namespace glosa {

class InferenceRequest;

class HistoryRerunner : public QObject
{
    Q_OBJECT
public:
    enum class Failure {
        NoCaptioner,  // no captioning model can run
        ImageGone,    // the caption's image file is gone (detail: its path)
        NoTranslator, // no translation model can run
        Worker,       // the model failed (detail: the worker's message)
    };
    Q_ENUM(Failure)

    explicit HistoryRerunner(AppContext &context, QObject *parent = nullptr);
    ~HistoryRerunner() override;

    // Runs `entry` again: a caption with `captionOptions`, a translation or a comparison with
    // `translationOptions` (untraced). A re-run still on its way is dropped.
    void rerun(const glosa::HistoryEntry &entry, const engine::DecodingOptions &captionOptions,
               const engine::DecodingOptions &translationOptions);
    // `entry` was opened from the history: re-running it unchanged records nothing new.
    void historyEntryOpened(const glosa::HistoryEntry &entry);

signals:
    // The re-run's result as an entry; it has been handed to the history (entryRecorded).
    void finished(const glosa::HistoryEntry &now);
    void failed(glosa::HistoryRerunner::Failure failure, const QString &detail);
    void entryRecorded(qint64 id);

private:
    void rerunCaption(const HistoryEntry &entry, const engine::DecodingOptions &options);
    void rerunTranslation(const HistoryEntry &entry, engine::DecodingOptions options);
    void finish(const HistoryEntry &now);

    AppContext &m_context;
    std::unique_ptr<InferenceRequest> m_request;
    ExplicitRecorder m_history;
};

} // namespace glosa
