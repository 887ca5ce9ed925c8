// Markdown: block markup is skeleton, inline markup becomes spans.
#include "app/core/documents/formats/entrypoints.h"
#include "app/core/documents/formats/textlines.h"

#include "app/core/limits.h"

#include <QRegularExpression>

#include <algorithm>
#include <array>
#include <cctype>
#include <set>
#include <utility>
#include <vector>

namespace glosa::documents::formats {

namespace {

// Where the inline markers of one paragraph are, found once, so that parsing it stays linear:
// the searches below used to scan the rest of the paragraph again from every marker, and a
// paragraph of 1 MB of backticks, brackets or asterisks never finished.
class InlineIndex
{
public:
    explicit InlineIndex(const QByteArray &raw) : m_raw(raw)
    {
        std::vector<qsizetype> open;
        for (qsizetype i = 0; i < raw.size(); ++i) {
            const char c = raw[i];
            if (c == ']')
                m_closeBrackets.push_back(i);
            else if (c == ')')
                m_closeParens.push_back(i);
            // A bracket's partner: the first ']' where the count from it returns to 0.
            if (c == '[') {
                open.push_back(i);
            } else if (c == ']' && !open.empty()) {
                m_partner.emplace_back(open.back(), i);
                open.pop_back();
            }
        }
        std::sort(m_partner.begin(), m_partner.end());
        for (int m = 0; m < 4; ++m)
            indexCloser(m);
    }

    // The first `c` (']' or ')') at or after `from`, or -1.
    qsizetype next(char c, qsizetype from) const
    {
        const std::vector<qsizetype> &list = c == ']' ? m_closeBrackets : m_closeParens;
        const auto it = std::lower_bound(list.begin(), list.end(), from);
        return it == list.end() ? -1 : *it;
    }

    // The ']' closing the '[' at `i`, or -1.
    qsizetype partner(qsizetype i) const
    {
        const auto it = std::lower_bound(m_partner.begin(), m_partner.end(),
                                         std::pair<qsizetype, qsizetype>(i, -1));
        return it != m_partner.end() && it->first == i ? it->second : -1;
    }

    // The closing `marker` ("*", "**", "_", "__") for emphasis whose text starts before `from`:
    // the first occurrence at or after `from` that follows text (not white space) and, for a
    // single marker, is not half of a double one, skipping past those that are not. -1: none.
    qsizetype closer(const QByteArray &marker, qsizetype from) const
    {
        const Closers &closers = m_closers[slot(marker)];
        const auto it =
            std::lower_bound(closers.occurrences.begin(), closers.occurrences.end(), from);
        return it == closers.occurrences.end()
                   ? -1
                   : closers.accepted[std::size_t(it - closers.occurrences.begin())];
    }

    // Backtick runs of a length with no closing run after some position have none after any
    // later position either.
    bool fenceUnclosed(qsizetype ticks) const { return m_unclosedFences.contains(ticks); }
    void setFenceUnclosed(qsizetype ticks) { m_unclosedFences.insert(ticks); }

private:
    struct Closers
    {
        std::vector<qsizetype> occurrences; // where the marker starts, overlapping ones too
        std::vector<qsizetype> accepted;    // for each: the closer a search from it ends at
    };

    static int slot(const QByteArray &marker)
    {
        return (marker[0] == '*' ? 0 : 2) + (marker.size() == 2 ? 1 : 0);
    }

    void indexCloser(int m)
    {
        const char c = m < 2 ? '*' : '_';
        const qsizetype size = m % 2 == 0 ? 1 : 2;
        Closers &closers = m_closers[m];
        for (qsizetype i = 0; i + size <= m_raw.size(); ++i)
            if (m_raw[i] == c && (size == 1 || m_raw[i + 1] == c))
                closers.occurrences.push_back(i);
        // Right to left: a rejected occurrence ends where the search it goes on with ends (the
        // next occurrence at or after it + 2 for a single marker, + 1 for a double one).
        closers.accepted.assign(closers.occurrences.size(), -1);
        const qsizetype n = m_raw.size();
        for (std::size_t k = closers.occurrences.size(); k-- > 0;) {
            const qsizetype at = closers.occurrences[k];
            const bool rejected = (at > 0 && isSpace(m_raw[at - 1])) ||
                                  (size == 1 && at + 1 < n && m_raw[at + 1] == c);
            if (!rejected) {
                closers.accepted[k] = at;
                continue;
            }
            const auto next = std::lower_bound(closers.occurrences.begin() + qsizetype(k) + 1,
                                               closers.occurrences.end(), at + (size == 1 ? 2 : 1));
            closers.accepted[k] =
                next == closers.occurrences.end()
                    ? -1
                    : closers.accepted[std::size_t(next - closers.occurrences.begin())];
        }
    }

    const QByteArray &m_raw;
    std::vector<qsizetype> m_closeBrackets, m_closeParens;
    std::vector<std::pair<qsizetype, qsizetype>> m_partner; // '[' and its ']', by the '['
    std::array<Closers, 4> m_closers;
    std::set<qsizetype> m_unclosedFences;
};

// Markdown inline syntax into plain text and spans: code spans, images, links and emphasis.
// Links and emphasis deeper than limits::kMaxMarkupDepth are text: each level parses its part
// again.
class InlineParser
{
public:
    InlineParser(const QByteArray &raw, Segment &segment, InlineIndex &index)
        : m_raw(raw), m_segment(segment), m_index(index)
    {
    }

    // raw[from, to) appended to the segment.
    void parse(qsizetype from, qsizetype to, int depth = 0)
    {
        const bool nest = depth < limits::kMaxMarkupDepth;
        qsizetype i = from;
        while (i < to) {
            const char c = m_raw[i];
            qsizetype next = -1; // after the construct at i, where there is one
            if (c == '\\' && i + 1 < to) {
                m_segment.text += m_raw.mid(i, 2);
                next = i + 2;
            } else if (c == '`') {
                next = codeSpan(i, to);
            } else if (c == '!' && i + 1 < to && m_raw[i + 1] == '[') {
                next = image(i, to);
            } else if (c == '[' && nest) {
                next = link(i, to, depth);
            } else if ((c == '*' || c == '_') && nest) {
                next = emphasis(i, from, to, depth);
            }
            if (next < 0) {
                m_segment.text += c;
                next = i + 1;
            }
            i = next;
        }
    }

private:
    // The markers' offsets in `raw` order them: an image at the edge of emphasis (`*![i](y)*`)
    // has the same empty range as the emphasis' edge, and only the order says it is inside.
    void addSpan(qsizetype begin, const QByteArray &open, const QByteArray &close, bool verbatim,
                 qsizetype openAt, qsizetype closeAt)
    {
        m_segment.spans.push_back(
            {{begin, m_segment.text.size()}, open, close, verbatim, int(openAt), int(closeAt)});
    }

    // A run of backticks and the text up to the same run, verbatim; a run without its closing
    // run is text. Always consumes the run.
    qsizetype codeSpan(qsizetype i, qsizetype to)
    {
        qsizetype ticks = 0;
        while (i + ticks < to && m_raw[i + ticks] == '`')
            ++ticks;
        const QByteArray fence(ticks, '`');
        const qsizetype close = m_index.fenceUnclosed(ticks) ? -1 : m_raw.indexOf(fence, i + ticks);
        if (close > 0 && close + ticks <= to) {
            const qsizetype begin = m_segment.text.size();
            m_segment.text += m_raw.mid(i + ticks, close - i - ticks);
            addSpan(begin, fence, fence, true, i, close);
            return close + ticks;
        }
        if (close < 0)
            m_index.setFenceUnclosed(ticks);
        // A run without its closing run is text, all of it (from each of its backticks the
        // search would fail again).
        m_segment.text += fence;
        return i + ticks;
    }

    // ![alt](url), kept whole: "![" then up to the first ']', '(' right after it, and up to the
    // first ')'.
    qsizetype image(qsizetype i, qsizetype to)
    {
        const qsizetype bracket = m_index.next(']', i + 2);
        if (bracket > 0 && bracket + 1 < to && m_raw[bracket + 1] == '(') {
            const qsizetype end = m_index.next(')', bracket + 2);
            if (end > 0 && end < to) {
                addSpan(m_segment.text.size(), m_raw.mid(i, end + 1 - i), {}, false, i, i);
                return end + 1;
            }
        }
        return -1;
    }

    // [text](url): the text is translated, the url kept.
    qsizetype link(qsizetype i, qsizetype to, int depth)
    {
        const qsizetype close = m_index.partner(i);
        if (close > 0 && close < to && close + 1 < to && m_raw[close + 1] == '(') {
            const qsizetype end = m_index.next(')', close + 2);
            if (end > 0 && end < to) {
                const qsizetype begin = m_segment.text.size();
                const std::size_t at = m_segment.spans.size();
                m_segment.spans.push_back({});
                parse(i + 1, close, depth + 1);
                m_segment.spans[at] = {{begin, m_segment.text.size()},
                                       "[",
                                       m_raw.mid(close, end + 1 - close),
                                       false,
                                       int(i),
                                       int(close)};
                return end + 1;
            }
        }
        return -1;
    }

    // *x*, **x**, _x_, __x__ (an underscore opens only at a word's start).
    qsizetype emphasis(qsizetype i, qsizetype from, qsizetype to, int depth)
    {
        const char c = m_raw[i];
        const QByteArray marker =
            (i + 1 < to && m_raw[i + 1] == c) ? QByteArray(2, c) : QByteArray(1, c);
        const qsizetype inner = i + marker.size();
        const bool opens = inner < to && !isSpace(m_raw[inner]) &&
                           (c == '*' || i == from || !std::isalnum(uchar(m_raw[i - 1])));
        const qsizetype close = opens ? m_index.closer(marker, inner + 1) : -1;
        if (close > 0 && close + marker.size() <= to) {
            const qsizetype begin = m_segment.text.size();
            const std::size_t at = m_segment.spans.size();
            m_segment.spans.push_back({});
            parse(inner, close, depth + 1);
            m_segment.spans[at] = {
                {begin, m_segment.text.size()}, marker, marker, false, int(i), int(close)};
            return close + marker.size();
        }
        return -1;
    }

    const QByteArray &m_raw;
    Segment &m_segment;
    InlineIndex &m_index;
};

Segment markdownSegment(const QByteArray &raw, int lines, const QByteArray &lineBreak)
{
    Segment segment;
    segment.lines = lines;
    InlineIndex index(raw);
    InlineParser(raw, segment, index).parse(0, raw.size());
    foldLineBreaks(segment, lineBreak);
    protectSpans(segment.text, segment.spans);
    return segment;
}

// Block quote and list markers at the start of a line, one level each: ">" and "-", "*", "+",
// "1." or "1)" followed by white space ("> - > 1. x" is 4 deep), and the bytes they take with
// the white space after each. Counting stops past limits::kMaxMarkupDepth.
struct Nesting
{
    int depth = 0;
    qsizetype length = 0;
};
Nesting blockNesting(const QByteArray &content)
{
    Nesting nesting;
    qsizetype &i = nesting.length;
    const qsizetype n = content.size();
    while (i < n && nesting.depth <= limits::kMaxMarkupDepth) {
        const char c = content[i];
        if (c == '>') {
            ++i;
        } else if ((c == '-' || c == '*' || c == '+') && i + 1 < n && isSpace(content[i + 1])) {
            ++i;
        } else if (std::isdigit(uchar(c))) {
            qsizetype end = i;
            while (end < n && end - i < 10 && std::isdigit(uchar(content[end])))
                ++end;
            if (end - i > 9 || end + 1 >= n || (content[end] != '.' && content[end] != ')') ||
                !isSpace(content[end + 1]))
                break;
            i = end + 1;
        } else {
            break;
        }
        ++nesting.depth;
        while (i < n && isSpace(content[i]))
            ++i;
    }
    return nesting;
}

// The length of the block quote markers starting `content` (">", each with one space or tab
// after it): what the pattern ^(?:>\s?)+ matched, except that on a line of 100,000 markers
// PCRE2 gave up (its JIT stack) and reported no match, so the whole line went to the model.
qsizetype quotePrefix(const QByteArray &content)
{
    qsizetype i = 0;
    while (i < content.size() && content[i] == '>') {
        ++i;
        if (i < content.size() && isSpace(content[i]))
            ++i;
    }
    return i;
}

// Markdown, line by line: a paragraph's lines (until a blank line or a block's start) are one
// segment; headings, list items and quotes start one after their markers; each table cell is one;
// fences, code blocks, rules and HTML lines stay as they are.
class MdReader
{
public:
    explicit MdReader(const QString &name) : m_name(name) {}

    Document read(const QByteArray &bytes)
    {
        m_doc.format = QStringLiteral("md");
        m_doc.lineBreak = lineBreakOf(bytes);
        const QByteArray bom = checkText(bytes, m_name);
        m_doc.appendSkeleton(bom);
        for (const Line &line : splitLines(bytes.mid(bom.size()))) {
            ++m_lineNumber;
            readLine(line);
        }
        flush();
        return std::move(m_doc);
    }

private:
    void readLine(const Line &line)
    {
        static const QRegularExpression rule(QStringLiteral(R"(^([-*_]\s*){3,}$)"));
        static const QRegularExpression tableRule(QStringLiteral(R"(^\|?[\s:|-]+\|[\s:|-]*$)"));
        const QByteArray whole = line.indent + line.content + line.tail;
        if (!m_fence.isEmpty()) {
            m_doc.appendSkeleton(whole);
            if (line.content.startsWith(m_fence))
                m_fence.clear();
            return;
        }
        if (line.content.startsWith("```") || line.content.startsWith("~~~")) {
            flush();
            m_fence = line.content.left(3);
            m_doc.appendSkeleton(whole);
            return;
        }
        const QString content = QString::fromUtf8(line.content);
        const bool codeBlock =
            m_count == 0 && (line.indent.contains('\t') || line.indent.size() >= 4);
        const bool table = line.content.startsWith('|');
        if (line.content.isEmpty() || codeBlock || rule.match(content).hasMatch() ||
            (line.content.startsWith('<') && line.content.endsWith('>')) ||
            (table && tableRule.match(content).hasMatch())) {
            flush();
            m_doc.appendSkeleton(whole);
            return;
        }
        if (table) {
            flush();
            tableRow(line);
            return;
        }
        checkNesting(line);
        if (blockStart(line, content))
            return;
        if (m_count > 0 && line.indent.isEmpty() && m_tail == m_doc.lineBreak) {
            m_paragraph += '\n' + line.content;
            m_tail = line.tail;
            ++m_count;
            return;
        }
        flush();
        m_doc.appendSkeleton(line.indent);
        m_paragraph = line.content;
        m_tail = line.tail;
        m_count = 1;
    }

    // Each cell its own segment; pipes and padding kept.
    void tableRow(const Line &line)
    {
        m_doc.appendSkeleton(line.indent);
        qsizetype i = 0;
        while (i < line.content.size()) {
            qsizetype next = i + 1;
            while (next < line.content.size() &&
                   (line.content[next] != '|' || line.content[next - 1] == '\\'))
                ++next;
            m_doc.appendSkeleton(line.content.mid(i, 1));
            const QByteArray cell = line.content.mid(i + 1, next - i - 1);
            const QByteArray trimmed = cell.trimmed();
            if (!trimmed.isEmpty()) {
                const qsizetype lead = cell.indexOf(trimmed);
                m_doc.appendSkeleton(cell.left(lead));
                m_doc.appendSegment(markdownSegment(trimmed, 1, m_doc.lineBreak));
                m_doc.appendSkeleton(cell.mid(lead + trimmed.size()));
            } else {
                m_doc.appendSkeleton(cell);
            }
            i = next;
        }
        m_doc.appendSkeleton(line.tail);
    }

    // Nesting is capped as in HTML: 100,000 levels on one line (200 KB) took 45 s and hundreds
    // of MB.
    void checkNesting(const Line &line) const
    {
        if (blockNesting(line.content).depth > limits::kMaxMarkupDepth)
            throw DocumentError(QStringLiteral("%1: block quotes or list items nest deeper than "
                                               "the limit of %2 (line %3)")
                                    .arg(m_name)
                                    .arg(limits::kMaxMarkupDepth)
                                    .arg(m_lineNumber));
    }

    // A heading, a list item or a quote: its markers are skeleton and its text starts a
    // paragraph. False where the line starts none.
    bool blockStart(const Line &line, const QString &content)
    {
        static const QRegularExpression heading(QStringLiteral(R"(^(#{1,6}\s+))"));
        static const QRegularExpression item(
            QStringLiteral(R"(^((?:>\s?)*(?:[-*+]|\d{1,9}[.)])\s+(?:\[[ xX]\]\s+)?))"));
        QRegularExpressionMatch match = heading.match(content);
        if (!match.hasMatch())
            match = item.match(content);
        const qsizetype quoted = match.hasMatch() ? 0 : quotePrefix(line.content);
        if (!match.hasMatch() && quoted == 0)
            return false;
        flush();
        qsizetype prefix = quoted > 0 ? quoted : match.captured(1).toUtf8().size();
        // Lists and quotes nested on the one line ("- - x", "> - > x"): every marker is markup,
        // the text is what follows the last one.
        prefix += blockNesting(line.content.mid(prefix)).length;
        m_doc.appendSkeleton(line.indent + line.content.left(prefix));
        m_paragraph = line.content.mid(prefix);
        m_tail = line.tail;
        m_count = m_paragraph.isEmpty() ? 0 : 1;
        if (m_count == 0)
            m_doc.appendSkeleton(m_tail), m_tail.clear();
        return true;
    }

    // The paragraph read so far as a segment, then the line break after it.
    void flush()
    {
        if (m_count > 0)
            m_doc.appendSegment(markdownSegment(m_paragraph, m_count, m_doc.lineBreak));
        m_doc.appendSkeleton(m_tail);
        m_paragraph.clear();
        m_tail.clear();
        m_count = 0;
    }

    const QString &m_name;
    Document m_doc;
    QByteArray m_paragraph, m_tail; // the paragraph being read and the line break after it
    int m_count = 0;                // its lines
    QByteArray m_fence;             // "```" or "~~~" inside a fenced block
    int m_lineNumber = 0;
};

Document readMd(const QByteArray &bytes, const QString &name)
{
    return MdReader(name).read(bytes);
}

} // namespace

Document parseMd(const QByteArray &bytes, const QString &name)
{
    return readEncodedText(bytes, name, readMd);
}

} // namespace glosa::documents::formats
