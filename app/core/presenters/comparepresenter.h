// ComparePresenter: the Compare tab without its widgets. It owns the tab's state — 2-6 columns,
// each with its decoding options, its preset, its steering prefix and its last result; which
// column and token are selected; the status — and decides what the view only shows:
//   - the requests: every column decoded at once (the text and each column's settings, traces
//     on), a single column again when its settings change or a prefix is chosen in its tree;
//   - the language guard (checkSourceLanguage) before a comparison: a text that looks like
//     another language than the model's source is not compared until the user goes on anyway or
//     takes the offered direction;
//   - where and why the columns part: the tokens of each column outside the longest common
//     subsequence with its neighbour (an n × m table: computed on the thread pool and delivered
//     by differencesShown(), a result of columns changed since dropped), the first step at which
//     their searches chose differently (named by the words those tokens are part of), and a
//     column whose settings changed nothing;
//   - steering: a node of the selected column's search tree, or a candidate of its chart, as a
//     prefix forced in that sentence in a new column (or the rightmost steered one, at six).
// Each comparison shown is recorded in the history at once, and not again when it repeats the
// last one recorded or opened (ExplicitRecorder).
// Everything is reported by signals on the thread that made it; the view renders the getters.
//
// Basic usage:
//     ComparePresenter compare(context);
//     connect(&compare, &ComparePresenter::comparisonShown, ...); // then column(i).result
//     compare.setColumnCount(3);
//     compare.compare(QStringLiteral("The cat sleeps."));
//     if (compare.languageMismatch().found()) ...                 // not compared: say why
#pragma once

#include "app/core/appcontext.h"
#include "app/core/history/explicitrecorder.h"
#include "app/core/inference/inferenceresult.h"
#include "app/core/inference/languageguess.h"

#include <QList>
#include <QObject>

#include <memory>

namespace glosa {

class InferenceRequest;
class InferenceWorker;

// The first step at which a column's search and its neighbour's chose differently: this column's
// token there, the neighbour's, the words they are part of and each one's probability under its
// own column. token < 0: none (the outputs are the same, or there is no neighbour).
struct CompareDivergence
{
    int token = -1;  // in this column's best hypothesis
    int column = -1; // the neighbour
    QString mine, theirs; // the words of the two tokens; theirs is empty where it has none
    float myProbability = 0.0f, theirProbability = 0.0f;

    bool operator==(const CompareDivergence &) const = default;
};

// A forced prefix as a column names it: its words, whether it ends the sentence, and where.
struct CompareSteering
{
    QString words;
    bool ends = false;   // the prefix holds the end of the sentence
    int sentence = -1;   // -1: not steered
    int sentences = 1;   // of the compared text
};

struct CompareColumnState
{
    engine::DecodingOptions options;
    QString preset; // the built-in preset's name, "" for custom settings
    CompareSteering steering;
    TranslationResult result;
    bool pending = false; // decoding
    QList<int> differing; // tokens of the best hypothesis not in its neighbour's (see below)
    int sameAs = -1;      // an earlier column with other settings and the same output
    CompareDivergence divergence;

    bool isSteered() const { return !options.targetPrefix.empty(); }
    bool hasResult() const { return !result.isEmpty(); }
    // The result shown was decoded with other settings than the column's current ones.
    bool isStale() const;
};

class ComparePresenter : public QObject
{
    Q_OBJECT
public:
    static constexpr int kMinColumns = 2;
    static constexpr int kMaxColumns = 6;
    // Differences are computed on at most this many tokens of a hypothesis without traces (the
    // view marks no more either: each mark is a format range, and thousands made repaints slow).
    static constexpr int kMaxMarkedTokens = 1500;

    // What the status line says, as state: the view words it (and words it again in another
    // interface language).
    struct Status
    {
        enum class Kind {
            None,
            Unavailable,    // no model can run: unavailableText(choice())
            Decoding,       // `number` columns
            DecodingColumn, // column `number`, with its new settings
            DecodingPrefix, // column `number`, from a chosen prefix
            Done,
            Failed,         // `text`: the worker's message
            WrongLanguage,  // not compared: the text is not in the model's source language
            StillRunning,   // a prefix was chosen while the comparison runs
            Full,           // every one of `number` columns is in use, none steered
            Stored,         // `text`: said by whoever showed a stored comparison
        };
        Kind kind = Kind::None;
        int number = 0;
        QString text;
    };

    explicit ComparePresenter(AppContext &context, QObject *parent = nullptr);
    ~ComparePresenter() override;

    const ModelChoice &choice() const { return m_choice; }
    bool canCompare() const { return m_worker != nullptr; }
    bool isComparing() const { return m_comparing; }
    const Status &status() const { return m_status; }
    // The text the shown results are of.
    const QString &comparedText() const { return m_comparedText; }
    // What the language guard found about the last text compared (found() false: nothing).
    const LanguageMismatch &languageMismatch() const { return m_mismatch; }

    int columnCount() const { return int(m_columns.size()); }
    const CompareColumnState &column(int index) const { return m_columns.at(index); }
    QList<TranslationResult> results() const;
    int selectedColumn() const { return m_selectedColumn; }
    int selectedToken() const { return m_selectedToken; }
    // The sentence of the selected column whose search tree is shown, and its trace (null when
    // the column has none).
    int treeSentence() const { return m_treeSentence; }
    const SentenceTrace *selectedTrace() const;
    // The step of the selected token in selectedTrace(), -1 for none.
    int selectedStep() const;
    // Some column's `differing` is being computed for its current result and neighbour (it is
    // empty until differencesShown()).
    bool differencesPending() const;

    // Token indices of a's best hypothesis that are not in the longest common subsequence with
    // b's (by surface form).
    static QList<int> differingTokens(const TranslationHypothesis &a,
                                      const TranslationHypothesis &b);
    // The same sentence by sentence when both results carry one trace per sentence (the source
    // is split the same way for every column): the quadratic subsequence stays small for long
    // texts. Without traces, the whole hypotheses, up to kMaxMarkedTokens tokens of each.
    static QList<int> differingTokens(const TranslationResult &a, const TranslationResult &b);

public slots:
    void setColumnCount(int count);
    // The column's settings, as set by a program (nothing is decoded).
    void setColumnOptions(int index, const engine::DecodingOptions &options,
                          const QString &preset = QString());
    // The user chose a preset or edited the settings of a column: its steering stays, and it is
    // decoded again alone when it shows a result of the old settings.
    void editColumnOptions(int index, engine::DecodingOptions options, const QString &preset);
    // The input changed: the language guard asks again.
    void inputChanged();
    // Decodes `text` with every column's settings, after the language guard.
    void compare(const QString &text);
    // The user goes on with the chosen model although the guard doubted the text.
    void compareAnyway(const QString &text);
    // New seeds for the sampling columns, then compare.
    void resample(const QString &text);
    void selectToken(int column, int token);
    // A click on the tree's `step` of the selected column's shown sentence.
    void selectStep(int step);
    // The tree's node / the chart's `token` at the selected step, as a prefix to force.
    void decodeFromNode(int node);
    void decodeFromCandidate(int token);
    // Decodes the compared text again with `prefix` (token ids) forced in `sentence` and column
    // `from`'s other settings, in a new column (the rightmost steered one when there are six).
    void decodeWithPrefix(int from, int sentence, const QList<int> &prefix,
                          const CompareSteering &steering);
    // Shows a comparison recorded earlier: one column per result, each with its decoding
    // options, without decoding again (search trees are not recorded).
    void showStoredComparison(const QString &input, const QList<glosa::TranslationResult> &columns,
                              const QString &status);
    // `entry` was opened from the history: comparing the same again records nothing new.
    void historyEntryOpened(const glosa::HistoryEntry &entry);

signals:
    void columnCountChanged();
    // Column `index`'s settings, result, pending state or notes changed.
    void columnChanged(int index);
    // Another column or token is selected, or the selected column's trace changed.
    void selectionChanged();
    void statusChanged();
    void availabilityChanged();
    // The guard stopped a comparison: languageMismatch() says why. cleared: nothing to say.
    void languageMismatchFound();
    void languageMismatchCleared();
    // Every column of a comparison has its result.
    void comparisonShown();
    // Every column's `differing` is up to date again (each column that changed was announced by
    // columnChanged first).
    void differencesShown();
    // The comparison shown went to the history as entry `id` (ExplicitRecorder::record).
    void entryRecorded(qint64 id);

private:
    void useModel(const glosa::ModelChoice &choice);
    void setStatus(Status::Kind kind, int number = 0, const QString &text = QString());
    void runComparison(const QString &text);
    // Another text drops the columns' prefixes (each belongs to a sentence of its text).
    void dropSteeringFor(const QString &text);
    void comparisonDone();
    void recordComparison();
    void rerunColumn(int index);
    void decodeColumn(int index, Status::Kind status);
    // The column a decode from a prefix goes to, made when there is room; -1 when full.
    int steeringTarget();
    void showColumn(int index, const glosa::TranslationResult &result);
    void showFailure(const QString &message);
    // The notes of every column, those whose result or neighbour's result is in `changed`
    // anew: their `differing` is started on the pool.
    void refreshDifferences(const QList<int> &changed);
    void startDifferences(const QList<int> &columns);
    void showDifferences(quint64 job, const QList<int> &columns,
                         const QList<QList<int>> &differing);
    CompareDivergence divergence(int index, int other) const;
    int sameAsColumn(int index) const;

    AppContext &m_context;
    ModelChoice m_choice;
    InferenceWorker *m_worker = nullptr; // the chosen model's; null when it cannot run
    std::unique_ptr<InferenceRequest> m_request;
    bool m_comparing = false;                          // m_request has not ended yet
    QString m_comparedText;                            // the input the shown results are of
    std::unique_ptr<InferenceRequest> m_columnRequest; // a single column's request
    QList<CompareColumnState> m_columns;
    int m_selectedColumn = 0;
    int m_selectedToken = -1;
    int m_treeSentence = 0;
    Status m_status;
    LanguageMismatch m_mismatch;
    bool m_languageAccepted = false; // "Compare anyway" until the input changes
    ExplicitRecorder m_history;
    // Per column, the job computing its `differing` (0: up to date). A job's answer is shown for
    // the columns still waiting for that job only: results that changed since start another.
    QList<quint64> m_differencesJobs;
    quint64 m_lastDifferencesJob = 0;
};

} // namespace glosa
