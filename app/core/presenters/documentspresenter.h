// DocumentsPresenter: what the Documents tab knows and decides, without a widget. It owns the
// open document as the panes show it (each paragraph's source, layout and translation, with the
// styled runs the export writes), the DocumentWorker that reads, translates and exports it on
// its own thread, the progress, the request (the model chosen for translation and the quality),
// the language guard (checkSourceLanguage), the user's in-place edits of sentences and the
// document's history entry. DocumentsView renders this state and forwards the user's input.
//
// Basic usage (GUI thread):
//     DocumentsPresenter documents(context);
//     connect(&documents, &DocumentsPresenter::opened, view, &View::showDocument);
//     connect(&documents, &DocumentsPresenter::paragraphsTranslated, view, &View::showParagraphs);
//     documents.open(path);            // opened(path), or failed(message)
//     documents.translate();           // started(), progressChanged(), paragraphsTranslated(...),
//                                      // finished(complete); or languageMismatchFound()
//     documents.editParagraph(3, text);// the user typed into paragraph 3's translation
//     documents.exportTo(out);         // exported(path, encoding), or failed(message)
#pragma once

#include "app/core/appcontext.h"
#include "app/core/documents/documentworker.h"
#include "app/core/inference/languageguess.h"

#include <QList>
#include <QObject>
#include <QString>
#include <QStringList>

namespace glosa {

class DocumentsPresenter : public QObject
{
    Q_OBJECT
public:
    using Quality = documents::DocumentWorker::Quality;

    // Translates with the translation model chosen in `context` (followed through
    // AppContext::modelChosen), loaded with the context's modelLoader() by the presenter's own
    // DocumentWorker, whose queue runs in order: a document is not cancelled by the Translate
    // view's next keystroke.
    explicit DocumentsPresenter(AppContext &context, QObject *parent = nullptr);
    // Records the user's last edits in the history, as leaving the document does.
    ~DocumentsPresenter() override;

    documents::DocumentWorker *worker() const { return m_worker; }
    const ModelChoice &model() const { return m_choice; }

    // The open document (empty until opened(): the paragraphs come when it is read), each
    // paragraph on one line, so that it is one block of a pane.
    QString path() const { return m_path; }
    int paragraphCount() const { return int(m_sources.size()); }
    const QStringList &sources() const { return m_sources; }
    // One per paragraph (as many as sources()); the source's runs are in its own offsets.
    const QList<documents::ParagraphLayout> &layouts() const { return m_layouts; }
    QString encoding() const { return m_encoding; }
    // What the worker said about the document while it read it (a paragraph cut at a limit).
    QStringList notices() const { return m_notices; }
    // A streamed .txt/.srt: its finished chunks are written as they are done, so no edits.
    bool isStreamed() const { return m_worker->isStreamed(); }
    bool isOpen() const { return !m_sources.isEmpty(); }

    // The translation pane's paragraph `paragraph`: the user's version, else the model's, else
    // (not translated yet) the source, which is what Export writes for it.
    QString target(int paragraph) const { return m_targets.value(paragraph); }
    const QStringList &targets() const { return m_targets; }
    // Its styled runs in target()'s offsets: where projectSpans() carried the source's bold,
    // italic and links (the source's own while not translated).
    QList<documents::StyledRun> targetRuns(int paragraph) const
    {
        return m_targetRuns.value(paragraph);
    }
    bool isTranslated(int paragraph) const { return m_isTranslated.value(paragraph); }
    int translatedCount() const { return m_translatedCount; }
    // A translated paragraph's sentences (their offsets follow the user's edits).
    QList<documents::SentenceLink> sentences(int paragraph) const
    {
        return m_sentences.value(paragraph);
    }
    // The sentence of `paragraph` at `column` of the source (else of the translation); -1 while
    // the paragraph is not translated.
    int sentenceAt(int paragraph, int column, bool inSource) const;

    // Progress of the translation under way (or the last one): sentences done and in all, and
    // the estimated milliseconds left (-1: not known).
    int sentencesDone() const { return m_done; }
    int sentencesTotal() const { return m_total; }
    qint64 millisecondsLeft() const { return m_left; }
    bool isTranslating() const { return m_translating; }
    // The document is being read (Cancel stops the read: a slow PDF).
    bool isOpening() const { return m_opening; }
    // translate() reads the document again to translate it anew.
    bool isRestarting() const { return m_restarting; }
    bool isBusy() const { return m_worker->isBusy(); }

    // The request: the model's own decoding (Best, the default) or greedy (Fast).
    Quality quality() const { return m_quality; }
    void setQuality(Quality quality);
    // Part of the document is translated, with another model or quality than the current ones.
    bool isOutOfDate() const;
    // The language of the translation shown, else the chosen model's target ("" without one).
    QString shownLanguage() const;
    // Whether Translate has something to do, and whether it continues a cancelled translation.
    bool canTranslate() const;
    bool continues() const;
    bool canCancel() const { return m_translating || m_opening; }
    bool canExport() const { return isOpen() && !m_translating && !isBusy(); }

    // The language guard's finding for the open document (found() after languageMismatchFound).
    const LanguageMismatch &languageMismatch() const { return m_mismatch; }
    QString modelSourceLanguage() const;
    // "Translate anyway": the document is not checked again until another document or model.
    void acceptLanguage();

    // Post-editing: the user's own sentences, typed into the translation pane (a change is kept
    // for the sentences it touches; one across sentences joins them); Export writes them instead
    // of the model's, and the history keeps both versions.
    const documents::SentenceEdits &edits() const { return m_edits; }
    // Edits made since the last export: what leaving the document or translating it anew asks
    // about (edits already exported are safe in the file).
    bool hasUnexportedEdits() const;
    // The translation pane's paragraph `paragraph` is now `text`: the sentences the change
    // touched are edited, the sentences and runs after it move.
    void editParagraph(int paragraph, const QString &text);

    // Reads `path` on the worker thread (cancelling a translation or a read under way):
    // cleared(path) now, then opened(path), openCancelled(path) or failed(message).
    void open(const QString &path);
    enum class Start {
        Started,           // started() was emitted
        Restarting,        // another model or quality: the document is read again, then translated
        AskToDiscardEdits, // restarting would discard unexported edits: call again with true
        WrongLanguage,     // languageMismatchFound() was emitted; nothing is translated
        Nothing,           // no model, no document, or already under way
    };
    Start translate(bool discardEdits = false);
    void cancel();
    // Formats exportTo accepts (own one first) and the name Export suggests.
    QStringList exportFormats() const { return m_worker->exportFormats(); }
    QString suggestedExportPath() const;
    void exportTo(const QString &path);

signals:
    void modelChanged();
    // open() cleared the document: the panes are empty until opened().
    void cleared(const QString &path);
    void opened(const QString &path);
    void openCancelled(const QString &path);
    void started();
    // These paragraphs have a (new) translation: target(), targetRuns() and sentences().
    void paragraphsTranslated(const QList<int> &paragraphs);
    void progressChanged();
    // Busy, translating, out of date...: what enables the buttons.
    void stateChanged();
    void languageMismatchFound();
    void editsChanged();
    void finished(bool complete);
    // `encoding`: what the file was written in (UTF-8 unless the document's own).
    void exported(const QString &path, const QString &encoding);
    void failed(const QString &message);
    // Something the user should know about the open document that is not a failure.
    void notice(const QString &message);
    void historyNotUpdated(const QString &reason);

private:
    // What a translation is made with: the model and the quality.
    struct Settings
    {
        QString modelId;
        QString targetLanguage;
        Quality quality = Quality::Best;
        bool operator==(const Settings &) const = default;
    };
    Settings currentSettings() const;
    void useModel(const ModelChoice &choice);
    void onOpened(const QString &path, const QStringList &paragraphs, const QString &encoding,
                  const QList<documents::ParagraphLayout> &layouts);
    void onOpenCancelled(const QString &path);
    void onTranslated(const QList<documents::TranslatedParagraph> &paragraphs);
    void onFinished(bool complete);
    void onExported(const QString &path, const QString &encoding);
    void onFailed(const QString &message);
    // Records the translation shown in the history (a document entry: the source, the model's
    // version and the user's): when a translation stops, and the user's version again on Export
    // and when the document is left. `translated`: the model translated more since it was
    // recorded (a new entry replaces the earlier), else only the entry's edited text is updated.
    void recordHistory(bool translated);

    AppContext &m_context;
    documents::DocumentWorker *m_worker = nullptr;
    ModelChoice m_choice; // the translation model
    Quality m_quality = Quality::Best;
    QString m_path;
    QStringList m_sources; // each paragraph's text, on one line
    QList<documents::ParagraphLayout> m_layouts;
    QStringList m_notices;
    QString m_encoding;
    QList<QList<documents::SentenceLink>> m_sentences; // per paragraph, once translated
    QList<bool> m_isTranslated;
    int m_translatedCount = 0;
    QStringList m_targets;    // what the translation pane shows, per paragraph
    QStringList m_modelTexts; // the model's translation per paragraph ("" until translated)
    QList<QList<documents::StyledRun>> m_targetRuns;
    documents::SentenceEdits m_edits;
    documents::SentenceEdits m_exportedEdits;  // the edits as last exported
    documents::SentenceEdits m_exportingEdits; // as handed to the export under way
    qint64 m_historyId = 0; // the entry recording the translation shown (HistoryRecorder::record)
    QString m_recordedEdit; // the user's version that entry holds
    Settings m_translatedWith; // of the translation shown (valid while m_translatedCount > 0)
    LanguageMismatch m_mismatch;
    bool m_languageAccepted = false;
    bool m_restarting = false;
    bool m_translating = false;
    bool m_opening = false;
    int m_done = 0, m_total = 0;
    qint64 m_left = -1;
};

} // namespace glosa
