// SubRip subtitles: numbers and timings are skeleton, each cue's text one segment.
#include "app/core/documents/formats/entrypoints.h"
#include "app/core/documents/formats/textlines.h"

#include <QRegularExpression>

namespace glosa::documents::formats {

namespace {

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
                foldLineBreaks(segment, doc.lineBreak);
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

} // namespace

Document parseSrt(const QByteArray &bytes, const QString &name)
{
    return readEncodedText(bytes, name, readSrt);
}

} // namespace glosa::documents::formats
