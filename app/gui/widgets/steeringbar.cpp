#include "app/gui/widgets/steeringbar.h"

#include "app/gui/theme.h"

#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>

namespace glosa {

SteeringBar::SteeringBar(QWidget *parent) : QWidget(parent)
{
    m_label = new QLabel(this);
    m_label->setWordWrap(true);
    m_back = new QPushButton(this);
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_label, 1);
    layout->addWidget(m_back);
    setVisible(false);
    connect(m_back, &QPushButton::clicked, this, &SteeringBar::backClicked);
    retranslateUi();
}

void SteeringBar::retranslateUi()
{
    m_back->setText(tr("Back to the original"));
    m_back->setToolTip(tr("Show the translation this one was steered from"));
}

void SteeringBar::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslateUi();
    QWidget::changeEvent(event);
}

void SteeringBar::setLabel(const QString &label)
{
    m_label->setText(label);
    QPalette pal = m_label->palette();
    pal.setColor(QPalette::WindowText, theme::accent(palette()));
    m_label->setPalette(pal);
    setVisible(!label.isEmpty());
}

QString SteeringBar::label() const
{
    return isHidden() ? QString() : m_label->text();
}

} // namespace glosa
