// A spin box for a 64-bit unsigned value (the sampling seed): QSpinBox holds an int, which cut the
// seeds that model.json, the CLI and the history accept to 2^31 - 1.
#pragma once

#include <QAbstractSpinBox>

#include <limits>

namespace glosa {

class UInt64SpinBox : public QAbstractSpinBox
{
    Q_OBJECT
public:
    explicit UInt64SpinBox(QWidget *parent = nullptr);

    quint64 value() const { return m_value; }
    void setValue(quint64 value);
    static constexpr quint64 minimum() { return 0; }
    static constexpr quint64 maximum() { return std::numeric_limits<quint64>::max(); }

    void stepBy(int steps) override;
    QValidator::State validate(QString &input, int &pos) const override;
    void fixup(QString &input) const override;

signals:
    void valueChanged(quint64 value);

protected:
    StepEnabled stepEnabled() const override;

private:
    quint64 m_value = 0;
};

} // namespace glosa
