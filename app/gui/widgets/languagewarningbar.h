// LanguageWarningBar: the language guard (checkSourceLanguage, app/core/inference/languageguess.h)
// as a view shows it instead of a result: "This document looks like English, and the model
// translates from Spanish." with a button for the direction the text asks for and one to go on
// anyway. The Translate, Documents and Compare views use it, each in its own words (setTexts).
//
// Basic usage:
//     m_languageBar = new LanguageWarningBar(context, this);
//     m_languageBar->setTexts(tr("This document looks like %1, ..."), tr("Translate %1 → %2"),
//                             tr("Translate anyway"));
//     connect(m_languageBar, &LanguageWarningBar::goOn, this, &View::translate);
//     ...
//     if (m_languageBar->check(text, m_choice.model))
//         return; // shown: nothing is translated until the user chooses
#pragma once

#include "app/core/appcontext.h"
#include "app/core/inference/languageguess.h"

#include <QString>
#include <QWidget>

#include <optional>

class QLabel;
class QPushButton;

namespace glosa {

class LanguageWarningBar : public QWidget
{
    Q_OBJECT
public:
    explicit LanguageWarningBar(AppContext &context, QWidget *parent = nullptr);

    // The note (%1: the language the text looks like, %2: the model's source language), the
    // switch button's text (%1 → %2: the direction offered) and the go-on button's.
    void setTexts(const QString &note, const QString &switchText, const QString &goOnText);
    // Runs the guard on `text` for `model` and shows the bar when the text looks like another
    // language; true when it is shown. Never shown after goOn until reset().
    bool check(const QString &text, const std::optional<ModelInfo> &model);
    // Shows what a presenter's guard found (found(): the bar is shown) for a model translating
    // from `modelLanguage`, without checking anything itself.
    void showMismatch(const LanguageMismatch &mismatch, const QString &modelLanguage);
    // Another text or model: checked again; the bar is hidden.
    void reset();

    QPushButton *switchButton() const { return m_switch; }
    QPushButton *goOnButton() const { return m_goOn; }
    QString guessedLanguage() const { return m_language; }

signals:
    // The switch button chose the offered model in the context (modelChosen came first).
    void switched();
    // The user goes on with the model chosen.
    void goOn();

private:
    void updateTexts();

    AppContext &m_context;
    QLabel *m_note = nullptr;
    QPushButton *m_switch = nullptr;
    QPushButton *m_goOn = nullptr;
    QString m_noteText, m_switchText;
    QString m_language;      // what the bar names; "" while hidden
    QString m_modelLanguage; // the model's source language
    QString m_offer;         // the model the switch button chooses
    bool m_accepted = false;
};

} // namespace glosa
