#include "app/gui/views/captionview.h"

#include "app/core/platform/handoff.h"
#include "app/core/inference/inferenceworker.h"
#include "app/gui/widgets/decodingpanel.h"
#include "app/gui/filedialogs.h"
#include "app/gui/guiutil.h"
#include "app/gui/livetext.h"
#include "app/gui/theme.h"

#include <QApplication>
#include <QClipboard>
#include <QDir>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QImageReader>
#include <QLabel>
#include <QListWidget>
#include <QLocale>
#include <QMimeData>
#include <QPainter>
#include <QPointer>
#include <QPushButton>
#include <QScrollArea>
#include <QSlider>
#include <QStandardPaths>
#include <QToolButton>
#include <QUuid>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace glosa {

// ---------------------------------------------------------------------------------------------
// ImageAttentionWidget

ImageAttentionWidget::ImageAttentionWidget(QWidget *parent) : QWidget(parent)
{
    setMinimumSize(240, 200);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
}

void ImageAttentionWidget::setImage(const QImage &image)
{
    m_image = image;
    m_heat = QImage();
    m_weights.clear();
    update();
}

void ImageAttentionWidget::setAttention(int rows, int cols, const QVector<float> &weights)
{
    m_heat = QImage();
    m_weights.clear();
    if (rows > 0 && cols > 0 && weights.size() == rows * cols) {
        m_weights = weights;
        // A spotlight: cells are darkened by how little attention they got relative to the
        // word's strongest and weakest cells. Soft attention over 7 × 7 cells is rarely peaked,
        // so scaling by the peak alone tinted the whole photo evenly.
        const auto [low, high] = std::minmax_element(weights.begin(), weights.end());
        const float range = *high - *low;
        m_heat = QImage(cols, rows, QImage::Format_ARGB32);
        for (int r = 0; r < rows; ++r)
            for (int c = 0; c < cols; ++c) {
                const float v = range > 0 ? (weights[r * cols + c] - *low) / range : 1.0f;
                m_heat.setPixelColor(c, r, QColor(0, 0, 0, int(std::lround(230 * (1.0f - v)))));
            }
    }
    update();
}

void ImageAttentionWidget::setBlend(double blend)
{
    m_blend = blend;
    update();
}

QSize ImageAttentionWidget::sizeHint() const
{
    return {520, 400};
}

void ImageAttentionWidget::paintEvent(QPaintEvent *)
{
    QPainter painter(this);
    painter.setRenderHint(QPainter::SmoothPixmapTransform);
    if (m_image.isNull())
        return;
    const QSize fitted = m_image.size().scaled(size(), Qt::KeepAspectRatio);
    const QRect target(QPoint((width() - fitted.width()) / 2, (height() - fitted.height()) / 2),
                       fitted);
    painter.drawImage(target, m_image);
    if (!m_heat.isNull()) {
        // Smooth upsampling of the grid reads as "where the model looked" rather than as tiles.
        const QImage heat = m_heat.scaled(target.size(), Qt::IgnoreAspectRatio,
                                          Qt::SmoothTransformation);
        painter.setOpacity(m_blend);
        painter.drawImage(target, heat);
        painter.setOpacity(1.0);
    }
}

// ---------------------------------------------------------------------------------------------
// CaptionView

CaptionView::CaptionView(AppContext &context, QWidget *parent) : QWidget(parent), m_context(context)
{
    setAcceptDrops(true);
    m_imagesTitle = new QLabel(this);
    m_imagesTitle->setFont(theme::titleFont(font()));
    m_thumbnails = new QListWidget(this);
    m_thumbnails->setViewMode(QListView::IconMode);
    m_thumbnails->setIconSize(QSize(112, 84));
    m_thumbnails->setGridSize(QSize(128, 108));
    m_thumbnails->setResizeMode(QListView::Adjust);
    m_thumbnails->setMovement(QListView::Static);
    m_thumbnails->setMinimumWidth(150);
    m_thumbnails->setMaximumWidth(290);
    m_open = new QPushButton(this);
    m_paste = new QPushButton(this);
    auto *left = new QVBoxLayout;
    left->addWidget(m_imagesTitle);
    left->addWidget(m_thumbnails, 1);
    auto *leftButtons = new QHBoxLayout;
    leftButtons->addWidget(m_open);
    leftButtons->addWidget(m_paste);
    left->addLayout(leftButtons);

    m_image = new ImageAttentionWidget(this);
    m_dropHint = new QLabel(this);
    m_dropHint->setAlignment(Qt::AlignCenter);
    m_dropHint->setWordWrap(true);
    m_dropHint->setForegroundRole(QPalette::PlaceholderText);
    m_captionTitle = new QLabel(this);
    m_captionTitle->setFont(theme::titleFont(font()));
    m_caption = new QLabel(this);
    m_caption->setFont(theme::editorFont(font()));
    m_caption->setWordWrap(true);
    m_caption->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_words = new QWidget(this);
    m_wordsLayout = new QHBoxLayout(m_words);
    m_wordsLayout->setContentsMargins(0, 0, 0, 0);
    m_wordsLayout->setSpacing(4);
    m_scrubLabel = new QLabel(this);
    m_scrub = new QSlider(Qt::Horizontal, this);
    m_scrub->setRange(0, 0);
    m_scrubLabel->setBuddy(m_scrub);
    m_blendLabel = new QLabel(this);
    m_blend = new QSlider(Qt::Horizontal, this);
    m_blend->setRange(0, 100);
    m_blend->setValue(75);
    m_blendLabel->setBuddy(m_blend);
    m_status = new QLabel(this);
    m_status->setWordWrap(true);
    m_captionButton = new QPushButton(this);
    m_translate = new QPushButton(this);
    m_translate->setObjectName(QStringLiteral("translateCaption"));
    m_translation = new QLabel(this);
    m_translation->setWordWrap(true);
    m_translation->setFont(theme::editorFont(font()));
    m_translation->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto *center = new QVBoxLayout;
    center->addWidget(m_image, 1);
    center->addWidget(m_dropHint);
    m_captionerName = new QLabel(this);
    m_captionerName->setObjectName(QStringLiteral("captionerName"));
    m_captionerName->setForegroundRole(QPalette::PlaceholderText);
    m_captionerName->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto *captionHeader = new QHBoxLayout;
    captionHeader->addWidget(m_captionTitle);
    captionHeader->addSpacing(12);
    captionHeader->addWidget(m_captionerName, 1);
    center->addLayout(captionHeader);
    center->addWidget(m_caption);
    center->addWidget(m_words);
    auto *sliders = new QHBoxLayout;
    sliders->addWidget(m_scrubLabel);
    sliders->addWidget(m_scrub, 2);
    sliders->addSpacing(16);
    sliders->addWidget(m_blendLabel);
    sliders->addWidget(m_blend, 1);
    center->addLayout(sliders);
    auto *actions = new QHBoxLayout;
    actions->addWidget(m_status, 1);
    actions->addWidget(m_captionButton);
    actions->addWidget(m_translate);
    center->addLayout(actions);
    center->addWidget(m_translation);

    m_decodingTitle = new QLabel(this);
    m_decodingTitle->setFont(theme::titleFont(font()));
    m_decoding = new DecodingPanel(this, true);
    auto *scroll = new QScrollArea(this);
    scroll->setWidget(m_decoding);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setMinimumWidth(270);
    scroll->setMaximumWidth(340);
    auto *right = new QVBoxLayout;
    right->addWidget(m_decodingTitle);
    right->addWidget(scroll, 1);

    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(16, 12, 16, 12);
    layout->setSpacing(16);
    layout->addLayout(left);
    layout->addLayout(center, 1);
    layout->addLayout(right);

    connect(m_open, &QPushButton::clicked, this, &CaptionView::openImages);
    connect(m_paste, &QPushButton::clicked, this, &CaptionView::pasteImage);
    connect(m_captionButton, &QPushButton::clicked, this, &CaptionView::captionSelected);
    connect(m_translate, &QPushButton::clicked, this, &CaptionView::translateCaption);
    connect(m_thumbnails, &QListWidget::currentRowChanged, this, [this](int row) {
        if (row < 0)
            return;
        // The full image arrives with the caption (read on the worker thread); meanwhile the
        // thumbnail, or nothing while that is still being made.
        const QIcon icon = m_thumbnails->item(row)->icon();
        m_image->setImage(icon.isNull() ? QImage()
                                        : icon.pixmap(m_thumbnails->iconSize()).toImage());
        m_dropHint->setVisible(false);
        captionSelected();
    });
    connect(m_scrub, &QSlider::valueChanged, this, &CaptionView::selectWord);
    connect(m_blend, &QSlider::valueChanged, this, [this](int v) { m_image->setBlend(v / 100.0); });

    connect(&context, &AppContext::modelChosen, this, &CaptionView::useModel);
    useModel(context.choice(AppContext::kCaptioning));
    useModel(context.choice(AppContext::kTranslation));
    retranslateUi();
}

CaptionView::~CaptionView() = default;

void CaptionView::retranslateUi()
{
    m_imagesTitle->setText(tr("Images"));
    m_open->setText(tr("Open…"));
    m_open->setToolTip(tr("Open one or more images (Ctrl+O)"));
    m_paste->setText(tr("Paste"));
    m_paste->setToolTip(tr("Paste an image from the clipboard"));
    m_thumbnails->setAccessibleName(tr("Images"));
    m_image->setAccessibleName(tr("Image with attention overlay"));
    m_dropHint->setText(tr("Drop images here, paste one, or open them from disk."));
    m_captionTitle->setText(tr("Caption"));
    updateCaptionerName();
    m_scrubLabel->setText(tr("&Word:"));
    m_scrub->setAccessibleName(tr("Word of the caption"));
    m_blendLabel->setText(tr("&Blend:"));
    m_blend->setAccessibleName(tr("Heatmap blend"));
    m_captionButton->setText(tr("Caption", "button: caption the chosen images"));
    m_translate->setText(tr("Translate caption"));
    updateTranslateButton();
    m_decodingTitle->setText(tr("Decoding"));
    if (!m_worker)
        m_status->setText(unavailableText(m_captioner));
}

void CaptionView::changeEvent(QEvent *event)
{
    if (m_decoding && event->type() == QEvent::LanguageChange)
        retranslateUi();
    QWidget::changeEvent(event);
}

void CaptionView::updateCaptionerName()
{
    if (!m_captionerName)
        return;
    m_captionerName->setText(m_captioner.model
                                 ? tr("Captioner: %1").arg(modelName(*m_captioner.model))
                                 : unavailableText(m_captioner));
    m_captionerName->setToolTip(m_captioner.model ? m_captioner.model->id : QString());
}

void CaptionView::useModel(const ModelChoice &choice)
{
    InferenceWorker *worker = choice.isReady() ? m_context.workerFor(*choice.model) : nullptr;
    if (choice.task == AppContext::kTranslation) {
        m_translator = worker;
        m_translationRequest.reset();
        updateTranslateButton();
        return;
    }
    if (choice.task != AppContext::kCaptioning)
        return;
    m_captioner = choice;
    updateCaptionerName();
    m_worker = worker;
    m_request.reset();
    m_captionButton->setEnabled(worker != nullptr);
    updateTranslateButton();
    m_status->setText(unavailableText(choice));
    if (worker)
        m_decoding->setModelDefaults(worker->modelInfo().decodingDefaults());
}

void CaptionView::addImages(const QStringList &paths)
{
    int first = -1;
    for (const QString &path : paths) {
        auto *item = new QListWidgetItem(QFileInfo(path).fileName());
        item->setData(Qt::UserRole, path);
        item->setToolTip(QDir::toNativeSeparators(path));
        m_thumbnails->addItem(item);
        if (first < 0)
            first = m_thumbnails->count() - 1;
        // Decoding a 12-megapixel JPEG takes 100 ms and more: thumbnails are made on the thread
        // pool and set when ready, so dropping a folder of photos never freezes the window.
        startOnPool([view = QPointer<CaptionView>(this), path] {
            QImageReader reader(path);
            reader.setAutoTransform(true);
            const QSize size = reader.size();
            if (size.isValid())
                reader.setScaledSize(size.scaled(QSize(224, 168), Qt::KeepAspectRatio));
            const QImage thumbnail = reader.read();
            postCall(view, [view, path, thumbnail] {
                if (view)
                    view->setThumbnail(path, thumbnail);
            });
        });
    }
    if (first >= 0)
        m_thumbnails->setCurrentRow(first);
}

void CaptionView::setThumbnail(const QString &path, const QImage &thumbnail)
{
    for (int i = 0; i < m_thumbnails->count(); ++i) {
        QListWidgetItem *item = m_thumbnails->item(i);
        if (item->data(Qt::UserRole).toString() != path || thumbnail.isNull())
            continue;
        item->setIcon(QPixmap::fromImage(thumbnail));
        // Until its caption brings the full image, the selected photo is shown from its thumbnail.
        if (item == m_thumbnails->currentItem() && m_image->image().isNull())
            m_image->setImage(thumbnail);
    }
}

QStringList CaptionView::images() const
{
    QStringList paths;
    for (int i = 0; i < m_thumbnails->count(); ++i)
        paths << m_thumbnails->item(i)->data(Qt::UserRole).toString();
    return paths;
}

void CaptionView::openImages()
{
    const QStringList paths =
        openFileNames(this, FileKind::Images, tr("Open images"),
                      tr("Images (*.png *.jpg *.jpeg *.webp *.bmp *.gif)"));
    for (const QString &path : paths)
        rememberOpened(OpenedAs::Image, path);
    addImages(paths);
}

void CaptionView::pasteImage()
{
    const QImage image = QApplication::clipboard()->image();
    if (image.isNull()) {
        m_status->setText(tr("The clipboard holds no image."));
        return;
    }
    // The worker reads files (the history keeps paths), so a pasted image gets one.
    const QString dir = QStandardPaths::writableLocation(QStandardPaths::CacheLocation)
                        + QStringLiteral("/pasted");
    QDir().mkpath(dir);
    const QString path =
        dir + QLatin1Char('/') + QUuid::createUuid().toString(QUuid::WithoutBraces) + ".png";
    if (image.save(path))
        addImages({path});
}

void CaptionView::dragEnterEvent(QDragEnterEvent *event)
{
    if (event->mimeData()->hasUrls() || event->mimeData()->hasImage())
        event->acceptProposedAction();
}

void CaptionView::dropEvent(QDropEvent *event)
{
    QStringList paths;
    for (const QUrl &url : event->mimeData()->urls())
        if (url.isLocalFile())
            paths << url.toLocalFile();
    addImages(paths);
    event->acceptProposedAction();
}

void CaptionView::showStoredCaption(const CaptionResult &result, const QImage &thumbnail,
                                    const QString &status)
{
    m_request.reset();
    {
        // Selecting a thumbnail captions it; here the caption is already known.
        const QSignalBlocker block(m_thumbnails);
        int row = images().indexOf(result.imagePath);
        if (row < 0 && !result.imagePath.isEmpty()) {
            auto *item = new QListWidgetItem(QFileInfo(result.imagePath).fileName());
            item->setData(Qt::UserRole, result.imagePath);
            item->setToolTip(QDir::toNativeSeparators(result.imagePath));
            const QImage icon = result.image.isNull() ? thumbnail : result.image;
            if (!icon.isNull())
                item->setIcon(QPixmap::fromImage(icon.scaled(QSize(224, 168), Qt::KeepAspectRatio,
                                                             Qt::SmoothTransformation)));
            m_thumbnails->addItem(item);
            row = m_thumbnails->count() - 1;
        }
        m_thumbnails->setCurrentRow(row);
    }
    m_image->setImage(result.image.isNull() ? thumbnail : result.image);
    m_dropHint->setVisible(false);
    m_decoding->setOptions(result.options);
    showResult(result);
    m_status->setText(status);
}

void CaptionView::captionSelected()
{
    QListWidgetItem *item = m_thumbnails->currentItem();
    if (!item)
        return;
    if (!m_worker) {
        m_status->setText(unavailableText(m_captioner));
        return;
    }
    m_request = m_worker->caption(item->data(Qt::UserRole).toString(), m_decoding->options());
    connect(m_request.get(), &InferenceRequest::captioned, this, &CaptionView::showResult);
    connect(m_request.get(), &InferenceRequest::failed, this, [this](const QString &message) {
        // Nothing of the previous image may stay: "Translate caption" would translate it.
        m_image->setImage(QImage());
        showResult(CaptionResult());
        m_status->setText(
            liveText([message] { return tr("Captioning failed: %1").arg(message); }));
    });
    showResult(CaptionResult()); // the caption shown so far is another image's
    m_status->setText(tr("Captioning…"));
}

void CaptionView::showResult(const CaptionResult &result)
{
    m_result = result;
    if (!result.image.isNull())
        m_image->setImage(result.image);
    m_caption->setText(result.text);
    m_translation->clear();
    m_translationRequest.reset(); // a translation of the previous caption must not land here
    updateTranslateButton();
    rebuildWords();
    selectWord(0);
    if (result.text.isEmpty() && result.imagePath.isEmpty())
        return; // cleared, not shown
    m_status->setText(liveText([ms = result.elapsedMs] {
        return tr("%1 ms").arg(QLocale().toString(ms, 'f', 0));
    }));
    emit captionShown(result);
}

void CaptionView::rebuildWords()
{
    while (QLayoutItem *item = m_wordsLayout->takeAt(0)) {
        delete item->widget();
        delete item;
    }
    for (int i = 0; i < m_result.tokens.size(); ++i) {
        auto *button = new QToolButton(m_words);
        button->setText(m_result.tokens[i].surface());
        button->setCheckable(true);
        button->setAutoRaise(true);
        button->setProperty("token", i);
        button->installEventFilter(this);
        connect(button, &QToolButton::clicked, this, [this, i] { selectWord(i); });
        m_wordsLayout->addWidget(button);
    }
    m_wordsLayout->addStretch(1);
    m_scrub->setRange(0, std::max(0, int(m_result.tokens.size()) - 1));
}

bool CaptionView::eventFilter(QObject *watched, QEvent *event)
{
    if (event->type() == QEvent::Enter && watched->property("token").isValid())
        selectWord(watched->property("token").toInt());
    return QWidget::eventFilter(watched, event);
}

void CaptionView::selectWord(int index)
{
    const int cells = m_result.gridRows * m_result.gridCols;
    if (index < 0 || index >= m_result.tokens.size() || cells == 0
        || m_result.attention.size() < (index + 1) * cells) {
        m_image->setAttention(0, 0, {});
        return;
    }
    m_word = index;
    m_image->setAttention(m_result.gridRows, m_result.gridCols,
                          m_result.attention.mid(index * cells, cells));
    for (int i = 0; i < m_wordsLayout->count(); ++i)
        if (auto *button = qobject_cast<QToolButton *>(m_wordsLayout->itemAt(i)->widget()))
            button->setChecked(i == index);
    if (m_scrub->value() != index)
        m_scrub->setValue(index);
}

bool CaptionView::canTranslate() const
{
    if (!m_translator || m_result.text.isEmpty())
        return false;
    // The selected translation model must read the captions' language (an es→en model cannot
    // translate "a dog runs on the grass").
    const QString captions = m_worker ? m_worker->modelInfo().targetLanguage : QString();
    return captions.isEmpty() || m_translator->modelInfo().sourceLanguage == captions;
}

void CaptionView::updateTranslateButton()
{
    m_translate->setEnabled(canTranslate());
    m_translate->setToolTip(
        !m_translator || canTranslate() || m_result.text.isEmpty()
            ? tr("Translate the caption with the selected translation model")
            : tr("The selected translation model does not translate from %1: choose one that does "
                 "to translate captions").arg(languageName(m_worker->modelInfo().targetLanguage)));
}

void CaptionView::translateCaption()
{
    if (!canTranslate())
        return;
    // The caption is one short sentence: the translation model's own decoding (beam search for
    // the shipped Transformer) costs little more than greedy and reads better.
    m_translationRequest =
        m_translator->translate(m_result.text, {m_translator->modelInfo().decodingDefaults()});
    connect(m_translationRequest.get(), &InferenceRequest::translated, this,
            [this](const QList<TranslationResult> &results) {
                if (results.isEmpty() || !results.first().best())
                    return;
                m_translation->setText(results.first().best()->text);
                emit captionTranslated(results.first());
            });
    m_translation->setText(tr("Translating…"));
}

QString CaptionView::captionText() const { return m_result.text; }
QString CaptionView::translatedCaption() const { return m_translation->text(); }

} // namespace glosa
