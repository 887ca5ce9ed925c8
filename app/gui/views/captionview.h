// CaptionView: drop, paste or open images (several at once, shown as thumbnails); the caption of
// the selected one with a per-word attention heatmap over the image (hover or scrub the words,
// blend slider), decoding settings, and "Translate caption" with the translation model.
#pragma once

#include "app/core/appcontext.h"
#include "app/core/inference/inferenceresult.h"

#include <QHash>
#include <QWidget>

#include <memory>

class QComboBox;
class QHBoxLayout;
class QLabel;
class QListWidget;
class QPushButton;
class QSlider;
class QPlainTextEdit;

namespace glosa {

class DecodingPanel;
class InferenceRequest;
class InferenceWorker;

// The image with the attention of one word painted over it.
class ImageAttentionWidget : public QWidget
{
    Q_OBJECT
public:
    explicit ImageAttentionWidget(QWidget *parent = nullptr);
    void setImage(const QImage &image);
    // weights: [rows * cols] row-major; empty clears the overlay.
    void setAttention(int rows, int cols, const QVector<float> &weights);
    void setBlend(double blend); // 0: image only, 1: heatmap only
    double blend() const { return m_blend; }
    const QVector<float> &attention() const { return m_weights; } // what the overlay shows
    const QImage &image() const { return m_image; }
    QSize sizeHint() const override;

protected:
    void paintEvent(QPaintEvent *event) override;

private:
    QImage m_image;
    QImage m_heat; // rows × cols, ARGB, scaled smoothly when painted
    QVector<float> m_weights;
    double m_blend = 0.75;
};

class CaptionView : public QWidget
{
    Q_OBJECT
public:
    explicit CaptionView(AppContext &context, QWidget *parent = nullptr);
    ~CaptionView() override;

    // Adds images (thumbnails) and captions the first one added.
    void addImages(const QStringList &paths);
    QStringList images() const;
    const CaptionResult &result() const { return m_result; }
    QString captionText() const;
    QString translatedCaption() const;
    void selectWord(int index);
    DecodingPanel *decodingPanel() const { return m_decoding; }
    // Names the captioning model in use ("Captioner: …"), or why there is none.
    QLabel *captionerLabel() const { return m_captionerName; }
    ImageAttentionWidget *imageWidget() const { return m_image; }
    QListWidget *thumbnails() const { return m_thumbnails; }
    QSlider *blendSlider() const { return m_blend; }
    // Shows a caption recorded earlier (History ▸ Open) without captioning again: the image from
    // its file (the stored thumbnail when the file is gone), the words and their attention.
    void showStoredCaption(const glosa::CaptionResult &result, const QImage &thumbnail,
                           const QString &status);

public slots:
    void openImages();
    void pasteImage();
    void captionSelected();
    void translateCaption();

signals:
    void captionShown(const glosa::CaptionResult &result);
    // "Translate caption" finished (the history records it as a translation).
    void captionTranslated(const glosa::TranslationResult &result);

protected:
    void changeEvent(QEvent *event) override;
    void dragEnterEvent(QDragEnterEvent *event) override;
    void dropEvent(QDropEvent *event) override;
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void retranslateUi();
    void updateCaptionerName();
    // The captioning model chosen in the context, and the translation model that translates
    // captions: their workers, or why there is none.
    void useModel(const glosa::ModelChoice &choice);
    void showResult(const CaptionResult &result);
    void rebuildWords();
    void setThumbnail(const QString &path, const QImage &thumbnail);
    bool canTranslate() const;
    void updateTranslateButton();

    AppContext &m_context;
    ModelChoice m_captioner;
    InferenceWorker *m_worker = nullptr;     // the captioning model's; null when none can run
    InferenceWorker *m_translator = nullptr; // the translation model's; null when none can run
    std::unique_ptr<InferenceRequest> m_request;
    std::unique_ptr<InferenceRequest> m_translationRequest;
    CaptionResult m_result;
    int m_word = -1;

    QLabel *m_imagesTitle = nullptr;
    QListWidget *m_thumbnails = nullptr;
    QPushButton *m_open = nullptr;
    QPushButton *m_paste = nullptr;
    ImageAttentionWidget *m_image = nullptr;
    QLabel *m_dropHint = nullptr;
    QWidget *m_words = nullptr;
    QHBoxLayout *m_wordsLayout = nullptr;
    QLabel *m_scrubLabel = nullptr;
    QSlider *m_scrub = nullptr;
    QLabel *m_blendLabel = nullptr;
    QSlider *m_blend = nullptr;
    QLabel *m_captionTitle = nullptr;
    QLabel *m_captionerName = nullptr; // which model captions (the bar above names the translator)
    QLabel *m_caption = nullptr;
    QLabel *m_status = nullptr;
    QPushButton *m_captionButton = nullptr;
    QPushButton *m_translate = nullptr;
    QLabel *m_translation = nullptr;
    QLabel *m_decodingTitle = nullptr;
    DecodingPanel *m_decoding = nullptr;
};

} // namespace glosa
