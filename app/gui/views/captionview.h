// CaptionView: drop, paste or open images (several at once, shown as thumbnails); the caption of
// the selected one with a per-word attention heatmap over the image (hover or scrub the words,
// blend slider), decoding settings, and "Translate caption" with the translation model. What it
// shows and decides is CaptionPresenter's (app/core/presenters); this class renders it and
// forwards the user's input.
#pragma once

#include "app/core/appcontext.h"
#include "app/core/inference/inferenceresult.h"
#include "app/core/presenters/captionpresenter.h"
#include "app/gui/widgets/imageattentionwidget.h"

#include <QWidget>

class QHBoxLayout;
class QLabel;
class QLayout;
class QListWidget;
class QPushButton;
class QSlider;

namespace glosa {

class DecodingPanel;

class CaptionView : public QWidget
{
    Q_OBJECT
public:
    explicit CaptionView(AppContext &context, QWidget *parent = nullptr);
    ~CaptionView() override;

    CaptionPresenter *presenter() const { return m_presenter; }
    // Adds images (thumbnails) and captions the first one added.
    void addImages(const QStringList &paths);
    QStringList images() const { return m_presenter->images(); }
    const CaptionResult &result() const { return m_presenter->result(); }
    QString captionText() const { return m_presenter->result().text; }
    QString translatedCaption() const { return m_presenter->translation(); }
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
    // The captioning model captioned an image (CaptionPresenter::captionShown).
    void captionShown(const glosa::CaptionResult &result);
    // "Translate caption" finished (the presenter records it as a translation).
    void captionTranslated(const glosa::TranslationResult &result);

protected:
    void changeEvent(QEvent *event) override;
    void dragEnterEvent(QDragEnterEvent *event) override;
    void dropEvent(QDropEvent *event) override;
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void createWidgets();
    QLayout *imagesColumn();
    QLayout *captionColumn();
    QLayout *decodingColumn();
    void connectInput();
    void connectPresenter();
    void retranslateUi();

    // What the presenter decided, drawn.
    void showStatus();
    void showCaptioner();
    void useCaptioner(); // the captioning model changed: its name, Caption, its decoding
    void showTranslateButton();
    void addImageItems(int first);
    void showThumbnail(const QString &path);
    void showCurrentImage();
    void showImage();
    void showCaption();
    void showWord();
    void showTranslation();

    CaptionPresenter *m_presenter;

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
