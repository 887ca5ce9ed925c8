#include "app/core/documents/documentworker.h"

#include "app/core/documents/chunkedtranslation.h"
#include "app/core/documents/documenttranslator.h"
#include "app/core/documents/formats.h"
#include "app/core/inference/decodingrequest.h"
#include "app/core/platform/savefile.h"
#include "app/core/settings/settings.h"
#include "engine/translation/translationmodel.h"
#include "engine/translation/translator.h"

#include <QFileInfo>
#include <QTemporaryFile>

#include <exception>
#include <functional>
#include <memory>

namespace glosa::documents {

namespace {

// UTF-16 length of the first `bytes` bytes of UTF-8 `text` (a range's edge in QString terms).
int utf16Offset(const QByteArray &text, qsizetype bytes)
{
    return int(
        QString::fromUtf8(text.constData(), std::clamp<qsizetype>(bytes, 0, text.size())).size());
}

// Segment `index` of `chunk`, paragraph `paragraph` of the document, as it will be written: with
// the protected text (URLs, e-mail addresses, numbers) put back where the model changed it, and
// the segment's styled stretches (`styles`, describeLayout's) on the words their spans land on.
TranslatedParagraph paragraphOf(const Document &chunk, int index, int paragraphIndex,
                                const std::vector<StyledRange> &styles)
{
    const Segment &segment = chunk.segments[std::size_t(index)];
    SegmentTranslation written = *segment.translation;
    const std::vector<ByteRange> landed = projectSpans(segment, written);
    TranslatedParagraph paragraph;
    paragraph.index = paragraphIndex;
    paragraph.text = QString::fromUtf8(written.text);
    for (const StyledRange &styled : styles) {
        if (styled.span < 0 || std::size_t(styled.span) >= landed.size())
            continue;
        const ByteRange range = landed[std::size_t(styled.span)];
        if (range.size() > 0)
            paragraph.runs.append({utf16Offset(written.text, range.begin),
                                   utf16Offset(written.text, range.end), styled.styles});
    }
    for (const SentencePair &pair : written.sentences) {
        QList<OmissionMark> omissions;
        for (const CoverageWarning &warning : pair.omissions)
            omissions.append({utf16Offset(segment.text, warning.source.begin),
                              utf16Offset(segment.text, warning.source.end), warning.mass,
                              warning.threshold});
        paragraph.sentences.append({utf16Offset(segment.text, pair.source.begin),
                                    utf16Offset(segment.text, pair.source.end),
                                    utf16Offset(written.text, pair.target.begin),
                                    utf16Offset(written.text, pair.target.end), omissions});
    }
    return paragraph;
}

// A streamed document's finished chunks in both forms it can be exported as, its own format and
// plain text (temporary files, so that the worker holds a chunk, not the file): Export copies
// one of them and appends the rest.
class FinishedChunks final : public ChunkSink
{
public:
    void write(const Document &chunk) override
    {
        if (!m_own.isOpen() && !m_own.open())
            throw DocumentError(
                QStringLiteral("cannot write a temporary file: %1").arg(m_own.errorString()));
        if (!m_text.isOpen() && !m_text.open())
            throw DocumentError(
                QStringLiteral("cannot write a temporary file: %1").arg(m_text.errorString()));
        m_ownWriter.write(chunk);
        m_textWriter.write(chunk);
    }

    void copyTo(QIODevice &out, bool plainText)
    {
        QTemporaryFile &file = plainText ? m_text : m_own;
        if (!file.isOpen())
            return; // no chunk finished yet
        // A temporary file on a full disk: what did not reach it must not pass for the whole.
        if (!file.flush())
            throw DocumentError(
                QStringLiteral("cannot write a temporary file: %1").arg(file.errorString()));
        file.seek(0);
        while (!file.atEnd()) {
            const QByteArray block = file.read(1 << 20);
            if (out.write(block) != block.size())
                throw DocumentError(
                    QStringLiteral("cannot write %1: %2").arg(deviceName(out), out.errorString()));
        }
    }

private:
    QTemporaryFile m_own, m_text;
    ChunkWriter m_ownWriter{m_own, false}, m_textWriter{m_text, true};
};

} // namespace

// Lives on the worker thread and owns everything the jobs touch: the document's pipeline, the
// model and the translator. Results go back to the GUI thread through the owner's WorkerThread,
// so a receiver connected without a context object still runs on the GUI thread.
class DocumentExecutor : public QObject
{
public:
    explicit DocumentExecutor(DocumentWorker *owner) : m_owner(owner) {}

    template <typename F> void deliver(F emitter)
    {
        m_owner->m_thread.report(
            [owner = m_owner, emitter = std::move(emitter)] { emitter(owner); });
    }

    void fail(const QString &message)
    {
        deliver([message](DocumentWorker *w) { emit w->failed(message); });
    }

    void open(const QString &path, qint64 chunkSize, const std::atomic<bool> &cancelled)
    {
        m_document.reset();
        m_finished.reset();
        m_styles.clear();
        try {
            auto document = std::make_unique<ChunkedTranslation>(
                path, chunkSize, [this, path](const QString &message) {
                    deliver([path, message](DocumentWorker *w) { emit w->notice(path, message); });
                },
                &cancelled);
            // Big files are read once here for the panes; each chunk is read again when it is
            // translated or exported.
            QStringList paragraphs;
            QList<ParagraphLayout> layouts;
            std::vector<std::vector<StyledRange>> styles;
            document->scan([&](const Document &chunk) {
                std::vector<SegmentLayout> described = describeLayout(chunk);
                for (std::size_t i = 0; i < chunk.segments.size(); ++i) {
                    const QByteArray &text = chunk.segments[i].text;
                    paragraphs << QString::fromUtf8(text);
                    ParagraphLayout layout{described[i].role, {}};
                    for (const StyledRange &styled : described[i].styles)
                        layout.runs.append({utf16Offset(text, styled.range.begin),
                                            utf16Offset(text, styled.range.end), styled.styles});
                    layouts << layout;
                    styles.push_back(std::move(described[i].styles));
                }
            });
            m_styles = std::move(styles);
            m_document = std::move(document);
            m_finished = std::make_unique<FinishedChunks>();
            // Last: the job ends (and the worker stops being busy) right after.
            deliver([path, format = m_document->format(), paragraphs, layouts,
                     encoding = m_document->encoding(),
                     streamed = m_document->isStreamed()](DocumentWorker *w) {
                w->m_streamed = streamed;
                emit w->opened(path, format, paragraphs, encoding, layouts);
            });
        } catch (const DocumentCancelled &) {
            deliver([path](DocumentWorker *w) { emit w->openCancelled(path); });
        } catch (const DocumentError &error) {
            fail(error.message());
        } catch (const std::exception &error) {
            fail(QStringLiteral("%1: %2").arg(path, QString::fromUtf8(error.what())));
        }
    }

    void translate(const ModelInfo &info, const ModelLoader &loader,
                   DocumentWorker::Quality quality, const std::atomic<bool> &cancelled)
    {
        if (!m_document) {
            fail(DocumentWorker::tr("Open a document first."));
            deliver([](DocumentWorker *w) { emit w->finished(false); });
            return;
        }
        try {
            // Settings ▸ Arithmetic may have changed since the model was loaded.
            const engine::ComputeType computeType = computeTypeFromSettings();
            if (!m_translator || m_modelId != info.id || m_computeType != computeType) {
                m_translator.reset();
                QString error;
                auto model = std::dynamic_pointer_cast<engine::TranslationModel>(
                    loader.load(info, computeType, &error));
                if (!model) {
                    fail(error.isEmpty() ? DocumentWorker::tr("%1 cannot translate.").arg(info.name)
                                         : error);
                    deliver([](DocumentWorker *w) { emit w->finished(false); });
                    return;
                }
                m_translator = std::make_unique<engine::Translator>(model);
                // Bigger batches than the interactive default: throughput over latency.
                m_translator->setBatchSize(32);
                m_modelId = info.id;
                m_computeType = computeType;
                m_document->forgetSentenceCounts();
            }
            // Best: the package's own decoding; Fast: greedy search with the package's
            // suppressed tokens and truecasing. One translation a sentence either way.
            DecodingChoices choices;
            if (quality == DocumentWorker::Quality::Fast)
                choices = everySetting(engine::DecodingOptions());
            choices.maxHypotheses = 1;
            const engine::DecodingOptions options =
                decodingRequest(m_translator->model().defaultDecodingOptions(), choices);
            DocumentTranslator documents(*m_translator);
            m_document->countSentences(documents); // "done / total" over the whole file
            QList<TranslatedParagraph> fresh;
            QObject connections; // for this translation only
            connect(m_document.get(), &ChunkedTranslation::segmentTranslated, &connections,
                    [&](const Document &chunk, int segment, int paragraph) {
                        static const std::vector<StyledRange> none;
                        const auto at = std::size_t(paragraph);
                        fresh.append(paragraphOf(chunk, segment, paragraph,
                                                 at < m_styles.size() ? m_styles[at] : none));
                    });
            connect(m_document.get(), &ChunkedTranslation::progress, &connections,
                    [&](const ChunkProgress &progress) {
                        if (!fresh.isEmpty())
                            deliver([batch = std::move(fresh)](DocumentWorker *w) {
                                emit w->translated(batch);
                            });
                        fresh.clear();
                        deliver([done = int(progress.sentencesDone),
                                 total = int(progress.sentencesTotal),
                                 left = progress.millisecondsLeft](DocumentWorker *w) {
                            emit w->progress(done, total, left);
                        });
                    });
            const bool complete =
                m_document->translate(documents, options, *m_finished, cancelled);
            deliver([complete](DocumentWorker *w) { emit w->finished(complete); });
        } catch (const std::exception &error) {
            fail(QString::fromUtf8(error.what()));
            deliver([](DocumentWorker *w) { emit w->finished(false); });
        }
    }

    void exportTo(const QString &path, const SentenceEdits &edits)
    {
        if (!m_document) {
            fail(DocumentWorker::tr("Open a document first."));
            return;
        }
        if (isSameFile(path, m_document->path())) {
            fail(DocumentWorker::tr("%1 is the document being translated; export the "
                                    "translation to another file.")
                     .arg(path));
            return;
        }
        try {
            QString encoding = QStringLiteral("UTF-8");
            if (!m_document->isStreamed() && !edits.isEmpty()) {
                Document edited = m_document->document();
                for (auto it = edits.begin(); it != edits.end(); ++it) {
                    if (it.key() < 0 || std::size_t(it.key()) >= edited.segments.size())
                        continue;
                    Segment &segment = edited.segments[std::size_t(it.key())];
                    if (it->contains(kWholeParagraph) || !segment.translation) {
                        segment.translation =
                            SegmentTranslation{it->value(kWholeParagraph).toUtf8(), {}, {}};
                        continue;
                    }
                    for (auto sentence = it->begin(); sentence != it->end(); ++sentence)
                        replaceSentence(*segment.translation, std::size_t(sentence.key()),
                                        sentence.value().toUtf8());
                }
                encoding = writeDocument(edited, path);
            } else if (!m_document->isStreamed()) {
                encoding = writeDocument(m_document->document(), path);
            } else {
                // The finished chunks as written, then the chunk in progress with its finished
                // paragraphs and the rest as in the source.
                const QString &source = m_document->format();
                const QString format = formatForPath(path);
                const QStringList writable = writableFormats(source);
                if (!writable.contains(format))
                    throw DocumentError(QStringLiteral("cannot write a %1 document as '.%2' "
                                                       "(write %3)")
                                            .arg(source, QFileInfo(path).suffix(),
                                                 suffixList(writable, QStringLiteral(", "),
                                                            QStringLiteral(" or "))));
                SaveFile out(path);
                if (!out.open(QIODevice::WriteOnly))
                    throw DocumentError(
                        QStringLiteral("cannot write %1: %2").arg(path, out.errorString()));
                const bool plainText = format != source;
                m_finished->copyTo(out, plainText);
                ChunkWriter writer(out, plainText);
                m_document->writeUnfinished(writer);
                if (!out.commit())
                    throw DocumentError(
                        QStringLiteral("cannot write %1: %2").arg(path, out.errorString()));
            }
            deliver([path, encoding](DocumentWorker *w) { emit w->exported(path, encoding); });
        } catch (const DocumentError &error) {
            fail(error.message());
        }
    }

private:
    DocumentWorker *m_owner;
    std::unique_ptr<ChunkedTranslation> m_document; // null: nothing open
    std::unique_ptr<FinishedChunks> m_finished;     // m_document's, written when it is streamed
    // Each paragraph's styled stretches (describeLayout's), for its translation's runs.
    std::vector<std::vector<StyledRange>> m_styles;
    std::unique_ptr<engine::Translator> m_translator;
    QString m_modelId;
    engine::ComputeType m_computeType = engine::ComputeType::Auto;
};

DocumentWorker::DocumentWorker(QObject *parent)
    : QObject(parent), m_executor(new DocumentExecutor(this)),
      m_thread(QStringLiteral("glosa-documents"), WorkerThread::Policy::InOrder, m_executor)
{
    qRegisterMetaType<glosa::documents::TranslatedParagraph>();
    qRegisterMetaType<QList<glosa::documents::TranslatedParagraph>>();
    connect(&m_thread, &WorkerThread::busyChanged, this, &DocumentWorker::busyChanged);
}

// m_thread, the last member, cancels (a PDF read too) and joins the thread first.
DocumentWorker::~DocumentWorker() = default;

void DocumentWorker::setModel(const ModelInfo &info, const ModelLoader &loader)
{
    m_info = info;
    m_loader = loader;
}

void DocumentWorker::post(
    std::function<void(DocumentExecutor &, const std::atomic<bool> &cancelled)> job)
{
    m_thread.post([executor = m_executor, job = std::move(job)](
                      const std::atomic<bool> &cancelled) { job(*executor, cancelled); });
}

void DocumentWorker::open(const QString &path)
{
    cancel(); // a translation, and a read still under way
    m_path = path;
    const QString format = formatForPath(path);
    m_exportFormats = writableFormats(format);
    post([path, chunk = m_chunkBytes](DocumentExecutor &executor,
                                      const std::atomic<bool> &cancelled) {
        executor.open(path, chunk, cancelled);
    });
}

void DocumentWorker::translate(Quality quality)
{
    post([info = m_info, loader = m_loader, quality](DocumentExecutor &executor,
                                                     const std::atomic<bool> &cancelled) {
        executor.translate(info, loader, quality, cancelled);
    });
}

void DocumentWorker::cancel()
{
    m_thread.cancel();
}

void DocumentWorker::exportTo(const QString &path, const SentenceEdits &edits)
{
    // An export ignores its flag: a cancel stops a translation, not the writing of what is done.
    post([path, edits](DocumentExecutor &executor, const std::atomic<bool> &) {
        executor.exportTo(path, edits);
    });
}

} // namespace glosa::documents

#include "moc_documentworker.cpp"
