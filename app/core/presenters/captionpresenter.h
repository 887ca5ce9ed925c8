// CaptionPresenter: the Caption tab without its widgets. It owns what the tab shows and decides:
// the images (their paths and thumbnails, made on the thread pool), the one selected, the request
// to the captioning model (the image and the user's decoding), its caption with the attention of
// every word over the image's grid, the word selected, "Translate caption" with the translation
// model (only when that model reads the captions' language), the status, and what goes into the
// history (each caption and translated caption once, ExplicitRecorder). CaptionView renders this
// state and forwards input to it.
//
// Basic usage:
//     CaptionPresenter presenter(context);              // follows the context's model choices
//     presenter.setOptionsSource([panel] { return panel->options(); });
//     connect(&presenter, &CaptionPresenter::captionShown, ...); // then result()
//     presenter.addImages({path});                      // the first added is captioned
//     presenter.selectWord(2);                          // selectedAttention(): its grid
//     presenter.translateCaption();                     // captionTranslated, translation()
#pragma once

#include "app/core/appcontext.h"
#include "app/core/history/explicitrecorder.h"
#include "app/core/inference/inferenceresult.h"

#include <QHash>
#include <QImage>
#include <QObject>
#include <QStringList>

#include <functional>
#include <memory>

namespace glosa {

class InferenceRequest;
class InferenceWorker;

class CaptionPresenter : public QObject
{
    Q_OBJECT
public:
    // What the status line says, as state: the view words it (and words it again in another
    // interface language).
    struct Status
    {
        enum class Kind {
            None,
            Unavailable, // no captioning model can run: unavailableText(captioner())
            Captioning,
            Captioned,        // in `elapsedMs`
            Failed,           // `text`: the worker's message
            NoClipboardImage, // a paste found no image
            Stored,           // `text`: said by whoever showed a stored caption
        };
        Kind kind = Kind::None;
        double elapsedMs = 0.0;
        QString text;
    };
    // Why "Translate caption" cannot run now.
    enum class TranslateBlock {
        None,
        NoTranslator,  // no translation model can run
        NoCaption,     // nothing to translate
        OtherLanguage, // the translation model does not read captionLanguage()
    };
    Q_ENUM(TranslateBlock)
    // The box a thumbnail fits in, its aspect ratio kept.
    static constexpr QSize kThumbnailSize{224, 168};

    explicit CaptionPresenter(AppContext &context, QObject *parent = nullptr);
    ~CaptionPresenter() override;

    // --- The models ------------------------------------------------------------------------
    const ModelChoice &captioner() const { return m_captioner; }
    bool canCaption() const { return m_worker != nullptr; }
    // The captioning model's own decoding (the view's panel starts from it); default options
    // when none can run.
    engine::DecodingOptions captionerDefaults() const;
    // The language the captions are in ("en"); empty when unknown.
    QString captionLanguage() const;
    // Where the user's decoding choices come from (the view's decoding panel); until set, the
    // captioning model's defaults.
    void setOptionsSource(std::function<engine::DecodingOptions()> source);

    // --- The images ------------------------------------------------------------------------
    const QStringList &images() const { return m_images; }
    // The index of the selected image in images(); -1: none.
    int currentImage() const { return m_current; }
    // The thumbnail of `path`, null until it is made (thumbnailReady) or when it cannot be.
    QImage thumbnail(const QString &path) const { return m_thumbnails.value(path); }
    // The picture to show: the photo as the model saw it once captioned, its thumbnail until
    // then, nothing after a failure.
    const QImage &image() const { return m_image; }

    // --- The caption -----------------------------------------------------------------------
    const CaptionResult &result() const { return m_result; }
    // The word whose attention is shown; -1 when none (no caption, or one without attention).
    int selectedWord() const { return m_word; }
    // The selected word's attention over the grid (result().gridRows × gridCols, row-major);
    // empty when none is selected.
    QVector<float> selectedAttention() const;
    const Status &status() const { return m_status; }

    // --- Translate caption -----------------------------------------------------------------
    TranslateBlock translateBlock() const;
    bool canTranslate() const { return translateBlock() == TranslateBlock::None; }
    bool isTranslating() const { return m_translating; }
    // The translation of the caption shown; empty until one comes.
    const QString &translation() const { return m_translation; }

public slots:
    // Appends the images, makes their thumbnails on the thread pool and captions the first one.
    void addImages(const QStringList &paths);
    // A pasted image: saved as a PNG in the cache folder (the worker and the history read files),
    // then added. A null image: status NoClipboardImage.
    void addPastedImage(const QImage &image);
    // Selects image `index` and captions it.
    void selectImage(int index);
    // Captions the selected image again (with the decoding as it is now).
    void captionCurrent();
    void selectWord(int index);
    void translateCaption();
    // Shows a caption recorded earlier (History ▸ Open) without captioning again: its image is
    // added when it is not there yet and selected; `thumbnail` stands in when the file is gone.
    void showStoredCaption(const glosa::CaptionResult &result, const QImage &thumbnail,
                           const QString &status);
    // `entry` was opened from the history: captioning the same again records nothing new.
    void historyEntryOpened(const glosa::HistoryEntry &entry);

signals:
    // The captioning model changed (captioner(), canCaption(), captionerDefaults()).
    void captionerChanged();
    // translateBlock() may have changed: another translation model, or another caption.
    void translateBlockChanged();
    // Images were appended to images(), from `first` on.
    void imagesAdded(int first);
    void thumbnailReady(const QString &path);
    void currentImageChanged();
    void imageChanged();
    // The caption shown changed: a new one, a stored one, or none.
    void resultChanged();
    // The captioning model captioned the selected image (not a stored caption).
    void captionShown(const glosa::CaptionResult &result);
    void wordSelected();
    void statusChanged();
    // translation() or isTranslating() changed.
    void translationChanged();
    // "Translate caption" finished: a translation entry is recorded like the Translate tab's.
    void captionTranslated(const glosa::TranslationResult &result);
    // A caption or translated caption went to the history as entry `id` (ExplicitRecorder).
    void entryRecorded(qint64 id);

private:
    // The captioning model chosen in the context, and the translation model that translates
    // captions: their workers, or why there is none.
    void useModel(const glosa::ModelChoice &choice);
    void setStatus(Status::Kind kind, const QString &text = QString(), double elapsedMs = 0.0);
    void setImage(const QImage &image);
    void appendImage(const QString &path);
    void makeThumbnail(const QString &path);
    void setThumbnail(const QString &path, const QImage &thumbnail);
    void showResult(const glosa::CaptionResult &result);
    void captionFailed(const QString &message);
    void showTranslation(const QList<glosa::TranslationResult> &results);
    void record(const glosa::CaptionResult &result);

    AppContext &m_context;
    ModelChoice m_captioner;
    InferenceWorker *m_worker = nullptr;     // the captioning model's; null when none can run
    InferenceWorker *m_translator = nullptr; // the translation model's; null when none can run
    std::function<engine::DecodingOptions()> m_optionsSource;
    std::unique_ptr<InferenceRequest> m_request;
    std::unique_ptr<InferenceRequest> m_translationRequest;
    QStringList m_images;
    QHash<QString, QImage> m_thumbnails;
    int m_current = -1;
    QImage m_image;
    CaptionResult m_result;
    int m_word = -1;
    bool m_translating = false;
    QString m_translation;
    Status m_status;
    ExplicitRecorder m_history;
};

} // namespace glosa
