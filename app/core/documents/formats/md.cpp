// Markdown: block markup is skeleton, inline markup becomes spans.
#include "app/core/documents/formats/entrypoints.h"
#include "app/core/documents/formats/textlines.h"

#include <QRegularExpression>

#include <cctype>

namespace glosa::documents::formats {

namespace {

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

Segment markdownSegment(const QByteArray &raw, int lines, const QByteArray &lineBreak)
{
    Segment segment;
    segment.lines = lines;
    parseMarkdownInline(raw, 0, raw.size(), segment);
    foldLineBreaks(segment, lineBreak);
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
            doc.appendSegment(markdownSegment(paragraph, count, doc.lineBreak));
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
                    doc.appendSegment(markdownSegment(trimmed, 1, doc.lineBreak));
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

} // namespace

Document parseMd(const QByteArray &bytes, const QString &name)
{
    return readEncodedText(bytes, name, readMd);
}

} // namespace glosa::documents::formats
