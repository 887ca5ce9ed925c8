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
#pragma once

#include "app/core/appcontext.h"
#include "app/core/inference/inferenceresult.h"

#include <QList>
#include <QTextFormat>
#include <QWidget>

#include <memory>

class QComboBox;
class QLabel;
class QPlainTextEdit;
class QPushButton;
class QScrollArea;
class QSpinBox;
class QSplitter;
class QTextEdit;
class QToolButton;
class QHBoxLayout;

namespace glosa {

class BeamTreeWidget;
class InferenceRequest;
class InferenceWorker;
class ProbabilityChart;

class LanguageWarningBar;

class CompareColumn : public QWidget
{
    Q_OBJECT
public:
    explicit CompareColumn(int index, QWidget *parent = nullptr);

    // Properties of the output's extra selections (tests and accessibility tools read them).
    static constexpr int kForcedProperty = QTextFormat::UserProperty + 1; // a forced token

    engine::DecodingOptions options() const { return m_options; }
    // The column decodes with a forced prefix (Compare view's steering); its label says which.
    bool isSteered() const { return !m_options.targetPrefix.empty(); }
    QString steeringText() const;
    // Shows `label` over the output (a steered column), or nothing for an empty one.
    void setSteering(const QString &label);
    // The chosen preset's name, empty for "Custom".
    QString presetName() const;
    void setOptions(const engine::DecodingOptions &options, const QString &preset = QString());
    void setResult(const TranslationResult &result, const QList<int> &differing);
    // The tokens of the best hypothesis that differ from the neighbouring column's (marked).
    void setDiffering(const QList<int> &differing);
    // Why the columns differ, said where a reader looks: `sameAs` (>= 0) is an earlier column
    // whose settings differ but whose output is the same (this column's setting changed nothing
    // here); `divergence` is the first step at which this column's search and its neighbour's
    // chose differently: this column's token there, the neighbour's, and each one's probability
    // under its own column. Empty (index < 0) for none.
    struct Divergence
    {
        int token = -1;  // in this column's best hypothesis
        int column = -1; // the neighbour
        QString mine, theirs;
        float myProbability = 0.0f, theirProbability = 0.0f;
    };
    void setComparison(int sameAs, const Divergence &divergence);
    int sameAsColumn() const { return m_sameAs; }
    const Divergence &divergence() const { return m_divergence; }
    // Shading and difference marks are painted on at most this many tokens: every one is a
    // format range of the output's layout, and thousands of them (a 5,000-word paste) made each
    // repaint take seconds. The column says so when it cuts.
    static constexpr int kMaxMarkedTokens = 1500;
    void setPending();
    void setSelected(bool selected);
    void setSelectedToken(int token);
    const TranslationResult &result() const { return m_result; }
    bool hasResult() const { return !m_result.isEmpty(); }
    // The result shown was decoded with other settings than the column's current ones (they were
    // changed after it); shown as "out of date" until the column is decoded again.
    bool isStale() const;
    QString metricsText() const;
    // "Parts from column 1 at “en” (28%), where it has “a” (27%)."
    QString divergenceText() const;
    QTextEdit *output() const { return m_output; }
    int tokenAtPosition(int position) const;
    void retranslateUi();

signals:
    void tokenClicked(int column, int token);
    void optionsEdited(int column);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;
    void changeEvent(QEvent *event) override;

private:
    void repaintTokens();
    void editOptions();
    // A preset or the edit dialog changes the strategy, not the steering: the prefix stays.
    void setOptionsKeepingSteering(engine::DecodingOptions options, const QString &preset);
    void showMetrics();

    int m_index = 0;
    engine::DecodingOptions m_options;
    TranslationResult m_result;
    QList<int> m_differing;
    int m_sameAs = -1;
    Divergence m_divergence;
    int m_selectedToken = -1;
    bool m_selected = false;
    QComboBox *m_preset = nullptr;
    QToolButton *m_edit = nullptr;
    QLabel *m_summary = nullptr;
    QLabel *m_steering = nullptr;
    QTextEdit *m_output = nullptr;
    QLabel *m_metrics = nullptr;
};

class CompareView : public QWidget
{
    Q_OBJECT
public:
    explicit CompareView(AppContext &context, QWidget *parent = nullptr);
    ~CompareView() override;

    QPlainTextEdit *input() const { return m_input; }
    int columnCount() const { return m_columns.size(); }
    void setColumnCount(int count);
    CompareColumn *column(int index) const { return m_columns.value(index); }
    BeamTreeWidget *tree() const { return m_tree; }
    ProbabilityChart *chart() const { return m_chart; }
    int selectedColumn() const { return m_selectedColumn; }
    QSplitter *splitter() const { return m_splitter; }
    // Shown instead of comparing when the text does not look like the model's source language
    // (the language guard): it names the language and offers that direction's model.
    LanguageWarningBar *languageWarning() const { return m_languageBar; }

    // Token indices of column a's best hypothesis that are not in the longest common subsequence
    // with column b's (by surface form).
    static QList<int> differingTokens(const TranslationHypothesis &a,
                                      const TranslationHypothesis &b);
    // The same sentence by sentence when both results carry one trace per sentence (the source
    // is split the same way for every column): the quadratic subsequence stays small for long
    // texts. Without traces, the whole hypotheses, up to kMaxMarkedTokens tokens of each.
    static QList<int> differingTokens(const TranslationResult &a, const TranslationResult &b);

public slots:
    void compare();
    void resample(); // new seeds for the sampling columns, then compare
    void selectToken(int column, int token);
    // Decodes the compared text again with `prefix` (token ids) forced in `sentence` and column
    // `from`'s other settings, in a new column (see the header comment for a full view).
    // `label`: what the column says about it (steeringLabel()).
    void decodeWithPrefix(int from, int sentence, const QList<int> &prefix, const QString &label);
    // Shows a comparison recorded earlier (History ▸ Open): one column per result, each with its
    // decoding options, without decoding again (search trees are not recorded).
    void showStoredComparison(const QString &input, const QList<glosa::TranslationResult> &columns,
                              const QString &status);

signals:
    void comparisonShown();

protected:
    void changeEvent(QEvent *event) override;

private:
    void retranslateUi();
    // The translation model chosen in the context: its worker, or why there is none.
    void useModel(const glosa::ModelChoice &choice);
    void showColumn(int column, const glosa::TranslationResult &result);
    void showFailure(const QString &message);
    // A column's settings changed: decode it again (alone) when it shows a result of the old ones.
    void rerunColumn(int column);
    // Decodes the compared text with column `index`'s settings alone (m_columnRequest).
    void decodeColumn(int index, const QString &status);
    // The tree's node `node` / the chart's `token` at the selected step, as a prefix to force.
    void steerFromNode(int node);
    void steerFromCandidate(int token);
    void refreshDifferences();
    void updateTrace();

    AppContext &m_context;
    ModelChoice m_choice;
    InferenceWorker *m_worker = nullptr; // the chosen model's; null when it cannot run
    std::unique_ptr<InferenceRequest> m_request;
    bool m_comparing = false;                          // m_request has not ended yet
    QString m_comparedText;                            // the input the shown results are of
    std::unique_ptr<InferenceRequest> m_columnRequest; // rerunColumn()'s request
    QList<CompareColumn *> m_columns;
    int m_selectedColumn = 0;
    int m_selectedToken = -1;
    int m_treeSentence = 0; // the sentence whose tree is shown

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
