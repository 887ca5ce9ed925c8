#include "app/gui/widgets/targetpane.h"

#include "app/gui/theme.h"
#include "app/gui/widgets/languagewarningbar.h"
#include "app/gui/widgets/steeringbar.h"

#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QVBoxLayout>

namespace glosa {

TargetPane::TargetPane(AppContext &context, QWidget *parent) : QWidget(parent)
{
    // Made in the focus chain's order (Tab's), which the view continues from the editor.
    m_editor = new QPlainTextEdit(this);
    m_title = new QLabel(this);
    m_title->setFont(theme::titleFont(font()));
    m_confidence = new QCheckBox(this);
    m_alternatives = new QComboBox(this);
    m_alternatives->setVisible(false);
    m_copy = new QPushButton(this);
    m_status = new QLabel(this);
    m_status->setObjectName(QStringLiteral("translateStatus"));
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_progress = new QProgressBar(this);
    m_progress->setMaximumHeight(6);
    m_progress->setTextVisible(false);
    m_progress->setVisible(false);
    m_wordLegend = new QLabel(this); // what the unknown words' underline means, while shown
    m_wordLegend->setObjectName(QStringLiteral("unknownWordLegend"));
    m_wordLegend->setWordWrap(true);
    m_wordLegend->setForegroundRole(QPalette::PlaceholderText);
    m_wordLegend->setVisible(false);
    // Above the translation, both hidden until needed.
    m_steeringBar = new SteeringBar(this);
    m_languageBar = new LanguageWarningBar(context, this);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(6);
    auto *header = new QHBoxLayout;
    header->addWidget(m_title);
    header->addStretch(1);
    header->addWidget(m_alternatives);
    layout->addLayout(header);
    layout->addWidget(m_steeringBar);
    layout->addWidget(m_languageBar);
    layout->addWidget(m_editor, 1);
    layout->addWidget(m_wordLegend);
    layout->addWidget(m_progress);
    auto *bar = new QHBoxLayout;
    bar->addWidget(m_status, 1);
    bar->addWidget(m_confidence);
    bar->addWidget(m_copy);
    layout->addLayout(bar);
}

} // namespace glosa
