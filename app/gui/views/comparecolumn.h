// CompareColumn: one column of the Compare view (compareview.h), drawn from ComparePresenter's
// state of it.
#pragma once

#include "app/core/presenters/comparepresenter.h"

#include <QTextEdit>
#include <QTextFormat>
#include <QWidget>

class QComboBox;
class QLabel;
class QToolButton;

namespace glosa {

// One column of the comparison: its strategy box and Edit…, the steering label, the output with
// per-token probability shading and difference marks, and the footer (score, length, time and
// the notes on where it parts from its neighbour). It shows column `index` of the presenter.
class CompareColumn : public QWidget
{
    Q_OBJECT
public:
    CompareColumn(ComparePresenter &presenter, int index, QWidget *parent = nullptr);

    // Properties of the output's extra selections (tests and accessibility tools read them).
    static constexpr int kForcedProperty = QTextFormat::UserProperty + 1; // a forced token
    static constexpr int kMaxMarkedTokens = ComparePresenter::kMaxMarkedTokens;
    using Divergence = CompareDivergence;

    const CompareColumnState &state() const { return m_presenter.column(m_index); }
    engine::DecodingOptions options() const { return state().options; }
    bool isSteered() const { return state().isSteered(); }
    QString steeringText() const;
    // The chosen preset's name, empty for "Custom".
    QString presetName() const { return state().preset; }
    void setOptions(const engine::DecodingOptions &options, const QString &preset = QString());
    int sameAsColumn() const { return state().sameAs; }
    const Divergence &divergence() const { return state().divergence; }
    const TranslationResult &result() const { return state().result; }
    bool hasResult() const { return state().hasResult(); }
    bool isStale() const { return state().isStale(); }
    QString metricsText() const;
    // "Parts from column 1 at “en” (28%), where it has “a” (27%)."
    QString divergenceText() const;
    QTextEdit *output() const { return m_output; }
    QLabel *footer() const { return m_metrics; }
    int tokenAtPosition(int position) const;
    // Shows the presenter's state of the column.
    void render();
    void retranslateUi();
    QSize minimumSizeHint() const override;
    QSize sizeHint() const override;

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;
    void changeEvent(QEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;

private:
    void repaintTokens();
    void editOptions();
    void showMetrics();
    QTextEdit::ExtraSelection tokenSelection(int token, bool forced, bool differing) const;

    ComparePresenter &m_presenter;
    int m_index = 0;
    QString m_shownText; // the text the output holds
    bool m_rendering = false; // render() is under way: it repaints the tokens itself
    QComboBox *m_preset = nullptr;
    QToolButton *m_edit = nullptr;
    QLabel *m_summary = nullptr;
    QLabel *m_steering = nullptr;
    QTextEdit *m_output = nullptr;
    QLabel *m_metrics = nullptr;
};

} // namespace glosa
