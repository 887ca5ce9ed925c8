#include "app/core/documents/formats.h"

#include "app/core/documents/formats/entrypoints.h"
#include "app/core/documents/textencoding.h"
#include "app/core/limits.h"

#include <QFile>
#include <QFileInfo>
#include <QSaveFile>

namespace glosa::documents {

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
    if (format == QLatin1String("txt"))
        return formats::parseTxt(bytes, label);
    if (format == QLatin1String("srt"))
        return formats::parseSrt(bytes, label);
    if (format == QLatin1String("md"))
        return formats::parseMd(bytes, label);
    if (format == QLatin1String("html"))
        return formats::parseHtml(bytes, label);
    if (format == QLatin1String("odt"))
        return formats::parseOdt(bytes, label);
    if (format == QLatin1String("docx"))
        return formats::parseDocx(bytes, label);
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
        return formats::readPdf(path);
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

QString writeDocument(const Document &document, const QString &path)
{
    const QString format = formatForPath(path);
    QByteArray bytes;
    if (document.format == QLatin1String("pdf") && format == QLatin1String("txt"))
        bytes = document.render(); // the PDF's text with its line layout
    else if (document.format == QLatin1String("pdf") && format == QLatin1String("html"))
        bytes = formats::writeHtmlParagraphs(document);
    else if (document.format == QLatin1String("pdf") && format == QLatin1String("odt"))
        bytes = formats::writeOdtParagraphs(document);
    else if (document.format == QLatin1String("pdf") && format == QLatin1String("docx"))
        bytes = formats::writeDocxParagraphs(document);
    else if (format == document.format && format == QLatin1String("pdf"))
        throw DocumentError(QStringLiteral("cannot write PDF: write the translation of %1 as "
                                           ".odt, .docx, .html or .txt")
                                .arg(QFileInfo(path).fileName()));
    else if (format == document.format && format == QLatin1String("html"))
        bytes = formats::writeHtml(document);
    else if (format == document.format)
        bytes = document.render();
    else if (format == QLatin1String("txt"))
        bytes = plainText(document);
    else
        throw DocumentError(QStringLiteral("cannot write a %1 document as '.%2' (write .%1 or "
                                           ".txt)")
                                .arg(document.format, QFileInfo(path).suffix()));
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
