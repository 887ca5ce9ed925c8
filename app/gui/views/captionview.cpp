#include "app/gui/views/captionview.h"

#include "app/gui/filedialogs.h"
#include "app/core/displaynames.h"
#include "app/gui/recentfiles.h"
#include "app/gui/theme.h"
#include "app/gui/widgets/decodingpanel.h"

#include <QApplication>
#include <QClipboard>
#include <QDir>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QLocale>
#include <QMimeData>
#include <QPushButton>
#include <QScrollArea>
#include <QSlider>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>

namespace glosa {

CaptionView::CaptionView(AppContext &context, QWidget *parent)
    : QWidget(parent), m_presenter(new CaptionPresenter(context, this))
{
    setAcceptDrops(true);
    createWidgets();
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(16, 12, 16, 12);
    layout->setSpacing(16);
    layout->addLayout(imagesColumn());
    layout->addLayout(captionColumn(), 1);
    layout->addLayout(decodingColumn());
    m_presenter->setOptionsSource([panel = m_decoding] { return panel->options(); });
    connectInput();
    connectPresenter();
    useCaptioner();
    retranslateUi();
}

CaptionView::~CaptionView() = default;

void CaptionView::createWidgets()
{
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

    m_image = new ImageAttentionWidget(this);
    m_dropHint = new QLabel(this);
    m_dropHint->setAlignment(Qt::AlignCenter);
    m_dropHint->setWordWrap(true);
    m_dropHint->setForegroundRole(QPalette::PlaceholderText);
    m_captionTitle = new QLabel(this);
    m_captionTitle->setFont(theme::titleFont(font()));
    m_captionerName = new QLabel(this);
    m_captionerName->setObjectName(QStringLiteral("captionerName"));
    m_captionerName->setForegroundRole(QPalette::PlaceholderText);
    m_captionerName->setTextInteractionFlags(Qt::TextSelectableByMouse);
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
    m_scrub->setObjectName(QStringLiteral("wordSlider"));
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
    m_decodingTitle = new QLabel(this);
    m_decodingTitle->setFont(theme::titleFont(font()));
    m_decoding = new DecodingPanel(this, true);
}

QLayout *CaptionView::imagesColumn()
{
    auto *column = new QVBoxLayout;
    column->addWidget(m_imagesTitle);
    column->addWidget(m_thumbnails, 1);
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_open);
    buttons->addWidget(m_paste);
    column->addLayout(buttons);
    return column;
}

QLayout *CaptionView::captionColumn()
{
    auto *column = new QVBoxLayout;
    column->addWidget(m_image, 1);
    column->addWidget(m_dropHint);
    auto *header = new QHBoxLayout;
    header->addWidget(m_captionTitle);
    header->addSpacing(12);
    header->addWidget(m_captionerName, 1);
    column->addLayout(header);
    column->addWidget(m_caption);
    column->addWidget(m_words);
    auto *sliders = new QHBoxLayout;
    sliders->addWidget(m_scrubLabel);
    sliders->addWidget(m_scrub, 2);
    sliders->addSpacing(16);
    sliders->addWidget(m_blendLabel);
    sliders->addWidget(m_blend, 1);
    column->addLayout(sliders);
    auto *actions = new QHBoxLayout;
    actions->addWidget(m_status, 1);
    actions->addWidget(m_captionButton);
    actions->addWidget(m_translate);
    column->addLayout(actions);
    column->addWidget(m_translation);
    return column;
}

QLayout *CaptionView::decodingColumn()
{
    auto *scroll = new QScrollArea(this);
    scroll->setWidget(m_decoding);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setMinimumWidth(270);
    scroll->setMaximumWidth(340);
    auto *column = new QVBoxLayout;
    column->addWidget(m_decodingTitle);
    column->addWidget(scroll, 1);
    return column;
}

void CaptionView::connectInput()
{
    connect(m_open, &QPushButton::clicked, this, &CaptionView::openImages);
    connect(m_paste, &QPushButton::clicked, this, &CaptionView::pasteImage);
    connect(m_captionButton, &QPushButton::clicked, this, &CaptionView::captionSelected);
    connect(m_translate, &QPushButton::clicked, this, &CaptionView::translateCaption);
    connect(m_thumbnails, &QListWidget::currentRowChanged, m_presenter,
            &CaptionPresenter::selectImage);
    connect(m_scrub, &QSlider::valueChanged, this, &CaptionView::selectWord);
    connect(m_blend, &QSlider::valueChanged, this, [this](int v) { m_image->setBlend(v / 100.0); });
}

void CaptionView::connectPresenter()
{
    CaptionPresenter *p = m_presenter;
    connect(p, &CaptionPresenter::captionerChanged, this, &CaptionView::useCaptioner);
    connect(p, &CaptionPresenter::translateBlockChanged, this, &CaptionView::showTranslateButton);
    connect(p, &CaptionPresenter::imagesAdded, this, &CaptionView::addImageItems);
    connect(p, &CaptionPresenter::thumbnailReady, this, &CaptionView::showThumbnail);
    connect(p, &CaptionPresenter::currentImageChanged, this, &CaptionView::showCurrentImage);
    connect(p, &CaptionPresenter::imageChanged, this, &CaptionView::showImage);
    connect(p, &CaptionPresenter::resultChanged, this, &CaptionView::showCaption);
    connect(p, &CaptionPresenter::wordSelected, this, &CaptionView::showWord);
    connect(p, &CaptionPresenter::statusChanged, this, &CaptionView::showStatus);
    connect(p, &CaptionPresenter::translationChanged, this, &CaptionView::showTranslation);
    connect(p, &CaptionPresenter::captionShown, this, &CaptionView::captionShown);
    connect(p, &CaptionPresenter::captionTranslated, this, &CaptionView::captionTranslated);
}

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
    showCaptioner();
    m_scrubLabel->setText(tr("&Word:"));
    m_scrub->setAccessibleName(tr("Word of the caption"));
    m_blendLabel->setText(tr("&Blend:"));
    m_blend->setAccessibleName(tr("Heatmap blend"));
    m_captionButton->setText(tr("Caption", "button: caption the chosen images"));
    m_translate->setText(tr("Translate caption"));
    showTranslateButton();
    showTranslation();
    m_decodingTitle->setText(tr("Decoding"));
    // A stored caption's status was built by liveText(), which words it again by itself.
    if (m_presenter->status().kind != CaptionPresenter::Status::Kind::Stored)
        showStatus();
}

void CaptionView::changeEvent(QEvent *event)
{
    if (m_decoding && event->type() == QEvent::LanguageChange)
        retranslateUi();
    QWidget::changeEvent(event);
}

// --- Input -----------------------------------------------------------------------------------

void CaptionView::addImages(const QStringList &paths)
{
    m_presenter->addImages(paths);
}

void CaptionView::openImages()
{
    const QStringList paths = openFileNames(this, FileKind::Images, tr("Open images"),
                                            tr("Images (*.png *.jpg *.jpeg *.webp *.bmp *.gif)"));
    for (const QString &path : paths)
        rememberOpened(OpenedAs::Image, path);
    addImages(paths);
}

void CaptionView::pasteImage()
{
    m_presenter->addPastedImage(QApplication::clipboard()->image());
}

void CaptionView::captionSelected()
{
    m_presenter->captionCurrent();
}

void CaptionView::translateCaption()
{
    m_presenter->translateCaption();
}

void CaptionView::selectWord(int index)
{
    m_presenter->selectWord(index);
}

void CaptionView::showStoredCaption(const CaptionResult &result, const QImage &thumbnail,
                                    const QString &status)
{
    m_decoding->setOptions(result.options);
    m_presenter->showStoredCaption(result, thumbnail, status);
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

bool CaptionView::eventFilter(QObject *watched, QEvent *event)
{
    if (event->type() == QEvent::Enter && watched->property("token").isValid())
        m_presenter->selectWord(watched->property("token").toInt());
    return QWidget::eventFilter(watched, event);
}

// --- Rendering -------------------------------------------------------------------------------

void CaptionView::showStatus()
{
    using Kind = CaptionPresenter::Status::Kind;
    const CaptionPresenter::Status &status = m_presenter->status();
    switch (status.kind) {
    case Kind::None:
        m_status->clear();
        break;
    case Kind::Unavailable:
        m_status->setText(unavailableText(m_presenter->captioner()));
        break;
    case Kind::Captioning:
        m_status->setText(tr("Captioning…"));
        break;
    case Kind::Captioned:
        m_status->setText(tr("%1 ms").arg(QLocale().toString(status.elapsedMs, 'f', 0)));
        break;
    case Kind::Failed:
        m_status->setText(tr("Captioning failed: %1").arg(status.text));
        break;
    case Kind::NoClipboardImage:
        m_status->setText(tr("The clipboard holds no image."));
        break;
    case Kind::Stored:
        m_status->setText(status.text);
        break;
    }
}

void CaptionView::showCaptioner()
{
    const ModelChoice &captioner = m_presenter->captioner();
    m_captionerName->setText(captioner.model ? tr("Captioner: %1").arg(modelName(*captioner.model))
                                             : unavailableText(captioner));
    m_captionerName->setToolTip(captioner.model ? captioner.model->id : QString());
}

void CaptionView::useCaptioner()
{
    showCaptioner();
    m_captionButton->setEnabled(m_presenter->canCaption());
    if (m_presenter->canCaption())
        m_decoding->setModelDefaults(m_presenter->captionerDefaults());
}

void CaptionView::showTranslateButton()
{
    using Block = CaptionPresenter::TranslateBlock;
    const Block block = m_presenter->translateBlock();
    m_translate->setEnabled(block == Block::None);
    m_translate->setToolTip(
        block == Block::OtherLanguage
            ? tr("The selected translation model does not translate from %1: choose one that does "
                 "to translate captions")
                  .arg(languageName(m_presenter->captionLanguage()))
            : tr("Translate the caption with the selected translation model"));
}

void CaptionView::addImageItems(int first)
{
    const QStringList &paths = m_presenter->images();
    const QSignalBlocker block(m_thumbnails); // the presenter says which one is selected
    for (qsizetype i = first; i < paths.size(); ++i) {
        auto *item = new QListWidgetItem(QFileInfo(paths[i]).fileName());
        item->setData(Qt::UserRole, paths[i]);
        item->setToolTip(QDir::toNativeSeparators(paths[i]));
        const QImage thumbnail = m_presenter->thumbnail(paths[i]);
        if (!thumbnail.isNull())
            item->setIcon(QPixmap::fromImage(thumbnail));
        m_thumbnails->addItem(item);
    }
}

void CaptionView::showThumbnail(const QString &path)
{
    const QPixmap icon = QPixmap::fromImage(m_presenter->thumbnail(path));
    for (int i = 0; i < m_thumbnails->count(); ++i)
        if (m_thumbnails->item(i)->data(Qt::UserRole).toString() == path)
            m_thumbnails->item(i)->setIcon(icon);
}

void CaptionView::showCurrentImage()
{
    const QSignalBlocker block(m_thumbnails); // selecting a row captions it: here it is chosen
    m_thumbnails->setCurrentRow(m_presenter->currentImage());
    m_dropHint->setVisible(false);
}

void CaptionView::showImage()
{
    m_image->setImage(m_presenter->image()); // which clears the overlay
    showWord();
}

void CaptionView::showCaption()
{
    const CaptionResult &result = m_presenter->result();
    m_caption->setText(result.text);
    while (QLayoutItem *item = m_wordsLayout->takeAt(0)) {
        delete item->widget();
        delete item;
    }
    for (int i = 0; i < result.tokens.size(); ++i) {
        auto *button = new QToolButton(m_words);
        button->setText(result.tokens[i].surface());
        button->setCheckable(true);
        button->setAutoRaise(true);
        button->setProperty("token", i);
        button->installEventFilter(this);
        connect(button, &QToolButton::clicked, this, [this, i] { selectWord(i); });
        m_wordsLayout->addWidget(button);
    }
    m_wordsLayout->addStretch(1);
    const QSignalBlocker block(m_scrub);
    m_scrub->setRange(0, std::max(0, int(result.tokens.size()) - 1));
}

void CaptionView::showWord()
{
    const int word = m_presenter->selectedWord();
    const CaptionResult &result = m_presenter->result();
    if (word < 0)
        m_image->setAttention(0, 0, {});
    else
        m_image->setAttention(result.gridRows, result.gridCols, m_presenter->selectedAttention());
    for (int i = 0; i < m_wordsLayout->count(); ++i)
        if (auto *button = qobject_cast<QToolButton *>(m_wordsLayout->itemAt(i)->widget()))
            button->setChecked(i == word);
    const QSignalBlocker block(m_scrub);
    if (word >= 0)
        m_scrub->setValue(word);
}

void CaptionView::showTranslation()
{
    m_translation->setText(m_presenter->isTranslating() ? tr("Translating…")
                                                        : m_presenter->translation());
}

} // namespace glosa
