#include "app/core/presenters/documentspresenter.h"

#include "app/core/documents/formats.h"
#include "app/core/history/recorder.h"
#include "app/core/history/entrykinds.h"

#include <QDir>
#include <QFileInfo>

#include <algorithm>

namespace glosa {

namespace {

// One line of text per paragraph, so that a pane's paragraph is one block on either side.
QString oneLine(QString text)
{
    for (QChar &c : text)
        if (c == QLatin1Char('\n') || c == QLatin1Char('\r') || c == QChar::ParagraphSeparator ||
            c == QChar::LineSeparator)
            c = QLatin1Char(' ');
    return text;
}

// `runs` after was[begin, wasEnd) became `delta` characters longer. As in a text editor, what is
// typed right after a run's last character joins the run; runs after the change move.
void shiftRuns(QList<documents::StyledRun> &runs, int begin, int wasEnd, int delta)
{
    const int nowEnd = wasEnd + delta;
    auto moved = [&](int at) {
        return at >= wasEnd ? at + delta : at <= begin ? at : std::min(at, nowEnd);
    };
    for (documents::StyledRun &run : runs) {
        run.begin = moved(run.begin);
        run.end = std::max(run.begin, moved(run.end));
    }
}

} // namespace

DocumentsPresenter::DocumentsPresenter(AppContext &context, QObject *parent)
    : QObject(parent), m_context(context), m_worker(new documents::DocumentWorker(this))
{
    using documents::DocumentWorker;
    connect(m_worker, &DocumentWorker::opened, this,
            [this](const QString &path, const QString &, const QStringList &paragraphs,
                   const QString &encoding, const QList<documents::ParagraphLayout> &layouts) {
                onOpened(path, paragraphs, encoding, layouts);
            });
    connect(m_worker, &DocumentWorker::openCancelled, this, &DocumentsPresenter::onOpenCancelled);
    connect(m_worker, &DocumentWorker::translated, this, &DocumentsPresenter::onTranslated);
    connect(m_worker, &DocumentWorker::progress, this,
            [this](int done, int total, qint64 millisecondsLeft) {
                m_done = done;
                m_total = total;
                m_left = millisecondsLeft;
                emit progressChanged();
            });
    connect(m_worker, &DocumentWorker::finished, this, &DocumentsPresenter::onFinished);
    connect(m_worker, &DocumentWorker::exported, this, &DocumentsPresenter::onExported);
    connect(m_worker, &DocumentWorker::failed, this, &DocumentsPresenter::onFailed);
    connect(m_worker, &DocumentWorker::notice, this,
            [this](const QString &path, const QString &message) {
                if (path != m_path) // about a document a later open replaced
                    return;
                m_notices << message;
                emit notice(message);
            });
    connect(m_worker, &DocumentWorker::busyChanged, this, &DocumentsPresenter::stateChanged);
    connect(&context, &AppContext::modelChosen, this, &DocumentsPresenter::useModel);
    useModel(context.choice(AppContext::kTranslation));
}

DocumentsPresenter::~DocumentsPresenter()
{
    // Closing the app is leaving the document too: edits made since the last export would
    // otherwise never reach the history. The context (and its recorder) outlives the views; what
    // shows messages may not, so nothing is emitted from here.
    const QSignalBlocker silent(this);
    recordHistory(false);
}

void DocumentsPresenter::useModel(const ModelChoice &choice)
{
    if (choice.task != AppContext::kTranslation)
        return;
    m_choice = choice;
    if (choice.isReady())
        m_worker->setModel(*choice.model, m_context.modelLoader());
    // A new model: the document is checked against its language again.
    m_languageAccepted = false;
    m_mismatch = {};
    emit modelChanged();
    emit stateChanged();
}

void DocumentsPresenter::setQuality(Quality quality)
{
    if (quality == m_quality)
        return;
    m_quality = quality;
    emit stateChanged();
}

DocumentsPresenter::Settings DocumentsPresenter::currentSettings() const
{
    return {m_worker->modelInfo().id, m_worker->modelInfo().targetLanguage, m_quality};
}

bool DocumentsPresenter::isOutOfDate() const
{
    return m_translatedCount > 0 && !m_translating && m_translatedWith != currentSettings();
}

QString DocumentsPresenter::shownLanguage() const
{
    // The pane shows the translation made so far: it keeps that language until translated again.
    if (m_translatedCount > 0 || m_translating)
        return m_translatedWith.targetLanguage;
    return m_choice.isReady() ? m_worker->modelInfo().targetLanguage : QString();
}

bool DocumentsPresenter::canTranslate() const
{
    return m_choice.isReady() && isOpen() && !m_translating && !isBusy() && !m_restarting &&
           (m_translatedCount < m_sources.size() || isOutOfDate());
}

bool DocumentsPresenter::continues() const
{
    return m_translatedCount > 0 && m_translatedCount < m_sources.size() && !isOutOfDate();
}

QString DocumentsPresenter::modelSourceLanguage() const
{
    return m_choice.model ? m_choice.model->sourceLanguage : QString();
}

void DocumentsPresenter::acceptLanguage()
{
    m_languageAccepted = true;
    m_mismatch = {};
}

bool DocumentsPresenter::hasUnexportedEdits() const
{
    return !m_edits.isEmpty() && m_edits != m_exportedEdits;
}

int DocumentsPresenter::sentenceAt(int paragraph, int column, bool inSource) const
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

void DocumentsPresenter::open(const QString &path)
{
    recordHistory(false); // the user's version of the document left (or translated anew)
    if (path != m_path) { // another document: checked against the model's language again
        m_languageAccepted = false;
        m_mismatch = {};
    }
    m_path = path;
    m_restarting = false;
    m_sources.clear();
    m_layouts.clear();
    m_sentences.clear();
    m_isTranslated.clear();
    m_translatedCount = 0;
    m_translating = false;
    m_opening = true;
    m_done = m_total = 0;
    m_left = -1;
    m_edits.clear();
    m_exportedEdits.clear();
    m_exportingEdits.clear();
    m_targets.clear();
    m_targetRuns.clear();
    m_modelTexts.clear();
    m_historyId = 0;
    m_recordedEdit.clear();
    m_notices.clear();
    m_worker->open(path);
    emit cleared(path);
    emit progressChanged();
    emit stateChanged();
}

void DocumentsPresenter::onOpened(const QString &path, const QStringList &paragraphs,
                                  const QString &encoding,
                                  const QList<documents::ParagraphLayout> &layouts)
{
    if (path != m_path)
        return; // a later open replaced it
    m_opening = false;
    m_sources.clear();
    for (const QString &paragraph : paragraphs)
        m_sources << oneLine(paragraph);
    m_encoding = encoding;
    // A layout per paragraph; a worker that gave none shows plain paragraphs.
    m_layouts = layouts.size() == paragraphs.size()
                    ? layouts
                    : QList<documents::ParagraphLayout>(paragraphs.size());
    // Reports of a translation cancelled by this open may have come in since open().
    m_done = m_total = 0;
    m_left = -1;
    m_sentences = QList<QList<documents::SentenceLink>>(paragraphs.size());
    m_isTranslated = QList<bool>(paragraphs.size(), false);
    m_targets.clear();
    m_targetRuns.clear();
    // Until translated, a paragraph shows its source: what Export would write for it.
    for (int i = 0; i < paragraphs.size(); ++i) {
        m_targets << m_sources[i];
        m_targetRuns << m_layouts[i].runs;
    }
    m_modelTexts = QStringList(paragraphs.size());
    emit opened(path);
    emit progressChanged();
    emit stateChanged();
    if (m_restarting) {
        m_restarting = false;
        translate();
    }
}

void DocumentsPresenter::onOpenCancelled(const QString &path)
{
    if (path != m_path)
        return; // a later open replaced it (and cancelled this read)
    m_opening = false;
    m_restarting = false;
    m_path.clear(); // nothing is open
    emit openCancelled(path);
    emit stateChanged();
}

DocumentsPresenter::Start DocumentsPresenter::translate(bool discardEdits)
{
    if (!m_choice.isReady() || m_sources.isEmpty() || m_translating || m_restarting)
        return Start::Nothing;
    if (isOutOfDate()) {
        // Another model or quality: read the document again and translate all of it.
        if (hasUnexportedEdits() && !discardEdits)
            return Start::AskToDiscardEdits;
        open(m_path);
        m_restarting = true; // onOpened() goes on
        emit stateChanged();
        return Start::Restarting;
    }
    if (m_translatedCount == 0 && !m_languageAccepted) {
        m_mismatch = checkSourceLanguage(languageSample(m_sources), *m_choice.model,
                                         [this](const QString &source, const QString &target) {
                                             return m_context.modelForDirection(source, target);
                                         });
        if (m_mismatch.found()) {
            emit languageMismatchFound();
            return Start::WrongLanguage;
        }
    }
    m_translatedWith = currentSettings();
    m_translating = true;
    m_left = -1;
    m_worker->translate(m_quality);
    emit started();
    emit stateChanged();
    return Start::Started;
}

void DocumentsPresenter::cancel()
{
    // While reading, Cancel stops the read: a PDF's helper process is killed (documentworker.h).
    if (m_translating || m_opening)
        m_worker->cancel();
}

void DocumentsPresenter::onTranslated(const QList<documents::TranslatedParagraph> &paragraphs)
{
    QList<int> changed;
    for (const documents::TranslatedParagraph &paragraph : paragraphs) {
        const int i = paragraph.index;
        if (i < 0 || i >= m_sentences.size())
            continue;
        m_modelTexts[i] = oneLine(paragraph.text);
        const bool edited = m_edits.contains(i); // the user's own version stays
        if (!edited) {
            m_targets[i] = m_modelTexts[i];
            m_targetRuns[i] = paragraph.runs;
        }
        if (!m_isTranslated[i]) {
            m_isTranslated[i] = true;
            ++m_translatedCount;
        }
        m_sentences[i] = edited ? QList<documents::SentenceLink>() : paragraph.sentences;
        changed << i;
    }
    emit paragraphsTranslated(changed);
}

void DocumentsPresenter::onFinished(bool complete)
{
    m_translating = false;
    recordHistory(true);
    emit stateChanged();
    emit finished(complete);
}

void DocumentsPresenter::onFailed(const QString &message)
{
    m_restarting = false;
    m_opening = false;
    emit stateChanged();
    emit failed(message);
}

QString DocumentsPresenter::suggestedExportPath() const
{
    const QStringList formats = exportFormats();
    const QFileInfo source(m_path);
    return source.dir().filePath(source.completeBaseName() + QLatin1Char('.') +
                                 m_worker->modelInfo().targetLanguage + QLatin1Char('.') +
                                 formats.value(0));
}

void DocumentsPresenter::exportTo(const QString &path)
{
    m_exportingEdits = m_edits; // exported once the worker says so
    m_worker->exportTo(path, m_edits);
    recordHistory(false); // the user's version as exported
}

void DocumentsPresenter::onExported(const QString &path, const QString &encoding)
{
    // Those edits are safe in the file: leaving the document no longer loses them.
    m_exportedEdits = m_exportingEdits;
    emit exported(path, encoding);
}

void DocumentsPresenter::editParagraph(int paragraph, const QString &text)
{
    if (paragraph < 0 || paragraph >= m_targets.size() || text == m_targets[paragraph])
        return;
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
    const int delta = (nowEnd - begin) - (wasEnd - begin);
    shiftRuns(m_targetRuns[paragraph], begin, wasEnd, delta);
    QMap<int, QString> &edits = m_edits[paragraph];
    QList<documents::SentenceLink> &links = m_sentences[paragraph];
    if (links.isEmpty()) { // not translated yet: the user's text is the whole translation
        edits = {{documents::kWholeParagraph, text}};
        emit editsChanged();
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
    emit editsChanged();
}

void DocumentsPresenter::recordHistory(bool translated)
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
        emit historyNotUpdated(QString::fromUtf8(error.what()));
        return;
    }
    m_historyId = recorder->record(documentHistoryEntry(m_path, m_sources, model, edited,
                                                        m_worker->modelInfo(),
                                                        m_translatedWith.quality == Quality::Best));
    m_recordedEdit = edited;
}

} // namespace glosa

#include "moc_documentspresenter.cpp"
