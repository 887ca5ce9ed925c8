// The bar over the tabs: which model translates (its picker grouped by direction, each
// direction named, its default first), ⇄, whether the model is ready, and a quiet offer of a
// stronger OPUS-MT model for the direction. It renders a ModelPickerPresenter and forwards the
// user's picks to it.
#pragma once

#include <QWidget>

class QComboBox;
class QLabel;
class QToolButton;

namespace glosa {

class AppContext;
class ModelPickerPresenter;

class ModelBar : public QWidget
{
    Q_OBJECT
public:
    explicit ModelBar(AppContext &context, QWidget *parent = nullptr);

    ModelPickerPresenter *presenter() const { return m_presenter; }
    QComboBox *picker() const { return m_models; }
    QLabel *hubHint() const { return m_hubHint; }
    QToolButton *swapButton() const { return m_swap; }
    // The id of the model in the picker (the context's choice).
    QString currentModelId() const;
    // On the Caption tab the picker chooses what translates captions.
    void setForCaptions(bool captions);

signals:
    void swapRequested();
    // The offer was clicked: Get models… with `repo` chosen.
    void getModelsRequested(const QString &repo);

protected:
    void changeEvent(QEvent *event) override;

private:
    void fill();
    void showChoice();
    void showHubOffer();
    void retranslateUi();

    AppContext &m_context;
    ModelPickerPresenter *m_presenter = nullptr;
    QLabel *m_label = nullptr;
    QComboBox *m_models = nullptr;
    QToolButton *m_swap = nullptr;
    QLabel *m_state = nullptr;
    QLabel *m_hubHint = nullptr;
    bool m_forCaptions = false;
};

} // namespace glosa
