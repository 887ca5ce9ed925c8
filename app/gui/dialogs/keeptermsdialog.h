// Settings ▸ Do not translate: the terms every translation copies as they are, one a line
// (settings::keepTerms).
#pragma once

#include <QDialog>

class QPlainTextEdit;

namespace glosa {

class KeepTermsDialog : public QDialog
{
    Q_OBJECT
public:
    explicit KeepTermsDialog(QWidget *parent = nullptr);

    // The terms as edited, trimmed, blank lines left out.
    QStringList terms() const;
    // Shows the dialog and stores the terms when it is accepted.
    static void edit(QWidget *parent);

private:
    QPlainTextEdit *m_terms = nullptr;
};

} // namespace glosa
