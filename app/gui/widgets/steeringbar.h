// SteeringBar: above a steered translation, what was forced ("prefix: «El gato negro»", in the
// accent colour) and "Back to the original". Hidden while the translation is the model's own.
#pragma once

#include <QWidget>

class QLabel;
class QPushButton;

namespace glosa {

class SteeringBar : public QWidget
{
    Q_OBJECT
public:
    explicit SteeringBar(QWidget *parent = nullptr);

    QPushButton *backButton() const { return m_back; }
    // Shown with `label` (steeringLabel(), app/gui/composedtext.h); hidden when it is empty.
    void setLabel(const QString &label);
    QString label() const;

signals:
    void backClicked();

protected:
    void changeEvent(QEvent *event) override;

private:
    void retranslateUi();

    QLabel *m_label = nullptr;
    QPushButton *m_back = nullptr;
};

} // namespace glosa
