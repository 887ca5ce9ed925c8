#include "app/gui/dialogs/historysettingsdialog.h"

#include "app/core/history/retention.h"
#include "app/gui/historytexts.h"

#include <QCheckBox>
#include <QDialog>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QSpinBox>

namespace glosa {

bool editHistorySettings(QWidget *parent)
{
    QDialog dialog(parent);
    dialog.setWindowTitle(HistoryTexts::tr("History settings"));
    auto *form = new QFormLayout(&dialog);
    auto *enabled =
        new QCheckBox(HistoryTexts::tr("Record translations, captions and comparisons"), &dialog);
    enabled->setObjectName(QStringLiteral("historyEnabled"));
    enabled->setChecked(settings::historyEnabled.value());
    auto *maxEntries = new QSpinBox(&dialog);
    maxEntries->setObjectName(QStringLiteral("historyMaxEntries"));
    maxEntries->setRange(0, 10'000'000);
    maxEntries->setSingleStep(1000);
    maxEntries->setSpecialValueText(HistoryTexts::tr("No limit"));
    maxEntries->setValue(int(settings::historyMaxEntries.value()));
    auto *maxAge = new QSpinBox(&dialog);
    maxAge->setObjectName(QStringLiteral("historyMaxAgeDays"));
    maxAge->setRange(0, 36500);
    maxAge->setSuffix(HistoryTexts::tr(" days"));
    maxAge->setSpecialValueText(HistoryTexts::tr("No limit"));
    maxAge->setValue(settings::historyMaxAgeDays.value());
    auto *maxSize = new QSpinBox(&dialog);
    maxSize->setObjectName(QStringLiteral("historyMaxMegabytes"));
    maxSize->setRange(0, 1'000'000);
    maxSize->setSingleStep(100);
    maxSize->setSuffix(HistoryTexts::tr(" MB"));
    maxSize->setSpecialValueText(HistoryTexts::tr("No limit"));
    maxSize->setValue(int(settings::historyMaxMegabytes.value()));
    auto *note = new QLabel(HistoryTexts::tr("Starred entries are always kept. Older entries "
                                             "beyond the limits are removed now and whenever a "
                                             "new one is recorded."),
                            &dialog);
    note->setWordWrap(true);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, &dialog);
    QObject::connect(buttons, &QDialogButtonBox::accepted, &dialog, &QDialog::accept);
    QObject::connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    form->addRow(enabled);
    form->addRow(HistoryTexts::tr("Keep at most:"), maxEntries);
    form->addRow(HistoryTexts::tr("Remove entries older than:"), maxAge);
    form->addRow(HistoryTexts::tr("Keep the history file under:"), maxSize);
    form->addRow(note);
    form->addRow(buttons);
    if (dialog.exec() != QDialog::Accepted)
        return false;
    settings::historyEnabled.setValue(enabled->isChecked());
    settings::historyMaxEntries.setValue(maxEntries->value());
    settings::historyMaxAgeDays.setValue(maxAge->value());
    settings::historyMaxMegabytes.setValue(maxSize->value());
    return true;
}


} // namespace glosa
