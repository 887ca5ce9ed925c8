#include "app/gui/widgets/uint64spinbox.h"

#include <QLineEdit>

namespace glosa {

namespace {
// Digits only, in the C locale: a seed is an identifier, not a quantity to group by thousands.
bool parse(const QString &text, quint64 *value)
{
    bool ok = false;
    *value = text.toULongLong(&ok);
    return ok && !text.isEmpty() && text.front().isDigit();
}
} // namespace

UInt64SpinBox::UInt64SpinBox(QWidget *parent) : QAbstractSpinBox(parent)
{
    lineEdit()->setText(QStringLiteral("0"));
    connect(lineEdit(), &QLineEdit::textEdited, this, [this](const QString &text) {
        quint64 value = 0;
        if (parse(text, &value) && value != m_value) {
            m_value = value;
            emit valueChanged(value);
        }
    });
    connect(this, &QAbstractSpinBox::editingFinished, this,
            [this] { lineEdit()->setText(QString::number(m_value)); });
}

void UInt64SpinBox::setValue(quint64 value)
{
    if (lineEdit()->text() != QString::number(value))
        lineEdit()->setText(QString::number(value));
    if (value == m_value)
        return;
    m_value = value;
    emit valueChanged(value);
}

void UInt64SpinBox::stepBy(int steps)
{
    const quint64 size = quint64(steps < 0 ? -qint64(steps) : steps);
    if (steps < 0)
        setValue(m_value > size ? m_value - size : 0);
    else
        setValue(maximum() - m_value > size ? m_value + size : maximum());
    selectAll();
}

QAbstractSpinBox::StepEnabled UInt64SpinBox::stepEnabled() const
{
    StepEnabled enabled = StepNone;
    if (m_value > minimum())
        enabled |= StepDownEnabled;
    if (m_value < maximum())
        enabled |= StepUpEnabled;
    return enabled;
}

QValidator::State UInt64SpinBox::validate(QString &input, int &) const
{
    if (input.isEmpty())
        return QValidator::Intermediate;
    quint64 value = 0;
    return parse(input, &value) ? QValidator::Acceptable : QValidator::Invalid;
}

void UInt64SpinBox::fixup(QString &input) const
{
    input = QString::number(m_value);
}

} // namespace glosa
