#include "app/core/documents/document.h"

#include "app/core/documents/documentinternals.h"

#include <algorithm>
#include <limits>
#include <memory>

// Span projection: where each span of a segment lands in its translation (projectSpans, and
// tileRanges for the tiles of office formats), and how post-editing moves the links it follows
// (replaceSentence).

namespace glosa::documents {

namespace {

// The union of the target pieces linked to source pieces inside `source`; for an empty source
// range (or none linked) an empty range after the last target piece linked to text before it.
ByteRange targetOf(ByteRange source, const std::vector<AlignmentLink> &links)
{
    ByteRange result{-1, -1};
    for (const AlignmentLink &link : links) {
        const bool inside = source.size() > 0 ? overlaps(link.source, source) : false;
        if (!inside)
            continue;
        if (result.begin < 0) {
            result = link.target;
        } else {
            result.begin = std::min(result.begin, link.target.begin);
            result.end = std::max(result.end, link.target.end);
        }
    }
    if (result.begin >= 0)
        return result;
    qsizetype point = 0;
    for (const AlignmentLink &link : links)
        if (link.source.end <= source.begin)
            point = std::max(point, link.target.end);
    return {point, point};
}

// The hull (smallest begin, largest end) of the ranges of any run of a fixed array, in
// O(log n) a query: a segment tree, so that the spans of a long segment are projected in
// O(n log n) rather than each against all the others.
class RangeHull
{
public:
    explicit RangeHull(const std::vector<ByteRange> &values) : m_size(values.size())
    {
        m_tree.resize(2 * m_size, kNone);
        std::copy(values.begin(), values.end(), m_tree.begin() + std::ptrdiff_t(m_size));
        for (std::size_t i = m_size; i-- > 1;)
            m_tree[i] = join(m_tree[2 * i], m_tree[2 * i + 1]);
    }
    // Of values[from, to); {max, min} when empty.
    ByteRange hull(std::size_t from, std::size_t to) const
    {
        ByteRange result = kNone;
        for (from += m_size, to += m_size; from < to; from /= 2, to /= 2) {
            if (from & 1)
                result = join(result, m_tree[from++]);
            if (to & 1)
                result = join(result, m_tree[--to]);
        }
        return result;
    }

private:
    static constexpr ByteRange kNone{std::numeric_limits<qsizetype>::max(),
                                     std::numeric_limits<qsizetype>::min()};
    static ByteRange join(ByteRange a, ByteRange b)
    {
        return {std::min(a.begin, b.begin), std::max(a.end, b.end)};
    }
    std::size_t m_size;
    std::vector<ByteRange> m_tree; // node i: children 2i, 2i + 1; leaves from m_size
};

// targetOf() for many ranges over the same links: O(log n) a query instead of a pass over all
// links. Source pieces do not overlap, so sorted by start the links' source ends are sorted too,
// and the links overlapping a range are one run of them; links that break that (none a model
// makes) fall back to the pass.
class LinkIndex
{
public:
    explicit LinkIndex(const std::vector<AlignmentLink> &links) : m_links(links), m_sorted(links)
    {
        std::sort(m_sorted.begin(), m_sorted.end(),
                  [](const AlignmentLink &a, const AlignmentLink &b) {
                      return a.source.begin != b.source.begin ? a.source.begin < b.source.begin
                                                              : a.source.end < b.source.end;
                  });
        m_ordered = std::is_sorted(m_sorted.begin(), m_sorted.end(),
                                   [](const AlignmentLink &a, const AlignmentLink &b) {
                                       return a.source.end < b.source.end;
                                   });
        std::vector<ByteRange> targets;
        m_pointAfter.push_back(0);
        for (const AlignmentLink &link : m_sorted) {
            targets.push_back(link.target);
            m_pointAfter.push_back(std::max(m_pointAfter.back(), link.target.end));
        }
        m_targets = std::make_unique<RangeHull>(targets);
    }

    ByteRange targetOf(ByteRange source) const
    {
        if (!m_ordered)
            return documents::targetOf(source, m_links);
        // Links with source.begin < source.end and source.end > source.begin: [first, last).
        const auto endAfter = [](const AlignmentLink &link, qsizetype at) {
            return link.source.end <= at;
        };
        const std::size_t first =
            std::size_t(std::lower_bound(m_sorted.begin(), m_sorted.end(), source.begin, endAfter) -
                        m_sorted.begin());
        if (source.size() > 0) {
            const std::size_t last =
                std::size_t(std::lower_bound(m_sorted.begin(), m_sorted.end(), source.end,
                                             [](const AlignmentLink &link, qsizetype at) {
                                                 return link.source.begin < at;
                                             }) -
                            m_sorted.begin());
            if (first < last)
                return m_targets->hull(first, last);
        }
        // The links whose source ends by source.begin are those before `first`.
        const qsizetype point = m_pointAfter[first];
        return {point, point};
    }

private:
    const std::vector<AlignmentLink> &m_links;
    std::vector<AlignmentLink> m_sorted; // by source
    bool m_ordered = false;              // source ends sorted too
    std::unique_ptr<RangeHull> m_targets;
    std::vector<qsizetype> m_pointAfter; // [i]: the largest target end of m_sorted[0, i), or 0
};

// The spans of a segment by index, each set once with its source and target range: next()
// finds the first one in an index range that a predicate on hulls of ranges accepts, looking
// only into subtrees whose hull it accepts (O(log n) a step when few do).
class SpanTree
{
public:
    // Over the spans of a subtree; no span set: nothing can be accepted.
    struct Hulls
    {
        qsizetype sourceBegin = std::numeric_limits<qsizetype>::max(); // the smallest start
        qsizetype sourceEnd = std::numeric_limits<qsizetype>::min();   // the largest end
        qsizetype targetBegin = std::numeric_limits<qsizetype>::max();
        qsizetype targetEnd = std::numeric_limits<qsizetype>::min();
    };

    explicit SpanTree(std::size_t size)
    {
        while (m_leaves < size)
            m_leaves *= 2;
        m_nodes.resize(2 * m_leaves);
    }

    void set(std::size_t i, ByteRange source, ByteRange target)
    {
        std::size_t node = m_leaves + i;
        m_nodes[node] = {source.begin, source.end, target.begin, target.end};
        for (node /= 2; node >= 1; node /= 2) {
            const Hulls &a = m_nodes[2 * node], &b = m_nodes[2 * node + 1];
            m_nodes[node] = {
                std::min(a.sourceBegin, b.sourceBegin), std::max(a.sourceEnd, b.sourceEnd),
                std::min(a.targetBegin, b.targetBegin), std::max(a.targetEnd, b.targetEnd)};
        }
    }

    // The first index in [from, to) whose (set) ranges `accept` takes, else `to`.
    template <typename Accept>
    std::size_t next(std::size_t from, std::size_t to, const Accept &accept) const
    {
        const std::size_t found = search(1, 0, m_leaves, from, to, accept);
        return std::min(found, to);
    }

private:
    template <typename Accept>
    std::size_t search(std::size_t node, std::size_t begin, std::size_t end, std::size_t from,
                       std::size_t to, const Accept &accept) const
    {
        if (end <= from || begin >= to || !accept(m_nodes[node]))
            return to;
        if (end - begin == 1)
            return begin;
        const std::size_t middle = (begin + end) / 2;
        const std::size_t left = search(2 * node, begin, middle, from, to, accept);
        return left < to ? left : search(2 * node + 1, middle, end, from, to, accept);
    }

    std::size_t m_leaves = 1;
    std::vector<Hulls> m_nodes; // node i: children 2i, 2i + 1; leaves from m_leaves
};

// Grows a non-empty range to whole words, so that `<b>` never lands inside "gato".
ByteRange toWords(ByteRange range, const QByteArray &text)
{
    if (range.size() == 0)
        return range;
    while (range.begin > 0 && isWordByte(text[range.begin - 1]) && isWordByte(text[range.begin]))
        --range.begin;
    while (range.end < text.size() && isWordByte(text[range.end]) &&
           isWordByte(text[range.end - 1]))
        ++range.end;
    return range;
}

// An empty range at `at` moved out of the word it is inside ("famos|a", where the model's pieces
// part a word): to the word's end when `afterWord` (a footnote mark, a <br> after a word), else
// to its start.
ByteRange outsideWord(qsizetype at, const QByteArray &text, bool afterWord)
{
    at = std::clamp<qsizetype>(at, 0, text.size());
    while (afterWord && at > 0 && at < text.size() && isWordByte(text[at - 1]) &&
           isWordByte(text[at]))
        ++at;
    while (!afterWord && at > 0 && at < text.size() && isWordByte(text[at - 1]) &&
           isWordByte(text[at]))
        --at;
    return {at, at};
}

// A position after replacing [from.begin, from.end) by `size` bytes.
qsizetype shifted(qsizetype position, ByteRange from, qsizetype size)
{
    if (position <= from.begin)
        return position;
    if (position >= from.end)
        return position + size - from.size();
    return from.begin + std::min(size, position - from.begin);
}
} // namespace

// Stretches the tile spans over the whole text (a gap goes to the tile before it) and moves the
// other spans onto tile edges: a span around tiles covers exactly those tiles.
void tileRanges(const Segment &segment, std::vector<ByteRange> &ranges, const QByteArray &text)
{
    const std::vector<InlineSpan> &spans = segment.spans;
    const qsizetype size = text.size();
    std::vector<std::size_t> tiles;
    for (std::size_t k = 0; k < spans.size(); ++k)
        if (spans[k].tile && ranges[k].size() > 0)
            tiles.push_back(k);
    if (tiles.empty())
        return;
    std::stable_sort(tiles.begin(), tiles.end(), [&](std::size_t a, std::size_t b) {
        return ranges[a].begin < ranges[b].begin;
    });
    // A gap of spaces goes where the source had its space (bold stays on the word): to the tile
    // after it when that one's source starts with a space, else to the tile before it.
    std::vector<qsizetype> begins;
    for (std::size_t i = 0; i < tiles.size(); ++i) {
        if (i == 0) {
            begins.push_back(0);
            continue;
        }
        const qsizetype gapBegin = std::min(ranges[tiles[i - 1]].end, ranges[tiles[i]].begin);
        const qsizetype gapEnd = ranges[tiles[i]].begin;
        const bool spaces = std::all_of(text.begin() + gapBegin, text.begin() + gapEnd,
                                        [](char c) { return c == ' '; });
        const ByteRange next = spans[tiles[i]].range;
        const bool nextLeads = next.size() > 0 && segment.text[next.begin] == ' ';
        begins.push_back(spaces && nextLeads ? std::max(gapBegin, begins.back()) : gapEnd);
    }
    for (std::size_t i = 0; i < tiles.size(); ++i)
        ranges[tiles[i]] = {begins[i], i + 1 < tiles.size() ? begins[i + 1] : size};
    std::vector<qsizetype> edges = begins;
    edges.push_back(size);
    std::sort(edges.begin(), edges.end()); // in order already, unless a range was past the end
    // The nearest edge (the earlier of two as near); `edges` is in order.
    auto snap = [&](qsizetype at) {
        const auto after = std::lower_bound(edges.begin(), edges.end(), at);
        if (after == edges.end())
            return edges.back();
        if (after == edges.begin())
            return *after;
        const qsizetype before = *std::prev(after);
        return at - before <= *after - at ? before : *after;
    };
    for (std::size_t k = 0; k < spans.size(); ++k) {
        if (spans[k].tile)
            continue;
        if (ranges[k].size() == 0 || spans[k].range.size() == 0) {
            // Empty tiles and markup sit at an edge, never inside a run's text.
            ranges[k].begin = ranges[k].end = snap(ranges[k].begin);
            continue;
        }
        qsizetype begin = -1, end = -1;
        for (const std::size_t t : tiles)
            if (contains(spans[k].range, spans[t].range)) {
                begin = begin < 0 ? ranges[t].begin : std::min(begin, ranges[t].begin);
                end = std::max(end, ranges[t].end);
            }
        ranges[k] = begin < 0 ? ByteRange{snap(ranges[k].begin), snap(ranges[k].begin)}
                              : ByteRange{begin, end};
    }
    for (std::size_t k = 0; k < spans.size(); ++k)
        if (spans[k].tile && ranges[k].size() == 0)
            ranges[k].begin = ranges[k].end = snap(ranges[k].begin);
}

namespace {

// projectSpans(), step 1 of 3: the verbatim spans' ranges in `result` (marked in `placed`).
void placeVerbatim(const Segment &segment, SegmentTranslation &translation,
                   std::vector<ByteRange> &result, std::vector<bool> &placed)
{
    const std::vector<InlineSpan> &spans = segment.spans;
    // 1. Verbatim text: found as it is, else written over the pieces translated from it.
    qsizetype searchFrom = 0;
    for (std::size_t k = 0; k < spans.size(); ++k) {
        if (!spans[k].verbatim || spans[k].range.size() == 0)
            continue;
        const QByteArray wanted = segment.text.mid(spans[k].range.begin, spans[k].range.size());
        qsizetype found = translation.text.indexOf(wanted, searchFrom);
        if (found < 0)
            found = translation.text.indexOf(wanted);
        if (found >= 0) {
            result[k] = {found, found + wanted.size()};
            searchFrom = found + wanted.size();
        } else {
            ByteRange target =
                toWords(targetOf(spans[k].range, translation.links), translation.text);
            QByteArray replacement = wanted;
            const QByteArray &t = translation.text;
            // No doubled spaces around what is put back (" ⁇ " for an unknown symbol).
            if (target.size() > 0) {
                if (target.begin >= 2 && t[target.begin - 1] == ' ' && t[target.begin - 2] == ' ')
                    --target.begin;
                if (target.end + 1 < t.size() && t[target.end] == ' ' && t[target.end + 1] == ' ')
                    ++target.end;
            }
            if (target.size() == 0) {
                // Inserted between words: keep it a word of its own.
                if (target.begin > 0 && translation.text[target.begin - 1] != ' ')
                    replacement.prepend(' ');
                if (target.begin < translation.text.size() && translation.text[target.begin] != ' ')
                    replacement.append(' ');
            }
            translation.text.replace(target.begin, target.size(), replacement);
            for (SentencePair &sentence : translation.sentences) {
                sentence.target.begin = shifted(sentence.target.begin, target, replacement.size());
                sentence.target.end = shifted(sentence.target.end, target, replacement.size());
            }
            for (AlignmentLink &link : translation.links) {
                link.target.begin = shifted(link.target.begin, target, replacement.size());
                link.target.end = shifted(link.target.end, target, replacement.size());
            }
            for (std::size_t m = 0; m < k; ++m) {
                result[m].begin = shifted(result[m].begin, target, replacement.size());
                result[m].end = shifted(result[m].end, target, replacement.size());
            }
            const qsizetype at = target.begin + replacement.indexOf(wanted);
            result[k] = {at, at + wanted.size()};
            searchFrom = result[k].end;
        }
        placed[k] = true;
    }
}

// projectSpans(), step 2: the ranges of the spans step 1 did not place.
void placeMarkup(const Segment &segment, const SegmentTranslation &translation,
                 const std::vector<bool> &placed, std::vector<ByteRange> &result)
{
    const std::vector<InlineSpan> &spans = segment.spans;
    // 2. Markup: the words its source words became, plus any verbatim text inside it. The
    // verbatim spans placed above, by source start: those inside a markup span start inside it.
    const LinkIndex links(translation.links);
    std::vector<std::size_t> verbatim;
    for (std::size_t m = 0; m < spans.size(); ++m)
        if (placed[m] && spans[m].verbatim)
            verbatim.push_back(m);
    std::stable_sort(verbatim.begin(), verbatim.end(), [&](std::size_t a, std::size_t b) {
        return spans[a].range.begin < spans[b].range.begin;
    });
    std::vector<ByteRange> verbatimTargets;
    for (const std::size_t m : verbatim)
        verbatimTargets.push_back(result[m]);
    const RangeHull verbatimHull(verbatimTargets);
    // Verbatim spans do not overlap one another, so their source ends are in order too and
    // those inside a range are one run of them.
    const bool verbatimOrdered =
        std::is_sorted(verbatim.begin(), verbatim.end(), [&](std::size_t a, std::size_t b) {
            return spans[a].range.end < spans[b].range.end;
        });
    for (std::size_t k = 0; k < spans.size(); ++k) {
        if (placed[k])
            continue;
        ByteRange target = toWords(links.targetOf(spans[k].range), translation.text);
        // An empty span after a space in the source goes after the space in the target too.
        const ByteRange source = spans[k].range;
        if (source.size() == 0 && target.size() == 0) // after a word, never inside its pieces
            target = outsideWord(target.begin, translation.text,
                                 source.begin > 0 && isWordByte(segment.text[source.begin - 1]));
        if (source.size() == 0 && source.begin > 0 && segment.text[source.begin - 1] == ' ' &&
            target.begin < translation.text.size() && translation.text[target.begin] == ' ')
            target.begin = target.end = target.begin + 1;
        if (source.size() > 0) {
            const auto startsBefore = [&](std::size_t m, qsizetype at) {
                return spans[m].range.begin < at;
            };
            const auto first =
                std::lower_bound(verbatim.begin(), verbatim.end(), source.begin, startsBefore);
            auto last = std::lower_bound(first, verbatim.end(), source.end, startsBefore);
            if (verbatimOrdered) {
                last = std::partition_point(
                    first, last, [&](std::size_t m) { return spans[m].range.end <= source.end; });
                const ByteRange inside = verbatimHull.hull(std::size_t(first - verbatim.begin()),
                                                           std::size_t(last - verbatim.begin()));
                if (first < last)
                    target = {std::min(target.begin, inside.begin),
                              std::max(target.end, inside.end)};
            } else {
                for (auto m = first; m < last; ++m)
                    if (contains(source, spans[*m].range))
                        target = {std::min(target.begin, result[*m].begin),
                                  std::max(target.end, result[*m].end)};
            }
        }
        result[k] = target;
    }
}

// projectSpans(), step 3: the markup spans' ranges moved to nest as in the source.
void keepSourceShape(const std::vector<InlineSpan> &spans, std::vector<ByteRange> &result)
{
    // 3. Keep the source's shape: a span inside another stays inside its target range; spans
    // side by side in the source do not overlap in the target. Each span is checked against the
    // earlier markup spans in order, but a tree over them skips those that neither contain it in
    // the source nor overlap its target (the only ones that can move it).
    const auto markup = [&](std::size_t k) {
        return !spans[k].open.isEmpty() || !spans[k].close.isEmpty();
    };
    SpanTree earlier(spans.size());
    for (std::size_t k = 0; k < spans.size(); ++k) {
        if (!markup(k))
            continue; // verbatim text without markup writes no tags
        ByteRange &r = result[k];
        const ByteRange source = spans[k].range;
        const auto mayMove = [&](const SpanTree::Hulls &h) {
            return (h.sourceBegin <= source.begin && h.sourceEnd >= source.end) ||
                   (h.targetBegin < r.end && h.targetEnd > r.begin);
        };
        for (std::size_t m = earlier.next(0, k, mayMove); m < k;
             m = earlier.next(m + 1, k, mayMove)) {
            const ByteRange p = result[m];
            if (contains(spans[m].range, source) &&
                (spans[m].range.size() > 0 || source.size() == 0)) {
                r.begin = std::clamp(r.begin, p.begin, p.end);
                r.end = std::clamp(r.end, r.begin, p.end);
            } else if (overlaps(r, p) || (r.size() == 0 && r.begin > p.begin && r.begin < p.end)) {
                if (r.begin < p.begin) {
                    r.end = p.begin;
                } else {
                    r.begin = p.end;
                    r.end = std::max(r.end, r.begin);
                }
            }
        }
        earlier.set(k, source, r);
    }
}

} // namespace

std::vector<ByteRange> projectSpans(const Segment &segment, SegmentTranslation &translation)
{
    const std::vector<InlineSpan> &spans = segment.spans;
    std::vector<ByteRange> result(spans.size());
    std::vector<bool> placed(spans.size(), false);
    placeVerbatim(segment, translation, result, placed);
    placeMarkup(segment, translation, placed, result);
    keepSourceShape(spans, result);
    return result;
}

namespace {

// The words of text[begin, end) (runs of word bytes) and its punctuation (one byte each), so that
// "amigo." corrected to "amiga." keeps its full stop as it was.
std::vector<ByteRange> wordsIn(const QByteArray &text, qsizetype begin, qsizetype end)
{
    std::vector<ByteRange> words;
    for (qsizetype i = begin; i < end;) {
        const qsizetype start = i;
        if (isWordByte(text[i])) {
            while (i < end && isWordByte(text[i]))
                ++i;
        } else {
            ++i;
        }
        if (!isBlank(QByteArray::fromRawData(text.constData() + start, i - start)))
            words.push_back({start, i});
    }
    return words;
}

// Where each of the words `before` (in `oldText`) went in `after` (in `newText`), by their longest
// common subsequence: a kept word to itself; a word of a rewritten stretch to the words that
// replaced the stretch; a deleted word (nothing replaced it) to an empty range.
std::vector<ByteRange> followWords(const QByteArray &oldText, const std::vector<ByteRange> &before,
                                   const QByteArray &newText, const std::vector<ByteRange> &after)
{
    const std::size_t n = before.size(), m = after.size();
    auto word = [](const QByteArray &text, ByteRange r) {
        return QByteArrayView(text).sliced(r.begin, r.size());
    };
    // Sentences are short; a huge one (a chunk without stops) is taken as rewritten whole rather
    // than paying n × m.
    std::vector<int> match(n, -1); // index in `after`
    if (n * m <= std::size_t(1) << 22) {
        std::vector<int> lcs((n + 1) * (m + 1),
                             0); // lcs[i * (m + 1) + j]: of before[i..], after[j..]
        for (std::size_t i = n; i-- > 0;)
            for (std::size_t j = m; j-- > 0;)
                lcs[i * (m + 1) + j] =
                    word(oldText, before[i]) == word(newText, after[j])
                        ? lcs[(i + 1) * (m + 1) + j + 1] + 1
                        : std::max(lcs[(i + 1) * (m + 1) + j], lcs[i * (m + 1) + j + 1]);
        for (std::size_t i = 0, j = 0; i < n && j < m;) {
            if (word(oldText, before[i]) == word(newText, after[j])) {
                match[i++] = int(j++);
            } else if (lcs[(i + 1) * (m + 1) + j] >= lcs[i * (m + 1) + j + 1]) {
                ++i;
            } else {
                ++j;
            }
        }
    }
    std::vector<ByteRange> result(n);
    for (std::size_t i = 0; i < n;) {
        if (match[i] >= 0) {
            result[i] = after[std::size_t(match[i])];
            ++i;
            continue;
        }
        // A stretch of unmatched words, between the matches around it on both sides.
        std::size_t end = i;
        while (end < n && match[end] < 0)
            ++end;
        const std::size_t first = i > 0 ? std::size_t(match[i - 1] + 1) : 0;
        const std::size_t last = end < n ? std::size_t(match[end]) : m; // exclusive
        const ByteRange replaced =
            first < last ? ByteRange{after[first].begin, after[last - 1].end} : ByteRange{};
        for (; i < end; ++i)
            result[i] = replaced;
    }
    return result;
}

} // namespace

void replaceSentence(SegmentTranslation &translation, std::size_t sentence, const QByteArray &text)
{
    if (sentence >= translation.sentences.size())
        return;
    ByteRange old = translation.sentences[sentence].target;
    // A sentence deleted takes the space before it along ("a. b. c." → "a. c.").
    const qsizetype previousEnd = sentence > 0 ? translation.sentences[sentence - 1].target.end : 0;
    while (text.isEmpty() && old.begin > previousEnd && translation.text[old.begin - 1] == ' ')
        --old.begin;
    const std::vector<ByteRange> before = wordsIn(translation.text, old.begin, old.end);
    const std::vector<ByteRange> after = wordsIn(text, 0, text.size());
    const std::vector<ByteRange> followed = followWords(translation.text, before, text, after);
    std::vector<AlignmentLink> links;
    links.reserve(translation.links.size());
    for (AlignmentLink link : translation.links) {
        if (link.target.begin >= old.end) {
            link.target.begin = shifted(link.target.begin, old, text.size());
            link.target.end = shifted(link.target.end, old, text.size());
        } else if (link.target.end > old.begin) { // into the sentence
            ByteRange to{-1, -1};
            for (std::size_t w = 0; w < before.size(); ++w)
                if (overlaps(before[w], link.target) && followed[w].size() > 0)
                    to = to.begin < 0 ? followed[w]
                                      : ByteRange{std::min(to.begin, followed[w].begin),
                                                  std::max(to.end, followed[w].end)};
            if (to.begin < 0)
                continue; // its words were deleted
            link.target = {old.begin + to.begin, old.begin + to.end};
        }
        links.push_back(link);
    }
    translation.links = std::move(links);
    for (SentencePair &pair : translation.sentences) {
        if (&pair == &translation.sentences[sentence]) {
            pair.target = {old.begin, old.begin + text.size()};
        } else if (pair.target.begin >= old.end) {
            pair.target.begin = shifted(pair.target.begin, old, text.size());
            pair.target.end = shifted(pair.target.end, old, text.size());
        }
    }
    translation.text.replace(old.begin, old.size(), text);
}
} // namespace glosa::documents
