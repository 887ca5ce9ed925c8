#include "app/core/documents/formats.h"

#include "app/core/documents/formats/entrypoints.h"
#include "app/core/documents/textencoding.h"
#include "app/core/limits.h"
#include "app/core/platform/regularfile.h"
#include "app/core/platform/savefile.h"

#include <QFile>
#include <QFileInfo>

#include <optional>

namespace glosa::documents {

namespace {

QByteArray asRead(const Document &document)
{
    return document.render();
}

} // namespace

const std::vector<DocumentFormat> &documentFormats()
{
    using namespace formats;
    // Descriptions are translated where they are shown, in the glosa::DocumentsView context.
    // clang-format off
    static const std::vector<DocumentFormat> table = {
        // name, aliases, description, parse, readFile, streamable, writable as
        {"txt", {}, QT_TRANSLATE_NOOP("glosa::DocumentsView", "Plain text"),
         parseTxt, nullptr, true, {{"txt", asRead}}},
        {"srt", {}, QT_TRANSLATE_NOOP("glosa::DocumentsView", "Subtitles"),
         parseSrt, nullptr, true, {{"srt", asRead}, {"txt", plainText}}},
        {"md", {"markdown"}, QT_TRANSLATE_NOOP("glosa::DocumentsView", "Markdown"),
         parseMd, nullptr, false, {{"md", asRead}, {"txt", plainText}}},
        {"html", {"htm", "xhtml"}, QT_TRANSLATE_NOOP("glosa::DocumentsView", "Web page"),
         parseHtml, nullptr, false, {{"html", writeHtml}, {"txt", plainText}}},
        {"odt", {}, QT_TRANSLATE_NOOP("glosa::DocumentsView", "OpenDocument text"),
         parseOdt, nullptr, false, {{"odt", asRead}, {"txt", plainText}}},
        {"docx", {}, QT_TRANSLATE_NOOP("glosa::DocumentsView", "Word document"),
         parseDocx, nullptr, false, {{"docx", asRead}, {"txt", plainText}}},
        // Not written back (QtPdf only reads): its headings, paragraphs, lists and tables
        // become those of an editable format, or its paragraphs the text, on as many lines as
        // on the pages.
        {"pdf", {}, QT_TRANSLATE_NOOP("glosa::DocumentsView", "PDF document"),
         nullptr, readPdf, false,
         {{"odt", writeOdtBlocks}, {"docx", writeDocxBlocks},
          {"html", writeHtml}, {"txt", plainText}}},
    };
    // clang-format on
    return table;
}

const DocumentFormat *findFormat(const QString &format)
{
    for (const DocumentFormat &row : documentFormats())
        if (row.name == format)
            return &row;
    return nullptr;
}

QStringList supportedFormats()
{
    QStringList suffixes;
    for (const DocumentFormat &row : documentFormats())
        suffixes << row.name << row.aliases;
    return suffixes;
}

QString formatForPath(const QString &path)
{
    const QString suffix = QFileInfo(path).suffix().toLower();
    for (const DocumentFormat &row : documentFormats())
        if (row.name == suffix || row.aliases.contains(suffix))
            return row.name;
    return {};
}

Document parseDocument(const QByteArray &bytes, const QString &format, const QString &name)
{
    const QString label = name.isEmpty() ? QStringLiteral("the document") : name;
    const DocumentFormat *row = findFormat(format);
    if (!row || !row->parse)
        throw DocumentError(QStringLiteral("%1: unsupported format '%2' (supported: %3)")
                                .arg(label, format, supportedFormats().join(QStringLiteral(", "))));
    Document document = row->parse(bytes, label);
    noteOverlongRuns(document, label);
    return document;
}

Document readDocument(const QString &path, const std::atomic<bool> *cancelled)
{
    const DocumentFormat *row = findFormat(formatForPath(path));
    if (!row)
        throw DocumentError(QStringLiteral("%1: unsupported file type '.%2' (supported: %3)")
                                .arg(path, QFileInfo(path).suffix(),
                                     supportedFormats().join(QStringLiteral(", "))));
    requireRegularFile(path);
    if (row->readFile) {
        Document document = row->readFile(path, cancelled);
        noteOverlongRuns(document, path);
        return document;
    }
    QFile file(path);
    QString why;
    if (!openRegularFile(file, &why))
        throw DocumentError(QStringLiteral("cannot open %1: %2").arg(path, why));
    const qint64 limit = limits::kMaxDocumentBytes;
    auto tooLarge = [&] {
        return DocumentError(QStringLiteral("%1 is larger than the limit of %2 MiB for a %3 "
                                            "document (read whole; only .txt and .srt in UTF-8 "
                                            "are streamed)")
                                 .arg(path)
                                 .arg(limit >> 20)
                                 .arg(row->name));
    };
    if (file.size() > limit)
        throw tooLarge();
    QByteArray bytes = file.read(limit + 1);
    if (bytes.size() > limit)
        throw tooLarge();
    return parseDocument(bytes, row->name, path);
}

void requireRegularFile(const QString &path)
{
    const QString kind = nonRegularFileKind(path);
    if (kind.isEmpty())
        return;
    const QFileInfo file(path);
    const QString target =
        file.isSymLink() ? QStringLiteral(" (%1)").arg(file.canonicalFilePath()) : QString();
    throw DocumentError(QStringLiteral("%1%2 is %3, not a document file: only regular files are "
                                       "read (save it to a file first)")
                            .arg(path, target, kind));
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

QString writeDocument(const Document &document, const QString &path, const QString &encoding)
{
    const QString format = formatForPath(path);
    const DocumentFormat *row = findFormat(document.format);
    const WriteAs *way = nullptr;
    if (row)
        for (const WriteAs &candidate : row->writableAs)
            if (candidate.format == format)
                way = &candidate;
    if (!way)
        throw DocumentError(QStringLiteral("cannot write a %1 document as '.%2' (write %3)")
                                .arg(document.format, QFileInfo(path).suffix(),
                                     suffixList(writableFormats(document.format),
                                                QStringLiteral(", "), QStringLiteral(" or "))));
    QByteArray bytes = way->write(document);
    // Text in the encoding asked for, as long as every character of the translation has one.
    QString written = QStringLiteral("UTF-8");
    if (const std::optional<QByteArray> encoded = encodeText(bytes, encoding)) {
        bytes = *encoded;
        written = encoding.isEmpty() ? written : encoding;
    }
    QString error;
    if (!saveFile(path, bytes, &error))
        throw DocumentError(error);
    return written;
}

QStringList writableFormats(const QString &format)
{
    QStringList formats;
    if (const DocumentFormat *row = findFormat(format))
        for (const WriteAs &way : row->writableAs)
            formats << way.format;
    return formats;
}

QString suffixList(const QStringList &formats, const QString &separator, const QString &last)
{
    QString out;
    for (qsizetype i = 0; i < formats.size(); ++i) {
        if (i > 0)
            out += i + 1 == formats.size() && !last.isEmpty() ? last : separator;
        out += QLatin1Char('.') + formats[i];
    }
    return out;
}

bool isStreamable(const QString &format)
{
    const DocumentFormat *row = findFormat(format);
    return row && row->streamable;
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
    if (device.atEnd() || (chunk.endsWith('\n') && chunk.size() < limit))
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
