#include "app/gui/dialogs/keeptermsdialog.h"

#include "app/core/settings/settings.h"

#include <QDialogButtonBox>
#include <QLabel>
#include <QPlainTextEdit>
#include <QVBoxLayout>

namespace glosa {

KeepTermsDialog::KeepTermsDialog(QWidget *parent) : QDialog(parent)
{
    setWindowTitle(tr("Do not translate"));
    auto *layout = new QVBoxLayout(this);
    auto *label = new QLabel(tr("Terms that every translation copies as they are, such as product "
                                "and people's names, one a line (whole words, matching case):"),
                             this);
    label->setWordWrap(true);
    m_terms = new QPlainTextEdit(this);
    m_terms->setObjectName(QStringLiteral("keepTerms"));
    m_terms->setAccessibleName(tr("Terms not to translate"));
    m_terms->setPlainText(settings::keepTerms.value().join(QLatin1Char('\n')));
    label->setBuddy(m_terms);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(label);
    layout->addWidget(m_terms, 1);
    layout->addWidget(buttons);
    resize(420, 320);
}

QStringList KeepTermsDialog::terms() const
{
    QStringList list;
    for (const QString &line : m_terms->toPlainText().split(QLatin1Char('\n')))
        if (!line.trimmed().isEmpty())
            list << line.trimmed();
    return list;
}

void KeepTermsDialog::edit(QWidget *parent)
{
    KeepTermsDialog dialog(parent);
    if (dialog.exec() == QDialog::Accepted)
        settings::keepTerms.setValue(dialog.terms());
}

} // namespace glosa
