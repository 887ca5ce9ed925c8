#include "app/gui/views/documentsview.h"

#include "app/core/documents/formats.h"
#include "app/core/documents/textencoding.h"
#include "app/core/history/recorder.h"
#include "app/core/history/results.h"
#include "app/core/inference/languageguess.h"
#include "app/gui/widgets/languagewarningbar.h"
#include "app/core/models/modelcatalog.h"
#include "app/core/settings/decodingmaps.h"
#include "app/gui/filedialogs.h"
#include "app/gui/guiutil.h"
#include "app/gui/livetext.h"
#include "app/gui/theme.h"

#include <QAbstractTextDocumentLayout>
#include <QClipboard>
#include <QComboBox>
#include <QDir>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QEvent>
#include <QFileInfo>
#include <QFontDatabase>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QMessageBox>
#include <QMimeData>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollBar>
#include <QSignalBlocker>
#include <QSplitter>
#include <QTextBlock>
#include <QTextDocument>
#include <QTextEdit>
#include <QTextList>
#include <QTextTable>
#include <QVBoxLayout>

#include <array>
#include <cmath>

namespace glosa {

namespace {

// One line of text per paragraph in both panes, so that block n is paragraph n on either side.
QString oneLine(QString text)
{
    for (QChar &c : text)
        if (c == QLatin1Char('\n') || c == QLatin1Char('\r') || c == QChar::ParagraphSeparator ||
            c == QChar::LineSeparator)
            c = QLatin1Char(' ');
    return text;
}

} // namespace

DocumentsView::DocumentsView(AppContext &context, QWidget *parent)
    : QWidget(parent), m_context(context), m_worker(new documents::DocumentWorker(this))
{
    setAcceptDrops(true);

    m_open = new QPushButton(this);
    m_file = new QLabel(this);
    m_file->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_qualityLabel = new QLabel(this);
    m_quality = new QComboBox(this);
    // The model's own decoding first, the default: what Translate uses, where greedy was silently
    // worse.
    m_quality->addItem(QString(), int(documents::DocumentWorker::Quality::Best));
    m_quality->addItem(QString(), int(documents::DocumentWorker::Quality::Fast));
    m_qualityLabel->setBuddy(m_quality);
    m_translate = new QPushButton(this);
    m_translate->setObjectName(QStringLiteral("translateDocument"));
    m_translate->setDefault(true);
    m_cancel = new QPushButton(this);
    m_export = new QPushButton(this);
    auto *bar = new QHBoxLayout;
    bar->addWidget(m_open);
    bar->addWidget(m_file, 1);
    bar->addWidget(m_qualityLabel);
    bar->addWidget(m_quality);
    bar->addWidget(m_translate);
    bar->addWidget(m_cancel);
    bar->addWidget(m_export);

    m_progress = new QProgressBar(this);
    m_progress->setTextVisible(false);
    m_progress->setRange(0, 1);
    m_progress->setValue(0);
    m_status = new QLabel(this);
    m_status->setWordWrap(true);
    auto *progressRow = new QHBoxLayout;
    progressRow->addWidget(m_progress, 1);
    progressRow->addWidget(m_status, 2);

    // The source is a QTextEdit, which lays out tables and lists; the translation a
    // QPlainTextEdit, one line per paragraph, where the user edits it.
    auto makePane = [this](QLabel *&title, auto *&pane) {
        auto *box = new QWidget(this);
        auto *layout = new QVBoxLayout(box);
        layout->setContentsMargins(0, 0, 0, 0);
        title = new QLabel(box);
        title->setFont(theme::titleFont(font()));
        pane = new std::remove_reference_t<decltype(*pane)>(box);
        pane->setReadOnly(true);
        pane->setFont(theme::editorFont(font()));
        pane->setAcceptDrops(false); // a dropped file opens the document (the view takes it)
        pane->viewport()->setAcceptDrops(false);
        pane->document()->setUndoRedoEnabled(false);
        // Read-only but with a cursor: clicking a sentence highlights it on both sides.
        pane->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
        layout->addWidget(title);
        layout->addWidget(pane, 1);
        return box;
    };
    auto *splitter = new QSplitter(Qt::Horizontal, this);
    splitter->addWidget(makePane(m_sourceTitle, m_source));
    splitter->addWidget(makePane(m_targetTitle, m_target));
    m_targetTitle->setObjectName(QStringLiteral("targetTitle"));
    // Post-editing: the translation pane takes the user's corrections, one line per paragraph.
    m_target->setReadOnly(false);
    m_target->setTextInteractionFlags(Qt::TextEditorInteraction);
    m_target->installEventFilter(this);
    connect(m_target->document(), &QTextDocument::contentsChange, this,
            [this](int position, int, int) {
                if (m_fillingTarget || m_sources.isEmpty())
                    return;
                const QTextBlock block = m_target->document()->findBlock(position);
                if (!block.isValid() || block.blockNumber() >= m_sources.size())
                    return;
                noteEdit(block.blockNumber(), block.text());
                m_status->setText(liveText([n = int(m_edits.size())] {
                    return tr("%n paragraph(s) edited; Export writes your version.", "", n);
                }));
            });
    m_quality->setObjectName(QStringLiteral("quality"));

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(bar);
    layout->addLayout(progressRow);
    m_languageBar = new LanguageWarningBar(context, this);
    // The offered model is chosen (useModel() has run): translate with it; or with this one.
    connect(m_languageBar, &LanguageWarningBar::switched, this, &DocumentsView::translateDocument);
    connect(m_languageBar, &LanguageWarningBar::goOn, this, &DocumentsView::translateDocument);
    layout->addWidget(m_languageBar);
    layout->addWidget(splitter, 1);

    connect(m_open, &QPushButton::clicked, this, &DocumentsView::chooseDocument);
    connect(m_translate, &QPushButton::clicked, this, &DocumentsView::translateDocument);
    connect(m_quality, &QComboBox::currentIndexChanged, this, [this] { updateState(); });
    connect(m_cancel, &QPushButton::clicked, this, &DocumentsView::cancel);
    connect(m_export, &QPushButton::clicked, this, &DocumentsView::exportDocument);
    connect(m_source->verticalScrollBar(), &QScrollBar::valueChanged, this,
            [this] { linkScroll(true); });
    connect(m_target->verticalScrollBar(), &QScrollBar::valueChanged, this,
            [this] { linkScroll(false); });
    connect(m_source, &QTextEdit::cursorPositionChanged, this, [this] { onCursorMoved(true); });
    connect(m_target, &QPlainTextEdit::cursorPositionChanged, this,
            [this] { onCursorMoved(false); });

    connect(m_worker, &documents::DocumentWorker::opened, this, &DocumentsView::showOpened);
    connect(m_worker, &documents::DocumentWorker::openCancelled, this,
            &DocumentsView::showOpenCancelled);
    connect(m_worker, &documents::DocumentWorker::translated, this, &DocumentsView::showTranslated);
    connect(m_worker, &documents::DocumentWorker::progress, this, &DocumentsView::showProgress);
    connect(m_worker, &documents::DocumentWorker::finished, this, [this](bool complete) {
        m_translating = false;
        recordHistory(true);
        updateState();
        emit statusMessage(complete ? tr("The document is translated.")
                                    : tr("Stopped: %1 of %2 sentences are translated; Export "
                                         "keeps the rest in the source language.")
                                          .arg(m_done)
                                          .arg(m_total));
        emit finished(complete);
    });
    connect(m_worker, &documents::DocumentWorker::exported, this,
            [this](const QString &path, const QString &encoding) {
                const QString where = QDir::toNativeSeparators(path);
                // Export writes UTF-8 (issue #33: output is UTF-8 unless asked otherwise).
                if (encoding != m_encoding)
                    emit statusMessage(tr("Saved %1 in %2 (the document was read as %3)")
                                           .arg(where, documents::encodingDisplayName(encoding),
                                                documents::encodingDisplayName(m_encoding)));
                else
                    emit statusMessage(tr("Saved %1").arg(where));
                // Those edits are safe in the file: leaving the document no longer loses them.
                m_exportedEdits = m_exportingEdits;
                emit exported(path);
            });
    connect(m_worker, &documents::DocumentWorker::failed, this, [this](const QString &message) {
        m_restarting = false;
        m_opening = false;
        updateState();
        m_status->setText(message);
        emit statusMessage(message);
        emit failed(message);
    });
    connect(m_worker, &documents::DocumentWorker::notice, this,
            [this](const QString &path, const QString &message) {
                if (path != m_path) // about a document a later open replaced
                    return;
                // In the status line with the paragraph count once it is open; in the status
                // bar now.
                m_notices << message;
                emit statusMessage(message);
            });
    connect(m_worker, &documents::DocumentWorker::busyChanged, this, [this] { updateState(); });

    connect(&context, &AppContext::modelChosen, this, &DocumentsView::useModel);
    useModel(context.choice(AppContext::kTranslation));
    retranslateUi();
    updateState();
}

DocumentsView::~DocumentsView()
{
    // Closing the app is leaving the document too: edits made since the last export would
    // otherwise never reach the history. The context (and its recorder) outlives the views; the
    // window that shows status messages may not, so nothing is emitted from here.
    const QSignalBlocker silent(this);
    recordHistory(false);
}

void DocumentsView::useModel(const ModelChoice &choice)
{
    if (choice.task != AppContext::kTranslation)
        return;
    m_choice = choice;
    if (choice.isReady())
        m_worker->setModel(*choice.model, m_context.modelLoader());
    // A new model: the document is checked against its language again.
    m_languageBar->reset();
    updateQualityNames();
    updateState();
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

DocumentsView::Settings DocumentsView::currentSettings() const
{
    return {m_worker->modelInfo().id, m_worker->modelInfo().targetLanguage,
            m_quality->currentData().toInt()};
}

bool DocumentsView::isOutOfDate() const
{
    return m_translatedCount > 0 && !m_translating && m_translatedWith != currentSettings();
}

void DocumentsView::updateTargetTitle()
{
    // The pane shows the translation made so far: it keeps that language until translated again.
    const bool shown = m_translatedCount > 0 || m_translating;
    const QString language =
        shown ? m_translatedWith.targetLanguage
              : (m_choice.isReady() ? m_worker->modelInfo().targetLanguage : QString());
    if (language.isEmpty())
        m_targetTitle->setText(tr("Translation"));
    else if (isOutOfDate())
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
    using Quality = documents::DocumentWorker::Quality;
    m_quality->setItemText(m_quality->findData(int(Quality::Fast)), tr("Fast (greedy)"));
    m_quality->setItemText(
        m_quality->findData(int(Quality::Best)),
        m_choice.model
            ? tr("The model's own (%1)").arg(decodingSummary(m_choice.model->decodingDefaults()))
            : tr("Best (beam search)"));
}

bool DocumentsView::hasUnexportedEdits() const
{
    return !m_edits.isEmpty() && m_edits != m_exportedEdits;
}

bool DocumentsView::keepEdits()
{
    return hasUnexportedEdits() &&
           QMessageBox::question(this, tr("Discard your edits?"),
                                 tr("Opening another document discards the %n paragraph(s) "
                                    "you edited. Export first to keep them.",
                                    "", int(m_edits.size())),
                                 QMessageBox::Discard | QMessageBox::Cancel) !=
               QMessageBox::Discard;
}

void DocumentsView::openDocument(const QString &path)
{
    recordHistory(false); // the user's version of the document left (or translated anew)
    if (path != m_path) // another document: checked against the model's language again
        m_languageBar->reset();
    m_path = path;
    m_restarting = false;
    m_sources.clear();
    m_sentences.clear();
    m_isTranslated.clear();
    m_translatedCount = 0;
    m_translating = false;
    m_opening = true;
    m_done = m_total = 0;
    m_left = -1;
    m_currentParagraph = m_currentSentence = -1;
    m_edits.clear();
    m_exportedEdits.clear();
    m_exportingEdits.clear();
    m_targets.clear();
    m_modelTexts.clear();
    m_historyId = 0;
    m_recordedEdit.clear();
    m_source->clear();
    m_sourceBlocks.clear();
    m_fillingTarget = true;
    m_target->clear();
    m_fillingTarget = false;
    m_progress->setRange(0, 1);
    m_progress->setValue(0);
    m_file->setText(QFileInfo(path).fileName());
    m_status->setText(tr("Reading %1…").arg(QFileInfo(path).fileName()));
    m_notices.clear();
    m_worker->open(path);
    updateState();
}

void DocumentsView::showOpened(const QString &path, const QString &format,
                               const QStringList &paragraphs, const QString &encoding,
                               const QList<documents::ParagraphLayout> &layouts)
{
    Q_UNUSED(format);
    if (path != m_path)
        return; // a later open replaced it
    m_opening = false;
    m_sources = paragraphs;
    m_encoding = encoding;
    // Reports of a translation cancelled by this open may have come in since openDocument().
    m_done = m_total = 0;
    m_left = -1;
    m_progress->setRange(0, 1);
    m_progress->setValue(0);
    m_sentences = QList<QList<documents::SentenceLink>>(paragraphs.size());
    m_isTranslated = QList<bool>(paragraphs.size(), false);
    m_targets.clear();
    for (const QString &paragraph : paragraphs)
        m_targets << oneLine(paragraph);
    m_modelTexts = QStringList(paragraphs.size());
    const QString joined = m_targets.join(QLatin1Char('\n'));
    const QSignalBlocker blockSource(m_source), blockTarget(m_target);
    m_fillingTarget = true;
    fillSource(layouts);
    // Until translated, a paragraph shows its source, dimmed: what Export would write for it.
    m_target->setPlainText(joined);
    QTextCursor all(m_target->document());
    all.select(QTextCursor::Document);
    QTextCharFormat dim;
    dim.setForeground(palette().color(QPalette::Disabled, QPalette::Text));
    all.mergeCharFormat(dim);
    m_fillingTarget = false;
    // A streamed file's finished chunks are written as they are done: no edits for those.
    m_target->setReadOnly(m_worker->isStreamed());
    QString status = tr("%n paragraph(s) to translate.", nullptr, int(paragraphs.size()));
    if (encoding != QLatin1String("UTF-8"))
        status += QLatin1Char(' ') +
                  tr("The file is in %1, not UTF-8; Export writes UTF-8.")
                      .arg(documents::encodingDisplayName(encoding));
    // Notices (a paragraph cut at the chunk limit) came while it was read: the status bar showed
    // them until its next message; the status line keeps them until translating shows progress.
    for (const QString &notice : std::as_const(m_notices))
        status += QLatin1Char(' ') + notice;
    m_status->setText(status);
    updateState();
    emit opened(path);
    if (m_restarting) {
        m_restarting = false;
        translateDocument();
    }
}

void DocumentsView::translateDocument()
{
    if (!m_choice.isReady() || m_sources.isEmpty() || m_translating || m_restarting)
        return;
    if (isOutOfDate()) {
        // Another model or quality: read the document again and translate all of it.
        if (hasUnexportedEdits() &&
            QMessageBox::question(this, tr("Discard your edits?"),
                                  tr("Translating the document again replaces the %n "
                                     "paragraph(s) you edited.",
                                     "", int(m_edits.size())),
                                  QMessageBox::Discard | QMessageBox::Cancel) !=
                QMessageBox::Discard)
            return;
        openDocument(m_path);
        m_restarting = true; // showOpened() goes on
        updateState();
        return;
    }
    if (m_translatedCount == 0 && m_languageBar->check(languageSample(m_sources), m_choice.model)) {
        m_status->setText(liveText([language = m_choice.model->sourceLanguage] {
            return tr("Not translated: the document is not in %1.").arg(languageName(language));
        }));
        return;
    }
    m_translatedWith = currentSettings();
    m_translating = true;
    m_left = -1;
    m_worker->translate(documents::DocumentWorker::Quality(m_quality->currentData().toInt()));
    m_status->setText(tr("Loading the model…"));
    updateState();
}

void DocumentsView::cancel()
{
    // While reading, Cancel stops the read: a PDF's helper process is killed (documentworker.h).
    if (m_translating || m_opening)
        m_worker->cancel();
}

void DocumentsView::showOpenCancelled(const QString &path)
{
    if (path != m_path)
        return; // a later open replaced it (and cancelled this read)
    m_opening = false;
    m_restarting = false;
    // Nothing is open: the panes were cleared when the read started.
    m_path.clear();
    m_file->setText(tr("Open or drop a document"));
    const QString message =
        tr("Stopped reading %1; no document is open.").arg(QFileInfo(path).fileName());
    m_status->setText(message);
    updateState();
    emit statusMessage(message);
}

void DocumentsView::showTranslated(const QList<documents::TranslatedParagraph> &paragraphs)
{
    QTextDocument *doc = m_target->document();
    const QSignalBlocker block(m_target);
    m_fillingTarget = true;
    QTextCursor cursor(doc);
    cursor.beginEditBlock();
    QTextCharFormat normal;
    normal.setForeground(palette().color(QPalette::Text));
    for (const documents::TranslatedParagraph &paragraph : paragraphs) {
        if (paragraph.index < 0 || paragraph.index >= m_sentences.size())
            continue;
        const QTextBlock target = doc->findBlockByNumber(paragraph.index);
        m_modelTexts[paragraph.index] = oneLine(paragraph.text);
        if (!m_edits.contains(paragraph.index)) { // the user's own version stays
            m_targets[paragraph.index] = m_modelTexts[paragraph.index];
            cursor.setPosition(target.position());
            cursor.setPosition(target.position() + target.length() - 1, QTextCursor::KeepAnchor);
            cursor.insertText(m_targets[paragraph.index], normal);
        }
        if (!m_isTranslated[paragraph.index]) {
            m_isTranslated[paragraph.index] = true;
            ++m_translatedCount;
        }
        m_sentences[paragraph.index] = m_edits.contains(paragraph.index)
                                           ? QList<documents::SentenceLink>()
                                           : paragraph.sentences;
    }
    cursor.endEditBlock();
    m_fillingTarget = false;
    // The paragraphs' lengths changed: bring the panes back in line.
    linkScroll(true);
    // The highlighted paragraph may have its sentences now, and the new sentences their
    // omission marks.
    const QTextCursor at = m_source->textCursor();
    selectSentence(m_currentParagraph,
                   m_currentParagraph >= 0 && at.block().userState() == m_currentParagraph
                       ? sentenceAt(m_currentParagraph, at.positionInBlock(), true)
                       : m_currentSentence);
}

int DocumentsView::sentenceAt(int paragraph, int column, bool inSource) const
{
    int sentence = -1;
    const QList<documents::SentenceLink> links = m_sentences.value(paragraph);
    for (int i = 0; i < links.size(); ++i) {
        const int begin = inSource ? links[i].sourceBegin : links[i].targetBegin;
        if (begin <= column || i == 0)
            sentence = i; // the last sentence starting at or before the column
    }
    return sentence;
}

void DocumentsView::showProgress(int done, int total, qint64 millisecondsLeft)
{
    m_done = done;
    m_total = total;
    m_left = millisecondsLeft;
    m_progress->setRange(0, std::max(total, 1));
    m_progress->setValue(done);
    m_status->setText(progressText());
}

QString DocumentsView::progressText() const
{
    return sentenceProgressText(m_done, m_total, m_left, m_translating);
}

void DocumentsView::exportDocument()
{
    const QStringList formats = m_worker->exportFormats();
    if (formats.isEmpty())
        return;
    const QStringList filters = exportFilters(formats);
    const QFileInfo source(m_path);
    const QString suggested = source.dir().filePath(source.completeBaseName() + QLatin1Char('.') +
                                                    m_worker->modelInfo().targetLanguage +
                                                    QLatin1Char('.') + formats.first());
    QString filter = filters.first();
    QString path = saveFileName(this, FileKind::Exports, tr("Export translation"), suggested,
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
    m_exportingEdits = m_edits; // exported once the worker says so
    m_worker->exportTo(path, m_edits);
    recordHistory(false); // the user's version as exported
}

void DocumentsView::noteEdit(int paragraph, const QString &text)
{
    // The changed stretch: was[begin, wasEnd) became text[begin, nowEnd). Where that is
    // ambiguous (a space typed before the space between two sentences), it is taken as far left
    // as it can be, so that what is typed at the end of a sentence stays in that sentence: the
    // common end is stripped first.
    const QString was = m_targets[paragraph];
    m_targets[paragraph] = text;
    int wasEnd = int(was.size()), nowEnd = int(text.size());
    while (wasEnd > 0 && nowEnd > 0 && was[wasEnd - 1] == text[nowEnd - 1])
        --wasEnd, --nowEnd;
    int begin = 0;
    while (begin < wasEnd && begin < nowEnd && was[begin] == text[begin])
        ++begin;
    QMap<int, QString> &edits = m_edits[paragraph];
    QList<documents::SentenceLink> &links = m_sentences[paragraph];
    if (links.isEmpty()) { // not translated yet: the user's text is the whole translation
        edits = {{documents::kWholeParagraph, text}};
        return;
    }
    // The sentences the change overlaps; for an insertion or a change between sentences, the
    // sentence it is in or follows.
    int first = -1, last = -1;
    for (int i = 0; i < links.size(); ++i)
        if (links[i].targetBegin < wasEnd && links[i].targetEnd > begin) {
            first = first < 0 ? i : first;
            last = i;
        }
    if (first < 0) {
        first = 0;
        for (int i = 0; i < links.size(); ++i)
            if (links[i].targetBegin <= begin)
                first = i;
        last = first;
    }
    // One change across sentences joins them: the first holds all of it, the others are empty.
    const int delta = (nowEnd - begin) - (wasEnd - begin);
    const int end = std::max(links[last].targetEnd, wasEnd) + delta;
    links[first].targetBegin = std::min(links[first].targetBegin, begin);
    links[first].targetEnd = end;
    for (int i = first + 1; i <= last; ++i)
        links[i].targetBegin = links[i].targetEnd = end;
    for (int i = last + 1; i < links.size(); ++i) {
        links[i].targetBegin += delta;
        links[i].targetEnd += delta;
    }
    for (int i = first; i <= last; ++i)
        edits[i] = text.mid(links[i].targetBegin, links[i].targetEnd - links[i].targetBegin);
}

void DocumentsView::recordHistory(bool translated)
{
    if (m_translatedCount == 0)
        return;
    QStringList model = m_modelTexts;
    for (int i = 0; i < model.size(); ++i)
        if (!m_isTranslated[i])
            model[i] = m_sources[i]; // what Export writes for it
    const QString edited =
        m_edits.isEmpty() || m_targets == model ? QString() : m_targets.join(QLatin1Char('\n'));
    HistoryRecorder *recorder = m_context.history();
    HistoryStore *store = recorder->store();
    try {
        if (!translated && m_historyId != 0) {
            if (edited == m_recordedEdit || m_historyId < 0 || !store)
                return; // as recorded, waiting for another process's lock, or not recorded
            store->setEditedText(m_historyId, edited);
            m_recordedEdit = edited;
            return;
        }
        // More of the document is translated (Continue after Cancel): one entry per
        // translation, the latest state (unless the user starred the earlier one).
        if (m_historyId > 0 && store) {
            const std::optional<HistoryEntry> earlier = store->entry(m_historyId);
            if (earlier && !earlier->starred)
                store->removeEntry(m_historyId);
        }
    } catch (const std::exception &error) {
        emit statusMessage(
            tr("The history was not updated: %1").arg(QString::fromUtf8(error.what())));
        return;
    }
    m_historyId = recorder->record(documentHistoryEntry(
        m_path, m_sources, model, edited, m_worker->modelInfo(),
        m_translatedWith.quality == int(documents::DocumentWorker::Quality::Best)));
    m_recordedEdit = edited;
}

void DocumentsView::selectSentence(int paragraph, int sentence)
{
    m_currentParagraph = paragraph;
    m_currentSentence = sentence;
    QList<QTextEdit::ExtraSelection> sourceMarks, targetMarks;
    if (paragraph >= 0 && paragraph < m_sentences.size()) {
        QTextCharFormat mark;
        mark.setBackground(theme::attentionColor(palette(), 0.45f));
        auto select = [&](const QTextBlock &block, int begin, int end) {
            QTextCursor cursor(block);
            cursor.setPosition(block.position() + std::clamp(begin, 0, block.length() - 1));
            cursor.setPosition(block.position() + std::clamp(end, 0, block.length() - 1),
                               QTextCursor::KeepAnchor);
            return QTextEdit::ExtraSelection{cursor, mark};
        };
        const QList<documents::SentenceLink> &links = m_sentences[paragraph];
        if (sentence >= 0 && sentence < links.size()) {
            const documents::SentenceLink &link = links[sentence];
            sourceMarks << select(sourceBlock(paragraph), link.sourceBegin, link.sourceEnd);
            targetMarks << select(m_target->document()->findBlockByNumber(paragraph),
                                  link.targetBegin, link.targetEnd);
        } else { // not translated yet: the paragraph
            sourceMarks << select(sourceBlock(paragraph), 0,
                                  int(m_sources.value(paragraph).size()));
        }
    }
    // Likely omissions, in every paragraph: a marker on the sentence where the word is.
    for (int p = 0; p < m_sentences.size() && p < m_sourceBlocks.size(); ++p) {
        const QTextBlock &block = m_sourceBlocks[p];
        for (const documents::SentenceLink &link : m_sentences[p])
            for (const documents::OmissionMark &omission : link.omissions) {
                QTextCursor cursor(block);
                cursor.setPosition(block.position() +
                                   std::clamp(omission.begin, 0, block.length() - 1));
                cursor.setPosition(block.position() +
                                       std::clamp(omission.end, 0, block.length() - 1),
                                   QTextCursor::KeepAnchor);
                QTextCharFormat wavy = omissionFormat(palette(), omission.mass, omission.threshold);
                wavy.setProperty(kOmissionProperty, omission.mass);
                sourceMarks << QTextEdit::ExtraSelection{cursor, wavy};
            }
    }
    m_source->setExtraSelections(sourceMarks);
    m_target->setExtraSelections(targetMarks);
}

void DocumentsView::onCursorMoved(bool inSource)
{
    if (m_syncing)
        return;
    const QTextCursor cursor = inSource ? m_source->textCursor() : m_target->textCursor();
    const int paragraph = inSource ? cursor.block().userState() : cursor.blockNumber();
    selectSentence(paragraph, sentenceAt(paragraph, cursor.positionInBlock(), inSource));
    if (paragraph < 0)
        return; // a source block of no paragraph (the line a table follows)
    // Keep the other side's paragraph in view.
    m_syncing = true;
    if (inSource) {
        m_target->setTextCursor(QTextCursor(m_target->document()->findBlockByNumber(paragraph)));
        m_target->ensureCursorVisible();
    } else if (const QTextBlock block = sourceBlock(paragraph); block.isValid()) {
        m_source->setTextCursor(QTextCursor(block));
        m_source->ensureCursorVisible();
    }
    m_syncing = false;
}

QTextBlock DocumentsView::sourceBlock(int paragraph) const
{
    return paragraph >= 0 && paragraph < m_sourceBlocks.size() ? m_sourceBlocks[paragraph]
                                                               : QTextBlock();
}

void DocumentsView::linkScroll(bool fromSource)
{
    if (m_syncing || m_sourceBlocks.size() != m_target->document()->blockCount())
        return;
    m_syncing = true;
    // The translation pane scrolls by layout lines, the source pane by pixels: the top paragraph
    // of one and how far into it the view is, put at the top of the other.
    const QAbstractTextDocumentLayout *layout = m_source->document()->documentLayout();
    if (fromSource) {
        const int value = m_source->verticalScrollBar()->value();
        QTextBlock top = m_source->cursorForPosition(QPoint(0, 0)).block();
        QRectF rect = layout->blockBoundingRect(top);
        // Past the empty line before a table, and past a block that ends at the top edge (whose
        // last pixel row is where the next block starts: the hit test gives the block above).
        while (top.isValid() && (top.userState() < 0 || rect.bottom() <= value)) {
            top = top.next();
            rect = layout->blockBoundingRect(top);
        }
        const QTextBlock same = m_target->document()->findBlockByNumber(top.userState());
        if (top.isValid() && same.isValid()) {
            const double within = rect.height() > 0 ? (value - rect.top()) / rect.height() : 0.0;
            const int lines = std::max(1, same.lineCount());
            m_target->verticalScrollBar()->setValue(same.firstLineNumber() +
                                                    std::clamp(int(within * lines), 0, lines - 1));
        }
    } else {
        const QTextBlock top = m_target->cursorForPosition(QPoint(0, 0)).block();
        const int lines = std::max(1, top.lineCount());
        const int within = std::clamp(
            m_target->verticalScrollBar()->value() - top.firstLineNumber(), 0, lines - 1);
        const QTextBlock same = sourceBlock(top.blockNumber());
        if (same.isValid()) {
            const QRectF rect = layout->blockBoundingRect(same);
            m_source->verticalScrollBar()->setValue(
                int(std::ceil(rect.top() + rect.height() * within / lines)));
        }
    }
    m_syncing = false;
}

void DocumentsView::fillSource(const QList<documents::ParagraphLayout> &layouts)
{
    using Kind = documents::BlockRole::Kind;
    QTextDocument *document = m_source->document();
    m_sourceBlocks.clear();
    const bool plain =
        layouts.size() != m_targets.size() ||
        std::all_of(layouts.begin(), layouts.end(), [](const documents::ParagraphLayout &l) {
            return l.role.kind == Kind::Paragraph && l.runs.isEmpty();
        });
    if (plain) { // text, subtitles, a PDF: one block per paragraph, as fast as it gets
        m_source->setPlainText(m_targets.join(QLatin1Char('\n')));
        for (QTextBlock block = document->firstBlock(); block.isValid(); block = block.next()) {
            block.setUserState(int(m_sourceBlocks.size()));
            m_sourceBlocks << block;
        }
        return;
    }
    document->clear();
    // Each table's size: the cells' furthest row and column, and how many paragraphs it holds.
    struct Grid
    {
        qint64 rows = 0, columns = 0, paragraphs = 0;
    };
    QHash<int, Grid> grids;
    for (const documents::ParagraphLayout &layout : layouts)
        if (layout.role.kind == Kind::TableCell) {
            Grid &grid = grids[layout.role.table];
            grid.rows = std::max<qint64>(grid.rows, layout.role.row + 1);
            grid.columns = std::max<qint64>(grid.columns, layout.role.column + 1);
            ++grid.paragraphs;
        }
    // A QTextTable holds every cell of its grid: a hostile table with one cell 20,000 columns
    // out in each of 200 rows would be 4 million cells for 400 paragraphs. A grid mostly empty
    // is shown as paragraphs instead.
    auto isGrid = [&](int table) {
        const Grid grid = grids.value(table);
        return grid.rows * grid.columns <= std::max<qint64>(256, 4 * grid.paragraphs);
    };
    const QString fixedFamily = QFontDatabase::systemFont(QFontDatabase::FixedFont).family();
    QTextCursor cursor(document);
    cursor.beginEditBlock();
    QTextTable *table = nullptr;
    int tableId = -1;
    QMap<int, QTextList *> lists; // the list at each level of the current run of list items
    for (int i = 0; i < layouts.size(); ++i) {
        documents::BlockRole role = layouts[i].role;
        if (role.kind == Kind::TableCell && !isGrid(role.table))
            role = documents::BlockRole();
        if (role.kind == Kind::TableCell && (!table || role.table != tableId)) {
            if (table) { // two tables in a row: the line between them
                cursor = table->lastCursorPosition();
                cursor.movePosition(QTextCursor::NextBlock);
            }
            QTextTableFormat format;
            format.setBorder(1);
            format.setBorderStyle(QTextFrameFormat::BorderStyle_Solid);
            format.setBorderBrush(palette().color(QPalette::Mid));
            format.setBorderCollapse(true);
            format.setCellPadding(3);
            format.setCellSpacing(0);
            format.setWidth(QTextLength(QTextLength::PercentageLength, 100));
            const Grid grid = grids.value(role.table);
            table = cursor.insertTable(int(grid.rows), int(grid.columns), format);
            tableId = role.table;
        }
        if (role.kind == Kind::TableCell) {
            cursor = table->cellAt(role.row, role.column).lastCursorPosition();
        } else if (table) { // after the table
            cursor = table->lastCursorPosition();
            cursor.movePosition(QTextCursor::NextBlock);
            table = nullptr;
        }
        if (role.kind != Kind::ListItem)
            lists.clear();
        // A block already showing a paragraph (a cell's first) gets a new one after it.
        if (cursor.block().userState() >= 0 || cursor.block().length() > 1)
            cursor.insertBlock(QTextBlockFormat(), QTextCharFormat());
        QTextBlockFormat blockFormat;
        QTextCharFormat charFormat;
        if (role.kind == Kind::Heading) {
            blockFormat.setHeadingLevel(role.level);
            blockFormat.setTopMargin(8);
            blockFormat.setBottomMargin(4);
            charFormat.setFontWeight(QFont::Bold);
            // What QTextDocument's own HTML import gives <h1> … <h6>.
            charFormat.setProperty(QTextFormat::FontSizeAdjustment,
                                   std::clamp(4 - role.level, -2, 3));
        } else if (role.kind == Kind::Paragraph) {
            blockFormat.setBottomMargin(4);
        }
        cursor.setBlockFormat(blockFormat);
        cursor.setBlockCharFormat(charFormat);
        QTextBlock block = cursor.block();
        cursor.insertText(m_targets[i], charFormat);
        for (const documents::StyledRun &run : layouts[i].runs) {
            QTextCharFormat styled;
            if (run.styles & documents::Bold)
                styled.setFontWeight(QFont::Bold);
            if (run.styles & documents::Italic)
                styled.setFontItalic(true);
            if (run.styles & (documents::Underline | documents::Link))
                styled.setFontUnderline(true);
            if (run.styles & documents::StrikeOut)
                styled.setFontStrikeOut(true);
            if (run.styles & documents::Code)
                styled.setFontFamilies({fixedFamily});
            if (run.styles & documents::Link)
                styled.setForeground(palette().color(QPalette::Link));
            QTextCursor range(block);
            range.setPosition(block.position() + std::clamp(run.begin, 0, block.length() - 1));
            range.setPosition(block.position() + std::clamp(run.end, 0, block.length() - 1),
                              QTextCursor::KeepAnchor);
            range.mergeCharFormat(styled);
        }
        if (role.kind == Kind::ListItem) {
            // Deeper lists end where a shallower item comes; a new list starts where the kind of
            // list changes.
            lists.erase(lists.upperBound(role.level), lists.end());
            const QTextListFormat::Style style =
                role.ordered ? QTextListFormat::ListDecimal
                             : std::array{QTextListFormat::ListDisc, QTextListFormat::ListCircle,
                                          QTextListFormat::ListSquare}[role.level % 3];
            QTextList *&list = lists[role.level];
            if (list && list->format().style() == style) {
                list->add(block);
            } else {
                QTextListFormat format;
                format.setStyle(style);
                format.setIndent(role.level + 1);
                list = cursor.createList(format);
            }
        }
        block.setUserState(i);
        m_sourceBlocks << block;
    }
    cursor.endEditBlock();
    // The pane's cursor followed the insertions to the end; setPlainText leaves it at the start.
    m_source->moveCursor(QTextCursor::Start);
}

void DocumentsView::updateState()
{
    const bool busy = m_worker->isBusy();
    const bool open = !m_sources.isEmpty();
    m_open->setEnabled(true);
    const bool outOfDate = isOutOfDate();
    m_translate->setEnabled(m_choice.isReady() && open && !m_translating && !busy &&
                            !m_restarting && (m_translatedCount < m_sources.size() || outOfDate));
    m_translate->setText(m_translatedCount > 0 && m_translatedCount < m_sources.size() && !outOfDate
                             ? tr("&Continue")
                             : tr("&Translate"));
    updateTargetTitle();
    m_cancel->setEnabled(m_translating || m_opening);
    m_export->setEnabled(open && !m_translating && !busy);
    m_quality->setEnabled(!m_translating);
    if (!m_choice.isReady())
        m_status->setText(unavailableText(m_choice));
}

void DocumentsView::retranslateUi()
{
    m_open->setText(tr("&Open…"));
    QStringList formats;
    for (const documents::DocumentFormat &row : documents::documentFormats())
        formats << row.name;
    m_open->setToolTip(tr("Open a document (%1), or drop one here")
                           .arg(documents::suffixList(formats, QStringLiteral(", "))));
    if (m_path.isEmpty())
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

bool DocumentsView::eventFilter(QObject *watched, QEvent *event)
{
    if (watched != m_target || event->type() != QEvent::KeyPress || m_target->isReadOnly())
        return QWidget::eventFilter(watched, event);
    // One line per paragraph: no key may add a line break or join two paragraphs.
    auto *key = static_cast<QKeyEvent *>(event);
    const QTextCursor cursor = m_target->textCursor();
    const bool acrossParagraphs =
        cursor.hasSelection() &&
        m_target->document()->findBlock(cursor.selectionStart()).blockNumber() !=
            m_target->document()->findBlock(cursor.selectionEnd()).blockNumber();
    const bool edits = !key->text().isEmpty() || key->key() == Qt::Key_Backspace ||
                       key->key() == Qt::Key_Delete || key->matches(QKeySequence::Cut) ||
                       key->matches(QKeySequence::Paste);
    if (key->key() == Qt::Key_Return || key->key() == Qt::Key_Enter ||
        (acrossParagraphs && edits) ||
        (!cursor.hasSelection() && key->key() == Qt::Key_Backspace && cursor.atBlockStart()) ||
        (!cursor.hasSelection() && key->key() == Qt::Key_Delete && cursor.atBlockEnd()))
        return true;
    if (key->matches(QKeySequence::Paste)) { // pasted lines become one
        QTextCursor at = m_target->textCursor();
        at.insertText(QGuiApplication::clipboard()->text().simplified());
        return true;
    }
    return QWidget::eventFilter(watched, event);
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
