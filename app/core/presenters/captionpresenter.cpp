#include "app/core/presenters/captionpresenter.h"

#include "app/core/history/entrykinds.h"
#include "app/core/inference/inferenceworker.h"
#include "app/core/platform/handoff.h"

#include <QDir>
#include <QImageReader>
#include <QPointer>
#include <QStandardPaths>
#include <QUuid>

namespace glosa {

CaptionPresenter::CaptionPresenter(AppContext &context, QObject *parent)
    : QObject(parent), m_context(context), m_history(context.history(), this)
{
    connect(&context, &AppContext::modelChosen, this, &CaptionPresenter::useModel);
    useModel(context.choice(AppContext::kCaptioning));
    useModel(context.choice(AppContext::kTranslation));
}

CaptionPresenter::~CaptionPresenter() = default;

// --- The models ------------------------------------------------------------------------------

void CaptionPresenter::useModel(const ModelChoice &choice)
{
    InferenceWorker *worker = choice.isReady() ? m_context.workerFor(*choice.model) : nullptr;
    if (choice.task == AppContext::kTranslation) {
        m_translator = worker;
        m_translationRequest.reset(); // the translation of a caption by the model before
        if (m_translating) {
            m_translating = false;
            emit translationChanged();
        }
        emit translateBlockChanged();
        return;
    }
    if (choice.task != AppContext::kCaptioning)
        return;
    m_captioner = choice;
    m_worker = worker;
    m_request.reset();
    setStatus(worker ? Status::Kind::None : Status::Kind::Unavailable);
    emit captionerChanged();
    emit translateBlockChanged();
}

engine::DecodingOptions CaptionPresenter::captionerDefaults() const
{
    return m_worker ? m_worker->modelInfo().decodingDefaults() : engine::DecodingOptions();
}

QString CaptionPresenter::captionLanguage() const
{
    return m_worker ? m_worker->modelInfo().targetLanguage : QString();
}

void CaptionPresenter::setOptionsSource(std::function<engine::DecodingOptions()> source)
{
    m_optionsSource = std::move(source);
}

void CaptionPresenter::setStatus(Status::Kind kind, const QString &text, double elapsedMs)
{
    m_status = {kind, elapsedMs, text};
    emit statusChanged();
}

// --- The images ------------------------------------------------------------------------------

void CaptionPresenter::addImages(const QStringList &paths)
{
    const int first = int(m_images.size());
    for (const QString &path : paths)
        appendImage(path);
    if (m_images.size() == first)
        return;
    emit imagesAdded(first);
    selectImage(first);
}

void CaptionPresenter::appendImage(const QString &path)
{
    m_images << path;
    makeThumbnail(path);
}

void CaptionPresenter::makeThumbnail(const QString &path)
{
    // Decoding a 12-megapixel JPEG takes 100 ms and more: thumbnails are made on the thread pool
    // and set when ready, so dropping a folder of photos never freezes the window.
    startOnPool([guard = QPointer<CaptionPresenter>(this), path] {
        QImageReader reader(path);
        reader.setAutoTransform(true);
        const QSize size = reader.size();
        if (size.isValid())
            reader.setScaledSize(size.scaled(kThumbnailSize, Qt::KeepAspectRatio));
        const QImage thumbnail = reader.read();
        postCall(guard, [guard, path, thumbnail] {
            if (guard)
                guard->setThumbnail(path, thumbnail);
        });
    });
}

void CaptionPresenter::setThumbnail(const QString &path, const QImage &thumbnail)
{
    if (thumbnail.isNull())
        return;
    m_thumbnails.insert(path, thumbnail);
    emit thumbnailReady(path);
    // Until its caption brings the full image, the selected photo is shown from its thumbnail.
    if (m_current >= 0 && m_images.at(m_current) == path && m_image.isNull())
        setImage(thumbnail);
}

void CaptionPresenter::addPastedImage(const QImage &image)
{
    if (image.isNull()) {
        setStatus(Status::Kind::NoClipboardImage);
        return;
    }
    // The worker reads files (the history keeps paths), so a pasted image gets one.
    const QString dir =
        QStandardPaths::writableLocation(QStandardPaths::CacheLocation) + QStringLiteral("/pasted");
    QDir().mkpath(dir);
    const QString path =
        dir + QLatin1Char('/') + QUuid::createUuid().toString(QUuid::WithoutBraces) + ".png";
    if (image.save(path))
        addImages({path});
}

void CaptionPresenter::selectImage(int index)
{
    if (index < 0 || index >= m_images.size())
        return;
    m_current = index;
    emit currentImageChanged();
    // The full image arrives with the caption (read on the worker thread); meanwhile the
    // thumbnail, or nothing while that is still being made.
    setImage(thumbnail(m_images.at(index)));
    captionCurrent();
}

void CaptionPresenter::setImage(const QImage &image)
{
    m_image = image;
    emit imageChanged();
}

// --- The caption -----------------------------------------------------------------------------

void CaptionPresenter::captionCurrent()
{
    if (m_current < 0)
        return;
    if (!m_worker) {
        setStatus(Status::Kind::Unavailable);
        return;
    }
    m_request = m_worker->caption(m_images.at(m_current),
                                  m_optionsSource ? m_optionsSource() : captionerDefaults());
    connect(m_request.get(), &InferenceRequest::captioned, this, [this](const CaptionResult &r) {
        showResult(r);
        setStatus(Status::Kind::Captioned, QString(), r.elapsedMs);
        emit captionShown(r);
        record(r);
    });
    connect(m_request.get(), &InferenceRequest::failed, this, &CaptionPresenter::captionFailed);
    showResult(CaptionResult()); // the caption shown so far is another image's
    setStatus(Status::Kind::Captioning);
}

void CaptionPresenter::captionFailed(const QString &message)
{
    // Nothing of the previous image may stay: "Translate caption" would translate it.
    setImage(QImage());
    showResult(CaptionResult());
    setStatus(Status::Kind::Failed, message);
}

void CaptionPresenter::showResult(const CaptionResult &result)
{
    m_result = result;
    if (!result.image.isNull())
        setImage(result.image);
    m_translation.clear();
    m_translationRequest.reset(); // a translation of the previous caption must not land here
    m_translating = false;
    m_word = -1;
    emit resultChanged();
    emit translationChanged();
    emit translateBlockChanged();
    selectWord(0);
}

void CaptionPresenter::selectWord(int index)
{
    const int cells = m_result.gridRows * m_result.gridCols;
    const bool shown = index >= 0 && index < m_result.tokens.size() && cells > 0 &&
                       m_result.attention.size() >= (index + 1) * cells;
    m_word = shown ? index : -1;
    emit wordSelected();
}

QVector<float> CaptionPresenter::selectedAttention() const
{
    const int cells = m_result.gridRows * m_result.gridCols;
    return m_word < 0 ? QVector<float>() : m_result.attention.mid(m_word * cells, cells);
}

// --- Translate caption -----------------------------------------------------------------------

CaptionPresenter::TranslateBlock CaptionPresenter::translateBlock() const
{
    if (!m_translator)
        return TranslateBlock::NoTranslator;
    if (m_result.text.isEmpty())
        return TranslateBlock::NoCaption;
    // The translation model must read the captions' language (an es→en model cannot translate
    // "a dog runs on the grass").
    const QString captions = captionLanguage();
    return captions.isEmpty() || m_translator->modelInfo().sourceLanguage == captions
               ? TranslateBlock::None
               : TranslateBlock::OtherLanguage;
}

void CaptionPresenter::translateCaption()
{
    if (!canTranslate())
        return;
    // The caption is one short sentence: the translation model's own decoding (beam search for
    // the shipped Transformer) costs little more than greedy and reads better.
    m_translationRequest =
        m_translator->translate(m_result.text, {m_translator->modelInfo().decodingDefaults()});
    connect(m_translationRequest.get(), &InferenceRequest::translated, this,
            &CaptionPresenter::showTranslation);
    connect(m_translationRequest.get(), &InferenceRequest::failed, this, [this] {
        m_translating = false;
        emit translationChanged();
    });
    m_translation.clear();
    m_translating = true;
    emit translationChanged();
}

void CaptionPresenter::showTranslation(const QList<TranslationResult> &results)
{
    m_translating = false;
    if (results.isEmpty() || !results.first().best()) {
        emit translationChanged();
        return;
    }
    const TranslationResult result = results.first();
    m_translation = result.best()->text;
    emit translationChanged();
    m_history.record(
        false,
        [result, info = historyModelInfo(m_context.catalog(), result.modelId)] {
            return translationHistoryEntry(result, info);
        },
        [this](qint64 id) { emit entryRecorded(id); });
    emit captionTranslated(result);
}

// --- The history -----------------------------------------------------------------------------

void CaptionPresenter::record(const CaptionResult &result)
{
    // The entry reads, hashes, decodes and shrinks the image file: 362 ms for a 12-megapixel
    // JPEG here.
    m_history.record(
        true,
        [result, info = historyModelInfo(m_context.catalog(), result.modelId)] {
            return captionHistoryEntry(result, info);
        },
        [this](qint64 id) { emit entryRecorded(id); });
}

void CaptionPresenter::showStoredCaption(const CaptionResult &result, const QImage &thumbnail,
                                         const QString &status)
{
    m_request.reset();
    int index = int(m_images.indexOf(result.imagePath));
    if (index < 0 && !result.imagePath.isEmpty()) {
        const QImage picture = result.image.isNull() ? thumbnail : result.image;
        if (!picture.isNull())
            m_thumbnails.insert(
                result.imagePath,
                picture.scaled(kThumbnailSize, Qt::KeepAspectRatio, Qt::SmoothTransformation));
        m_images << result.imagePath;
        index = int(m_images.size()) - 1;
        emit imagesAdded(index);
    }
    // Selecting an image captions it; here the caption is already known.
    m_current = index;
    emit currentImageChanged();
    setImage(result.image.isNull() ? thumbnail : result.image);
    showResult(result);
    setStatus(Status::Kind::Stored, status);
}

void CaptionPresenter::historyEntryOpened(const HistoryEntry &entry)
{
    m_history.opened(entry);
}

} // namespace glosa
