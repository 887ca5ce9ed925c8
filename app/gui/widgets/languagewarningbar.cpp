#include "app/gui/widgets/languagewarningbar.h"

#include "app/core/displaynames.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>

namespace glosa {

LanguageWarningBar::LanguageWarningBar(AppContext &context, QWidget *parent)
    : QWidget(parent), m_context(context), m_note(new QLabel(this)),
      m_switch(new QPushButton(this)), m_goOn(new QPushButton(this))
{
    setObjectName(QStringLiteral("languageWarning"));
    m_note->setWordWrap(true);
    auto *row = new QHBoxLayout(this);
    row->setContentsMargins(0, 0, 0, 0);
    row->addWidget(m_note, 1);
    row->addWidget(m_switch);
    row->addWidget(m_goOn);
    setVisible(false);
    connect(m_goOn, &QPushButton::clicked, this, [this] {
        m_accepted = true;
        setVisible(false);
        emit goOn();
    });
    connect(m_switch, &QPushButton::clicked, this, [this] {
        const QString offer = m_offer;
        setVisible(false);
        if (m_context.chooseModel(offer))
            emit switched();
    });
}

void LanguageWarningBar::setTexts(const QString &note, const QString &switchText,
                                  const QString &goOnText)
{
    m_noteText = note;
    m_switchText = switchText;
    m_goOn->setText(goOnText);
    updateTexts();
}

bool LanguageWarningBar::check(const QString &text, const std::optional<ModelInfo> &model)
{
    LanguageMismatch mismatch;
    if (model && !m_accepted)
        mismatch = checkSourceLanguage(text, *model,
                                       [this](const QString &source, const QString &target) {
                                           return m_context.modelForDirection(source, target);
                                       });
    showMismatch(mismatch, model ? model->sourceLanguage : QString());
    return mismatch.found();
}

void LanguageWarningBar::showMismatch(const LanguageMismatch &mismatch,
                                      const QString &modelLanguage)
{
    m_language = mismatch.language;
    m_modelLanguage = modelLanguage;
    m_offer = mismatch.offer ? mismatch.offer->id : QString();
    updateTexts();
    setVisible(mismatch.found());
}

void LanguageWarningBar::reset()
{
    m_accepted = false;
    m_language.clear();
    setVisible(false);
}

void LanguageWarningBar::updateTexts()
{
    if (m_language.isEmpty())
        return;
    m_note->setText(m_noteText.arg(languageName(m_language), languageName(m_modelLanguage)));
    const std::optional<ModelInfo> offer = m_context.catalog().find(m_offer);
    m_switch->setVisible(offer.has_value());
    if (offer)
        m_switch->setText(m_switchText.arg(languageName(offer->sourceLanguage),
                                           languageName(offer->targetLanguage)));
}

} // namespace glosa
