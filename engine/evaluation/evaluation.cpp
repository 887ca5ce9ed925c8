#include "engine/evaluation/evaluation.h"

#include "engine/text/unicode.h"
#include "engine/translation/translator.h"

#include <algorithm>
#include <chrono>
#include <map>
#include <stdexcept>

namespace glosa::engine {

namespace {

// Lines of `text` without their "\n" / "\r\n"; a final line without "\n" counts.
std::vector<std::string_view> splitLines(std::string_view text)
{
    std::vector<std::string_view> lines;
    std::size_t start = 0;
    while (start < text.size()) {
        std::size_t end = text.find('\n', start);
        if (end == std::string_view::npos)
            end = text.size();
        std::string_view line = text.substr(start, end - start);
        if (!line.empty() && line.back() == '\r')
            line.remove_suffix(1);
        lines.push_back(line);
        start = end + 1;
    }
    return lines;
}

std::string trimmed(std::string_view s)
{
    const auto space = [](char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; };
    while (!s.empty() && space(s.front()))
        s.remove_prefix(1);
    while (!s.empty() && space(s.back()))
        s.remove_suffix(1);
    return std::string(s);
}

[[noreturn]] void fail(const std::string &name, std::size_t line, const std::string &what)
{
    throw std::invalid_argument(name + ":" + std::to_string(line) + ": " + what);
}

void checkText(std::string_view text, const std::string &name)
{
    const std::size_t bad = findInvalidUtf8(text);
    if (bad == std::string_view::npos)
        return;
    const std::size_t line = 1 + static_cast<std::size_t>(
                                     std::count(text.begin(), text.begin() + long(bad), '\n'));
    fail(name, line, "not valid UTF-8 (byte offset " + std::to_string(bad) + ")");
}

// Adds a (source, reference) pair, grouping references of a source seen before.
class Builder
{
public:
    explicit Builder(std::string name) { m_set.name = std::move(name); }

    void add(std::string source, std::string reference, std::size_t line)
    {
        auto [it, added] = m_index.emplace(source, m_set.sources.size());
        if (added) {
            if (m_set.sources.size() == kMaxEvaluationSentences)
                fail(m_set.name, line,
                     "more than the limit of " + std::to_string(kMaxEvaluationSentences) +
                         " sentences in a test set");
            m_set.sources.push_back(std::move(source));
            m_set.references.emplace_back();
        }
        m_set.references[it->second].push_back(std::move(reference));
    }

    TestSet take(std::size_t lines)
    {
        if (m_set.sources.empty())
            fail(m_set.name, lines, "no sentence pairs in the test set");
        return std::move(m_set);
    }

private:
    TestSet m_set;
    std::map<std::string, std::size_t> m_index;
};

void checkLength(std::string_view line, const std::string &name, std::size_t number)
{
    if (line.size() > kMaxEvaluationLineBytes)
        fail(name, number,
             "longer than the limit of " + std::to_string(kMaxEvaluationLineBytes) +
                 " bytes a line");
}

} // namespace

std::vector<std::string> tsvColumnLanguages(std::string_view text)
{
    for (const std::string_view line : splitLines(text)) {
        if (line.empty() || line.front() != '#')
            continue;
        const std::string_view prefix = "# columns:";
        if (line.substr(0, prefix.size()) != prefix)
            continue;
        std::vector<std::string> languages;
        std::string word;
        for (const char c : line.substr(prefix.size())) {
            if (c == ' ' || c == '\t') {
                if (!word.empty())
                    languages.push_back(std::move(word));
                word.clear();
            } else {
                word += c;
            }
        }
        if (!word.empty())
            languages.push_back(std::move(word));
        return languages.size() == 2 ? languages : std::vector<std::string>{};
    }
    return {};
}

TestSet parseTsv(std::string_view text, const std::string &name, int sourceColumn)
{
    if (sourceColumn != 0 && sourceColumn != 1)
        throw std::invalid_argument("parseTsv: sourceColumn must be 0 or 1");
    checkText(text, name);
    Builder builder(name);
    const std::vector<std::string_view> lines = splitLines(text);
    for (std::size_t i = 0; i < lines.size(); ++i) {
        const std::string_view line = lines[i];
        checkLength(line, name, i + 1);
        if (trimmed(line).empty() || line.front() == '#')
            continue;
        const std::size_t tab = line.find('\t');
        if (tab == std::string_view::npos || line.find('\t', tab + 1) != std::string_view::npos)
            fail(name, i + 1, "expected two columns separated by one tab (source, reference)");
        std::string columns[2] = {trimmed(line.substr(0, tab)), trimmed(line.substr(tab + 1))};
        if (columns[0].empty() || columns[1].empty())
            fail(name, i + 1, "a column is empty");
        builder.add(std::move(columns[sourceColumn]), std::move(columns[1 - sourceColumn]), i + 1);
    }
    return builder.take(lines.size());
}

TestSet parseAligned(std::string_view sources, std::string_view references, const std::string &name)
{
    checkText(sources, name + " (sources)");
    checkText(references, name + " (references)");
    const std::vector<std::string_view> s = splitLines(sources), r = splitLines(references);
    if (s.size() != r.size())
        throw std::invalid_argument(name + ": " + std::to_string(s.size()) + " source lines but " +
                                    std::to_string(r.size()) + " reference lines");
    Builder builder(name);
    for (std::size_t i = 0; i < s.size(); ++i) {
        checkLength(s[i], name + " (sources)", i + 1);
        checkLength(r[i], name + " (references)", i + 1);
        std::string source = trimmed(s[i]), reference = trimmed(r[i]);
        if (source.empty() != reference.empty())
            fail(name, i + 1, "one side is empty");
        if (!source.empty())
            builder.add(std::move(source), std::move(reference), i + 1);
    }
    return builder.take(s.size());
}

ModelEvaluation evaluate(Translator &translator, const TestSet &set,
                         const DecodingOptions &options, const EvaluationProgress &progress,
                         const DecodingControl &control)
{
    ModelEvaluation result;
    result.hypotheses.resize(set.size());
    // Lines per translate() call: the sentences of all of them are decoded in batches of
    // translator.batchSize(); a few batches' worth keeps progress and cancelling prompt.
    const std::size_t linesPerCall = static_cast<std::size_t>(std::max(1, translator.batchSize())) * 4;
    const auto start = std::chrono::steady_clock::now();
    for (std::size_t first = 0; first < set.size(); first += linesPerCall) {
        const std::size_t last = std::min(set.size(), first + linesPerCall);
        // One text, a line per source: the sentence splitter never joins across a line break,
        // so every segment belongs to one line, found by its source offset.
        std::string text;
        std::vector<std::size_t> lineStart;
        for (std::size_t i = first; i < last; ++i) {
            lineStart.push_back(text.size());
            text += set.sources[i];
            text += '\n';
        }
        const TranslationResult translated = translator.translate(text, options, control);
        std::vector<TextSpan> target(last - first, TextSpan{std::string::npos, 0});
        for (const TranslatedSegment &segment : translated.segments) {
            const std::size_t line =
                std::size_t(std::upper_bound(lineStart.begin(), lineStart.end(),
                                             segment.source.begin) -
                            lineStart.begin()) -
                1;
            TextSpan &span = target[line];
            span.begin = std::min(span.begin, segment.target.begin);
            span.end = std::max(span.end, segment.target.end);
        }
        for (std::size_t i = first; i < last; ++i) {
            const TextSpan span = target[i - first];
            if (span.begin != std::string::npos)
                result.hypotheses[i] = translated.text.substr(span.begin, span.size());
        }
        if (progress)
            progress(last, set.size());
    }
    result.seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

    metrics::BleuStatistics bleu;
    metrics::ChrfStatistics chrf;
    result.segments.resize(set.size());
    for (std::size_t i = 0; i < set.size(); ++i) {
        result.segments[i].bleu = metrics::bleuStatistics(result.hypotheses[i], set.references[i]);
        result.segments[i].chrf = metrics::chrfStatistics(result.hypotheses[i], set.references[i]);
        bleu += result.segments[i].bleu;
        chrf += result.segments[i].chrf;
    }
    result.bleu = metrics::bleu(bleu);
    result.chrf = metrics::chrf(chrf);
    return result;
}

int sourceWords(std::string_view sentence)
{
    int words = 0;
    bool inWord = false;
    for (const char c : sentence) {
        const bool space = c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
        if (!space && !inWord)
            ++words;
        inWord = !space;
    }
    return words;
}

std::string lengthBucketLabel(const LengthBucket &bucket)
{
    return std::to_string(bucket.firstWords) +
           (bucket.lastWords < 0 ? std::string("+") : "-" + std::to_string(bucket.lastWords));
}

std::vector<LengthBucket> bleuByLength(const TestSet &set,
                                       const std::vector<const ModelEvaluation *> &evaluations,
                                       int width, int maxBuckets)
{
    if (width < 1 || maxBuckets < 1)
        throw std::invalid_argument("bleuByLength: width and maxBuckets must be at least 1");
    for (const ModelEvaluation *e : evaluations)
        if (!e || e->segments.size() != set.size())
            throw std::invalid_argument("bleuByLength: an evaluation is not of this test set");
    std::vector<LengthBucket> buckets(static_cast<std::size_t>(maxBuckets));
    std::vector<std::vector<metrics::BleuStatistics>> stats(
        buckets.size(), std::vector<metrics::BleuStatistics>(evaluations.size()));
    for (int b = 0; b < maxBuckets; ++b) {
        buckets[b].firstWords = b * width + 1;
        buckets[b].lastWords = b + 1 == maxBuckets ? -1 : (b + 1) * width;
    }
    for (std::size_t i = 0; i < set.size(); ++i) {
        const int words = std::max(1, sourceWords(set.sources[i]));
        const auto b = static_cast<std::size_t>(std::min(maxBuckets - 1, (words - 1) / width));
        ++buckets[b].sentences;
        for (std::size_t m = 0; m < evaluations.size(); ++m)
            stats[b][m] += evaluations[m]->segments[i].bleu;
    }
    std::vector<LengthBucket> out;
    for (std::size_t b = 0; b < buckets.size(); ++b) {
        if (buckets[b].sentences == 0)
            continue;
        for (const metrics::BleuStatistics &s : stats[b])
            buckets[b].bleu.push_back(metrics::bleu(s).score);
        out.push_back(std::move(buckets[b]));
    }
    return out;
}

std::vector<SentenceDifference> differences(const ModelEvaluation &a, const ModelEvaluation &b)
{
    if (a.segments.size() != b.segments.size())
        throw std::invalid_argument("differences: the evaluations are of different test sets");
    std::vector<SentenceDifference> out;
    out.reserve(a.segments.size());
    for (std::size_t i = 0; i < a.segments.size(); ++i)
        out.push_back({i, metrics::chrf(a.segments[i].chrf), metrics::chrf(b.segments[i].chrf)});
    std::stable_sort(out.begin(), out.end(), [](const SentenceDifference &x,
                                                const SentenceDifference &y) {
        return x.chrfA - x.chrfB > y.chrfA - y.chrfB;
    });
    return out;
}

} // namespace glosa::engine
