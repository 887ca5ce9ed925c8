// EvaluateDialog (Translate ▸ Evaluate models…): BLEU and chrF2 of the chosen translation models
// on a test set (the bundled Tatoeba sample, a TSV, or two aligned files), BLEU by source length
// on one chart (Bahdanau et al. 2015, Fig. 2), and the sentences where the first two models
// differ most; double-clicking one opens it in Compare. The work runs on an EvaluationWorker's
// thread with progress and cancel. Every completed run is recorded in the history
// (evaluationHistoryEntry), and the History view's Open shows a recorded one here again.
#pragma once

#include "app/core/evaluation/evaluationworker.h"

#include <QDialog>
#include <QWidget>

class QCheckBox;
class QComboBox;
class QLabel;
class QListWidget;
class QProgressBar;
class QPushButton;
class QTableWidget;
class QTreeWidget;

namespace glosa {

class AppContext;
struct StoredEvaluation;

// BLEU by source-length bucket: one group of bars per bucket, one bar per model.
class LengthChart : public QWidget
{
    Q_OBJECT
public:
    explicit LengthChart(QWidget *parent = nullptr);
    void setData(const QStringList &models, const std::vector<engine::LengthBucket> &buckets);
    const std::vector<engine::LengthBucket> &buckets() const { return m_buckets; }
    QSize sizeHint() const override { return {520, 220}; }

protected:
    void paintEvent(QPaintEvent *event) override;

private:
    QStringList m_models;
    std::vector<engine::LengthBucket> m_buckets;
};

class EvaluateDialog : public QDialog
{
    Q_OBJECT
public:
    explicit EvaluateDialog(AppContext &context, QWidget *parent = nullptr);
    ~EvaluateDialog() override;

    QComboBox *directionPicker() const { return m_direction; }
    QListWidget *modelList() const { return m_models; }
    QCheckBox *greedyCheck() const { return m_greedy; }
    QPushButton *evaluateButton() const { return m_run; }
    QTableWidget *scoreTable() const { return m_scores; }
    LengthChart *lengthChart() const { return m_chart; }
    QTreeWidget *differenceList() const { return m_differences; }
    QLabel *statusLabel() const { return m_status; }
    EvaluationWorker *worker() const { return m_worker; }

    // Uses a TSV file (or, with `referencePath`, two aligned files) instead of the bundled sample.
    void useTestSetFiles(const QString &path, const QString &referencePath = QString());

    // A recorded evaluation as it was shown (scores, buckets, the differences the history kept),
    // with `status` saying where it comes from. Ignored while a run is going on.
    void showStoredEvaluation(const StoredEvaluation &stored, const QString &status);

public slots:
    void evaluate();
    void cancel();

signals:
    // A sentence to look at in the Compare view (double-click in the difference list).
    void compareRequested(const QString &source);

private:
    void fillDirections();
    void fillModels();
    void chooseTestSet(int index);
    void showProgress(int model, int done, int total);
    void showResults(bool complete);
    void setRunning(bool running);

    AppContext &m_context;
    EvaluationWorker *m_worker = nullptr;
    QString m_tsvPath;       // empty: the bundled sample
    QString m_referencePath; // with m_tsvPath as the source file: two aligned files
    bool m_cancelled = false; // the run that ends was cancelled by the user

    QComboBox *m_direction = nullptr;
    QListWidget *m_models = nullptr;
    QComboBox *m_testSet = nullptr;
    QLabel *m_testSetFile = nullptr;
    QCheckBox *m_greedy = nullptr;
    QPushButton *m_run = nullptr;
    QPushButton *m_cancel = nullptr;
    QProgressBar *m_progress = nullptr;
    QLabel *m_status = nullptr;
    QTableWidget *m_scores = nullptr;
    LengthChart *m_chart = nullptr;
    QTreeWidget *m_differences = nullptr;
};

} // namespace glosa
