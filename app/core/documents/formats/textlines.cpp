#include "app/core/documents/formats/textlines.h"

#include "app/core/documents/textencoding.h"

#include "engine/text/unicode.h"

#include <algorithm>

namespace glosa::documents::formats {

bool isSpace(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

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

void foldLineBreaks(Segment &segment, const QByteArray &lineBreak)
{
    for (qsizetype i = 0; i < segment.text.size(); ++i)
        if (segment.text[i] == '\n') {
            segment.breaks.push_back(i);
            segment.text[i] = ' ';
        }
    if (lineBreak == "\n")
        return;
    for (InlineSpan &span : segment.spans) {
        span.open.replace("\n", lineBreak);
        span.close.replace("\n", lineBreak);
    }
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

Document readEncodedText(const QByteArray &bytes, const QString &name,
                         Document (*readUtf8)(const QByteArray &, const QString &))
{
    int confidence = 0;
    const QString encoding = detectEncoding(bytes, false, &confidence);
    QString notice;
    Document doc = readUtf8(decodeText(bytes, encoding, name, &notice), name);
    if (encoding == kRepairedUtf8) {
        doc.notices << notice; // and it is written as UTF-8
    } else if (!encoding.isEmpty() && encoding != QLatin1String("UTF-8")) {
        doc.encoding = encoding;
        // Which encoding was assumed, and how sure that is: a wrong guess reads as nonsense, and
        // the person who sees it can convert the file to UTF-8 first.
        const QString how =
            encoding.startsWith(QLatin1String("UTF-16"))
                ? QString()
                : QStringLiteral(", the most likely encoding (ICU's charset detector: confidence "
                                 "%1 of 100)")
                      .arg(confidence);
        doc.notices << QStringLiteral("%1 is not UTF-8: read as %2%3")
                           .arg(name, encodingDisplayName(encoding), how);
    }
    return doc;
}

} // namespace glosa::documents::formats
