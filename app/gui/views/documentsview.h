// DocumentsView: open or drop a document (a format of documents/formats.h), translate it
// on a DocumentWorker thread, and watch it fill in: the source and the translation side by side,
// scrolled together; the source as it is formatted (headings, lists, tables, bold and italic:
// documents/layout.h), the translation one paragraph per line, where the user can correct it;
// the sentence under the cursor (in either pane) is highlighted with its translation. Progress says
// sentences done / total and the time left; Cancel keeps the finished part (the rest is exported in
// the source language); Export writes the document in its own format or as text, a PDF as .odt,
// .docx, .html or .txt. A document that looks like another language than the model's source is
// not translated until the user picks the offered direction or "Translate anyway" (the language
// guard, LanguageWarningBar).
#pragma once

#include "app/core/appcontext.h"
#include "app/core/documents/documentworker.h"

#include <QMap>
#include <QTextBlock>
#include <QTextFormat>
#include <QWidget>

class QComboBox;
class QLabel;
class QPlainTextEdit;
class QTextEdit;
class QProgressBar;
class QPushButton;

namespace glosa {
class LanguageWarningBar;
}

namespace glosa {

class DocumentsView : public QWidget
{
    Q_OBJECT
public:
    // Translates with the translation model chosen in `context`, loaded with the context's
    // modelLoader() by the view's own DocumentWorker (its queue runs in order: a document must
    // not be cancelled by the Translate view's next keystroke).
    explicit DocumentsView(AppContext &context, QWidget *parent = nullptr);
    // Records the user's last edits in the history, as leaving the document does.
    ~DocumentsView() override;

    // Reads the document (on the worker thread); the source pane fills when it is read.
    void openDocument(const QString &path);
    QString documentPath() const { return m_path; }

    // Read-only and formatted: paragraph n is the block sourceBlock(n) (a table cell's paragraph
    // is a block in its cell), whose userState() is n; blocks of no paragraph have -1.
    QTextEdit *sourcePane() const { return m_source; }
    QTextBlock sourceBlock(int paragraph) const;
    // Paragraph n is the translation pane's block n.
    QPlainTextEdit *targetPane() const { return m_target; }
    QProgressBar *progressBar() const { return m_progress; }
    QString progressText() const;
    // Shown instead of translating when the document does not look like the model's source
    // language (the language guard, checkSourceLanguage): it names the language and offers that
    // direction's model, or to translate anyway.
    QWidget *languageWarning() const;
    QPushButton *switchDirectionButton() const;
    QPushButton *translateAnywayButton() const;
    documents::DocumentWorker *worker() const { return m_worker; }
    // Paragraphs with a translation so far.
    int translatedCount() const { return m_translatedCount; }
    // The highlighted sentence: its paragraph and its index in that paragraph (-1: none).
    int currentParagraph() const { return m_currentParagraph; }
    int currentSentence() const { return m_currentSentence; }
    // Post-editing: the user's own sentences, typed into the translation pane (a change is kept
    // for the sentences it touches; one across sentences joins them); Export writes them instead
    // of the model's, and the history keeps both versions.
    const documents::SentenceEdits &edits() const { return m_edits; }
    // Edits made since the last export: what leaving the document or translating it anew asks
    // about (edits already exported are safe in the file).
    bool hasUnexportedEdits() const;

    // Highlights sentence `sentence` of paragraph `paragraph` in both panes; every translated
    // sentence's likely omissions (coverage warnings) keep their wavy underline in the source.
    void selectSentence(int paragraph, int sentence);
    // Set on the source pane's extra selections that mark an omission: the word's attention mass.
    static constexpr int kOmissionProperty = QTextFormat::UserProperty + 11;

    // The Open dialog's name filters: every suffix of the format table, then all files.
    static QString openFilter();
    // Export dialog's name filters, one per format in `formats` (of the format table).
    static QStringList exportFilters(const QStringList &formats);

public slots:
    void chooseDocument();
    void translateDocument();
    void cancel();
    // Asks where to save (format by the chosen file type) and exports there.
    void exportDocument();
    // Exports to `path` without asking; exported(path) or failed(message) follow.
    void exportTo(const QString &path);

signals:
    void opened(const QString &path);
    void finished(bool complete);
    void exported(const QString &path);
    void failed(const QString &message);
    void statusMessage(const QString &message);

protected:
    void changeEvent(QEvent *event) override;
    // Keeps the translation pane one line per paragraph while the user edits it.
    bool eventFilter(QObject *watched, QEvent *event) override;
    void dragEnterEvent(QDragEnterEvent *event) override;
    void dropEvent(QDropEvent *event) override;

private:
    void useModel(const glosa::ModelChoice &choice);
    void retranslateUi();
    void updateState();
    // "Fast (greedy)" and the chosen model's own decoding, named with its settings.
    void updateQualityNames();
    void showOpened(const QString &path, const QString &format, const QStringList &paragraphs,
                    const QString &encoding, const QList<documents::ParagraphLayout> &layouts);
    // The source pane shows m_targets (each paragraph on one line) laid out as `layouts` say.
    void fillSource(const QList<documents::ParagraphLayout> &layouts);
    void showOpenCancelled(const QString &path);
    void showTranslated(const QList<documents::TranslatedParagraph> &paragraphs);
    void showProgress(int done, int total, qint64 millisecondsLeft);
    void onCursorMoved(bool inSource);
    // The sentence of `paragraph` at `column` of the source (else of the translation); -1 while
    // the paragraph is not translated.
    int sentenceAt(int paragraph, int column, bool inSource) const;
    // Puts the paragraph at the top of one pane at the top of the other.
    void linkScroll(bool fromSource);
    // What a translation is made with: the model and the quality.
    struct Settings
    {
        QString modelId;
        QString targetLanguage;
        int quality = 0;
        bool operator==(const Settings &) const = default;
    };
    Settings currentSettings() const;
    // Part of the document is translated, with other settings than the current ones.
    bool isOutOfDate() const;
    // Asks before the user's edits are thrown away; true when they are to be kept.
    bool keepEdits();
    // The translation pane's paragraph `paragraph` is now `text`: the sentences the change
    // touched are edited, the sentences after it move.
    void noteEdit(int paragraph, const QString &text);
    // Records the translation shown in the history (a document entry: the source, the model's
    // version and the user's): when a translation stops, and the user's version again on Export
    // and when the document is left. `translated`: the model translated more since it was
    // recorded (a new entry replaces the earlier), else only the entry's edited text is updated.
    void recordHistory(bool translated);
    void updateTargetTitle();

    AppContext &m_context;
    documents::DocumentWorker *m_worker = nullptr;
    ModelChoice m_choice; // the translation model
    QString m_path;
    QStringList m_sources;                             // each paragraph's text
    QStringList m_notices; // the worker's notices about the open document
    QList<QList<documents::SentenceLink>> m_sentences; // per paragraph, once translated
    QList<bool> m_isTranslated;
    int m_translatedCount = 0;
    QString m_encoding; // of the open file (documents/textencoding.h)
    documents::SentenceEdits m_edits;
    documents::SentenceEdits m_exportedEdits;  // the edits as last exported
    documents::SentenceEdits m_exportingEdits; // as handed to the export under way
    QStringList m_targets;    // what the translation pane shows, per paragraph
    QStringList m_modelTexts; // the model's translation per paragraph ("" until translated)
    qint64 m_historyId = 0;   // the entry recording the translation shown (HistoryRecorder::record)
    QString m_recordedEdit;   // the user's version that entry holds
    bool m_fillingTarget = false; // the view, not the user, is writing the translation pane
    Settings m_translatedWith;    // of the translation shown (valid while m_translatedCount > 0)
    bool m_restarting = false;    // translateDocument() re-reads the document to translate it anew
    bool m_translating = false;
    bool m_opening = false; // the document is being read: Cancel stops the read (a slow PDF)
    int m_done = 0, m_total = 0;
    qint64 m_left = -1;
    int m_currentParagraph = -1;
    int m_currentSentence = -1;
    bool m_syncing = false; // linked scrolling or highlighting in progress: no feedback

    QPushButton *m_open = nullptr;
    QLabel *m_file = nullptr;
    QLabel *m_qualityLabel = nullptr;
    QComboBox *m_quality = nullptr;
    QPushButton *m_translate = nullptr;
    QPushButton *m_cancel = nullptr;
    QPushButton *m_export = nullptr;
    QProgressBar *m_progress = nullptr;
    QLabel *m_status = nullptr;
    QLabel *m_sourceTitle = nullptr;
    QLabel *m_targetTitle = nullptr;
    QTextEdit *m_source = nullptr;
    // Each paragraph's block in the source pane (valid while it is not refilled: it is read-only).
    QList<QTextBlock> m_sourceBlocks;
    QPlainTextEdit *m_target = nullptr;
    LanguageWarningBar *m_languageBar = nullptr;
};

} // namespace glosa
