// Help ▸ About Glosa: the version, what the models are trained on, and the software they run on.
#pragma once

#include <QDialog>

namespace glosa {

class AboutDialog : public QDialog
{
    Q_OBJECT
public:
    explicit AboutDialog(const QIcon &icon, QWidget *parent = nullptr);
};

} // namespace glosa
