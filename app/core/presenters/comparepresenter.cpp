#include "app/core/presenters/comparepresenter.h"

#include "app/core/history/entrykinds.h"
#include "app/core/inference/inferenceworker.h"
#include "app/core/platform/handoff.h"
#include "app/core/settings/decodingmaps.h"

#include <QPointer>
#include <QRandomGenerator>

#include <algorithm>
#include <cmath>
#include <vector>

namespace glosa {

namespace {
// Word-level LCS on surface forms of a[a0, a1) and b[b0, b1); whatever of `a` is not in it
// differs (indices into a).
QList<int> lcsDiffering(const QList<TokenSpan> &a, int a0, int a1, const QList<TokenSpan> &b,
                        int b0, int b1)
{
    const int n = std::max(0, a1 - a0), m = std::max(0, b1 - b0);
    // Each surface once: surface() builds a string, and the table compares n × m pairs (1,500²
    // at the cap).
    std::vector<QString> x(n), y(m);
    for (int i = 0; i < n; ++i)
        x[i] = a[a0 + i].surface();
    for (int j = 0; j < m; ++j)
        y[j] = b[b0 + j].surface();
    std::vector<std::vector<int>> lcs(n + 1, std::vector<int>(m + 1, 0));
    for (int i = n - 1; i >= 0; --i)
        for (int j = m - 1; j >= 0; --j)
            lcs[i][j] = x[i] == y[j] ? lcs[i + 1][j + 1] + 1
                                     : std::max(lcs[i + 1][j], lcs[i][j + 1]);
    QList<int> differing;
    int i = 0, j = 0;
    while (i < n) {
        if (j < m && x[i] == y[j]) {
            ++i;
            ++j;
        } else if (j < m && lcs[i][j + 1] >= lcs[i + 1][j]) {
            ++j;
        } else {
            differing << a0 + i++;
        }
    }
    return differing;
}

float probability(const TranslationHypothesis &h, int i)
{
    return i < h.tokenLogProbs.size() ? std::exp(h.tokenLogProbs[i]) : 0.0f;
}

// The built-in preset whose settings `options` are; "" for none.
QString presetOf(const engine::DecodingOptions &options)
{
    for (const DecodingPreset &p : builtInPresets())
        if (decodingPresetKey(p.options) == decodingPresetKey(options))
            return p.name;
    return QString();
}
} // namespace

bool CompareColumnState::isStale() const
{
    // The view asks for traces; they are not a setting.
    return hasResult() && decodingPresetKey(result.options) != decodingPresetKey(options);
}

ComparePresenter::ComparePresenter(AppContext &context, QObject *parent)
    : QObject(parent), m_context(context), m_history(context.history(), this)
{
    setColumnCount(3);
    connect(&context, &AppContext::modelChosen, this, &ComparePresenter::useModel);
    useModel(context.choice(AppContext::kTranslation));
}

ComparePresenter::~ComparePresenter() = default;

QList<TranslationResult> ComparePresenter::results() const
{
    QList<TranslationResult> results;
    for (const CompareColumnState &c : m_columns)
        results << c.result;
    return results;
}

const SentenceTrace *ComparePresenter::selectedTrace() const
{
    if (m_selectedColumn < 0 || m_selectedColumn >= m_columns.size())
        return nullptr;
    const QList<SentenceTrace> &traces = m_columns[m_selectedColumn].result.traces;
    return m_treeSentence < traces.size() ? &traces[m_treeSentence] : nullptr;
}

int ComparePresenter::selectedStep() const
{
    const SentenceTrace *trace = selectedTrace();
    return trace && m_selectedToken >= 0 ? m_selectedToken - trace->targetOffset : -1;
}

void ComparePresenter::useModel(const ModelChoice &choice)
{
    if (choice.task != AppContext::kTranslation)
        return;
    m_choice = choice;
    m_worker = choice.isReady() ? m_context.workerFor(*choice.model) : nullptr;
    m_request.reset();
    m_comparing = false;
    m_columnRequest.reset();
    inputChanged(); // the text is checked against the new model's language
    setStatus(m_worker ? Status::Kind::None : Status::Kind::Unavailable);
    emit availabilityChanged();
}

void ComparePresenter::setStatus(Status::Kind kind, int number, const QString &text)
{
    m_status = Status{kind, number, text};
    emit statusChanged();
}

void ComparePresenter::setColumnCount(int count)
{
    count = std::clamp(count, kMinColumns, kMaxColumns);
    if (count == m_columns.size())
        return;
    const QList<DecodingPreset> presets = builtInPresets();
    while (m_columns.size() < count) {
        // New columns start with the presets in turn: greedy, beam, beam + n-gram block, ...
        const DecodingPreset &initial = presets.at(m_columns.size() % presets.size());
        CompareColumnState column;
        column.options = initial.options;
        column.preset = initial.name;
        m_columns.append(column);
    }
    while (m_columns.size() > count)
        m_columns.removeLast();
    m_differencesJobs.resize(count); // new columns: nothing to wait for (0)
    m_selectedColumn = std::min(m_selectedColumn, count - 1);
    emit columnCountChanged();
}

void ComparePresenter::setColumnOptions(int index, const engine::DecodingOptions &options,
                                        const QString &preset)
{
    if (index < 0 || index >= m_columns.size())
        return;
    m_columns[index].options = options;
    m_columns[index].preset = preset;
    if (!m_columns[index].isSteered())
        m_columns[index].steering = CompareSteering();
    emit columnChanged(index);
}

void ComparePresenter::editColumnOptions(int index, engine::DecodingOptions options,
                                         const QString &preset)
{
    if (index < 0 || index >= m_columns.size())
        return;
    // A preset or the edit dialog changes the strategy, not the steering: the prefix stays.
    options.targetPrefix = m_columns[index].options.targetPrefix;
    options.targetPrefixSentence = m_columns[index].options.targetPrefixSentence;
    setColumnOptions(index, options, preset);
    rerunColumn(index);
}

void ComparePresenter::inputChanged()
{
    m_languageAccepted = false;
    if (m_mismatch.found()) {
        m_mismatch = LanguageMismatch();
        emit languageMismatchCleared();
    }
}

void ComparePresenter::compare(const QString &text)
{
    if (!m_worker) {
        setStatus(Status::Kind::Unavailable);
        return;
    }
    if (text.trimmed().isEmpty())
        return;
    if (!m_languageAccepted) {
        m_mismatch = checkSourceLanguage(
            text, *m_choice.model, [this](const QString &source, const QString &target) {
                return m_context.modelForDirection(source, target);
            });
        if (m_mismatch.found()) {
            emit languageMismatchFound();
            setStatus(Status::Kind::WrongLanguage);
            return;
        }
    }
    runComparison(text);
}

void ComparePresenter::compareAnyway(const QString &text)
{
    m_languageAccepted = true;
    if (m_mismatch.found()) {
        m_mismatch = LanguageMismatch();
        emit languageMismatchCleared();
    }
    compare(text);
}

void ComparePresenter::dropSteeringFor(const QString &text)
{
    // A prefix belongs to a sentence of the text it was chosen in; another text drops it (the
    // column keeps its strategy). The same text (Re-sample) keeps it.
    if (text == m_comparedText)
        return;
    for (int i = 0; i < m_columns.size(); ++i)
        if (m_columns[i].isSteered()) {
            engine::DecodingOptions o = m_columns[i].options;
            o.targetPrefix.clear();
            o.targetPrefixSentence = -1;
            setColumnOptions(i, o, m_columns[i].preset);
        }
}

void ComparePresenter::runComparison(const QString &text)
{
    dropSteeringFor(text);
    QList<engine::DecodingOptions> options;
    for (int i = 0; i < m_columns.size(); ++i) {
        engine::DecodingOptions o = m_columns[i].options;
        o.trace = true;
        options << o;
        m_columns[i].pending = true;
        emit columnChanged(i);
    }
    m_request = m_worker->translate(text, options);
    connect(m_request.get(), &InferenceRequest::columnReady, this, &ComparePresenter::showColumn);
    connect(m_request.get(), &InferenceRequest::translated, this,
            &ComparePresenter::comparisonDone);
    connect(m_request.get(), &InferenceRequest::failed, this, [this](const QString &message) {
        m_comparing = false;
        showFailure(message);
    });
    connect(m_request.get(), &InferenceRequest::cancelled, this, [this] { m_comparing = false; });
    m_comparing = true;
    m_comparedText = text;
    setStatus(Status::Kind::Decoding, int(options.size()));
}

void ComparePresenter::comparisonDone()
{
    m_comparing = false;
    setStatus(Status::Kind::Done);
    // Until a word is picked, the tree shows the first beam search: greedy's is one line.
    if (m_selectedToken < 0)
        for (int i = 0; i < m_columns.size(); ++i)
            if (m_columns[i].hasResult() &&
                m_columns[i].result.options.strategy == engine::SearchStrategy::Beam) {
                selectToken(i, -1);
                break;
            }
    emit comparisonShown();
    recordComparison();
}

void ComparePresenter::recordComparison()
{
    const QList<TranslationResult> columns = results();
    if (columns.isEmpty() || columns.first().isEmpty())
        return;
    m_history.record(
        isSlowHistoryEntry(columns),
        [columns, info = historyModelInfo(m_context.catalog(), columns.first().modelId)] {
            return comparisonHistoryEntry(columns.first().source, columns, info);
        },
        [this](qint64 id) { emit entryRecorded(id); });
}

void ComparePresenter::historyEntryOpened(const HistoryEntry &entry)
{
    m_history.opened(entry);
}

void ComparePresenter::resample(const QString &text)
{
    for (int i = 0; i < m_columns.size(); ++i) {
        engine::DecodingOptions o = m_columns[i].options;
        if (o.strategy != engine::SearchStrategy::Sample)
            continue;
        o.seed = QRandomGenerator::global()->generate64();
        // The preset's name stays when only the seed changed: the strategy is still the preset's.
        setColumnOptions(i, o, m_columns[i].preset);
    }
    compare(text);
}

void ComparePresenter::rerunColumn(int index)
{
    // While the whole comparison runs its result for this column arrives marked out of date;
    // starting another request now would cancel it (the worker runs the latest only).
    if (index < 0 || index >= m_columns.size() || !m_columns[index].isStale() || !m_worker ||
        m_comparing || m_comparedText.isEmpty())
        return;
    decodeColumn(index, Status::Kind::DecodingColumn);
}

void ComparePresenter::decodeColumn(int index, Status::Kind status)
{
    if (index < 0 || index >= m_columns.size() || !m_worker)
        return;
    engine::DecodingOptions o = m_columns[index].options;
    o.trace = true;
    m_columnRequest = m_worker->translate(m_comparedText, {o});
    connect(m_columnRequest.get(), &InferenceRequest::columnReady, this,
            [this, index](int, const TranslationResult &result) { showColumn(index, result); });
    connect(m_columnRequest.get(), &InferenceRequest::translated, this,
            [this] { setStatus(Status::Kind::Done); });
    connect(m_columnRequest.get(), &InferenceRequest::failed, this,
            &ComparePresenter::showFailure);
    m_columns[index].pending = true;
    emit columnChanged(index);
    setStatus(status, index + 1);
}

void ComparePresenter::decodeFromNode(int node)
{
    const SentenceTrace *trace = selectedTrace();
    if (!trace)
        return;
    const QList<int> prefix = trace->pathTokens(node);
    CompareSteering steering;
    steering.words = trace->words(prefix, &steering.ends);
    steering.sentence = m_treeSentence;
    steering.sentences = int(m_columns[m_selectedColumn].result.traces.size());
    decodeWithPrefix(m_selectedColumn, m_treeSentence, prefix, steering);
}

void ComparePresenter::decodeFromCandidate(int token)
{
    // The chart shows the step of the selected token: the best path up to it, then `token`.
    const SentenceTrace *trace = selectedTrace();
    if (!trace || m_selectedToken < 0)
        return;
    const QList<int> prefix = trace->prefixWith(m_selectedToken - trace->targetOffset, token);
    CompareSteering steering;
    steering.words = trace->words(prefix, &steering.ends);
    steering.sentence = m_treeSentence;
    steering.sentences = int(m_columns[m_selectedColumn].result.traces.size());
    decodeWithPrefix(m_selectedColumn, m_treeSentence, prefix, steering);
}

int ComparePresenter::steeringTarget()
{
    if (m_columns.size() < kMaxColumns) {
        setColumnCount(int(m_columns.size()) + 1);
        return int(m_columns.size()) - 1;
    }
    for (int i = int(m_columns.size()) - 1; i >= 0; --i)
        if (m_columns[i].isSteered())
            return i;
    return -1;
}

void ComparePresenter::decodeWithPrefix(int from, int sentence, const QList<int> &prefix,
                                        const CompareSteering &steering)
{
    if (from < 0 || from >= m_columns.size() || !m_columns[from].hasResult() ||
        prefix.isEmpty() || !m_worker)
        return;
    // Starting now would cancel the comparison (the worker runs the latest request only).
    if (m_comparing) {
        setStatus(Status::Kind::StillRunning);
        return;
    }
    // The settings that made the tree (the column's may have changed since), the prefix added.
    engine::DecodingOptions options = m_columns[from].result.options;
    options.targetPrefix.assign(prefix.begin(), prefix.end());
    options.targetPrefixSentence = sentence;
    // A prefix longer than the maximum length (the tree never has one) would be refused.
    options.maxLength = std::max(options.maxLength, int(prefix.size()));
    const QString preset = m_columns[from].preset;
    const int target = steeringTarget();
    if (target < 0) {
        setStatus(Status::Kind::Full, int(m_columns.size()));
        return;
    }
    m_columns[target].steering = steering;
    setColumnOptions(target, options, preset);
    decodeColumn(target, Status::Kind::DecodingPrefix);
}

void ComparePresenter::showStoredComparison(const QString &input,
                                            const QList<TranslationResult> &columns,
                                            const QString &status)
{
    m_request.reset(); // a comparison still running must not overwrite the stored one
    m_columnRequest.reset();
    m_comparing = false;
    m_comparedText = input;
    setColumnCount(int(columns.size()));
    for (int i = 0; i < m_columns.size() && i < columns.size(); ++i) {
        CompareColumnState &c = m_columns[i];
        // The preset's name when the settings are one (the history keeps settings, not names).
        c.options = columns[i].options;
        c.preset = presetOf(columns[i].options);
        c.result = columns[i];
        c.pending = false;
        // Stored results have no traces, so the prefix's words come from the output itself (and
        // only a first sentence's tokens are known: forcedTokens()).
        c.steering = CompareSteering();
        const QList<int> forced = columns[i].forcedTokens();
        const TranslationHypothesis *h = columns[i].best();
        if (h && !forced.isEmpty()) {
            const TokenSpan &first = h->tokens[forced.first()], &last = h->tokens[forced.last()];
            c.steering.words = h->text.mid(first.begin, last.end - first.begin);
            c.steering.ends = int(columns[i].options.targetPrefix.size()) > forced.size();
            c.steering.sentence = columns[i].options.targetPrefixSentence;
        }
    }
    QList<int> all;
    for (int i = 0; i < m_columns.size(); ++i)
        all << i;
    refreshDifferences(all);
    m_selectedToken = -1;
    m_treeSentence = 0;
    emit selectionChanged();
    setStatus(Status::Kind::Stored, 0, status);
}

void ComparePresenter::showFailure(const QString &message)
{
    setStatus(Status::Kind::Failed, 0, message);
}

void ComparePresenter::showColumn(int index, const TranslationResult &result)
{
    if (index < 0 || index >= m_columns.size())
        return;
    m_columns[index].result = result;
    m_columns[index].pending = false;
    if (index == m_selectedColumn)
        m_selectedToken = -1;
    refreshDifferences({index});
    if (index == m_selectedColumn)
        selectToken(index, -1);
}

QList<int> ComparePresenter::differingTokens(const TranslationHypothesis &a,
                                             const TranslationHypothesis &b)
{
    return lcsDiffering(a.tokens, 0, int(a.tokens.size()), b.tokens, 0, int(b.tokens.size()));
}

QList<int> ComparePresenter::differingTokens(const TranslationResult &a,
                                             const TranslationResult &b)
{
    const TranslationHypothesis *x = a.best(), *y = b.best();
    if (!x || !y)
        return {};
    if (!a.traces.isEmpty() && a.traces.size() == b.traces.size()) {
        QList<int> differing;
        for (int s = 0; s < a.traces.size(); ++s) {
            const SentenceTrace &p = a.traces[s], &q = b.traces[s];
            differing += lcsDiffering(x->tokens, p.targetOffset, p.targetOffset + p.tokenCount,
                                      y->tokens, q.targetOffset, q.targetOffset + q.tokenCount);
        }
        return differing;
    }
    return lcsDiffering(x->tokens, 0, std::min<int>(x->tokens.size(), kMaxMarkedTokens),
                        y->tokens, 0, std::min<int>(y->tokens.size(), kMaxMarkedTokens));
}

int ComparePresenter::sameAsColumn(int index) const
{
    // The nearest column on the left with other settings and the same words: this column's
    // settings had no effect (an n-gram block that never fired).
    const TranslationHypothesis *mine = m_columns[index].result.best();
    for (int j = index - 1; j >= 0 && mine; --j) {
        const TranslationHypothesis *theirs = m_columns[j].result.best();
        if (theirs && theirs->text == mine->text &&
            decodingPresetKey(m_columns[j].options) != decodingPresetKey(m_columns[index].options))
            return j;
    }
    return -1;
}

CompareDivergence ComparePresenter::divergence(int index, int other) const
{
    // The first step at which the two searches chose differently, and each one's probability of
    // its own choice there (one pass: a 5,000-word output costs no more than its tokens).
    CompareDivergence d;
    const TranslationHypothesis *mine = m_columns[index].result.best();
    const TranslationHypothesis *theirs = m_columns[other].result.best();
    if (!mine || !theirs || mine->text == theirs->text)
        return d;
    int t = 0;
    while (t < mine->tokens.size() && t < theirs->tokens.size() &&
           mine->tokens[t].id == theirs->tokens[t].id)
        ++t;
    if (t >= mine->tokens.size())
        return d;
    d.token = t;
    d.column = other;
    // The words the two tokens are part of, not the pieces: "un" against "mucho", not "mu".
    d.mine = mine->wordAt(t);
    d.myProbability = probability(*mine, t);
    if (t < theirs->tokens.size()) {
        d.theirs = theirs->wordAt(t);
        d.theirProbability = probability(*theirs, t);
    }
    return d;
}

bool ComparePresenter::differencesPending() const
{
    return std::any_of(m_differencesJobs.begin(), m_differencesJobs.end(),
                       [](quint64 job) { return job != 0; });
}

void ComparePresenter::refreshDifferences(const QList<int> &changed)
{
    // Each column is compared with its neighbour on the left (the first with the second), so a
    // reader scanning left to right sees what each strategy changed. The notes take one pass and
    // are made here; the differing tokens wait for the pool (startDifferences).
    QList<int> recompute;
    for (int i = 0; i < m_columns.size(); ++i) {
        const int other = i == 0 ? 1 : i - 1;
        CompareColumnState &c = m_columns[i];
        bool shown = changed.contains(i);
        if (c.hasResult() && other < m_columns.size() && m_columns[other].hasResult()) {
            const int sameAs = sameAsColumn(i);
            const CompareDivergence d = divergence(i, other);
            shown = shown || sameAs != c.sameAs || !(d == c.divergence);
            c.sameAs = sameAs;
            c.divergence = d;
            if (changed.contains(i) || changed.contains(other)) {
                c.differing.clear(); // its tokens are of another pair of results
                recompute << i;
                shown = true;
            }
        }
        if (shown)
            emit columnChanged(i);
    }
    if (!recompute.isEmpty())
        startDifferences(recompute);
}

void ComparePresenter::startDifferences(const QList<int> &columns)
{
    // The longest common subsequence fills an n × m table: up to 1,500² cells for a text without
    // traces, which stalled the window when made on its thread.
    const quint64 job = ++m_lastDifferencesJob;
    QList<std::pair<TranslationResult, TranslationResult>> pairs;
    for (int i : columns) {
        m_differencesJobs[i] = job;
        pairs.append({m_columns[i].result, m_columns[i == 0 ? 1 : i - 1].result});
    }
    startOnPool([guard = QPointer<ComparePresenter>(this), job, columns, pairs] {
        QList<QList<int>> differing;
        for (const auto &[mine, theirs] : pairs)
            differing << differingTokens(mine, theirs);
        postCall(guard, [guard, job, columns, differing] {
            if (guard)
                guard->showDifferences(job, columns, differing);
        });
    });
}

void ComparePresenter::showDifferences(quint64 job, const QList<int> &columns,
                                       const QList<QList<int>> &differing)
{
    bool shown = false;
    for (int k = 0; k < columns.size(); ++k) {
        const int i = columns[k];
        // A column whose results changed since waits for a later job.
        if (i >= m_columns.size() || m_differencesJobs[i] != job)
            continue;
        m_differencesJobs[i] = 0;
        m_columns[i].differing = differing[k];
        shown = true;
        emit columnChanged(i);
    }
    if (shown && !differencesPending())
        emit differencesShown();
}

void ComparePresenter::selectToken(int column, int token)
{
    if (column < 0 || column >= m_columns.size())
        return;
    m_selectedColumn = column;
    m_selectedToken = token;
    // The sentence the selected token belongs to (the first one when none is selected).
    m_treeSentence = std::max(0, m_columns[column].result.sentenceOfToken(token));
    emit selectionChanged();
}

void ComparePresenter::selectStep(int step)
{
    if (const SentenceTrace *trace = selectedTrace())
        selectToken(m_selectedColumn, trace->targetOffset + step);
}

} // namespace glosa
