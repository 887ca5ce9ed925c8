// SourcePane: the Translate view's source side: its title (the model's source language), the
// editor, the character count, "Translate as I type", Cancel and Translate. It only shows and
// forwards: what the buttons and the text do is the view's and its presenter's.
#pragma once

#include <QWidget>

class QCheckBox;
class QLabel;
class QPlainTextEdit;
class QPushButton;

namespace glosa {

class SourcePane : public QWidget
{
    Q_OBJECT
public:
    explicit SourcePane(QWidget *parent = nullptr);

    QPlainTextEdit *editor() const { return m_editor; }
    QPushButton *translateButton() const { return m_translate; }
    QPushButton *cancelButton() const { return m_cancel; }
    QCheckBox *liveToggle() const { return m_live; }
    // The title: the language's name, "Source" when none.
    void setLanguage(const QString &language);
    // The line under the editor that says what a wavy underline means, shown while any is.
    void setOmissionLegendVisible(bool visible);

protected:
    void changeEvent(QEvent *event) override;

private:
    void retranslateUi();
    void updateCount();

    QString m_language;
    QLabel *m_title = nullptr;
    QPlainTextEdit *m_editor = nullptr;
    QLabel *m_count = nullptr;
    QLabel *m_omissionLegend = nullptr;
    QCheckBox *m_live = nullptr;
    QPushButton *m_cancel = nullptr;
    QPushButton *m_translate = nullptr;
};

} // namespace glosa
