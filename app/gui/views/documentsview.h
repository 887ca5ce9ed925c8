// DocumentsView: open or drop a document (a format of documents/formats.h), translate it on a
// DocumentWorker thread, and watch it fill in: the source and the translation side by side,
// scrolled together block for block, both as the document is formatted (headings, lists, tables,
// bold, italic and links: documents/layout.h), the translation's runs where the export puts them;
// the user can correct the translation in place; the sentence under the cursor (in either pane)
// is highlighted with its translation. Progress says sentences done / total and the time left;
// Cancel keeps the finished part (the rest is exported in the source language); Export writes
// the document in its own format or as text, a PDF as .odt, .docx, .html or .txt. A document that
// looks like another language than the model's source is not translated until the user picks the
// offered direction or "Translate anyway" (the language guard, LanguageWarningBar).
//
// What the tab knows and decides (the document, the request, the guard, edits, history) is
// DocumentsPresenter's (app/core/presenters/); this widget renders it and forwards input.
#pragma once

#include "app/core/presenters/documentspresenter.h"

#include <QTextBlock>
#include <QTextFormat>
#include <QWidget>

class QComboBox;
class QLabel;
class QProgressBar;
class QPushButton;
class QTextEdit;

namespace glosa {

class DocumentPane;
class LanguageWarningBar;

class DocumentsView : public QWidget
{
    Q_OBJECT
public:
    explicit DocumentsView(AppContext &context, QWidget *parent = nullptr);
    ~DocumentsView() override;

    DocumentsPresenter *presenter() const { return m_presenter; }
    // Reads the document (on the worker thread); the panes fill when it is read.
    void openDocument(const QString &path);
    QString documentPath() const { return m_presenter->path(); }

    // Both panes are formatted alike: paragraph n is the block sourceBlock(n) / targetBlock(n)
    // (a table cell's paragraph is a block in its cell), whose userState() is n; blocks of no
    // paragraph have -1. The source is read-only; the translation takes the user's corrections.
    QTextEdit *sourcePane() const;
    QTextBlock sourceBlock(int paragraph) const;
    QTextEdit *targetPane() const;
    QTextBlock targetBlock(int paragraph) const;
    QProgressBar *progressBar() const { return m_progress; }
    QString progressText() const;
    // Shown instead of translating when the document does not look like the model's source
    // language (the language guard, checkSourceLanguage): it names the language and offers that
    // direction's model, or to translate anyway.
    QWidget *languageWarning() const;
    QPushButton *switchDirectionButton() const;
    QPushButton *translateAnywayButton() const;
    documents::DocumentWorker *worker() const { return m_presenter->worker(); }
    int translatedCount() const { return m_presenter->translatedCount(); }
    // The highlighted sentence: its paragraph and its index in that paragraph (-1: none).
    int currentParagraph() const { return m_currentParagraph; }
    int currentSentence() const { return m_currentSentence; }
    const documents::SentenceEdits &edits() const { return m_presenter->edits(); }
    bool hasUnexportedEdits() const { return m_presenter->hasUnexportedEdits(); }

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
    void dragEnterEvent(QDragEnterEvent *event) override;
    void dropEvent(QDropEvent *event) override;

private:
    QWidget *makePane(QLabel *&title, DocumentPane *pane);
    void connectPresenter();
    void retranslateUi();
    void updateState();
    void updateTargetTitle();
    // "Fast (greedy)" and the chosen model's own decoding, named with its settings.
    void updateQualityNames();
    void showCleared(const QString &path);
    void showOpened(const QString &path);
    void showOpenCancelled(const QString &path);
    void showTranslated(const QList<int> &paragraphs);
    void showFinished(bool complete);
    void showExported(const QString &path, const QString &encoding);
    void showFailed(const QString &message);
    void onCursorMoved(bool inSource);
    // Puts the paragraph at the top of one pane at the top of the other.
    void linkScroll(bool fromSource);
    // Asks before the user's edits are thrown away; true when they are to be kept.
    bool keepEdits();

    DocumentsPresenter *m_presenter = nullptr;
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
    DocumentPane *m_source = nullptr;
    DocumentPane *m_target = nullptr;
    LanguageWarningBar *m_languageBar = nullptr;
};

} // namespace glosa
