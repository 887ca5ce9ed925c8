// Plain text: paragraphs are runs of lines (formats.h says how they join).
#include "app/core/documents/formats/entrypoints.h"
#include "app/core/documents/formats/textlines.h"

namespace glosa::documents::formats {

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

Document parseTxt(const QByteArray &bytes, const QString &name)
{
    return readEncodedText(bytes, name, readTxt);
}

} // namespace glosa::documents::formats
