#include "app/gui/dialogs/aboutdialog.h"

#include <QDialogButtonBox>
#include <QHBoxLayout>
#include <QIcon>
#include <QLabel>
#include <QTextBrowser>
#include <QVBoxLayout>

namespace glosa {

AboutDialog::AboutDialog(const QIcon &icon, QWidget *parent) : QDialog(parent)
{
    setWindowTitle(tr("About Glosa"));
    resize(560, 520);
    auto *layout = new QVBoxLayout(this);
    auto *header = new QHBoxLayout;
    auto *picture = new QLabel(this);
    picture->setPixmap(icon.pixmap(72, 72));
    auto *title = new QLabel(this);
    title->setText(
        QStringLiteral("<h2>Glosa %1</h2><p>%2</p>")
            .arg(QStringLiteral(GLOSA_VERSION),
                 tr("An offline translator that shows why it chose its words.").toHtmlEscaped()));
    header->addWidget(picture);
    header->addWidget(title, 1);
    layout->addLayout(header);
    auto *text = new QTextBrowser(this);
    text->setOpenExternalLinks(true);
    text->setHtml(
        QStringLiteral("<h3>%1</h3><ul>"
                       "<li>%2</li><li>%3</li><li>%4</li></ul>"
                       "<h3>%5</h3><ul><li>%6</li><li>%7</li><li>%8</li><li>%9</li>"
                       "</ul>")
            .arg(tr("Data and models").toHtmlEscaped(),
                 tr("Translation models are trained on sentence pairs from Tatoeba "
                    "(CC-BY 2.0 FR), www.manythings.org/anki and tatoeba.org.")
                     .toHtmlEscaped(),
                 tr("The captioner is trained on Flickr8k, for research use only; the "
                    "images belong to their owners and are not distributed.")
                     .toHtmlEscaped(),
                 tr("Image features come from MobileNetV2 (Apache License 2.0).").toHtmlEscaped(),
                 tr("Software").toHtmlEscaped(), tr("Qt 6 (LGPL 3.0)").toHtmlEscaped(),
                 tr("oneDNN (Apache License 2.0)").toHtmlEscaped(),
                 tr("SentencePiece (Apache License 2.0), ICU (Unicode License)").toHtmlEscaped(),
                 tr("SQLite (public domain), nlohmann/json (MIT)").toHtmlEscaped()));
    layout->addWidget(text, 1);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(buttons);
}

} // namespace glosa
