#include "app/core/documents/chunkedtranslation.h"

#include "app/core/documents/documenttranslator.h"
#include "app/core/documents/formats.h"
#include "app/core/documents/textencoding.h"
#include "app/core/limits.h"
#include "app/core/platform/savefile.h"

#include <QElapsedTimer>
#include <QFileDevice>

#include <algorithm>
#include <numeric>

namespace glosa::documents {

QString deviceName(const QIODevice &device)
{
    if (const auto *file = qobject_cast<const QFileDevice *>(&device))
        return file->fileName();
    if (const auto *file = dynamic_cast<const SaveFile *>(&device))
        return file->fileName();
    return QStringLiteral("the output");
}

void ChunkWriter::write(const Document &chunk)
{
    if (!m_plainText)
        put(chunk.render());
    else if (!chunk.segments.empty()) // white space after the last paragraph: no text
        put((m_device.pos() > 0 ? "\n" : "") + plainText(chunk));
}

void ChunkWriter::writeSource(const QByteArray &bytes)
{
    Q_ASSERT(!m_plainText);
    put(bytes);
}

void ChunkWriter::put(const QByteArray &bytes)
{
    // A full disk stops the translation at the chunk it happened in, not at the end.
    if (m_device.write(bytes) != bytes.size())
        throw DocumentError(QStringLiteral("cannot write %1: %2")
                                .arg(deviceName(m_device), m_device.errorString()));
}

ChunkedTranslation::ChunkedTranslation(const QString &path, qint64 chunkBytes,
                                       std::function<void(const QString &)> notice,
                                       const std::atomic<bool> *cancelled, QObject *parent)
    : QObject(parent), m_path(path), m_format(formatForPath(path)),
      m_chunkBytes(std::max<qint64>(1, chunkBytes)), m_notice(std::move(notice)), m_file(path)
{
    requireRegularFile(path); // a FIFO would be opened twice below, a device read forever
    // Only UTF-8 is cut into chunks: a chunk of another encoding could end inside a character,
    // and converting back needs the whole text (writeDocument falls back to UTF-8 as a whole).
    m_streamed = isStreamable(m_format) && detectFileEncoding(path) == QLatin1String("UTF-8");
    if (!m_streamed) {
        m_current = readDocument(path, cancelled);
        if (m_notice)
            for (const QString &notice : m_current->notices)
                m_notice(notice);
        m_chunks.push_back({0, 0, 0, int(m_current->segments.size())});
        return;
    }
    if (!m_file.open(QIODevice::ReadOnly))
        throw DocumentError(QStringLiteral("cannot open %1: %2").arg(path, m_file.errorString()));
    m_size = m_file.size();
    m_current = loadChunk(0);
}

ChunkedTranslation::~ChunkedTranslation() = default;

QString ChunkedTranslation::encoding() const
{
    return m_streamed ? QStringLiteral("UTF-8") : m_current->encoding;
}

const Document &ChunkedTranslation::document() const
{
    Q_ASSERT(!m_streamed);
    return *m_current;
}

QString ChunkedTranslation::leadingText(qsizetype maxChars) const
{
    QString text;
    if (!m_current)
        return text;
    for (const Segment &segment : m_current->segments) {
        if (text.size() >= maxChars)
            break;
        text += QString::fromUtf8(segment.text.left(4 * maxChars)) + QLatin1Char('\n');
    }
    return text;
}

bool ChunkedTranslation::allRead() const
{
    return !m_streamed || (!m_chunks.empty() && m_chunks.back().end >= m_size);
}

Document ChunkedTranslation::loadChunk(std::size_t c)
{
    Chunk chunk;
    QByteArray bytes;
    if (c < m_chunks.size()) {
        chunk = m_chunks[c];
        m_file.seek(chunk.begin);
        bytes = m_file.read(chunk.end - chunk.begin);
    } else {
        if (!m_chunks.empty()) {
            chunk.begin = m_chunks.back().end;
            chunk.firstParagraph = m_chunks.back().firstParagraph + m_chunks.back().paragraphs;
        }
        m_file.seek(chunk.begin);
        bool cut = false;
        bytes = documents::readChunk(m_file, m_chunkBytes, &cut);
        chunk.end = m_file.pos();
        if (bytes.isEmpty() && c > 0) // shorter than when it was opened, or unreadable
            throw DocumentError(QStringLiteral("cannot read %1 past byte %2: %3")
                                    .arg(m_path)
                                    .arg(chunk.begin)
                                    .arg(m_file.errorString()));
        if (cut && m_notice)
            m_notice(QStringLiteral("%1: a paragraph runs past the limit of %2 MiB without a "
                                    "blank line; cut at byte %3")
                         .arg(m_path)
                         .arg(limits::kMaxChunkBytes >> 20)
                         .arg(chunk.end));
    }
    Document document;
    if (c > 0 && bytes.trimmed().isEmpty()) {
        // White space after the last paragraph (or blank lines longer than a chunk): nothing to
        // translate, written as it is; parseDocument would call it an empty document.
        document.format = m_format;
        document.appendSkeleton(bytes);
    } else {
        document = parseDocument(bytes, m_format, m_path);
    }
    if (c == m_chunks.size() && m_notice) // lines count from the chunk's start
        for (const QString &notice : document.notices)
            m_notice(notice + QStringLiteral(" (lines of the part from byte %1)").arg(chunk.begin));
    if (c == m_chunks.size()) {
        chunk.paragraphs = int(document.segments.size());
        m_chunks.push_back(chunk);
    }
    return document;
}

void ChunkedTranslation::scan(const std::function<void(const Document &)> &visit)
{
    for (std::size_t c = 0; hasChunk(c); ++c) {
        if (c == m_next && m_current)
            visit(*m_current);
        else
            visit(loadChunk(c));
    }
}

qint64 ChunkedTranslation::countSentences(const DocumentTranslator &translator)
{
    auto count = [&](const Document &chunk) {
        const std::vector<int> counts = translator.sentenceCounts(chunk);
        return std::accumulate(counts.begin(), counts.end(), 0);
    };
    for (std::size_t c = 0; hasChunk(c); ++c) {
        if (c < m_chunks.size() && m_chunks[c].sentences >= 0)
            continue;
        const int sentences = c == m_next && m_current ? count(*m_current) : count(loadChunk(c));
        m_chunks[c].sentences = sentences;
    }
    return sentencesInAll();
}

void ChunkedTranslation::forgetSentenceCounts()
{
    for (Chunk &chunk : m_chunks)
        chunk.sentences = -1;
}

qint64 ChunkedTranslation::sentencesBefore(std::size_t c) const
{
    qint64 sentences = 0;
    for (std::size_t i = 0; i < c; ++i)
        sentences += std::max(0, m_chunks[i].sentences);
    return sentences;
}

qint64 ChunkedTranslation::sentencesInAll() const
{
    if (!allRead())
        return -1;
    qint64 sentences = 0;
    for (const Chunk &chunk : m_chunks) {
        if (chunk.sentences < 0)
            return -1;
        sentences += chunk.sentences;
    }
    return sentences;
}

bool ChunkedTranslation::translate(DocumentTranslator &translator,
                                   const engine::DecodingOptions &options, ChunkSink &sink,
                                   const std::atomic<bool> &cancelled)
{
    std::size_t current = m_next;
    QElapsedTimer clock;
    qint64 startBytes = -1; // at the first report of this call
    // Connected for this call only: the translator may outlive it, the captures do not.
    QObject connections;
    connect(&translator, &DocumentTranslator::segmentTranslated, &connections, [&](int segment) {
        emit segmentTranslated(*m_current, segment, m_chunks[current].firstParagraph + segment);
    });
    connect(&translator, &DocumentTranslator::progress, &connections,
            [&](int done, int total, qint64 left) {
                Chunk &chunk = m_chunks[current];
                chunk.sentences = total; // the chunk's own count, by the same rules
                ChunkProgress report;
                report.sentencesDone = sentencesBefore(current) + done;
                report.sentencesTotal = sentencesInAll();
                report.last = done == total && !hasChunk(current + 1);
                report.millisecondsLeft = left;
                if (m_streamed) {
                    report.bytesTotal = m_size;
                    report.bytesDone = total > 0
                                           ? chunk.begin + (chunk.end - chunk.begin) * done / total
                                           : chunk.end; // white space only: done
                    if (startBytes < 0) {
                        startBytes = report.bytesDone;
                        clock.start();
                    }
                    report.millisecondsLeft = report.bytesDone > startBytes
                                                  ? clock.elapsed() * (m_size - report.bytesDone) /
                                                        (report.bytesDone - startBytes)
                                                  : -1;
                }
                emit progress(report);
            });
    if (!m_streamed)
        return translator.translate(*m_current, options, &cancelled);
    for (;;) {
        if (!m_current)
            m_current = loadChunk(current);
        if (!translator.translate(*m_current, options, &cancelled))
            return false;
        m_translatedBefore += m_current->translatedCount();
        sink.write(*m_current);
        m_current.reset();
        m_next = ++current;
        if (!hasChunk(current))
            return true;
        if (cancelled) // however far the finished chunk got: no other one starts
            return false;
    }
}

std::size_t ChunkedTranslation::translatedCount() const
{
    return m_translatedBefore + (m_current ? m_current->translatedCount() : 0);
}

void ChunkedTranslation::writeUnfinished(ChunkWriter &writer)
{
    Q_ASSERT(m_streamed);
    std::size_t c = m_next;
    if (m_current) {
        writer.write(*m_current);
        ++c;
    }
    if (writer.isPlainText()) {
        for (; hasChunk(c); ++c)
            writer.write(loadChunk(c));
        return;
    }
    // In the source's format the rest is its bytes: copied, not parsed.
    m_file.seek(c < m_chunks.size() ? m_chunks[c].begin : m_chunks.back().end);
    while (!m_file.atEnd())
        writer.writeSource(m_file.read(1 << 20));
}

} // namespace glosa::documents

#include "moc_chunkedtranslation.cpp"
