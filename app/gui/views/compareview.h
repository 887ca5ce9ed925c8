// CompareView: one input, 2-6 columns, each decoded with its own strategy. Each column shows the
// output with per-token probability shading, its score, length and time; words that differ from
// the neighbouring column are marked. Below, the search tree of the selected column (nodes
// coloured by fate) and the per-step probability chart (before and after the logits processors)
// for the selected token.
//
// Steering: clicking an off-path node of the tree (or "Decode from here" on any node), or a
// candidate in the chart, decodes the compared text again with the path to that token forced in
// that sentence (DecodingOptions::targetPrefix / targetPrefixSentence) and the selected column's
// other settings, in a new column labelled with the prefix; the forced tokens are underlined with
// dots. Six columns are the most: then the rightmost steered column is decoded again instead, and
// with none the view says it is full. A text that looks like another language than the model's
// source is not compared until the user picks the offered direction or "Compare anyway"
// (LanguageWarningBar).
// The view renders ComparePresenter (app/core/presenters/comparepresenter.h), which holds the
// columns, the requests, the notes on where they part, steering and the language guard.
#pragma once

#include "app/core/presenters/comparepresenter.h"
#include "app/gui/views/comparecolumn.h"

#include <QList>
#include <QWidget>

class QLabel;
class QPlainTextEdit;
class QPushButton;
class QScrollArea;
class QSpinBox;
class QSplitter;
class QHBoxLayout;

namespace glosa {

class BeamTreeWidget;
class ProbabilityChart;
class LanguageWarningBar;

class CompareView : public QWidget
{
    Q_OBJECT
public:
    explicit CompareView(AppContext &context, QWidget *parent = nullptr);
    ~CompareView() override;

    ComparePresenter *presenter() const { return m_presenter; }
    QPlainTextEdit *input() const { return m_input; }
    int columnCount() const { return int(m_columns.size()); }
    void setColumnCount(int count) { m_presenter->setColumnCount(count); }
    CompareColumn *column(int index) const { return m_columns.value(index); }
    BeamTreeWidget *tree() const { return m_tree; }
    ProbabilityChart *chart() const { return m_chart; }
    int selectedColumn() const { return m_presenter->selectedColumn(); }
    QSplitter *splitter() const { return m_splitter; }
    // Shown instead of comparing when the text does not look like the model's source language
    // (the language guard): it names the language and offers that direction's model.
    LanguageWarningBar *languageWarning() const { return m_languageBar; }

public slots:
    void compare();
    void resample(); // new seeds for the sampling columns, then compare
    void selectToken(int column, int token) { m_presenter->selectToken(column, token); }
    void showStoredComparison(const QString &input, const QList<glosa::TranslationResult> &columns,
                              const QString &status);

signals:
    void comparisonShown();

protected:
    void changeEvent(QEvent *event) override;

private:
    QWidget *makeColumnsPane();
    void connectPresenter();
    QWidget *makeTracePane();
    void retranslateUi();
    void syncColumns();
    void showStatus();
    void showAvailability();
    void showLanguageMismatch();
    void updateTrace();

    AppContext &m_context;
    ComparePresenter *m_presenter = nullptr;
    QList<CompareColumn *> m_columns;

    LanguageWarningBar *m_languageBar = nullptr;
    QLabel *m_inputTitle = nullptr;
    QPlainTextEdit *m_input = nullptr;
    QLabel *m_columnsLabel = nullptr;
    QSpinBox *m_columnCount = nullptr;
    QPushButton *m_compare = nullptr;
    QPushButton *m_resample = nullptr;
    QLabel *m_status = nullptr;
    QHBoxLayout *m_columnsLayout = nullptr;
    QLabel *m_treeTitle = nullptr;
    QLabel *m_chartTitle = nullptr;
    QLabel *m_legend = nullptr;
    BeamTreeWidget *m_tree = nullptr;
    QScrollArea *m_treeScroll = nullptr;
    ProbabilityChart *m_chart = nullptr;
    QSplitter *m_splitter = nullptr;
};

} // namespace glosa
