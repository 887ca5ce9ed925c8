// What the three files of the document code share, for them alone (callers include document.h):
// document.cpp holds the model (segments, skeleton, the spans a reader marks), spanprojection.cpp
// carries spans onto a translation, rendering.cpp writes a document back out. Each needs a little
// of another: the model renders a markup-only segment into its skeleton (renderInto), rendering
// stretches tile spans over the wrapped translation (tileRanges).
#pragma once

#include "app/core/documents/document.h"

#include <QByteArray>

#include <algorithm>
#include <functional>
#include <vector>

namespace glosa::documents {

inline bool isWordByte(char c)
{
    const auto u = static_cast<unsigned char>(c);
    return u >= 0x80 || (u >= '0' && u <= '9') || (u >= 'a' && u <= 'z') || (u >= 'A' && u <= 'Z');
}

inline bool isBlank(const QByteArray &text)
{
    return std::all_of(text.begin(), text.end(), [](char c) {
        return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f';
    });
}

inline bool overlaps(ByteRange a, ByteRange b)
{
    return a.begin < b.end && b.begin < a.end;
}

inline bool contains(ByteRange outer, ByteRange inner)
{
    return outer.begin <= inner.begin && inner.end <= outer.end;
}

// Stretches the tile spans over the whole text (a gap goes to the tile before it) and moves the
// other spans onto tile edges: a span around tiles covers exactly those tiles (spanprojection.cpp).
void tileRanges(const Segment &segment, std::vector<ByteRange> &ranges, const QByteArray &text);

// Writes the segment as renderSegment does, the bytes to `write` and each nested segment's index
// to `writeNested` where it goes (rendering.cpp).
void renderInto(const Segment &segment, TextEscaping escaping, const QByteArray &lineBreak,
                const std::function<void(const QByteArray &)> &write,
                const std::function<void(int)> &writeNested);

} // namespace glosa::documents
