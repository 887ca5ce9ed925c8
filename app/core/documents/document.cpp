#include "app/core/documents/document.h"

#include "app/core/documents/documentinternals.h"
#include "app/core/limits.h"
#include "engine/text/protectedspans.h"

#include <QRegularExpression>
#include <QStringList>

#include <algorithm>

// The document model: segments and skeleton as the readers build them, and the spans they mark.
// Where spans land in a translation is spanprojection.cpp; writing the document out, rendering.cpp.

namespace glosa::documents {

Segment taggedSegment(const QByteArray &raw)
{
    static const QRegularExpression tag(
        QStringLiteral(R"(<(/?)(i|b|u|s|font)\b[^<>]*>|\{\\[^{}]*\})"),
        QRegularExpression::CaseInsensitiveOption);
    Segment segment;
    struct Open
    {
        QByteArray name;
        std::size_t index;
    };
    std::vector<Open> open;
    const QString unicode = QString::fromUtf8(raw);
    const std::vector<qsizetype> bytes = utf16ToBytes(unicode);
    qsizetype copied = 0;
    int order = 0;
    auto it = tag.globalMatch(unicode);
    while (it.hasNext()) {
        const QRegularExpressionMatch match = it.next();
        const qsizetype begin = bytes[match.capturedStart()], end = bytes[match.capturedEnd()];
        segment.text += raw.mid(copied, begin - copied);
        copied = end;
        const QByteArray whole = raw.mid(begin, end - begin);
        const QByteArray name = match.captured(2).toLower().toUtf8();
        const qsizetype at = segment.text.size();
        ++order;
        if (name.isEmpty()) { // an ASS override such as {\an8}: stays in front
            segment.spans.push_back({{at, at}, whole, {}, false, order, order});
        } else if (match.captured(1).isEmpty()) {
            open.push_back({name, segment.spans.size()});
            segment.spans.push_back({{at, at}, whole, {}, false, order, order});
        } else {
            auto found = std::find_if(open.rbegin(), open.rend(),
                                      [&](const Open &o) { return o.name == name; });
            if (found != open.rend() && found != open.rbegin()) {
                // A close that crosses a tag opened after its own (`<i><s></i></s>`): no nesting
                // can write that back, so both tags stay markers where they were (the open one
                // is already one), in the source's order.
                open.erase(std::next(found).base());
                segment.spans.push_back({{at, at}, whole, {}, false, order, order});
            } else if (found == open.rend()) {
                segment.spans.push_back({{at, at}, whole, {}, false, order, order});
            } else {
                InlineSpan &span = segment.spans[found->index];
                span.range.end = at;
                span.close = whole;
                span.closeOrder = order;
                open.erase(std::next(found).base());
            }
        }
    }
    segment.text += raw.mid(copied);
    protectSpans(segment.text, segment.spans);
    return segment;
}

void Document::appendSkeleton(const QByteArray &bytes)
{
    if (bytes.isEmpty())
        return;
    if (!parts.empty() && parts.back().segment < 0)
        parts.back().bytes += bytes;
    else
        parts.push_back({bytes, -1});
}

void Document::appendSegment(Segment segment)
{
    if (isBlank(segment.text) && segment.spans.empty() && segment.asRead.empty())
        return;
    if (isBlank(segment.text)) {
        // Markup only (an image, a line break) or white space written otherwise (`&#xa;`):
        // nothing to translate, so it is skeleton, but what is nested in it (an image's alt
        // text) keeps its slot.
        renderInto(
            segment, escaping, lineBreak,
            [this](const QByteArray &bytes) { appendSkeleton(bytes); },
            [this](int nested) {
                parts.push_back({{}, nested});
            });
        return;
    }
    parts.push_back({{}, int(segments.size())});
    segments.push_back(std::move(segment));
}

int Document::appendNested(Segment segment)
{
    segments.push_back(std::move(segment));
    return int(segments.size()) - 1;
}

// Moves the segments of `inner` to the end of `segments`; returns the index of its first one.
int adoptSegments(std::vector<Segment> &segments, Document &inner)
{
    const int base = int(segments.size());
    for (Segment &segment : inner.segments) {
        for (InlineSpan &s : segment.spans)
            for (NestedSegment &n : s.nested)
                n.segment += base;
        segments.push_back(std::move(segment));
    }
    return base;
}

void Document::appendParts(Document &&inner)
{
    const int base = adoptSegments(segments, inner);
    for (const Part &part : inner.parts) {
        if (part.segment < 0)
            appendSkeleton(part.bytes);
        else
            parts.push_back({{}, base + part.segment});
    }
}

void Document::nestInto(Document &&inner, InlineSpan &span)
{
    const int base = adoptSegments(segments, inner);
    for (const Part &part : inner.parts) {
        if (part.segment < 0)
            span.open += part.bytes;
        else
            span.nested.push_back({span.open.size(), base + part.segment});
    }
}

std::size_t Document::translatedCount() const
{
    return std::count_if(segments.begin(), segments.end(),
                         [](const Segment &s) { return s.translation.has_value(); });
}

std::vector<qsizetype> utf16ToBytes(const QString &text)
{
    std::vector<qsizetype> offsets(text.size() + 1, 0);
    qsizetype bytes = 0;
    for (qsizetype i = 0; i < text.size(); ++i) {
        offsets[i] = bytes;
        const char16_t c = text.at(i).unicode();
        if (QChar::isHighSurrogate(c) && i + 1 < text.size()) {
            offsets[++i] = bytes; // the pair is one 4-byte code point
            bytes += 4;
        } else {
            bytes += c < 0x80 ? 1 : c < 0x800 ? 2 : 3;
        }
    }
    offsets[text.size()] = bytes;
    return offsets;
}

qsizetype longestUnbrokenRun(const QByteArray &text)
{
    qsizetype longest = 0, run = 0;
    for (const char c : text) {
        const bool space = c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
        run = space ? 0 : run + 1;
        longest = std::max(longest, run);
    }
    return longest;
}

bool hasOverlongRun(const QByteArray &text)
{
    return text.size() > limits::kMaxUnbrokenBytes &&
           longestUnbrokenRun(text) > limits::kMaxUnbrokenBytes;
}

void noteOverlongRuns(Document &document, const QString &name)
{
    std::vector<std::pair<int, qsizetype>> found; // paragraph (from 1), run length
    for (std::size_t i = 0; i < document.segments.size(); ++i)
        if (hasOverlongRun(document.segments[i].text))
            found.push_back({int(i) + 1, longestUnbrokenRun(document.segments[i].text)});
    if (found.empty())
        return;
    QStringList shown;
    for (std::size_t k = 0; k < found.size() && k < 5; ++k)
        shown << QStringLiteral("%1 (%2 bytes)").arg(found[k].first).arg(found[k].second);
    if (found.size() > 5)
        shown << QStringLiteral("…");
    const bool one = found.size() == 1;
    document.notices << QStringLiteral("%1: paragraph%2 %3 %4 text without a space over the limit "
                                       "of %5 bytes: kept as %6, not translated")
                            .arg(name, one ? QString() : QStringLiteral("s"),
                                 shown.join(QStringLiteral(", ")),
                                 one ? QStringLiteral("has") : QStringLiteral("have"))
                            .arg(limits::kMaxUnbrokenBytes)
                            .arg(one ? QStringLiteral("it is") : QStringLiteral("they are"));
}

void protectSpans(const QByteArray &text, std::vector<InlineSpan> &spans)
{
    const auto byStart = [](const InlineSpan &a, const InlineSpan &b) {
        return a.range.begin != b.range.begin ? a.range.begin < b.range.begin
                                              : a.range.end > b.range.end;
    };
    // The readers collect spans in document order of their tags; nesting wants the outermost of
    // those that start together first.
    std::stable_sort(spans.begin(), spans.end(), byStart);
    // What is protected is the engine's one definition (the rules the models were trained with).
    static const engine::SpanProtector protector;
    // Not translated (limits::kMaxUnbrokenBytes): the rules' cost at every byte is saved.
    if (hasOverlongRun(text))
        return;
    const std::vector<engine::ProtectedSpan> found =
        protector.find({text.constData(), std::size_t(text.size())});
    if (found.empty())
        return;
    // A match may sit inside a markup span, not across the edge of one (nor around an empty
    // one) and not over verbatim text already there. Markup spans nest, so a match clashes
    // exactly when a span edge lies strictly inside it, or when a verbatim span covers it:
    // binary searches over the edges and over the verbatim spans instead of every span for
    // every match.
    std::vector<qsizetype> edges;
    edges.reserve(2 * spans.size());
    std::vector<ByteRange> verbatim; // by begin, each with the furthest end of those before it
    for (const InlineSpan &s : spans) {
        edges.push_back(s.range.begin);
        edges.push_back(s.range.end);
        if (s.verbatim && s.range.size() > 0)
            verbatim.push_back(s.range);
    }
    std::sort(edges.begin(), edges.end());
    for (std::size_t k = 1; k < verbatim.size(); ++k)
        verbatim[k].end = std::max(verbatim[k].end, verbatim[k - 1].end);
    std::vector<InlineSpan> added;
    for (const engine::ProtectedSpan &match : found) {
        const ByteRange range{qsizetype(match.bytes.begin), qsizetype(match.bytes.end)};
        const auto edge = std::upper_bound(edges.begin(), edges.end(), range.begin);
        if (edge != edges.end() && *edge < range.end)
            continue;
        const auto cover =
            std::upper_bound(verbatim.begin(), verbatim.end(), range.begin,
                             [](qsizetype at, const ByteRange &r) { return at < r.begin; });
        if (cover != verbatim.begin() && std::prev(cover)->end >= range.end)
            continue;
        added.push_back({range, {}, {}, true});
    }
    spans.insert(spans.end(), added.begin(), added.end());
    std::stable_sort(spans.begin(), spans.end(), byStart);
}

} // namespace glosa::documents
