#include "app/core/documents/document.h"

#include "app/core/documents/documentinternals.h"

#include <algorithm>
#include <functional>
#include <map>
#include <stdexcept>
#include <unordered_map>

// Writing a document back out: each segment's translation (or its text as read) with its spans'
// markup around the ranges spanprojection.cpp found, escaped, wrapped, in the skeleton.

namespace glosa::documents {

namespace {

// `quotes`: inside an attribute value, whichever quote delimits it.
// `asRead`: by start, the end and the bytes written instead of text[start, end)
// (Segment::asRead), or null.
void appendEscaped(QByteArray &out, const QByteArray &text, qsizetype begin, qsizetype end,
                   TextEscaping escaping, const QByteArray &lineBreak, bool quotes = false,
                   const std::map<qsizetype, std::pair<qsizetype, QByteArray>> *asRead = nullptr)
{
    for (qsizetype i = begin; i < end; ++i) {
        const char c = text[i];
        if (asRead) {
            if (const auto found = asRead->find(i); found != asRead->end()) {
                out += found->second.second;
                i = std::min(end, found->second.first) - 1;
                continue;
            }
        }
        if (c == '\n')
            out += lineBreak;
        else if (escaping == TextEscaping::Xml && c == '&')
            out += "&amp;";
        else if (escaping == TextEscaping::Xml && c == '<')
            out += "&lt;";
        else if (escaping == TextEscaping::Xml && c == '>')
            out += "&gt;";
        else if (quotes && c == '"')
            out += "&quot;";
        else if (quotes && c == '\'')
            out += "&#39;";
        else
            out += c;
    }
}
// What renderInto writes of a segment, and where each span's markup goes in it.
struct TextToWrite
{
    // The translation (wrapped), else the text as read (its line breaks back).
    QByteArray text;
    std::vector<ByteRange> ranges; // one per span: projected onto a translation, tiles stretched
    // Untranslated: by start, the end and the bytes the source wrote there (Segment::asRead).
    std::map<qsizetype, std::pair<qsizetype, QByteArray>> asRead;
};

TextToWrite textToWrite(const Segment &segment)
{
    TextToWrite out;
    if (segment.translation) {
        SegmentTranslation translation = *segment.translation;
        out.ranges = projectSpans(segment, translation);
        out.text = translation.text;
    } else {
        out.text = segment.text;
        for (const qsizetype at : segment.breaks)
            if (at >= 0 && at < out.text.size() && out.text[at] == ' ')
                out.text[at] = '\n';
        for (const InlineSpan &span : segment.spans)
            out.ranges.push_back(span.range);
        for (const auto &[range, bytes] : segment.asRead)
            out.asRead[range.begin] = {range.end, bytes};
    }
    if (segment.translation)
        out.text = wrapLines(out.text, segment.lines);
    if (segment.translation)
        tileRanges(segment, out.ranges, out.text);
    return out;
}

// Writes the markup of a segment's spans where their ranges start, end or sit (renderInto).
class TagWriter
{
public:
    // The spans starting, ending or sitting (empty) at one position, by index.
    struct Here
    {
        std::vector<std::size_t> empty, opens, closes;
    };

    TagWriter(const Segment &segment, const std::function<void(const QByteArray &)> &write,
              const std::function<void(int)> &writeNested)
        : m_segment(segment), m_write(write), m_writeNested(writeNested),
          m_emitted(segment.spans.size(), false)
    {
    }

    // Tags at one position: closes (inner first), then empty spans, then opens (outer first).
    void writeAt(const Here &here)
    {
        for (auto k = here.closes.rbegin(); k != here.closes.rend(); ++k) {
            emitEmpty(here, [&](std::size_t z) { return inside(z, *k); });
            m_write(m_segment.spans[*k].close);
        }
        emitEmpty(here, [&](std::size_t z) {
            return std::none_of(here.opens.begin(), here.opens.end(),
                                [&](std::size_t k) { return insideOpening(z, k); });
        });
        for (auto k = here.opens.begin(); k != here.opens.end(); ++k) {
            writeOpen(m_segment.spans[*k]);
            emitEmpty(here, [&](std::size_t z) {
                // Not when it is also inside a deeper span opening here: written after that one.
                return insideOpening(z, *k) &&
                       std::none_of(std::next(k), here.opens.end(),
                                    [&](std::size_t m) { return insideOpening(z, m); });
            });
        }
    }

private:
    // Markup written as it was read, with its nested segments in their places.
    void writeOpen(const InlineSpan &span) const
    {
        qsizetype from = 0;
        for (const NestedSegment &n : span.nested) {
            m_write(span.open.mid(from, n.at - from));
            m_writeNested(n.segment);
            from = n.at;
        }
        m_write(span.open.mid(from));
    }

    // A span that contains another in the source also contains it in the output, so an empty
    // span is written before the close of every span around it.
    bool inside(std::size_t inner, std::size_t outer) const
    {
        const InlineSpan &i = m_segment.spans[inner], &o = m_segment.spans[outer];
        if (i.openOrder >= 0 && o.openOrder >= 0 && o.closeOrder >= 0)
            return o.openOrder < i.openOrder && i.openOrder < o.closeOrder;
        return outer < inner && contains(o.range, i.range) && i.range.begin < o.range.end;
    }

    // Only when the source's order says so (ranges alone cannot tell) is an empty span at
    // the start of a span inside it (`**![j](z) d**`), written after its open.
    bool insideOpening(std::size_t z, std::size_t k) const
    {
        return m_segment.spans[z].openOrder >= 0 && m_segment.spans[k].openOrder >= 0 &&
               inside(z, k);
    }

    bool emptyHere(std::size_t z) const { return !m_emitted[z]; } // z in here.empty

    // An empty span with markup on both sides (`*![i](y)*` has no text) holds the empty spans
    // that were inside it in the source: they are written between its open and close.
    void emitOne(const Here &here, std::size_t z)
    {
        m_emitted[z] = true;
        writeOpen(m_segment.spans[z]);
        for (const std::size_t y : here.empty)
            if (emptyHere(y) && inside(y, z))
                emitOne(here, y);
        m_write(m_segment.spans[z].close);
    }

    template <typename Accept> void emitEmpty(const Here &here, const Accept &accept)
    {
        for (const std::size_t z : here.empty) {
            if (!emptyHere(z) || !accept(z))
                continue;
            bool nested = false; // written by the empty span around it
            for (auto y = here.empty.begin(); y != here.empty.end() && !nested; ++y)
                nested = *y != z && emptyHere(*y) && inside(z, *y);
            if (!nested)
                emitOne(here, z);
        }
    }

    const Segment &m_segment;
    const std::function<void(const QByteArray &)> &m_write;
    const std::function<void(int)> &m_writeNested;
    std::vector<bool> m_emitted; // by span: its markup is written (empty spans)
};

} // namespace

QByteArray wrapLines(const QByteArray &text, int lines)
{
    QByteArray out = text;
    if (lines <= 1)
        return out;
    std::vector<qsizetype> spaces;
    for (qsizetype i = 0; i < text.size(); ++i)
        if (text[i] == ' ')
            spaces.push_back(i);
    qsizetype previous = -1;
    for (int line = 1; line < lines; ++line) {
        const qsizetype wanted = text.size() * line / lines;
        qsizetype best = -1;
        for (const qsizetype space : spaces)
            if (space > previous &&
                (best < 0 || std::abs(space - wanted) < std::abs(best - wanted)))
                best = space;
        if (best < 0)
            break;
        out[best] = '\n';
        previous = best;
    }
    return out;
}

QByteArray renderSegment(const Segment &segment, TextEscaping escaping, const QByteArray &lineBreak,
                         const Document *document)
{
    QByteArray out;
    renderInto(
        segment, escaping, lineBreak, [&](const QByteArray &bytes) { out += bytes; },
        [&](int nested) {
            if (!document || nested < 0 || nested >= int(document->segments.size()))
                throw std::logic_error("renderSegment: a nested segment needs its document");
            out += renderSegment(document->segments[std::size_t(nested)], escaping, lineBreak,
                                 document);
        });
    return out;
}
void renderInto(const Segment &segment, TextEscaping escaping, const QByteArray &lineBreak,
                const std::function<void(const QByteArray &)> &write,
                const std::function<void(int)> &writeNested)
{
    const TextToWrite toWrite = textToWrite(segment);
    const QByteArray &text = toWrite.text;
    const std::vector<ByteRange> &ranges = toWrite.ranges;
    const auto &asRead = toWrite.asRead;

    // Tags at each position: closes (inner first), then empty spans, then opens (outer first).
    QByteArray out;
    qsizetype written = 0;
    std::vector<qsizetype> cuts;
    for (const ByteRange &r : ranges) {
        cuts.push_back(r.begin);
        cuts.push_back(r.end);
    }
    cuts.push_back(text.size());
    std::sort(cuts.begin(), cuts.end());
    cuts.erase(std::unique(cuts.begin(), cuts.end()), cuts.end());
    // The spans by position, so that each cut looks only at those starting, ending or sitting
    // there (by index, as the order of writing wants).
    std::unordered_map<qsizetype, TagWriter::Here> byPosition;
    for (std::size_t k = 0; k < ranges.size(); ++k) {
        if (ranges[k].size() == 0) {
            byPosition[ranges[k].begin].empty.push_back(k);
        } else if (ranges[k].size() > 0) {
            byPosition[ranges[k].begin].opens.push_back(k);
            byPosition[ranges[k].end].closes.push_back(k);
        }
    }
    const TagWriter::Here nothing;
    TagWriter tags(segment, write, writeNested);
    for (const qsizetype at : cuts) {
        appendEscaped(out, text, written, std::min(at, text.size()), escaping, lineBreak,
                      segment.attribute, asRead.empty() ? nullptr : &asRead);
        write(out);
        out.clear();
        written = std::min(at, text.size());
        const auto found = byPosition.find(at);
        tags.writeAt(found == byPosition.end() ? nothing : found->second);
    }
}

QByteArray Document::render() const
{
    if (archive.empty()) {
        QByteArray out;
        for (const Part &part : parts)
            out += part.segment < 0
                       ? part.bytes
                       : renderSegment(segments[part.segment], escaping, lineBreak, this);
        return out;
    }
    std::vector<ZipEntry> entries = archive;
    ZipEntry *current = nullptr;
    for (const Part &part : parts) {
        if (!part.entry.isEmpty()) {
            auto found = std::find_if(entries.begin(), entries.end(),
                                      [&](const ZipEntry &e) { return e.name == part.entry; });
            current = found == entries.end() ? nullptr : &*found;
            if (current)
                current->data.clear();
        }
        if (current)
            current->data += part.segment < 0
                                 ? part.bytes
                                 : renderSegment(segments[part.segment], escaping, lineBreak, this);
    }
    return writeZip(entries);
}

} // namespace glosa::documents
