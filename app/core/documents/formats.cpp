#include "app/core/documents/formats.h"

#include "app/core/documents/textencoding.h"
#include "app/core/limits.h"

#include "engine/text/unicode.h"

#include <QBuffer>
#include <QFile>
#include <QFileInfo>
#include <QPdfDocument>
#include <QPdfSelection>
#include <QRegularExpression>
#include <QSaveFile>

#include <algorithm>
#include <map>
#include <memory>

namespace glosa::documents {

namespace {

bool isSpace(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

struct Line
{
    QByteArray indent;  // leading white space
    QByteArray content; // without the indentation and trailing white space
    QByteArray tail;    // trailing white space and the line break
};

std::vector<Line> splitLines(const QByteArray &bytes)
{
    std::vector<Line> lines;
    qsizetype start = 0;
    while (start < bytes.size()) {
        qsizetype end = bytes.indexOf('\n', start);
        end = end < 0 ? bytes.size() : end + 1;
        const QByteArray raw = bytes.mid(start, end - start);
        qsizetype a = 0, b = raw.size();
        while (a < b && isSpace(raw[a]))
            ++a;
        while (b > a && isSpace(raw[b - 1]))
            --b;
        lines.push_back({raw.left(a), raw.mid(a, b - a), raw.mid(b)});
        start = end;
    }
    return lines;
}

QByteArray lineBreakOf(const QByteArray &bytes)
{
    const qsizetype newline = bytes.indexOf('\n');
    return newline > 0 && bytes[newline - 1] == '\r' ? QByteArray("\r\n") : QByteArray("\n");
}

// Checks what every reader needs: UTF-8 text with something in it. Returns the BOM if any.
QByteArray checkText(const QByteArray &bytes, const QString &name)
{
    const std::size_t bad = engine::findInvalidUtf8({bytes.constData(), std::size_t(bytes.size())});
    if (bad != std::string_view::npos)
        throw DocumentError(QStringLiteral("%1 is not UTF-8 text (ill-formed byte 0x%2 at offset "
                                           "%3); save it as UTF-8 first")
                                .arg(name)
                                .arg(quint8(bytes[qsizetype(bad)]), 2, 16, QLatin1Char('0'))
                                .arg(bad));
    if (bytes.contains('\0'))
        throw DocumentError(QStringLiteral("%1 is binary data (a NUL byte at offset %2), not a "
                                           "text document")
                                .arg(name)
                                .arg(bytes.indexOf('\0')));
    if (std::all_of(bytes.begin(), bytes.end(), isSpace) ||
        bytes.trimmed() == QByteArray("\xEF\xBB\xBF"))
        throw DocumentError(QStringLiteral("%1 is empty: there is no text to translate").arg(name));
    return bytes.startsWith("\xEF\xBB\xBF") ? QByteArray("\xEF\xBB\xBF") : QByteArray();
}

Segment plainSegment(const QByteArray &text, int lines, std::vector<qsizetype> breaks)
{
    Segment segment;
    segment.text = text;
    segment.lines = lines;
    segment.breaks = std::move(breaks);
    protectSpans(segment.text, segment.spans);
    return segment;
}

bool endsSentence(const QByteArray &line)
{
    static const QByteArray enders = ".!?:;\"')]»”…";
    return !line.isEmpty() && (enders.contains(line.back()) || line.endsWith("\xE2\x80\xA6"));
}

bool startsLowerCase(const QByteArray &line)
{
    const QString text = QString::fromUtf8(line.left(4));
    return !text.isEmpty() && text.at(0).isLower();
}

// ---- txt ----

Document readTxt(const QByteArray &bytes, const QString &name)
{
    Document doc;
    doc.format = QStringLiteral("txt");
    doc.lineBreak = lineBreakOf(bytes);
    const QByteArray bom = checkText(bytes, name);
    doc.appendSkeleton(bom);
    const std::vector<Line> lines = splitLines(bytes.mid(bom.size()));
    QByteArray paragraph, tail;
    std::vector<qsizetype> breaks;
    int count = 0;
    auto flush = [&] {
        if (count > 0)
            doc.appendSegment(plainSegment(paragraph, count, breaks));
        doc.appendSkeleton(tail);
        paragraph.clear();
        tail.clear();
        breaks.clear();
        count = 0;
    };
    for (const Line &line : lines) {
        if (line.content.isEmpty()) {
            flush();
            doc.appendSkeleton(line.indent + line.tail);
            continue;
        }
        if (count > 0 && !endsSentence(paragraph) && startsLowerCase(line.content) &&
            line.indent.isEmpty() && tail == doc.lineBreak) {
            breaks.push_back(paragraph.size());
            paragraph += ' ' + line.content;
            tail = line.tail;
            ++count;
            continue;
        }
        flush();
        doc.appendSkeleton(line.indent);
        paragraph = line.content;
        tail = line.tail;
        count = 1;
    }
    flush();
    return doc;
}

// ---- srt ----

Document readSrt(const QByteArray &bytes, const QString &name)
{
    static const QRegularExpression timing(QStringLiteral(
        R"(^\d{1,3}:\d{2}:\d{2}[,.]\d{1,3}\s+-->\s+\d{1,3}:\d{2}:\d{2}[,.]\d{1,3}(\s.*)?$)"));
    static const QRegularExpression number(QStringLiteral(R"(^\d+$)"));
    Document doc;
    doc.format = QStringLiteral("srt");
    doc.lineBreak = lineBreakOf(bytes);
    const QByteArray bom = checkText(bytes, name);
    doc.appendSkeleton(bom);
    const std::vector<Line> lines = splitLines(bytes.mid(bom.size()));
    int cues = 0;
    for (std::size_t i = 0; i < lines.size();) {
        const Line &line = lines[i];
        if (line.content.isEmpty()) {
            doc.appendSkeleton(line.indent + line.tail);
            ++i;
            continue;
        }
        std::size_t t = i;
        if (number.match(QString::fromUtf8(line.content)).hasMatch()) {
            doc.appendSkeleton(line.indent + line.content + line.tail);
            t = i + 1;
        }
        if (t >= lines.size() || !timing.match(QString::fromUtf8(lines[t].content)).hasMatch()) {
            const std::size_t at = std::min(t, lines.size() - 1);
            throw DocumentError(QStringLiteral("%1: line %2: '%3' is not a subtitle timing "
                                               "(like 00:00:01,000 --> 00:00:02,500)")
                                    .arg(name)
                                    .arg(at + 1)
                                    .arg(QString::fromUtf8(lines[at].content.left(60))));
        }
        doc.appendSkeleton(lines[t].indent + lines[t].content + lines[t].tail);
        ++cues;
        QByteArray text, tail;
        int count = 0;
        auto flush = [&] {
            if (count > 0) {
                // Tags in the text (<i>, {\an8}) become inline spans; the line breaks are noted
                // and folded to spaces for the model.
                Segment segment = taggedSegment(text);
                segment.lines = count;
                for (qsizetype i = 0; i < segment.text.size(); ++i)
                    if (segment.text[i] == '\n') {
                        segment.breaks.push_back(i);
                        segment.text[i] = ' ';
                    }
                doc.appendSegment(std::move(segment));
            }
            doc.appendSkeleton(tail);
            text.clear();
            tail.clear();
            count = 0;
        };
        std::size_t j = t + 1;
        for (; j < lines.size() && !lines[j].content.isEmpty(); ++j) {
            // Lines join into one segment only across the file's own line break: any other
            // separator (a CRLF in an LF file, trailing or leading spaces, a form feed) stays in
            // the skeleton between two segments, so that the file comes back byte for byte.
            if (count > 0 && (tail != doc.lineBreak || !lines[j].indent.isEmpty()))
                flush();
            if (count > 0)
                text += '\n';
            else
                doc.appendSkeleton(lines[j].indent);
            text += lines[j].content;
            tail = lines[j].tail;
            ++count;
        }
        flush();
        i = j;
    }
    if (cues == 0)
        throw DocumentError(QStringLiteral("%1 has no subtitles").arg(name));
    return doc;
}

// ---- md ----

// Markdown inline syntax of raw[from, to) into plain text and spans.
void parseMarkdownInline(const QByteArray &raw, qsizetype from, qsizetype to, Segment &segment)
{
    // The markers' offsets in `raw` order them: an image at the edge of emphasis (`*![i](y)*`)
    // has the same empty range as the emphasis' edge, and only the order says it is inside.
    auto addSpan = [&](qsizetype begin, const QByteArray &open, const QByteArray &close,
                       bool verbatim, qsizetype openAt, qsizetype closeAt) {
        segment.spans.push_back({{begin, segment.text.size()},
                                 open,
                                 close,
                                 verbatim,
                                 int(openAt),
                                 int(closeAt)});
    };
    qsizetype i = from;
    while (i < to) {
        const char c = raw[i];
        if (c == '\\' && i + 1 < to) {
            segment.text += raw.mid(i, 2);
            i += 2;
            continue;
        }
        if (c == '`') {
            qsizetype ticks = 0;
            while (i + ticks < to && raw[i + ticks] == '`')
                ++ticks;
            const QByteArray fence(ticks, '`');
            const qsizetype close = raw.indexOf(fence, i + ticks);
            if (close > 0 && close + ticks <= to) {
                const qsizetype begin = segment.text.size();
                segment.text += raw.mid(i + ticks, close - i - ticks);
                addSpan(begin, fence, fence, true, i, close);
                i = close + ticks;
                continue;
            }
        }
        if (c == '!' && i + 1 < to && raw[i + 1] == '[') {
            static const QRegularExpression image(QStringLiteral(R"(^!\[[^\]]*\]\([^)]*\))"));
            const auto match = image.match(QString::fromUtf8(raw.mid(i, to - i)));
            if (match.hasMatch()) {
                const QByteArray whole = match.captured().toUtf8();
                addSpan(segment.text.size(), whole, {}, false, i, i);
                i += whole.size();
                continue;
            }
        }
        if (c == '[') {
            // [text](url): the text is translated, the url kept.
            int depth = 0;
            qsizetype close = -1;
            for (qsizetype k = i; k < to; ++k) {
                if (raw[k] == '[')
                    ++depth;
                else if (raw[k] == ']' && --depth == 0) {
                    close = k;
                    break;
                }
            }
            if (close > 0 && close + 1 < to && raw[close + 1] == '(') {
                const qsizetype end = raw.indexOf(')', close + 2);
                if (end > 0 && end < to) {
                    const qsizetype begin = segment.text.size();
                    const std::size_t index = segment.spans.size();
                    segment.spans.push_back({});
                    parseMarkdownInline(raw, i + 1, close, segment);
                    segment.spans[index] = {{begin, segment.text.size()},
                                            "[",
                                            raw.mid(close, end + 1 - close),
                                            false,
                                            int(i),
                                            int(close)};
                    i = end + 1;
                    continue;
                }
            }
        }
        if (c == '*' || c == '_') {
            const QByteArray marker =
                (i + 1 < to && raw[i + 1] == c) ? QByteArray(2, c) : QByteArray(1, c);
            const qsizetype inner = i + marker.size();
            const bool opens = inner < to && !isSpace(raw[inner]) &&
                               (c == '*' || i == from || !std::isalnum(uchar(raw[i - 1])));
            qsizetype close = opens ? raw.indexOf(marker, inner + 1) : -1;
            // A closing marker follows text, and a lone * is not half of a **.
            while (close > 0 && close < to &&
                   (isSpace(raw[close - 1]) ||
                    (marker.size() == 1 && close + 1 < to && raw[close + 1] == c)))
                close = raw.indexOf(marker, close + (marker.size() == 1 ? 2 : 1));
            if (close > 0 && close + marker.size() <= to) {
                const qsizetype begin = segment.text.size();
                const std::size_t index = segment.spans.size();
                segment.spans.push_back({});
                parseMarkdownInline(raw, inner, close, segment);
                segment.spans[index] = {
                    {begin, segment.text.size()}, marker, marker, false, int(i), int(close)};
                i = close + marker.size();
                continue;
            }
        }
        segment.text += c;
        ++i;
    }
}

Segment markdownSegment(const QByteArray &raw, int lines)
{
    Segment segment;
    segment.lines = lines;
    parseMarkdownInline(raw, 0, raw.size(), segment);
    for (qsizetype i = 0; i < segment.text.size(); ++i)
        if (segment.text[i] == '\n') {
            segment.breaks.push_back(i);
            segment.text[i] = ' ';
        }
    protectSpans(segment.text, segment.spans);
    return segment;
}

Document readMd(const QByteArray &bytes, const QString &name)
{
    static const QRegularExpression heading(QStringLiteral(R"(^(#{1,6}\s+))"));
    static const QRegularExpression item(
        QStringLiteral(R"(^((?:>\s?)*(?:[-*+]|\d{1,9}[.)])\s+(?:\[[ xX]\]\s+)?))"));
    static const QRegularExpression quote(QStringLiteral(R"(^((?:>\s?)+))"));
    static const QRegularExpression rule(QStringLiteral(R"(^([-*_]\s*){3,}$)"));
    static const QRegularExpression tableRule(QStringLiteral(R"(^\|?[\s:|-]+\|[\s:|-]*$)"));
    Document doc;
    doc.format = QStringLiteral("md");
    doc.lineBreak = lineBreakOf(bytes);
    const QByteArray bom = checkText(bytes, name);
    doc.appendSkeleton(bom);
    const std::vector<Line> lines = splitLines(bytes.mid(bom.size()));
    QByteArray paragraph, tail;
    int count = 0;
    auto flush = [&] {
        if (count > 0)
            doc.appendSegment(markdownSegment(paragraph, count));
        doc.appendSkeleton(tail);
        paragraph.clear();
        tail.clear();
        count = 0;
    };
    QByteArray fence;
    for (const Line &line : lines) {
        const QByteArray whole = line.indent + line.content + line.tail;
        if (!fence.isEmpty()) {
            doc.appendSkeleton(whole);
            if (line.content.startsWith(fence))
                fence.clear();
            continue;
        }
        if (line.content.startsWith("```") || line.content.startsWith("~~~")) {
            flush();
            fence = line.content.left(3);
            doc.appendSkeleton(whole);
            continue;
        }
        const QString content = QString::fromUtf8(line.content);
        const bool codeBlock =
            count == 0 && (line.indent.contains('\t') || line.indent.size() >= 4);
        if (line.content.isEmpty() || codeBlock || rule.match(content).hasMatch() ||
            (line.content.startsWith('<') && line.content.endsWith('>'))) {
            flush();
            doc.appendSkeleton(whole);
            continue;
        }
        if (line.content.startsWith('|')) {
            flush();
            if (tableRule.match(content).hasMatch()) {
                doc.appendSkeleton(whole);
                continue;
            }
            // Each cell its own segment; pipes and padding kept.
            doc.appendSkeleton(line.indent);
            qsizetype i = 0;
            while (i < line.content.size()) {
                qsizetype next = i + 1;
                while (next < line.content.size() &&
                       (line.content[next] != '|' || line.content[next - 1] == '\\'))
                    ++next;
                doc.appendSkeleton(line.content.mid(i, 1));
                const QByteArray cell = line.content.mid(i + 1, next - i - 1);
                const QByteArray trimmed = cell.trimmed();
                if (!trimmed.isEmpty()) {
                    const qsizetype lead = cell.indexOf(trimmed);
                    doc.appendSkeleton(cell.left(lead));
                    doc.appendSegment(markdownSegment(trimmed, 1));
                    doc.appendSkeleton(cell.mid(lead + trimmed.size()));
                } else {
                    doc.appendSkeleton(cell);
                }
                i = next;
            }
            doc.appendSkeleton(line.tail);
            continue;
        }
        QRegularExpressionMatch match = heading.match(content);
        if (!match.hasMatch())
            match = item.match(content);
        if (!match.hasMatch())
            match = quote.match(content);
        if (match.hasMatch()) {
            flush();
            const qsizetype prefix = match.captured(1).toUtf8().size();
            doc.appendSkeleton(line.indent + line.content.left(prefix));
            paragraph = line.content.mid(prefix);
            tail = line.tail;
            count = paragraph.isEmpty() ? 0 : 1;
            if (count == 0)
                doc.appendSkeleton(tail), tail.clear();
            continue;
        }
        if (count > 0 && line.indent.isEmpty() && tail == doc.lineBreak) {
            paragraph += '\n' + line.content;
            tail = line.tail;
            ++count;
            continue;
        }
        flush();
        doc.appendSkeleton(line.indent);
        paragraph = line.content;
        tail = line.tail;
        count = 1;
    }
    flush();
    return doc;
}

// ---- html ----

const QSet<QByteArray> &inlineElements()
{
    static const QSet<QByteArray> names = {
        "a",      "abbr", "b",   "bdi",  "bdo", "big",  "cite", "code", "data", "del",   "dfn",
        "em",     "font", "i",   "ins",  "kbd", "mark", "q",    "s",    "samp", "small", "span",
        "strong", "sub",  "sup", "time", "tt",  "u",    "var",  "br",   "img",  "wbr",   "label"};
    return names;
}

QByteArray decodeEntity(const QByteArray &entity)
{
    static const std::map<QByteArray, QByteArray> named = {{"amp", "&"},
                                                           {"lt", "<"},
                                                           {"gt", ">"},
                                                           {"quot", "\""},
                                                           {"apos", "'"},
                                                           {"nbsp", "\xC2\xA0"},
                                                           {"copy", "\xC2\xA9"},
                                                           {"reg", "\xC2\xAE"},
                                                           {"mdash", "\xE2\x80\x94"},
                                                           {"ndash", "\xE2\x80\x93"},
                                                           {"hellip", "\xE2\x80\xA6"},
                                                           {"lsquo", "\xE2\x80\x98"},
                                                           {"rsquo", "\xE2\x80\x99"},
                                                           {"ldquo", "\xE2\x80\x9C"},
                                                           {"rdquo", "\xE2\x80\x9D"},
                                                           {"laquo", "\xC2\xAB"},
                                                           {"raquo", "\xC2\xBB"},
                                                           {"euro", "\xE2\x82\xAC"}};
    if (entity.startsWith('#')) {
        bool ok = false;
        const uint code = entity.size() > 1 && (entity[1] == 'x' || entity[1] == 'X')
                              ? entity.mid(2).toUInt(&ok, 16)
                              : entity.mid(1).toUInt(&ok, 10);
        if (!ok || code == 0 || code > 0x10FFFF || (code >= 0xD800 && code <= 0xDFFF))
            return {};
        const char32_t c = code;
        return QString::fromUcs4(&c, 1).toUtf8();
    }
    const auto found = named.find(entity);
    return found == named.end() ? QByteArray() : found->second;
}

// What a markup reader treats specially; every other element is a block boundary.
struct MarkupRules
{
    QSet<QByteArray> inlines; // inside a sentence: become spans
    QSet<QByteArray> voids;   // inline and never closed (HTML's <br>)
    QSet<QByteArray> raw;     // content kept untouched up to the end tag
    QSet<QByteArray> code;    // inline whose text is kept verbatim
    QSet<QByteArray> spaces;  // inline that separates words (a line break, a tab)
    // Inline elements whose content is paragraphs of their own, kept in place inside the
    // sentence and translated as nested segments (ODF's <text:note>: a footnote written where
    // it is referenced).
    QSet<QByteArray> notes;
    // Attributes whose quoted values are text for people (alt, title): translated as segments.
    QSet<QByteArray> attributes;
};

const MarkupRules &htmlRules()
{
    // Alt and title texts are translated: a reader of the Spanish page hears the Spanish alt text
    // from a screen reader and sees the Spanish tooltip.
    static const MarkupRules rules{inlineElements(),
                                   {"br", "img", "wbr"},
                                   {"script", "style", "pre", "textarea"},
                                   {"code", "kbd", "samp", "var", "tt"},
                                   {"br"},
                                   {},
                                   {"alt", "title", "placeholder", "aria-label"}};
    return rules;
}

// OpenDocument text (content.xml, styles.xml): paragraphs and headings are blocks, spans, links,
// spaces, tabs, line breaks, bookmarks and note references are inline.
const MarkupRules &odfRules()
{
    static const MarkupRules rules{
        {"text:span", "text:a", "text:s", "text:tab", "text:line-break", "text:soft-page-break",
         "text:bookmark", "text:bookmark-start", "text:bookmark-end", "text:reference-mark",
         "text:reference-mark-start", "text:reference-mark-end", "text:note-ref", "text:sequence",
         "text:ruby", "text:ruby-base"},
        {},
        // A note's citation is its number or mark ("1", "*"): not text to translate.
        {"text:tracked-changes", "office:font-face-decls", "office:automatic-styles",
         "office:scripts", "text:note-citation"},
        {},
        {"text:s", "text:tab", "text:line-break"},
        // Footnotes and frames (text boxes) stay where they are in the sentence.
        {"text:note", "draw:frame"},
        {}};
    return rules;
}

// The index just after the '>' of the tag starting at `i` (quotes respected), or -1.
qsizetype tagEnd(const QByteArray &raw, qsizetype i)
{
    char quote = 0;
    for (qsizetype k = i + 1; k < raw.size(); ++k) {
        const char c = raw[k];
        if (quote) {
            if (c == quote)
                quote = 0;
        } else if (c == '"' || c == '\'') {
            quote = c;
        } else if (c == '>') {
            return k + 1;
        }
    }
    return -1;
}

class HtmlReader
{
public:
    // `boxes`: how many notes or frames this markup is nested in.
    HtmlReader(const QByteArray &bytes, const QString &name, const MarkupRules &rules,
               Document &doc, int boxes = 0)
        : m_bytes(bytes), m_name(name), m_rules(rules), m_doc(doc), m_boxes(boxes)
    {
        if (boxes > limits::kMaxBoxDepth)
            throw DocumentError(QStringLiteral("%1: notes or frames nest deeper than the limit "
                                               "of %2")
                                    .arg(m_name)
                                    .arg(limits::kMaxBoxDepth));
    }

    // `check`: the whole input is a document of its own (UTF-8, not empty, a BOM kept).
    void read(bool check)
    {
        const QByteArray bom = check ? checkText(m_bytes, m_name) : QByteArray();
        m_doc.appendSkeleton(bom);
        qsizetype i = bom.size();
        const qsizetype n = m_bytes.size();
        while (i < n) {
            if (m_bytes[i] != '<') {
                qsizetype end = m_bytes.indexOf('<', i + 1);
                end = end < 0 ? n : end;
                text(i, end);
                i = end;
                continue;
            }
            if (m_bytes.mid(i, 4) == "<!--") {
                const qsizetype end = m_bytes.indexOf("-->", i + 4);
                i = boundary(i, end < 0 ? n : end + 3);
                continue;
            }
            if (m_bytes.mid(i, 9) == "<![CDATA[") {
                const qsizetype end = m_bytes.indexOf("]]>", i);
                i = boundary(i, end < 0 ? n : end + 3);
                continue;
            }
            if (i + 1 < n && (m_bytes[i + 1] == '!' || m_bytes[i + 1] == '?')) {
                const qsizetype end = m_bytes.indexOf('>', i);
                i = boundary(i, end < 0 ? n : end + 1);
                continue;
            }
            const bool closing = i + 1 < n && m_bytes[i + 1] == '/';
            qsizetype k = i + (closing ? 2 : 1);
            const qsizetype nameStart = k;
            while (k < n && (std::isalnum(uchar(m_bytes[k])) || m_bytes[k] == '-' ||
                             m_bytes[k] == ':' || m_bytes[k] == '_'))
                ++k;
            if (k == nameStart || !std::isalpha(uchar(m_bytes[nameStart]))) {
                text(i, i + 1); // a lone '<' is text
                ++i;
                continue;
            }
            const QByteArray tagName = m_bytes.mid(nameStart, k - nameStart).toLower();
            // To the '>' that is not inside a quoted attribute value.
            char quoteChar = 0;
            while (k < n && (quoteChar || m_bytes[k] != '>')) {
                if (quoteChar && m_bytes[k] == quoteChar)
                    quoteChar = 0;
                else if (!quoteChar && (m_bytes[k] == '"' || m_bytes[k] == '\''))
                    quoteChar = m_bytes[k];
                ++k;
            }
            if (k >= n)
                throw DocumentError(QStringLiteral("%1: the tag '<%2' at offset %3 is not closed "
                                                   "with '>'")
                                        .arg(m_name, QString::fromUtf8(tagName))
                                        .arg(i));
            const qsizetype end = k + 1;
            const QByteArray raw = m_bytes.mid(i, end - i);
            if (!closing && m_rules.raw.contains(tagName) && !raw.endsWith("/>")) {
                // Raw content up to the matching end tag, untouched.
                const QByteArray close = "</" + tagName;
                qsizetype stop = m_bytes.toLower().indexOf(close, end);
                if (stop < 0)
                    stop = n;
                const qsizetype after = m_bytes.indexOf('>', stop);
                i = boundary(i, after < 0 ? n : after + 1);
                continue;
            }
            if (!closing && m_rules.notes.contains(tagName) && !raw.endsWith("/>")) {
                i = note(tagName, raw, end);
                continue;
            }
            if (!m_rules.inlines.contains(tagName)) {
                flush();
                // The tag is skeleton; its alt or title text gets a slot of its own.
                std::vector<NestedSegment> nested;
                const QByteArray open = closing ? raw : nestAttributes(raw, nested);
                qsizetype from = 0;
                for (const NestedSegment &n : nested) {
                    m_doc.appendSkeleton(open.mid(from, n.at - from));
                    m_doc.parts.push_back({{}, n.segment});
                    from = n.at;
                }
                m_doc.appendSkeleton(open.mid(from));
                i = end;
                continue;
            }
            inlineTag(tagName, raw, closing || raw.endsWith("/>"), closing);
            i = end;
        }
        flush();
    }

private:
    struct Open
    {
        QByteArray name;
        QByteArray raw;
        qsizetype begin;
        std::size_t index; // in m_segment.spans, reserved at the start tag
        int order;
        std::vector<NestedSegment> nested;
    };

    // `raw` without the values of the translated attributes, which become nested segments of
    // the document (at their places in the returned bytes).
    QByteArray nestAttributes(const QByteArray &raw, std::vector<NestedSegment> &nested)
    {
        if (m_rules.attributes.isEmpty())
            return raw;
        QByteArray open;
        qsizetype copied = 0;
        qsizetype k = 1;
        const qsizetype n = raw.size();
        while (k < n && !isSpace(raw[k]) && raw[k] != '>' && raw[k] != '/')
            ++k; // the tag name
        while (k < n) {
            while (k < n && (isSpace(raw[k]) || raw[k] == '/'))
                ++k;
            const qsizetype nameStart = k;
            while (k < n && !isSpace(raw[k]) && raw[k] != '=' && raw[k] != '>' && raw[k] != '/')
                ++k;
            const QByteArray name = raw.mid(nameStart, k - nameStart).toLower();
            if (name.isEmpty())
                break;
            qsizetype j = k;
            while (j < n && isSpace(raw[j]))
                ++j;
            if (j >= n || raw[j] != '=')
                continue; // an attribute without a value
            ++j;
            while (j < n && isSpace(raw[j]))
                ++j;
            if (j >= n)
                break;
            if (raw[j] != '"' && raw[j] != '\'') { // unquoted: to the next space or '>'
                k = j;
                while (k < n && !isSpace(raw[k]) && raw[k] != '>')
                    ++k;
                continue;
            }
            const qsizetype valueBegin = j + 1;
            const qsizetype valueEnd = raw.indexOf(raw[j], valueBegin);
            if (valueEnd < 0)
                break;
            k = valueEnd + 1;
            if (!m_rules.attributes.contains(name))
                continue;
            Segment segment;
            segment.attribute = true;
            for (qsizetype c = valueBegin; c < valueEnd; ++c) {
                if (isSpace(raw[c])) {
                    if (!segment.text.isEmpty() && !segment.text.endsWith(' '))
                        segment.text += ' ';
                    continue;
                }
                const qsizetype semicolon = raw.indexOf(';', c);
                if (raw[c] == '&' && semicolon > c && semicolon < valueEnd && semicolon - c <= 10) {
                    const QByteArray decoded = decodeEntity(raw.mid(c + 1, semicolon - c - 1));
                    if (!decoded.isEmpty()) {
                        segment.text += decoded;
                        c = semicolon;
                        continue;
                    }
                }
                segment.text += raw[c];
            }
            if (segment.text.endsWith(' '))
                segment.text.chop(1);
            if (segment.text.trimmed().isEmpty())
                continue;
            protectSpans(segment.text, segment.spans);
            open += raw.mid(copied, valueBegin - copied);
            nested.push_back({open.size(), m_doc.appendNested(std::move(segment))});
            copied = valueEnd;
        }
        return open + raw.mid(copied);
    }

    // An element kept inline whose content is read as paragraphs of its own (a footnote): one
    // empty span holding it all, its paragraphs nested. Returns where reading goes on.
    qsizetype note(const QByteArray &name, const QByteArray &raw, qsizetype contentBegin)
    {
        // The matching end tag: not </text:note-citation>, and past the end of a frame inside
        // a frame's text box.
        auto tagAt = [&](qsizetype k, qsizetype length) {
            return k + length < m_bytes.size() &&
                   (m_bytes[k + length] == '>' || m_bytes[k + length] == '/' ||
                    isSpace(m_bytes[k + length]));
        };
        const QByteArray startTag = "<" + name, endTag = "</" + name;
        qsizetype stop = contentBegin;
        for (int depth = 1; depth > 0;) {
            stop = m_bytes.indexOf('<', stop);
            if (stop < 0) {
                stop = m_bytes.size();
                break;
            }
            if (m_bytes.mid(stop, endTag.size()) == endTag && tagAt(stop, endTag.size()))
                --depth;
            else if (m_bytes.mid(stop, startTag.size()) == startTag &&
                     tagAt(stop, startTag.size()) &&
                     !m_bytes.mid(stop, tagEnd(m_bytes, stop) - stop).endsWith("/>"))
                ++depth;
            if (depth > 0)
                ++stop;
        }
        qsizetype after = m_bytes.indexOf('>', stop);
        after = after < 0 ? m_bytes.size() : after + 1;
        m_trail.clear();
        const qsizetype at = m_segment.text.size();
        const int order = ++m_order;
        InlineSpan span{{at, at}, raw, {}, false, order, order};
        const QByteArray content = m_bytes.mid(contentBegin, stop - contentBegin);
        Document inner;
        inner.escaping = m_doc.escaping;
        HtmlReader(content, m_name, m_rules, inner, m_boxes + 1).read(false);
        m_doc.nestInto(std::move(inner), span);
        span.open += m_bytes.mid(stop, after - stop);
        m_segment.spans.push_back(std::move(span));
        return after;
    }

    void text(qsizetype from, qsizetype to)
    {
        for (qsizetype i = from; i < to; ++i) {
            const char c = m_bytes[i];
            if (isSpace(c)) {
                if (m_segment.text.isEmpty() && m_segment.spans.empty()) {
                    m_lead += c;
                } else {
                    m_trail += c;
                    const qsizetype last = m_segment.text.size() - 1;
                    if (!m_segment.text.endsWith(' ')) {
                        m_segment.text += ' ';
                        m_run = {last + 1, {}};
                    } else if (m_run.first < 0 && !m_segment.asRead.empty() &&
                               m_segment.asRead.back().first.begin == last &&
                               m_segment.asRead.back().second.isEmpty()) {
                        // The space a <br> added: this white space is what it stands for.
                        m_segment.asRead.pop_back();
                        m_run = {last, {}};
                    }
                    if (m_run.first == m_segment.text.size() - 1)
                        m_run.second += c;
                }
                continue;
            }
            m_trail.clear();
            endRun();
            if (c == '&') {
                const qsizetype semicolon = m_bytes.indexOf(';', i);
                if (semicolon > i && semicolon < to && semicolon - i <= 10) {
                    const QByteArray entity = m_bytes.mid(i + 1, semicolon - i - 1);
                    const QByteArray decoded = decodeEntity(entity);
                    if (!decoded.isEmpty()) {
                        const qsizetype at = m_segment.text.size();
                        m_segment.text += decoded;
                        m_segment.asRead.push_back(
                            {{at, m_segment.text.size()}, m_bytes.mid(i, semicolon + 1 - i)});
                    } else {
                        // Unknown: kept as written, in its place.
                        ++m_order;
                        m_segment.spans.push_back({{m_segment.text.size(), m_segment.text.size()},
                                                   m_bytes.mid(i, semicolon + 1 - i),
                                                   {},
                                                   false,
                                                   m_order,
                                                   m_order});
                    }
                    i = semicolon;
                    continue;
                }
            }
            m_segment.text += c;
        }
    }

    // A run of white space folded to the one space of the text: kept when it was anything else,
    // so that the untranslated paragraph is written back as it was read (Segment::asRead).
    void endRun()
    {
        if (m_run.first >= 0 && m_run.second != " ")
            m_segment.asRead.push_back({{m_run.first, m_run.first + 1}, m_run.second});
        m_run = {-1, {}};
    }

    void inlineTag(const QByteArray &name, const QByteArray &raw, bool selfClosing, bool closing)
    {
        m_trail.clear();
        endRun();
        const qsizetype at = m_segment.text.size();
        const int order = ++m_order;
        if (closing) {
            for (auto open = m_open.rbegin(); open != m_open.rend(); ++open) {
                if (open->name != name)
                    continue;
                // Close it and everything opened inside it and left open.
                const std::size_t keep = std::distance(open, m_open.rend()) - 1;
                for (std::size_t k = m_open.size(); k-- > keep;) {
                    const Open &o = m_open[k];
                    m_segment.spans[o.index] = {{o.begin, at},
                                                o.raw,
                                                k == keep ? raw : "",
                                                k == keep && m_rules.code.contains(o.name),
                                                o.order,
                                                k == keep ? order : o.order,
                                                false,
                                                o.nested};
                }
                m_open.resize(keep);
                return;
            }
            // Opened in an earlier block.
            m_segment.spans.push_back({{at, at}, raw, {}, false, order, order});
            return;
        }
        std::vector<NestedSegment> nested;
        const QByteArray open = nestAttributes(raw, nested);
        if (selfClosing || m_rules.voids.contains(name)) {
            m_segment.spans.push_back({{at, at}, open, {}, false, order, order, false, nested});
            // A line break separates words: "a<br>b" is read as "a b".
            if (m_rules.spaces.contains(name) && !m_segment.text.isEmpty() &&
                !m_segment.text.endsWith(' ')) {
                m_segment.text += ' ';
                m_segment.asRead.push_back(
                    {{m_segment.text.size() - 1, m_segment.text.size()}, {}}); // not in the source
            }
            return;
        }
        if (m_open.size() >= std::size_t(limits::kMaxMarkupDepth))
            throw DocumentError(QStringLiteral("%1: inline elements nest deeper than the limit "
                                               "of %2")
                                    .arg(m_name)
                                    .arg(limits::kMaxMarkupDepth));
        m_open.push_back({name, open, at, m_segment.spans.size(), order, nested});
        m_segment.spans.push_back({{at, at}, open, {}, false, order, order, false, nested});
    }

    qsizetype boundary(qsizetype from, qsizetype to)
    {
        flush();
        m_doc.appendSkeleton(m_bytes.mid(from, to - from));
        return to;
    }

    void flush()
    {
        // Tags left open stay where they were, as empty spans (their close is in a later block).
        for (const Open &o : m_open)
            m_segment.spans[o.index] = {
                {o.begin, o.begin}, o.raw, {}, false, o.order, o.order, false, o.nested};
        m_open.clear();
        m_order = 0;
        m_doc.appendSkeleton(m_lead);
        // Trailing white space after the last tag goes back as it was written.
        qsizetype lastSpan = 0;
        for (const InlineSpan &span : m_segment.spans)
            lastSpan = std::max(lastSpan, span.range.end);
        QByteArray trail;
        if (m_segment.text.endsWith(' ') && lastSpan < m_segment.text.size() &&
            !m_trail.isEmpty()) {
            m_segment.text.chop(1);
            trail = m_trail;
            m_run = {-1, {}}; // written as skeleton
            while (!m_segment.asRead.empty() &&
                   m_segment.asRead.back().first.end > m_segment.text.size())
                m_segment.asRead.pop_back();
        }
        endRun();
        std::stable_sort(m_segment.spans.begin(), m_segment.spans.end(),
                         [](const InlineSpan &a, const InlineSpan &b) {
                             return a.range.begin != b.range.begin ? a.range.begin < b.range.begin
                                                                   : a.range.end > b.range.end;
                         });
        protectSpans(m_segment.text, m_segment.spans);
        m_doc.appendSegment(std::move(m_segment));
        m_doc.appendSkeleton(trail);
        m_segment = Segment();
        m_lead.clear();
        m_trail.clear();
    }

    const QByteArray &m_bytes;
    QString m_name;
    const MarkupRules &m_rules;
    Document &m_doc;
    const int m_boxes;
    Segment m_segment;
    std::vector<Open> m_open;
    QByteArray m_lead;  // white space before the segment's first text or tag
    QByteArray m_trail; // white space after its last text or tag
    std::pair<qsizetype, QByteArray> m_run{-1, {}}; // the white space run being read
    int m_order = 0;    // tags seen in the current segment
};

// The zip checks shared by the office formats: not empty, not an encrypted (OLE) container.
std::vector<ZipEntry> openArchive(const QByteArray &bytes, const QString &name)
{
    if (bytes.isEmpty())
        throw DocumentError(QStringLiteral("%1 is empty (0 bytes)").arg(name));
    if (bytes.startsWith("\xD0\xCF\x11\xE0\xA1\xB1\x1A\xE1"))
        throw DocumentError(QStringLiteral("%1 is password-protected (encrypted) or in an old "
                                           "binary format; save it without a password as .odt or "
                                           ".docx first")
                                .arg(name));
    return readZip(bytes, name);
}

const ZipEntry *findEntry(const std::vector<ZipEntry> &entries, const QString &name)
{
    for (const ZipEntry &entry : entries)
        if (entry.name == name)
            return &entry;
    return nullptr;
}

Document readOdt(const QByteArray &bytes, const QString &name)
{
    Document doc;
    doc.format = QStringLiteral("odt");
    doc.escaping = TextEscaping::Xml;
    doc.archive = openArchive(bytes, name);
    const ZipEntry *mimetype = findEntry(doc.archive, QStringLiteral("mimetype"));
    if (!mimetype || !mimetype->data.startsWith("application/vnd.oasis.opendocument.text"))
        throw DocumentError(QStringLiteral("%1 is not an OpenDocument text (mimetype '%2')")
                                .arg(name, mimetype ? QString::fromUtf8(mimetype->data.left(80))
                                                    : QStringLiteral("missing")));
    const ZipEntry *manifest = findEntry(doc.archive, QStringLiteral("META-INF/manifest.xml"));
    if (manifest && manifest->data.contains("encryption-data"))
        throw DocumentError(QStringLiteral("%1 is password-protected (encrypted); save it "
                                           "without a password first")
                                .arg(name));
    const ZipEntry *content = findEntry(doc.archive, QStringLiteral("content.xml"));
    if (!content)
        throw DocumentError(QStringLiteral("%1 is corrupt: it has no content.xml").arg(name));
    for (const QString entryName : {QStringLiteral("content.xml"), QStringLiteral("styles.xml")}) {
        const ZipEntry *entry = findEntry(doc.archive, entryName);
        if (!entry)
            continue;
        const QString label = name + QLatin1Char(':') + entryName;
        const std::size_t bad =
            engine::findInvalidUtf8({entry->data.constData(), std::size_t(entry->data.size())});
        if (bad != std::string_view::npos)
            throw DocumentError(
                QStringLiteral("%1 is corrupt: not UTF-8 at offset %2").arg(label).arg(bad));
        doc.parts.push_back({{}, -1, entryName});
        HtmlReader(entry->data, label, odfRules(), doc).read(false);
    }
    if (doc.segments.empty())
        throw DocumentError(QStringLiteral("%1 is empty: there is no text to translate").arg(name));
    return doc;
}

// ---- docx ----

QByteArray tagNameAt(const QByteArray &raw, qsizetype i)
{
    qsizetype k = i + 1;
    if (k < raw.size() && raw[k] == '/')
        ++k;
    const qsizetype start = k;
    while (k < raw.size() && !isSpace(raw[k]) && raw[k] != '>' && raw[k] != '/')
        ++k;
    return raw.mid(start, k - start);
}

// The end of the element whose start tag is at `i` (just after its end tag), or -1.
qsizetype elementEnd(const QByteArray &raw, qsizetype i)
{
    qsizetype end = tagEnd(raw, i);
    if (end < 0 || raw[end - 2] == '/')
        return end;
    int depth = 1;
    while (depth > 0) {
        const qsizetype next = raw.indexOf('<', end);
        if (next < 0)
            return -1;
        end = tagEnd(raw, next);
        if (end < 0)
            return -1;
        if (raw[next + 1] == '/')
            --depth;
        else if (raw[next + 1] != '?' && raw[next + 1] != '!' && raw[end - 2] != '/')
            ++depth;
    }
    return end;
}

QByteArray decodeXmlText(const QByteArray &raw)
{
    QByteArray out;
    for (qsizetype i = 0; i < raw.size(); ++i) {
        if (raw[i] == '&') {
            const qsizetype semicolon = raw.indexOf(';', i);
            if (semicolon > i) {
                const QByteArray decoded = decodeEntity(raw.mid(i + 1, semicolon - i - 1));
                if (!decoded.isEmpty()) {
                    out += decoded;
                    i = semicolon;
                    continue;
                }
            }
        }
        out += raw[i];
    }
    return out;
}

// Word paragraphs (<w:p>) of one part (document, footnotes, endnotes, headers, footers) as
// segments. A text run becomes one tile span per <w:t> (the run's properties repeated), so the
// translation can be split among the source's runs by the alignment; hyperlinks (and smart tags,
// tracked insertions) are spans around their runs; anything else inside the paragraph (tabs,
// breaks, bookmarks, fields, drawings) is kept whole at its place. A text box (<w:txbxContent>,
// in DrawingML and in its VML fallback) is kept whole too, its paragraphs read as nested
// segments.
class DocxReader
{
public:
    // `boxes`: how many text boxes this markup is nested in.
    DocxReader(const QByteArray &xml, Document &doc, int boxes = 0)
        : m_xml(xml), m_doc(doc), m_boxes(boxes)
    {
        if (boxes > limits::kMaxBoxDepth)
            throw DocumentError(QStringLiteral("text boxes nest deeper than the limit of %1")
                                    .arg(limits::kMaxBoxDepth));
    }

    void read()
    {
        qsizetype i = 0;
        while (i < m_xml.size()) {
            qsizetype p = m_xml.indexOf("<w:p", i);
            while (p >= 0 && p + 4 < m_xml.size() && !isSpace(m_xml[p + 4]) &&
                   m_xml[p + 4] != '>' && m_xml[p + 4] != '/')
                p = m_xml.indexOf("<w:p", p + 4);
            if (p < 0) {
                m_doc.appendSkeleton(m_xml.mid(i));
                return;
            }
            m_doc.appendSkeleton(m_xml.mid(i, p - i));
            const qsizetype end = elementEnd(m_xml, p);
            if (end < 0)
                throw DocumentError(QStringLiteral("a <w:p> at offset %1 is not closed").arg(p));
            paragraph(m_xml.mid(p, end - p));
            i = end;
        }
    }

private:
    void paragraph(const QByteArray &raw)
    {
        const qsizetype open = tagEnd(raw, 0);
        const qsizetype close = raw.lastIndexOf("</w:p>");
        if (raw[open - 2] == '/' || close < open ||
            ((raw.indexOf("<w:p ", open) >= 0 || raw.indexOf("<w:p>", open) >= 0) &&
             !raw.contains("<w:txbxContent"))) {
            m_doc.appendSkeleton(raw);
            return;
        }
        m_segment = Segment();
        m_items.clear();
        children(raw, open, close, 1);
        // Leading and trailing items without text stay outside the segment.
        std::size_t first = 0, last = m_items.size();
        while (first < last && !m_items[first].text)
            ++first;
        while (last > first && !m_items[last - 1].text)
            --last;
        const bool boxes = std::any_of(m_items.begin(), m_items.end(),
                                       [](const Item &item) { return item.inner != nullptr; });
        // Items outside the segment: skeleton, but a text box keeps its paragraphs' slots.
        auto outside = [&](std::size_t from, std::size_t to) {
            for (std::size_t k = from; k < to; ++k) {
                if (m_items[k].inner)
                    m_doc.appendParts(Document(*m_items[k].inner));
                else
                    m_doc.appendSkeleton(m_items[k].raw);
            }
        };
        if (first == last) {
            if (!boxes) {
                m_doc.appendSkeleton(raw);
            } else {
                m_doc.appendSkeleton(raw.left(open));
                outside(0, m_items.size());
                m_doc.appendSkeleton(raw.mid(close));
            }
            return;
        }
        m_doc.appendSkeleton(raw.left(open));
        outside(0, first);
        // Containers (<w:hyperlink>) opened or closed outside [first, last) stay whole there.
        std::vector<std::pair<qsizetype, std::size_t>> containers; // text position, item
        int order = 0;
        for (std::size_t k = first; k < last; ++k) {
            const Item &item = m_items[k];
            const qsizetype at = m_segment.text.size();
            ++order;
            if (item.kind == Item::Text) {
                m_segment.text += item.decoded;
                m_segment.spans.push_back(
                    {{at, m_segment.text.size()}, item.raw, item.close, false, order, order, true});
            } else if (item.kind == Item::ContainerOpen) {
                containers.push_back({at, k});
                m_segment.spans.push_back({{at, at}, item.raw, {}, false, order, order});
                containers.back().second = m_segment.spans.size() - 1;
            } else if (item.kind == Item::ContainerClose && !containers.empty()) {
                InlineSpan &span = m_segment.spans[containers.back().second];
                span.range.end = at;
                span.close = item.raw;
                span.closeOrder = order;
                containers.pop_back();
            } else if (item.inner) {
                InlineSpan span{{at, at}, {}, {}, false, order, order};
                m_doc.nestInto(Document(*item.inner), span);
                m_segment.spans.push_back(std::move(span));
            } else {
                m_segment.spans.push_back({{at, at}, item.raw, {}, false, order, order});
                // A tab or a line break separates words: the run before it gets a space.
                if (item.separates && !m_segment.text.isEmpty() && !m_segment.text.endsWith(' '))
                    for (auto span = m_segment.spans.rbegin(); span != m_segment.spans.rend();
                         ++span)
                        if (span->tile) {
                            if (span->range.end == m_segment.text.size()) {
                                m_segment.text += ' ';
                                ++span->range.end;
                                m_segment.spans.back().range = {m_segment.text.size(),
                                                                m_segment.text.size()};
                            }
                            break;
                        }
            }
        }
        std::stable_sort(m_segment.spans.begin(), m_segment.spans.end(),
                         [](const InlineSpan &a, const InlineSpan &b) {
                             return a.range.begin != b.range.begin ? a.range.begin < b.range.begin
                                                                   : a.range.end > b.range.end;
                         });
        protectSpans(m_segment.text, m_segment.spans);
        m_doc.appendSegment(std::move(m_segment));
        outside(last, m_items.size());
        m_doc.appendSkeleton(raw.mid(close));
    }

    struct Item
    {
        enum Kind { Text, ContainerOpen, ContainerClose, Other } kind = Other;
        QByteArray raw;         // the markup (for Text: run start, properties and <w:t>)
        QByteArray close;       // Text: </w:t></w:r>
        QByteArray decoded;     // Text: the text
        bool text = false;      // holds text, directly or inside
        bool separates = false; // a tab or break inside a run
        // A text box's markup read on its own: skeleton and its paragraphs' segments.
        std::shared_ptr<const Document> inner;
    };

    void children(const QByteArray &raw, qsizetype from, qsizetype to, int depth)
    {
        if (depth > limits::kMaxMarkupDepth)
            throw DocumentError(QStringLiteral("elements nest deeper than the limit of %1")
                                    .arg(limits::kMaxMarkupDepth));
        qsizetype i = from;
        while (i < to) {
            const qsizetype next = raw.indexOf('<', i);
            if (next < 0 || next >= to)
                break; // white space between elements
            const QByteArray name = tagNameAt(raw, next);
            const qsizetype end = elementEnd(raw, next);
            if (end < 0 || end > to)
                throw DocumentError(
                    QStringLiteral("a <%1> is not closed").arg(QString::fromUtf8(name)));
            // A view: a copy at every level of nesting costs the depth times the size.
            const QByteArrayView element(raw.constData() + next, end - next);
            if (element.contains("<w:txbxContent")) {
                const QByteArray whole = raw.mid(i, end - i);
                auto inner = std::make_shared<Document>();
                inner->escaping = m_doc.escaping;
                DocxReader(whole, *inner, m_boxes + 1).read();
                m_items.push_back({Item::Other, whole});
                m_items.back().inner = std::move(inner);
            } else if (name == "w:r" && element.contains("<w:t")) {
                run(element.toByteArray());
            } else if ((name == "w:hyperlink" || name == "w:smartTag" || name == "w:ins") &&
                       raw[tagEnd(raw, next) - 2] != '/') {
                const qsizetype openEnd = tagEnd(raw, next);
                const qsizetype closeStart = raw.lastIndexOf('<', end - 1);
                const std::size_t start = m_items.size();
                m_items.push_back({Item::ContainerOpen, raw.mid(next, openEnd - next)});
                children(raw, openEnd, closeStart, depth + 1);
                bool text = false;
                for (std::size_t k = start + 1; k < m_items.size(); ++k)
                    text = text || m_items[k].text;
                m_items[start].text = text;
                m_items.push_back({Item::ContainerClose, raw.mid(closeStart, end - closeStart)});
                m_items.back().text = text;
            } else {
                m_items.push_back({Item::Other, raw.mid(i, end - i)});
            }
            i = end;
        }
    }

    void run(const QByteArray &element)
    {
        const qsizetype openEnd = tagEnd(element, 0);
        const qsizetype closeStart = element.lastIndexOf("</w:r>");
        QByteArray head = element.left(openEnd);
        qsizetype i = openEnd;
        const qsizetype properties = element.indexOf("<w:rPr", openEnd);
        if (properties >= 0 && element.left(properties).mid(openEnd).trimmed().isEmpty()) {
            const qsizetype end = elementEnd(element, properties);
            head = element.left(end);
            i = end;
        }
        while (i < closeStart) {
            const qsizetype next = element.indexOf('<', i);
            if (next < 0 || next >= closeStart)
                break;
            const qsizetype end = elementEnd(element, next);
            const QByteArray name = tagNameAt(element, next);
            if (name == "w:t") {
                const qsizetype textStart = tagEnd(element, next);
                QByteArray tag = element.mid(next, textStart - next);
                if (tag.endsWith("/>")) {
                    i = end;
                    continue;
                }
                // Spaces at the ends of a translated run matter: keep them.
                if (!tag.contains("xml:space"))
                    tag = "<w:t xml:space=\"preserve\">";
                const qsizetype textEnd = element.lastIndexOf("</w:t>", end);
                Item item{Item::Text, head + tag, "</w:t></w:r>",
                          decodeXmlText(element.mid(textStart, textEnd - textStart)), true};
                m_items.push_back(item);
            } else {
                m_items.push_back({Item::Other, head + element.mid(next, end - next) + "</w:r>"});
                m_items.back().separates = name == "w:tab" || name == "w:br" || name == "w:cr";
            }
            i = end;
        }
    }

    const QByteArray &m_xml;
    Document &m_doc;
    const int m_boxes;
    Segment m_segment;
    std::vector<Item> m_items;
};

Document readDocx(const QByteArray &bytes, const QString &name)
{
    Document doc;
    doc.format = QStringLiteral("docx");
    doc.escaping = TextEscaping::Xml;
    doc.archive = openArchive(bytes, name);
    if (!findEntry(doc.archive, QStringLiteral("[Content_Types].xml")) ||
        !findEntry(doc.archive, QStringLiteral("word/document.xml")))
        throw DocumentError(
            QStringLiteral("%1 is not a Word document (no word/document.xml)").arg(name));
    static const QRegularExpression parts(
        QStringLiteral(R"(^word/(document|footnotes|endnotes|header\d*|footer\d*)\.xml$)"));
    for (const ZipEntry &entry : doc.archive) {
        if (!parts.match(entry.name).hasMatch())
            continue;
        const QString label = name + QLatin1Char(':') + entry.name;
        const std::size_t bad =
            engine::findInvalidUtf8({entry.data.constData(), std::size_t(entry.data.size())});
        if (bad != std::string_view::npos)
            throw DocumentError(
                QStringLiteral("%1 is corrupt: not UTF-8 at offset %2").arg(label).arg(bad));
        doc.parts.push_back({{}, -1, entry.name});
        try {
            DocxReader(entry.data, doc).read();
        } catch (const DocumentError &error) {
            throw DocumentError(QStringLiteral("%1 is corrupt: %2").arg(label, error.message()));
        }
    }
    if (doc.segments.empty())
        throw DocumentError(QStringLiteral("%1 is empty: there is no text to translate").arg(name));
    return doc;
}

// ---- pdf (in only) ----

// The text of every page (QtPdf / pdfium), lines as pdfium gives them, read like a .txt file:
// lines join into paragraphs when they do not end a sentence and the next starts in lower case;
// pages are separated by a blank line. Written out as .txt or .html paragraphs.
Document readPdf(const QString &path, const QString &name)
{
    if (const QFileInfo file(path); file.exists() && file.size() == 0) // QtPdf: "invalid"
        throw DocumentError(QStringLiteral("%1 is empty (0 bytes)").arg(name));
    QPdfDocument pdf;
    const QPdfDocument::Error error = pdf.load(path);
    switch (error) {
    case QPdfDocument::Error::None:
        break;
    case QPdfDocument::Error::FileNotFound:
        throw DocumentError(QStringLiteral("cannot open %1: no such file").arg(name));
    case QPdfDocument::Error::IncorrectPassword:
    case QPdfDocument::Error::UnsupportedSecurityScheme:
        throw DocumentError(QStringLiteral("%1 is password-protected (encrypted); save it without "
                                           "a password first")
                                .arg(name));
    case QPdfDocument::Error::InvalidFileFormat:
        throw DocumentError(QStringLiteral("%1 is corrupt: not a readable PDF").arg(name));
    default:
        throw DocumentError(QStringLiteral("%1 cannot be read as a PDF (QtPdf error %2)")
                                .arg(name)
                                .arg(int(error)));
    }
    QByteArray text;
    for (int page = 0; page < pdf.pageCount(); ++page) {
        const QString all = pdf.getAllText(page).text();
        // Lines with where they sit; a gap well above the usual line spacing ends a block.
        struct Line
        {
            QString text;
            qreal top;
        };
        std::vector<Line> lines;
        qsizetype start = 0;
        while (start <= all.size()) {
            qsizetype end = all.indexOf(QLatin1Char('\n'), start);
            if (end < 0)
                end = all.size();
            QString line = all.mid(start, end - start);
            if (line.endsWith(QLatin1Char('\r')))
                line.chop(1);
            line.remove(QChar(0x0002)); // pdfium's soft hyphen marker
            if (!line.trimmed().isEmpty()) {
                const QPdfSelection selection =
                    pdf.getSelectionAtIndex(page, int(start), int(line.size()));
                lines.push_back({line.trimmed(), selection.boundingRectangle().top()});
            }
            start = end + 1;
        }
        std::vector<qreal> gaps;
        for (std::size_t i = 1; i < lines.size(); ++i)
            gaps.push_back(lines[i].top - lines[i - 1].top);
        std::vector<qreal> sorted = gaps;
        std::sort(sorted.begin(), sorted.end());
        // The usual spacing: the lower quartile (most gaps in a page are between lines).
        const qreal usual = sorted.empty() ? 0 : sorted[sorted.size() / 4];
        if (!text.isEmpty() && !lines.empty())
            text += "\n\n";
        for (std::size_t i = 0; i < lines.size(); ++i) {
            if (i > 0)
                text += usual > 0 && gaps[i - 1] > 1.5 * usual ? "\n\n" : "\n";
            text += lines[i].text.toUtf8();
        }
    }
    if (text.trimmed().isEmpty())
        throw DocumentError(QStringLiteral("%1 has no text to translate (a scanned PDF needs text "
                                           "recognition first)")
                                .arg(name));
    Document doc = readTxt(text + '\n', name);
    doc.format = QStringLiteral("pdf");
    return doc;
}

// The paragraphs of a document read from a PDF (translated, else as read), each on one line,
// XML-escaped and wrapped in `open` … `close`, between `head` and `tail`: the body of the
// .html, .odt and .docx written for it.
QByteArray paragraphsAsXml(const Document &document, const QByteArray &head, const QByteArray &open,
                           const QByteArray &close, const QByteArray &tail)
{
    QByteArray out = head;
    for (const Segment &segment : document.segments) {
        Segment copy = segment;
        copy.lines = 1;
        out += open + renderSegment(copy, TextEscaping::Xml) + close;
    }
    return out + tail;
}

QByteArray pdfAsHtml(const Document &document)
{
    return paragraphsAsXml(
        document, "<!DOCTYPE html>\n<html>\n<head><meta charset=\"utf-8\"></head>\n<body>\n", "<p>",
        "</p>\n", "</body>\n</html>\n");
}

// A minimal OpenDocument text (ODF 1.2 package: mimetype stored first, manifest, content) with one
// <text:p> per paragraph; LibreOffice and Word open it.
QByteArray pdfAsOdt(const Document &document)
{
    const QByteArray content = paragraphsAsXml(
        document,
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        "<office:document-content "
        "xmlns:office=\"urn:oasis:names:tc:opendocument:xmlns:office:1.0\" "
        "xmlns:text=\"urn:oasis:names:tc:opendocument:xmlns:text:1.0\" office:version=\"1.2\">"
        "<office:body><office:text>",
        "<text:p>", "</text:p>\n", "</office:text></office:body></office:document-content>\n");
    const QByteArray manifest =
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        "<manifest:manifest xmlns:manifest=\"urn:oasis:names:tc:opendocument:xmlns:manifest:1.0\" "
        "manifest:version=\"1.2\">"
        "<manifest:file-entry manifest:full-path=\"/\" manifest:version=\"1.2\" "
        "manifest:media-type=\"application/vnd.oasis.opendocument.text\"/>"
        "<manifest:file-entry manifest:full-path=\"content.xml\" manifest:media-type=\"text/xml\"/>"
        "</manifest:manifest>\n";
    return writeZip({{QStringLiteral("mimetype"), "application/vnd.oasis.opendocument.text", true},
                     {QStringLiteral("META-INF/manifest.xml"), manifest, false},
                     {QStringLiteral("content.xml"), content, false}});
}

// A minimal WordprocessingML document (content types, package relationship, document part)
// with one <w:p> per paragraph.
QByteArray pdfAsDocx(const Document &document)
{
    const QByteArray body = paragraphsAsXml(
        document,
        "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>\n"
        "<w:document xmlns:w=\"http://schemas.openxmlformats.org/wordprocessingml/2006/main\">"
        "<w:body>",
        "<w:p><w:r><w:t xml:space=\"preserve\">", "</w:t></w:r></w:p>\n",
        "</w:body></w:document>\n");
    const QByteArray types =
        "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>\n"
        "<Types xmlns=\"http://schemas.openxmlformats.org/package/2006/content-types\">"
        "<Default Extension=\"rels\" "
        "ContentType=\"application/vnd.openxmlformats-package.relationships+xml\"/>"
        "<Default Extension=\"xml\" ContentType=\"application/xml\"/>"
        "<Override PartName=\"/word/document.xml\" ContentType=\"application/"
        "vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml\"/></Types>\n";
    const QByteArray rels =
        "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>\n"
        "<Relationships xmlns=\"http://schemas.openxmlformats.org/package/2006/relationships\">"
        "<Relationship Id=\"rId1\" Type=\"http://schemas.openxmlformats.org/officeDocument/2006/"
        "relationships/officeDocument\" Target=\"word/document.xml\"/></Relationships>\n";
    return writeZip({{QStringLiteral("[Content_Types].xml"), types, false},
                     {QStringLiteral("_rels/.rels"), rels, false},
                     {QStringLiteral("word/document.xml"), body, false}});
}

} // namespace

QStringList supportedFormats()
{
    return {QStringLiteral("txt"),      QStringLiteral("srt"),  QStringLiteral("md"),
            QStringLiteral("markdown"), QStringLiteral("html"), QStringLiteral("htm"),
            QStringLiteral("odt"),      QStringLiteral("docx"), QStringLiteral("pdf")};
}

QString formatForPath(const QString &path)
{
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix == QLatin1String("htm") || suffix == QLatin1String("xhtml"))
        return QStringLiteral("html");
    if (suffix == QLatin1String("markdown"))
        return QStringLiteral("md");
    if (suffix == QLatin1String("txt") || suffix == QLatin1String("srt") ||
        suffix == QLatin1String("md") || suffix == QLatin1String("html") ||
        suffix == QLatin1String("odt") || suffix == QLatin1String("docx") ||
        suffix == QLatin1String("pdf"))
        return suffix;
    return {};
}

Document parseDocument(const QByteArray &bytes, const QString &format, const QString &name)
{
    const QString label = name.isEmpty() ? QStringLiteral("the document") : name;
    if (format == QLatin1String("txt") || format == QLatin1String("srt") ||
        format == QLatin1String("md")) {
        // Plain text files come in other encodings too: read them as UTF-8, write them back.
        const QString encoding = detectEncoding(bytes);
        const QByteArray utf8 = decodeText(bytes, encoding, label);
        Document doc = format == QLatin1String("txt")   ? readTxt(utf8, label)
                       : format == QLatin1String("srt") ? readSrt(utf8, label)
                                                        : readMd(utf8, label);
        if (!encoding.isEmpty())
            doc.encoding = encoding;
        return doc;
    }
    if (format == QLatin1String("html")) {
        Document doc;
        doc.format = QStringLiteral("html");
        doc.escaping = TextEscaping::Xml;
        doc.lineBreak = lineBreakOf(bytes);
        HtmlReader(bytes, label, htmlRules(), doc).read(true);
        return doc;
    }
    if (format == QLatin1String("odt"))
        return readOdt(bytes, label);
    if (format == QLatin1String("docx"))
        return readDocx(bytes, label);
    throw DocumentError(QStringLiteral("%1: unsupported format '%2' (supported: %3)")
                            .arg(label, format, supportedFormats().join(QStringLiteral(", "))));
}

Document readDocument(const QString &path)
{
    const QString format = formatForPath(path);
    if (format.isEmpty())
        throw DocumentError(QStringLiteral("%1: unsupported file type '.%2' (supported: %3)")
                                .arg(path, QFileInfo(path).suffix(),
                                     supportedFormats().join(QStringLiteral(", "))));
    if (format == QLatin1String("pdf"))
        return readPdf(path, path);
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        throw DocumentError(QStringLiteral("cannot open %1: %2").arg(path, file.errorString()));
    return parseDocument(file.readAll(), format, path);
}

QByteArray plainText(const Document &document)
{
    QByteArray out;
    for (const Segment &segment : document.segments) {
        if (segment.attribute)
            continue; // alt and title texts are not paragraphs
        if (!out.isEmpty())
            out += "\n\n";
        out += wrapLines(segment.translation ? segment.translation->text : segment.text,
                         segment.lines);
    }
    return out + "\n";
}

namespace {
// `html` with lang="`language`" on its <html> tag (replacing the source's own language).
QByteArray withLanguage(QByteArray html, const QString &language)
{
    static const QRegularExpression tag(QStringLiteral("<html\\b[^>]*>"),
                                        QRegularExpression::CaseInsensitiveOption);
    static const QRegularExpression lang(
        QStringLiteral("\\slang\\s*=\\s*(\"[^\"]*\"|'[^']*'|[^\\s>]+)"),
        QRegularExpression::CaseInsensitiveOption);
    const QString text = QString::fromLatin1(html.left(64 * 1024)); // the tag's bytes, 1:1
    const QRegularExpressionMatch open = tag.match(text);
    if (!open.hasMatch() || language.isEmpty())
        return html;
    const QByteArray value = " lang=\"" + language.toUtf8() + "\"";
    const QRegularExpressionMatch old = lang.match(open.captured());
    if (old.hasMatch())
        return html.replace(open.capturedStart() + old.capturedStart(), old.capturedLength(),
                            value);
    return html.insert(open.capturedStart() + 5, value);
}
} // namespace

QString writeDocument(const Document &document, const QString &path)
{
    const QString format = formatForPath(path);
    QByteArray bytes;
    if (document.format == QLatin1String("pdf") && format == QLatin1String("txt"))
        bytes = document.render(); // the PDF's text with its line layout
    else if (document.format == QLatin1String("pdf") && format == QLatin1String("html"))
        bytes = pdfAsHtml(document);
    else if (document.format == QLatin1String("pdf") && format == QLatin1String("odt"))
        bytes = pdfAsOdt(document);
    else if (document.format == QLatin1String("pdf") && format == QLatin1String("docx"))
        bytes = pdfAsDocx(document);
    else if (format == document.format && format == QLatin1String("pdf"))
        throw DocumentError(QStringLiteral("cannot write PDF: write the translation of %1 as "
                                           ".odt, .docx, .html or .txt")
                                .arg(QFileInfo(path).fileName()));
    else if (format == document.format)
        bytes = document.render();
    else if (format == QLatin1String("txt"))
        bytes = plainText(document);
    else
        throw DocumentError(QStringLiteral("cannot write a %1 document as '.%2' (write .%1 or "
                                           ".txt)")
                                .arg(document.format, QFileInfo(path).suffix()));
    if (format == QLatin1String("html") && document.translatedCount() > 0)
        bytes = withLanguage(bytes, document.targetLanguage);
    // Text in the file's own encoding, as long as every character of the translation has one.
    QString encoding = QStringLiteral("UTF-8");
    if (format == QLatin1String("txt") || format == document.format)
        if (const std::optional<QByteArray> encoded = encodeText(bytes, document.encoding)) {
            bytes = *encoded;
            encoding = document.encoding;
        }
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size() || !file.commit())
        throw DocumentError(QStringLiteral("cannot write %1: %2").arg(path, file.errorString()));
    return encoding;
}

QStringList writableFormats(const QString &format)
{
    if (format == QLatin1String("pdf"))
        return {QStringLiteral("odt"), QStringLiteral("docx"), QStringLiteral("html"),
                QStringLiteral("txt")};
    if (format.isEmpty())
        return {};
    if (format == QLatin1String("txt"))
        return {format};
    return {format, QStringLiteral("txt")};
}

bool isStreamable(const QString &format)
{
    return format == QLatin1String("txt") || format == QLatin1String("srt");
}

QByteArray readChunk(QIODevice &device, qint64 size, bool *cut)
{
    // Never more than the limit past `size`: a 200 MB text without a blank line was read whole.
    const qint64 limit = size + limits::kMaxChunkBytes;
    if (cut)
        *cut = false;
    QByteArray chunk = device.read(size);
    auto readLine = [&] { return device.readLine(limit - chunk.size() + 1); };
    if (!chunk.isEmpty() && !chunk.endsWith('\n') && chunk.size() < limit)
        chunk += readLine();
    while (!device.atEnd() && chunk.size() < limit && chunk.endsWith('\n')) {
        const QByteArray line = readLine();
        chunk += line;
        if (line.trimmed().isEmpty())
            return chunk;
    }
    if (device.atEnd() || chunk.endsWith('\n') && chunk.size() < limit)
        return chunk;
    // Cut at the limit: at the last line end when there is one, else at a UTF-8 character
    // boundary, so that the next chunk starts with a whole character.
    qsizetype keep = chunk.lastIndexOf('\n') + 1;
    if (keep == 0) {
        keep = chunk.size();
        while (keep > 0 && (uchar(chunk[keep - 1]) & 0xC0) == 0x80)
            --keep; // continuation bytes
        if (keep > 0 && uchar(chunk[keep - 1]) >= 0xC0)
            --keep; // the lead byte of the cut character
        if (keep == 0)
            keep = chunk.size(); // not UTF-8 at all: the reader will say so
    }
    device.seek(device.pos() - (chunk.size() - keep));
    chunk.truncate(keep);
    if (cut)
        *cut = true;
    return chunk;
}

} // namespace glosa::documents
