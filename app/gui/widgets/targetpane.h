// TargetPane: the Translate view's target side: its title (the model's target language) with
// the alternatives of an n-best list beside it, the steering bar ("Back to the original") and the
// language warning above the translation, the editor (editable: post-editing), the line that
// says what the unknown words' underline means, a long text's progress, the status line, "Shade
// by confidence" and Copy. It only lays them out: what they show and say, and what they do, is
// the view's (TranslateView), as SourcePane's buttons are.
#pragma once

#include <QWidget>

class QCheckBox;
class QComboBox;
class QLabel;
class QPlainTextEdit;
class QProgressBar;
class QPushButton;

namespace glosa {

class AppContext;
class LanguageWarningBar;
class SteeringBar;

class TargetPane : public QWidget
{
    Q_OBJECT
public:
    // `context`: the language warning's offer of another direction's model.
    explicit TargetPane(AppContext &context, QWidget *parent = nullptr);

    QPlainTextEdit *editor() const { return m_editor; }
    QLabel *title() const { return m_title; }
    QComboBox *alternatives() const { return m_alternatives; } // hidden until there are some
    SteeringBar *steeringBar() const { return m_steeringBar; }
    LanguageWarningBar *languageBar() const { return m_languageBar; }
    QLabel *wordLegend() const { return m_wordLegend; }   // hidden while no word is marked
    QProgressBar *progress() const { return m_progress; } // hidden until a long text runs
    QLabel *status() const { return m_status; }
    QCheckBox *confidenceToggle() const { return m_confidence; }
    QPushButton *copyButton() const { return m_copy; }

private:
    QPlainTextEdit *m_editor = nullptr;
    QLabel *m_title = nullptr;
    QCheckBox *m_confidence = nullptr;
    QComboBox *m_alternatives = nullptr;
    QPushButton *m_copy = nullptr;
    QLabel *m_status = nullptr;
    QProgressBar *m_progress = nullptr;
    QLabel *m_wordLegend = nullptr;
    SteeringBar *m_steeringBar = nullptr;
    LanguageWarningBar *m_languageBar = nullptr;
};

} // namespace glosa
