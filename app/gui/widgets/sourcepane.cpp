#include "app/gui/widgets/sourcepane.h"

#include "app/core/displaynames.h"
#include "app/gui/theme.h"

#include <QCheckBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QVBoxLayout>

namespace glosa {

SourcePane::SourcePane(QWidget *parent) : QWidget(parent)
{
    m_editor = new QPlainTextEdit(this);
    m_title = new QLabel(this);
    m_title->setFont(theme::titleFont(font()));
    m_count = new QLabel(this);
    m_count->setForegroundRole(QPalette::PlaceholderText);
    m_translate = new QPushButton(this);
    m_translate->setObjectName(QStringLiteral("translateButton"));
    m_translate->setDefault(true);
    m_cancel = new QPushButton(this);
    m_cancel->setEnabled(false);
    m_live = new QCheckBox(this);
    m_live->setChecked(true);
    m_omissionLegend = new QLabel(this);
    m_omissionLegend->setObjectName(QStringLiteral("omissionLegend"));
    m_omissionLegend->setWordWrap(true);
    m_omissionLegend->setForegroundRole(QPalette::PlaceholderText);
    m_omissionLegend->setVisible(false);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(6);
    layout->addWidget(m_title);
    layout->addWidget(m_editor, 1);
    layout->addWidget(m_omissionLegend);
    auto *bar = new QHBoxLayout;
    bar->addWidget(m_count);
    bar->addStretch(1);
    bar->addWidget(m_live);
    bar->addWidget(m_cancel);
    bar->addWidget(m_translate);
    layout->addLayout(bar);

    connect(m_editor, &QPlainTextEdit::textChanged, this, &SourcePane::updateCount);
    retranslateUi();
}

void SourcePane::retranslateUi()
{
    setLanguage(m_language);
    m_translate->setText(tr("&Translate"));
    m_translate->setToolTip(tr("Translate now (Ctrl+Enter)"));
    m_cancel->setText(tr("Cancel"));
    m_live->setText(tr("Translate as I type"));
    m_editor->setPlaceholderText(tr("Type or paste text to translate…"));
    m_editor->setAccessibleName(tr("Source text"));
    m_omissionLegend->setText(tr("〰 Wavy underline: a word the translation may have left out. "
                                 "Point at it to see why."));
    updateCount();
}

void SourcePane::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslateUi();
    QWidget::changeEvent(event);
}

void SourcePane::setLanguage(const QString &language)
{
    m_language = language;
    m_title->setText(language.isEmpty() ? tr("Source") : languageName(language));
}

void SourcePane::setOmissionLegendVisible(bool visible)
{
    m_omissionLegend->setVisible(visible);
}

void SourcePane::updateCount()
{
    m_count->setText(tr("%n character(s)", "", int(m_editor->toPlainText().size())));
}

} // namespace glosa
