#include "engine/evaluation/metrics.h"

#include <unicode/uchar.h>
#include <unicode/utf8.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <unordered_map>

namespace glosa::engine::metrics {

namespace {

// Code points of `text`; an ill-formed byte becomes a value of its own above U+10FFFF, so that
// it still counts as one character (and never equals a real one).
std::u32string codePoints(std::string_view text)
{
    std::u32string out;
    out.reserve(text.size());
    const auto *s = reinterpret_cast<const std::uint8_t *>(text.data());
    const auto length = static_cast<std::int32_t>(text.size());
    std::int32_t i = 0;
    while (i < length) {
        const std::int32_t start = i;
        UChar32 c;
        U8_NEXT(s, i, length, c);
        out.push_back(c >= 0 ? static_cast<char32_t>(c) : static_cast<char32_t>(0x110000 + s[start]));
    }
    return out;
}

// Python's str.isspace(), which sacrebleu's split() uses: general category Zs, or bidi class WS,
// B or S (this takes in the ASCII controls \t \n \v \f \r and \x1c-\x1f, and U+0085).
bool isPythonSpace(char32_t c)
{
    if (c > 0x10FFFF)
        return false;
    const auto cp = static_cast<UChar32>(c);
    if (u_charType(cp) == U_SPACE_SEPARATOR)
        return true;
    const UCharDirection direction = u_charDirection(cp);
    return direction == U_WHITE_SPACE_NEUTRAL || direction == U_BLOCK_SEPARATOR ||
           direction == U_SEGMENT_SEPARATOR;
}

void appendUtf8(std::string &out, char32_t c)
{
    if (c > 0x10FFFF) { // an ill-formed byte, as it was
        out.push_back(static_cast<char>(c - 0x110000));
        return;
    }
    // c came from U8_NEXT: a scalar value, never a surrogate, so the unchecked form is safe.
    char buffer[4];
    std::int32_t length = 0;
    U8_APPEND_UNSAFE(reinterpret_cast<std::uint8_t *>(buffer), length, static_cast<UChar32>(c));
    out.append(buffer, static_cast<std::size_t>(length));
}

// Splits on Python white space, as str.split() without arguments.
std::vector<std::string> splitWords(std::string_view text)
{
    std::vector<std::string> words;
    std::string word;
    for (const char32_t c : codePoints(text)) {
        if (isPythonSpace(c)) {
            if (!word.empty())
                words.push_back(std::move(word));
            word.clear();
        } else {
            appendUtf8(word, c);
        }
    }
    if (!word.empty())
        words.push_back(std::move(word));
    return words;
}

void replaceAll(std::string &text, std::string_view from, std::string_view to)
{
    std::size_t at = 0;
    while ((at = text.find(from, at)) != std::string::npos) {
        text.replace(at, from.size(), to);
        at += to.size();
    }
}

bool isDigit(char c) { return c >= '0' && c <= '9'; }

// Rule 1 of 13a: [\{-\~\[-\` -\&\(-\+\:-\@\/] (the space is in it; harmless).
bool isSplitPunctuation(char c)
{
    const auto u = static_cast<unsigned char>(c);
    return (u >= 0x7B && u <= 0x7E) || (u >= 0x5B && u <= 0x60) || (u >= 0x20 && u <= 0x26) ||
           (u >= 0x28 && u <= 0x2B) || (u >= 0x3A && u <= 0x40) || u == 0x2F;
}

// The regex rules 2-4 as re.sub applies them: left to right, non-overlapping, each match
// consuming its two characters. Working on bytes gives the same text as Python's code points:
// the groups are re-emitted unchanged, and a multi-byte character can neither be a digit nor
// '.', ',' or '-'.
std::string splitPeriodsAndCommas(const std::string &s)
{
    std::string out;
    out.reserve(s.size() * 2);
    // ([^0-9])([\.,]) -> "\1 \2 "
    std::size_t i = 0;
    while (i < s.size()) {
        if (i + 1 < s.size() && !isDigit(s[i]) && (s[i + 1] == '.' || s[i + 1] == ',')) {
            out += s[i];
            out += ' ';
            out += s[i + 1];
            out += ' ';
            i += 2;
        } else {
            out += s[i++];
        }
    }
    // ([\.,])([^0-9]) -> " \1 \2"
    std::string second;
    second.reserve(out.size() * 2);
    i = 0;
    while (i < out.size()) {
        if (i + 1 < out.size() && (out[i] == '.' || out[i] == ',') && !isDigit(out[i + 1])) {
            second += ' ';
            second += out[i];
            second += ' ';
            second += out[i + 1];
            i += 2;
        } else {
            second += out[i++];
        }
    }
    // ([0-9])(-) -> "\1 \2 "
    std::string third;
    third.reserve(second.size() * 2);
    i = 0;
    while (i < second.size()) {
        if (i + 1 < second.size() && isDigit(second[i]) && second[i + 1] == '-') {
            third += second[i];
            third += " - ";
            i += 2;
        } else {
            third += second[i++];
        }
    }
    return third;
}

using NgramCounts = std::unordered_map<std::string, std::int64_t>;

// Word n-grams of orders 1..kBleuOrder, per order, keyed by the words joined with a space (the
// words were split on white space, so two different n-grams never share a key).
std::array<NgramCounts, kBleuOrder> wordNgrams(const std::vector<std::string> &words)
{
    std::array<NgramCounts, kBleuOrder> counts;
    for (int n = 1; n <= kBleuOrder; ++n)
        for (std::size_t i = 0; i + n <= words.size(); ++i) {
            std::string key = words[i];
            for (int k = 1; k < n; ++k) {
                key += ' ';
                key += words[i + k];
            }
            ++counts[n - 1][key];
        }
    return counts;
}

using CharNgramCounts = std::unordered_map<std::u32string, std::int64_t>;

std::array<CharNgramCounts, kChrfOrder> charNgrams(std::string_view sentence)
{
    std::u32string text;
    for (const char32_t c : codePoints(sentence))
        if (!isPythonSpace(c))
            text.push_back(c);
    std::array<CharNgramCounts, kChrfOrder> counts;
    for (int n = 1; n <= kChrfOrder; ++n)
        for (std::size_t i = 0; i + n <= text.size(); ++i)
            ++counts[n - 1][text.substr(i, n)];
    return counts;
}

// The non-empty references (glosa_metrics.py drops empty ones too); none is an error.
std::vector<std::string_view> usableReferences(const std::vector<std::string> &references,
                                               std::string_view hypothesis)
{
    std::vector<std::string_view> usable;
    for (const std::string &reference : references)
        if (!reference.empty())
            usable.push_back(reference);
    if (usable.empty())
        throw std::invalid_argument("segment without reference: \"" +
                                    std::string(hypothesis.substr(0, 60)) + "\"");
    return usable;
}

void requireSameSize(std::size_t hypotheses, std::size_t references)
{
    if (hypotheses != references)
        throw std::invalid_argument(std::to_string(hypotheses) + " hypotheses but " +
                                    std::to_string(references) + " reference lists");
}

} // namespace

std::string tokenize13a(std::string_view line)
{
    std::string s(line);
    replaceAll(s, "<skipped>", "");
    replaceAll(s, "-\n", "");
    std::replace(s.begin(), s.end(), '\n', ' ');
    if (s.find('&') != std::string::npos) {
        replaceAll(s, "&quot;", "\"");
        replaceAll(s, "&amp;", "&");
        replaceAll(s, "&lt;", "<");
        replaceAll(s, "&gt;", ">");
    }
    std::string spaced;
    spaced.reserve(s.size() * 2 + 2);
    spaced += ' ';
    for (const char c : s) {
        if (isSplitPunctuation(c)) {
            spaced += ' ';
            spaced += c;
            spaced += ' ';
        } else {
            spaced += c;
        }
    }
    spaced += ' ';
    const std::vector<std::string> words = splitWords(splitPeriodsAndCommas(spaced));
    std::string out;
    for (const std::string &word : words) {
        if (!out.empty())
            out += ' ';
        out += word;
    }
    return out;
}

BleuStatistics &BleuStatistics::operator+=(const BleuStatistics &other)
{
    hypothesisLength += other.hypothesisLength;
    referenceLength += other.referenceLength;
    for (int n = 0; n < kBleuOrder; ++n) {
        correct[n] += other.correct[n];
        total[n] += other.total[n];
    }
    return *this;
}

BleuStatistics bleuStatistics(std::string_view hypothesis,
                              const std::vector<std::string> &references)
{
    const std::vector<std::string_view> usable = usableReferences(references, hypothesis);
    const std::vector<std::string> hypothesisWords = splitWords(tokenize13a(hypothesis));
    BleuStatistics stats;
    stats.hypothesisLength = static_cast<std::int64_t>(hypothesisWords.size());
    std::array<NgramCounts, kBleuOrder> maxReference;
    std::int64_t closestLength = -1, closestDiff = -1;
    for (const std::string_view reference : usable) {
        const std::vector<std::string> words = splitWords(tokenize13a(reference));
        const auto length = static_cast<std::int64_t>(words.size());
        const std::int64_t diff = std::abs(length - stats.hypothesisLength);
        if (closestDiff < 0 || diff < closestDiff ||
            (diff == closestDiff && length < closestLength)) {
            closestLength = length;
            closestDiff = diff;
        }
        const auto counts = wordNgrams(words);
        for (int n = 0; n < kBleuOrder; ++n)
            for (const auto &[ngram, count] : counts[n]) {
                std::int64_t &best = maxReference[n][ngram];
                best = std::max(best, count);
            }
    }
    stats.referenceLength = closestLength;
    const auto counts = wordNgrams(hypothesisWords);
    for (int n = 0; n < kBleuOrder; ++n)
        for (const auto &[ngram, count] : counts[n]) {
            stats.total[n] += count;
            const auto found = maxReference[n].find(ngram);
            if (found != maxReference[n].end())
                stats.correct[n] += std::min(count, found->second);
        }
    return stats;
}

BleuScore bleu(const BleuStatistics &stats)
{
    BleuScore result;
    result.hypothesisLength = stats.hypothesisLength;
    result.referenceLength = stats.referenceLength;
    if (stats.hypothesisLength < stats.referenceLength)
        result.brevityPenalty =
            stats.hypothesisLength > 0
                ? std::exp(1.0 - double(stats.referenceLength) / double(stats.hypothesisLength))
                : 0.0;
    else
        result.brevityPenalty = 1.0;
    if (std::all_of(stats.correct.begin(), stats.correct.end(), [](auto c) { return c == 0; }))
        return result;
    // sacrebleu's 'exp' smoothing: the k-th order without a match counts 1 / 2^k matches.
    double smooth = 1.0;
    for (int n = 0; n < kBleuOrder; ++n) {
        if (stats.total[n] == 0)
            break;
        if (stats.correct[n] == 0) {
            smooth *= 2.0;
            result.precisions[n] = 100.0 / (smooth * double(stats.total[n]));
        } else {
            result.precisions[n] = 100.0 * double(stats.correct[n]) / double(stats.total[n]);
        }
    }
    // A missing order (no n-grams at all) keeps precision 0: log 0 is sacrebleu's -9999999999,
    // which makes the score 0.
    double logSum = 0.0;
    for (const double p : result.precisions)
        logSum += p == 0.0 ? -9999999999.0 : std::log(p);
    result.score = result.brevityPenalty * std::exp(logSum / kBleuOrder);
    return result;
}

ChrfStatistics &ChrfStatistics::operator+=(const ChrfStatistics &other)
{
    for (std::size_t i = 0; i < counts.size(); ++i)
        counts[i] += other.counts[i];
    return *this;
}

ChrfStatistics chrfStatistics(std::string_view hypothesis,
                              const std::vector<std::string> &references)
{
    const std::vector<std::string_view> usable = usableReferences(references, hypothesis);
    const auto hypothesisNgrams = charNgrams(hypothesis);
    ChrfStatistics best;
    double bestScore = -1.0;
    for (const std::string_view reference : usable) {
        const auto referenceNgrams = charNgrams(reference);
        ChrfStatistics stats;
        for (int n = 0; n < kChrfOrder; ++n) {
            std::int64_t hypothesisCount = 0, referenceCount = 0, matches = 0;
            for (const auto &[gram, count] : hypothesisNgrams[n]) {
                hypothesisCount += count;
                const auto found = referenceNgrams[n].find(gram);
                if (found != referenceNgrams[n].end())
                    matches += std::min(count, found->second);
            }
            for (const auto &entry : referenceNgrams[n])
                referenceCount += entry.second;
            stats.counts[3 * n] = hypothesisCount;
            stats.counts[3 * n + 1] = referenceCount;
            stats.counts[3 * n + 2] = matches;
        }
        const double score = chrf(stats);
        if (score > bestScore) {
            best = stats;
            bestScore = score;
        }
    }
    return best;
}

double chrf(const ChrfStatistics &stats)
{
    const double factor = kChrfBeta * kChrfBeta;
    double precision = 0.0, recall = 0.0;
    int effective = 0;
    for (int n = 0; n < kChrfOrder; ++n) {
        const std::int64_t hyp = stats.counts[3 * n], ref = stats.counts[3 * n + 1],
                           match = stats.counts[3 * n + 2];
        if (hyp > 0 && ref > 0) {
            precision += double(match) / double(hyp);
            recall += double(match) / double(ref);
            ++effective;
        }
    }
    if (effective == 0)
        return 0.0;
    precision /= effective;
    recall /= effective;
    if (precision + recall == 0.0)
        return 0.0;
    return 100.0 * (1.0 + factor) * precision * recall / (factor * precision + recall);
}

BleuScore corpusBleu(const std::vector<std::string> &hypotheses,
                     const std::vector<std::vector<std::string>> &references)
{
    requireSameSize(hypotheses.size(), references.size());
    BleuStatistics all;
    for (std::size_t i = 0; i < hypotheses.size(); ++i)
        all += bleuStatistics(hypotheses[i], references[i]);
    return bleu(all);
}

double corpusChrf(const std::vector<std::string> &hypotheses,
                  const std::vector<std::vector<std::string>> &references)
{
    requireSameSize(hypotheses.size(), references.size());
    ChrfStatistics all;
    for (std::size_t i = 0; i < hypotheses.size(); ++i)
        all += chrfStatistics(hypotheses[i], references[i]);
    return chrf(all);
}

} // namespace glosa::engine::metrics
