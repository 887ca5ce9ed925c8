#include "app/gui/views/documentsview.h"

#include "app/core/documents/formats.h"
#include "app/core/documents/textencoding.h"
#include "app/core/settings/decodingmaps.h"
#include "app/gui/filedialogs.h"
#include "app/core/displaynames.h"
#include "app/gui/composedtext.h"
#include "app/gui/omissionmarks.h"
#include "app/gui/recentfiles.h"
#include "app/gui/livetext.h"
#include "app/gui/theme.h"
#include "app/gui/widgets/documentpane.h"
#include "app/gui/widgets/languagewarningbar.h"

#include <QComboBox>
#include <QDir>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QEvent>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QMessageBox>
#include <QMimeData>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollBar>
#include <QSignalBlocker>
#include <QSplitter>
#include <QVBoxLayout>

namespace glosa {

using Quality = DocumentsPresenter::Quality;

DocumentsView::DocumentsView(AppContext &context, QWidget *parent)
    : QWidget(parent), m_presenter(new DocumentsPresenter(context, this))
{
    setAcceptDrops(true);
    m_open = new QPushButton(this);
    m_file = new QLabel(this);
    m_file->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_qualityLabel = new QLabel(this);
    m_quality = new QComboBox(this);
    m_quality->setObjectName(QStringLiteral("quality"));
    // The model's own decoding first, the default: what Translate uses, where greedy was silently
    // worse.
    m_quality->addItem(QString(), int(Quality::Best));
    m_quality->addItem(QString(), int(Quality::Fast));
    m_qualityLabel->setBuddy(m_quality);
    m_translate = new QPushButton(this);
    m_translate->setObjectName(QStringLiteral("translateDocument"));
    m_translate->setDefault(true);
    m_cancel = new QPushButton(this);
    m_export = new QPushButton(this);
    auto *bar = new QHBoxLayout;
    for (QWidget *widget : std::initializer_list<QWidget *>{
             m_open, m_file, m_qualityLabel, m_quality, m_translate, m_cancel, m_export})
        bar->addWidget(widget, widget == m_file ? 1 : 0);

    m_progress = new QProgressBar(this);
    m_progress->setTextVisible(false);
    m_progress->setRange(0, 1);
    m_progress->setValue(0);
    m_status = new QLabel(this);
    m_status->setWordWrap(true);
    auto *progressRow = new QHBoxLayout;
    progressRow->addWidget(m_progress, 1);
    progressRow->addWidget(m_status, 2);

    auto *splitter = new QSplitter(Qt::Horizontal, this);
    m_source = new DocumentPane;
    m_target = new DocumentPane;
    splitter->addWidget(makePane(m_sourceTitle, m_source));
    splitter->addWidget(makePane(m_targetTitle, m_target));
    m_targetTitle->setObjectName(QStringLiteral("targetTitle"));
    // Post-editing: the translation pane takes the user's corrections, one block per paragraph.
    m_target->setEditable(true);

    m_languageBar = new LanguageWarningBar(context, this);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(bar);
    layout->addLayout(progressRow);
    layout->addWidget(m_languageBar);
    layout->addWidget(splitter, 1);

    connect(m_open, &QPushButton::clicked, this, &DocumentsView::chooseDocument);
    connect(m_translate, &QPushButton::clicked, this, &DocumentsView::translateDocument);
    connect(m_quality, &QComboBox::currentIndexChanged, this,
            [this] { m_presenter->setQuality(Quality(m_quality->currentData().toInt())); });
    connect(m_cancel, &QPushButton::clicked, this, &DocumentsView::cancel);
    connect(m_export, &QPushButton::clicked, this, &DocumentsView::exportDocument);
    connect(m_source->verticalScrollBar(), &QScrollBar::valueChanged, this,
            [this] { linkScroll(true); });
    connect(m_target->verticalScrollBar(), &QScrollBar::valueChanged, this,
            [this] { linkScroll(false); });
    connect(m_source, &QTextEdit::cursorPositionChanged, this, [this] { onCursorMoved(true); });
    connect(m_target, &QTextEdit::cursorPositionChanged, this, [this] { onCursorMoved(false); });
    connect(m_target, &DocumentPane::paragraphEdited, m_presenter,
            &DocumentsPresenter::editParagraph);
    // The offered model is chosen (the presenter follows it): translate with it; or with this one.
    connect(m_languageBar, &LanguageWarningBar::switched, this, &DocumentsView::translateDocument);
    connect(m_languageBar, &LanguageWarningBar::goOn, this, [this] {
        m_presenter->acceptLanguage();
        translateDocument();
    });
    connectPresenter();
    retranslateUi();
}

// The presenter, a child, records the user's last edits in the history as it goes.
DocumentsView::~DocumentsView() = default;

QWidget *DocumentsView::makePane(QLabel *&title, DocumentPane *pane)
{
    auto *box = new QWidget(this);
    auto *layout = new QVBoxLayout(box);
    layout->setContentsMargins(0, 0, 0, 0);
    title = new QLabel(box);
    title->setFont(theme::titleFont(font()));
    pane->setParent(box);
    pane->setFont(theme::editorFont(font()));
    layout->addWidget(title);
    layout->addWidget(pane, 1);
    return box;
}

void DocumentsView::connectPresenter()
{
    DocumentsPresenter *p = m_presenter;
    connect(p, &DocumentsPresenter::modelChanged, this, [this] {
        m_languageBar->reset(); // a new model: the document is checked against it again
        updateQualityNames();
    });
    connect(p, &DocumentsPresenter::cleared, this, &DocumentsView::showCleared);
    connect(p, &DocumentsPresenter::opened, this, &DocumentsView::showOpened);
    connect(p, &DocumentsPresenter::openCancelled, this, &DocumentsView::showOpenCancelled);
    connect(p, &DocumentsPresenter::paragraphsTranslated, this, &DocumentsView::showTranslated);
    connect(p, &DocumentsPresenter::progressChanged, this, [this] {
        m_progress->setRange(0, std::max(m_presenter->sentencesTotal(), 1));
        m_progress->setValue(m_presenter->sentencesDone());
        if (m_presenter->isTranslating())
            m_status->setText(progressText());
    });
    connect(p, &DocumentsPresenter::stateChanged, this, &DocumentsView::updateState);
    connect(p, &DocumentsPresenter::started, this,
            [this] { m_status->setText(tr("Loading the model…")); });
    connect(p, &DocumentsPresenter::languageMismatchFound, this, [this] {
        m_languageBar->showMismatch(m_presenter->languageMismatch(),
                                    m_presenter->modelSourceLanguage());
        m_status->setText(liveText([language = m_presenter->modelSourceLanguage()] {
            return tr("Not translated: the document is not in %1.").arg(languageName(language));
        }));
    });
    connect(p, &DocumentsPresenter::editsChanged, this, [this] {
        m_status->setText(liveText([n = int(m_presenter->edits().size())] {
            return tr("%n paragraph(s) edited; Export writes your version.", "", n);
        }));
    });
    connect(p, &DocumentsPresenter::finished, this, &DocumentsView::showFinished);
    connect(p, &DocumentsPresenter::exported, this, &DocumentsView::showExported);
    connect(p, &DocumentsPresenter::failed, this, &DocumentsView::showFailed);
    // In the status line with the paragraph count once it is open; in the status bar now.
    connect(p, &DocumentsPresenter::notice, this, &DocumentsView::statusMessage);
    connect(p, &DocumentsPresenter::historyNotUpdated, this, [this](const QString &reason) {
        emit statusMessage(tr("The history was not updated: %1").arg(reason));
    });
}

QTextEdit *DocumentsView::sourcePane() const
{
    return m_source;
}

QTextEdit *DocumentsView::targetPane() const
{
    return m_target;
}

QTextBlock DocumentsView::sourceBlock(int paragraph) const
{
    return m_source->block(paragraph);
}

QTextBlock DocumentsView::targetBlock(int paragraph) const
{
    return m_target->block(paragraph);
}

QWidget *DocumentsView::languageWarning() const
{
    return m_languageBar;
}

QPushButton *DocumentsView::switchDirectionButton() const
{
    return m_languageBar->switchButton();
}

QPushButton *DocumentsView::translateAnywayButton() const
{
    return m_languageBar->goOnButton();
}

void DocumentsView::updateTargetTitle()
{
    const QString language = m_presenter->shownLanguage();
    if (language.isEmpty())
        m_targetTitle->setText(tr("Translation"));
    else if (m_presenter->isOutOfDate())
        m_targetTitle->setText(tr("Translation (%1), made with other settings: Translate to "
                                  "update it")
                                   .arg(languageName(language)));
    else
        m_targetTitle->setText(tr("Translation (%1)").arg(languageName(language)));
}

QString DocumentsView::openFilter()
{
    QStringList patterns;
    for (const QString &suffix : documents::supportedFormats())
        patterns << QStringLiteral("*.") + suffix;
    return tr("Documents (%1);;All files (*)").arg(patterns.join(QLatin1Char(' ')));
}

QStringList DocumentsView::exportFilters(const QStringList &formats)
{
    QStringList filters;
    for (const QString &format : formats)
        if (const documents::DocumentFormat *row = documents::findFormat(format))
            filters << QStringLiteral("%1 (*.%2)").arg(tr(row->description), format);
    return filters;
}

void DocumentsView::chooseDocument()
{
    const QString path =
        openFileName(this, FileKind::Documents, tr("Open document"), openFilter());
    if (!path.isEmpty() && !keepEdits()) {
        rememberOpened(OpenedAs::Document, path);
        openDocument(path);
    }
}

void DocumentsView::updateQualityNames()
{
    const ModelChoice &choice = m_presenter->model();
    m_quality->setItemText(m_quality->findData(int(Quality::Fast)), tr("Fast (greedy)"));
    m_quality->setItemText(
        m_quality->findData(int(Quality::Best)),
        choice.model
            ? tr("The model's own (%1)").arg(decodingSummary(choice.model->decodingDefaults()))
            : tr("Best (beam search)"));
}

bool DocumentsView::keepEdits()
{
    return m_presenter->hasUnexportedEdits() &&
           QMessageBox::question(this, tr("Discard your edits?"),
                                 tr("Opening another document discards the %n paragraph(s) "
                                    "you edited. Export first to keep them.",
                                    "", int(m_presenter->edits().size())),
                                 QMessageBox::Discard | QMessageBox::Cancel) !=
               QMessageBox::Discard;
}

void DocumentsView::openDocument(const QString &path)
{
    if (path != m_presenter->path()) // another document: checked against the model again
        m_languageBar->reset();
    m_presenter->open(path);
}

void DocumentsView::showCleared(const QString &path)
{
    m_currentParagraph = m_currentSentence = -1;
    m_source->clearParagraphs();
    m_target->clearParagraphs();
    m_file->setText(QFileInfo(path).fileName());
    m_status->setText(tr("Reading %1…").arg(QFileInfo(path).fileName()));
}

void DocumentsView::showOpened(const QString &path)
{
    const DocumentsPresenter &p = *m_presenter;
    const QSignalBlocker blockSource(m_source), blockTarget(m_target);
    m_source->fill(p.sources(), p.layouts());
    // Until translated, a paragraph shows its source, dimmed: what Export would write for it.
    m_target->fill(p.targets(), p.layouts(), true);
    // A streamed file's finished chunks are written as they are done: no edits for those.
    m_target->setEditable(!p.isStreamed());
    QString status = tr("%n paragraph(s) to translate.", nullptr, p.paragraphCount());
    if (p.encoding() != QLatin1String("UTF-8"))
        status += QLatin1Char(' ') + tr("The file is in %1, not UTF-8; Export writes UTF-8.")
                                         .arg(documents::encodingDisplayName(p.encoding()));
    // Notices (a paragraph cut at the chunk limit) came while it was read: the status bar showed
    // them until its next message; the status line keeps them until translating shows progress.
    for (const QString &notice : p.notices())
        status += QLatin1Char(' ') + notice;
    m_status->setText(status);
    emit opened(path);
}

void DocumentsView::translateDocument()
{
    using Start = DocumentsPresenter::Start;
    if (m_presenter->translate() != Start::AskToDiscardEdits)
        return;
    // Another model or quality: the document is read again and translated anew.
    if (QMessageBox::question(this, tr("Discard your edits?"),
                              tr("Translating the document again replaces the %n "
                                 "paragraph(s) you edited.",
                                 "", int(m_presenter->edits().size())),
                              QMessageBox::Discard | QMessageBox::Cancel) == QMessageBox::Discard)
        m_presenter->translate(true);
}

void DocumentsView::cancel()
{
    m_presenter->cancel();
}

void DocumentsView::showOpenCancelled(const QString &path)
{
    // Nothing is open: the panes were cleared when the read started.
    m_file->setText(tr("Open or drop a document"));
    const QString message =
        tr("Stopped reading %1; no document is open.").arg(QFileInfo(path).fileName());
    m_status->setText(message);
    emit statusMessage(message);
}

void DocumentsView::showTranslated(const QList<int> &paragraphs)
{
    {
        const QSignalBlocker block(m_target);
        QTextCursor batch(m_target->document());
        batch.beginEditBlock();
        for (const int p : paragraphs)
            if (!m_presenter->edits().contains(p)) // the user's own version stays
                m_target->setParagraph(p, m_presenter->target(p), m_presenter->targetRuns(p));
        batch.endEditBlock();
    }
    // The paragraphs' lengths changed: bring the panes back in line.
    linkScroll(true);
    // The highlighted paragraph (else the one at the source's cursor, untouched at the start)
    // may have its sentences now, and the new sentences their omission marks.
    const QTextCursor at = m_source->textCursor();
    const int paragraph = m_currentParagraph >= 0 ? m_currentParagraph : at.block().userState();
    selectSentence(paragraph, paragraph >= 0 && at.block().userState() == paragraph
                                  ? m_presenter->sentenceAt(paragraph, at.positionInBlock(), true)
                                  : m_currentSentence);
}

void DocumentsView::showFinished(bool complete)
{
    emit statusMessage(complete ? tr("The document is translated.")
                                : tr("Stopped: %1 of %2 sentences are translated; Export "
                                     "keeps the rest in the source language.")
                                      .arg(m_presenter->sentencesDone())
                                      .arg(m_presenter->sentencesTotal()));
    emit finished(complete);
}

void DocumentsView::showExported(const QString &path, const QString &encoding)
{
    const QString where = QDir::toNativeSeparators(path);
    // Export writes UTF-8 unless the document's own encoding can hold the text.
    if (encoding != m_presenter->encoding())
        emit statusMessage(tr("Saved %1 in %2 (the document was read as %3)")
                               .arg(where, documents::encodingDisplayName(encoding),
                                    documents::encodingDisplayName(m_presenter->encoding())));
    else
        emit statusMessage(tr("Saved %1").arg(where));
    emit exported(path);
}

void DocumentsView::showFailed(const QString &message)
{
    m_status->setText(message);
    emit statusMessage(message);
    emit failed(message);
}

QString DocumentsView::progressText() const
{
    return sentenceProgressText(m_presenter->sentencesDone(), m_presenter->sentencesTotal(),
                                m_presenter->millisecondsLeft(), m_presenter->isTranslating());
}

void DocumentsView::exportDocument()
{
    const QStringList formats = m_presenter->exportFormats();
    if (formats.isEmpty())
        return;
    const QStringList filters = exportFilters(formats);
    QString filter = filters.first();
    QString path = saveFileName(this, FileKind::Exports, tr("Export translation"),
                                m_presenter->suggestedExportPath(),
                                filters.join(QStringLiteral(";;")), &filter);
    if (path.isEmpty())
        return;
    const QString chosen = formats.value(filters.indexOf(filter), formats.first());
    if (!formats.contains(documents::formatForPath(path)))
        path += QLatin1Char('.') + chosen;
    exportTo(path);
}

void DocumentsView::exportTo(const QString &path)
{
    m_presenter->exportTo(path);
}

void DocumentsView::selectSentence(int paragraph, int sentence)
{
    m_currentParagraph = paragraph;
    m_currentSentence = sentence;
    QList<QTextEdit::ExtraSelection> sourceMarks, targetMarks;
    const QList<documents::SentenceLink> links = m_presenter->sentences(paragraph);
    QTextCharFormat mark;
    mark.setBackground(theme::attentionColor(palette(), 0.45f));
    if (sentence >= 0 && sentence < links.size()) {
        const documents::SentenceLink &link = links[sentence];
        sourceMarks << m_source->selection(paragraph, link.sourceBegin, link.sourceEnd, mark);
        targetMarks << m_target->selection(paragraph, link.targetBegin, link.targetEnd, mark);
    } else if (paragraph >= 0 && paragraph < m_presenter->paragraphCount()) {
        // Not translated yet: the paragraph.
        sourceMarks << m_source->selection(
            paragraph, 0, int(m_presenter->sources().value(paragraph).size()), mark);
    }
    // Likely omissions, in every paragraph: a marker on the sentence where the word is.
    for (int p = 0; p < m_presenter->paragraphCount(); ++p) {
        if (!m_presenter->isTranslated(p))
            continue;
        for (const documents::SentenceLink &link : m_presenter->sentences(p))
            for (const documents::OmissionMark &omission : link.omissions) {
                QTextCharFormat wavy = omissionFormat(palette(), omission.mass, omission.threshold);
                wavy.setProperty(kOmissionProperty, omission.mass);
                sourceMarks << m_source->selection(p, omission.begin, omission.end, wavy);
            }
    }
    m_source->setExtraSelections(sourceMarks);
    m_target->setExtraSelections(targetMarks);
}

void DocumentsView::onCursorMoved(bool inSource)
{
    if (m_syncing)
        return;
    DocumentPane *pane = inSource ? m_source : m_target;
    const QTextCursor cursor = pane->textCursor();
    const int paragraph = cursor.block().userState();
    selectSentence(paragraph,
                   m_presenter->sentenceAt(paragraph, cursor.positionInBlock(), inSource));
    if (paragraph < 0)
        return; // a block of no paragraph (the line a table follows)
    // Keep the other side's paragraph in view.
    DocumentPane *other = inSource ? m_target : m_source;
    if (const QTextBlock block = other->block(paragraph); block.isValid()) {
        m_syncing = true;
        other->setTextCursor(QTextCursor(block));
        other->ensureCursorVisible();
        m_syncing = false;
    }
}

void DocumentsView::linkScroll(bool fromSource)
{
    if (m_syncing || m_source->paragraphCount() != m_target->paragraphCount())
        return;
    m_syncing = true;
    // The top paragraph of one pane, and how far into it the view is, at the top of the other.
    DocumentPane *from = fromSource ? m_source : m_target;
    DocumentPane *to = fromSource ? m_target : m_source;
    double within = 0.0;
    if (const int top = from->topParagraph(&within); top >= 0)
        to->scrollToParagraph(top, within);
    m_syncing = false;
}

void DocumentsView::updateState()
{
    const DocumentsPresenter &p = *m_presenter;
    m_translate->setEnabled(p.canTranslate());
    m_translate->setText(p.continues() ? tr("&Continue") : tr("&Translate"));
    updateTargetTitle();
    m_cancel->setEnabled(p.canCancel());
    m_export->setEnabled(p.canExport());
    m_quality->setEnabled(!p.isTranslating());
    if (!p.model().isReady())
        m_status->setText(unavailableText(p.model()));
}

void DocumentsView::retranslateUi()
{
    m_open->setText(tr("&Open…"));
    QStringList formats;
    for (const documents::DocumentFormat &row : documents::documentFormats())
        formats << row.name;
    m_open->setToolTip(tr("Open a document (%1), or drop one here")
                           .arg(documents::suffixList(formats, QStringLiteral(", "))));
    if (m_presenter->path().isEmpty())
        m_file->setText(tr("Open or drop a document"));
    m_qualityLabel->setText(tr("&Quality:"));
    updateQualityNames();
    m_cancel->setText(tr("Cancel"));
    m_cancel->setToolTip(tr("Stop; the finished part is kept"));
    m_export->setText(tr("&Export…"));
    m_export->setToolTip(tr("Save the translation as a document"));
    m_sourceTitle->setText(tr("Source"));
    m_progress->setAccessibleName(tr("Translation progress"));
    m_source->setAccessibleName(tr("Source document"));
    m_target->setAccessibleName(tr("Translated document"));
    m_languageBar->setTexts(tr("This document looks like %1, and the model translates from %2."),
                            tr("Translate %1 → %2"), tr("Translate anyway"));
    updateState();
}

void DocumentsView::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslateUi();
    QWidget::changeEvent(event);
}

void DocumentsView::dragEnterEvent(QDragEnterEvent *event)
{
    for (const QUrl &url : event->mimeData()->urls())
        if (url.isLocalFile() && !documents::formatForPath(url.toLocalFile()).isEmpty()) {
            event->acceptProposedAction();
            return;
        }
}

void DocumentsView::dropEvent(QDropEvent *event)
{
    for (const QUrl &url : event->mimeData()->urls())
        if (url.isLocalFile() && !documents::formatForPath(url.toLocalFile()).isEmpty()) {
            if (keepEdits())
                return;
            openDocument(url.toLocalFile());
            event->acceptProposedAction();
            return;
        }
}

} // namespace glosa
