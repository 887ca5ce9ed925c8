#include "app/gui/livetext.h"

#include <QAbstractButton>
#include <QApplication>
#include <QEvent>
#include <QGroupBox>
#include <QHash>
#include <QLabel>
#include <QThread>

#include <deque>

namespace glosa {

namespace {
// The texts made, newest last, with how each is made. Bounded: a text scrolled away long ago is
// not on screen any more (a label shows the last one set on it).
constexpr int kRemembered = 512;

class LiveTexts : public QObject
{
public:
    LiveTexts() : QObject(qApp) { qApp->installEventFilter(this); }

    QString make(std::function<QString()> make)
    {
        const QString text = make();
        if (text.isEmpty())
            return text;
        if (!m_made.contains(text)) {
            m_order.push_back(text);
            if (m_order.size() > kRemembered) {
                m_made.remove(m_order.front());
                m_order.pop_front();
            }
        }
        m_made.insert(text, std::move(make));
        return text;
    }

protected:
    bool eventFilter(QObject *watched, QEvent *event) override
    {
        if (event->type() == QEvent::LanguageChange && watched->isWidgetType())
            retranslate(static_cast<QWidget *>(watched));
        return false;
    }

private:
    // The text built again from what made `shown`; `shown` when it is not one of ours.
    QString remade(const QString &shown)
    {
        const auto found = m_made.constFind(shown);
        return found == m_made.cend() ? shown : make(*found);
    }

    void retranslate(QWidget *widget)
    {
        if (auto *label = qobject_cast<QLabel *>(widget)) {
            if (const QString text = remade(label->text()); text != label->text())
                label->setText(text);
        } else if (auto *button = qobject_cast<QAbstractButton *>(widget)) {
            if (const QString text = remade(button->text()); text != button->text())
                button->setText(text);
        } else if (auto *group = qobject_cast<QGroupBox *>(widget)) {
            if (const QString text = remade(group->title()); text != group->title())
                group->setTitle(text);
        }
        if (const QString tip = remade(widget->toolTip()); tip != widget->toolTip())
            widget->setToolTip(tip);
    }

    QHash<QString, std::function<QString()>> m_made;
    std::deque<QString> m_order;
};
} // namespace

QString liveText(std::function<QString()> make)
{
    if (!qApp || QThread::currentThread() != qApp->thread())
        return make();
    static LiveTexts *texts = new LiveTexts; // a child of the application
    return texts->make(std::move(make));
}

} // namespace glosa
