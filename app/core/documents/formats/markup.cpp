#include "app/core/documents/formats/markup.h"

#include "app/core/documents/formats/textlines.h"
#include "app/core/limits.h"

#include "engine/text/unicode.h"

#include <algorithm>
#include <cctype>
#include <map>

namespace glosa::documents::formats {

QByteArray decodeEntity(const QByteArray &entity)
{
    static const std::map<QByteArray, QByteArray> named = {{"amp", "&"},
                                                           {"lt", "<"},
                                                           {"gt", ">"},
                                                           {"quot", "\""},
                                                           {"apos", "'"},
                                                           {"nbsp", "\xC2\xA0"},
                                                           {"copy", "\xC2\xA9"},
                                                           {"reg", "\xC2\xAE"},
                                                           {"mdash", "\xE2\x80\x94"},
                                                           {"ndash", "\xE2\x80\x93"},
                                                           {"hellip", "\xE2\x80\xA6"},
                                                           {"lsquo", "\xE2\x80\x98"},
                                                           {"rsquo", "\xE2\x80\x99"},
                                                           {"ldquo", "\xE2\x80\x9C"},
                                                           {"rdquo", "\xE2\x80\x9D"},
                                                           {"laquo", "\xC2\xAB"},
                                                           {"raquo", "\xC2\xBB"},
                                                           {"euro", "\xE2\x82\xAC"}};
    if (entity.startsWith('#')) {
        bool ok = false;
        const uint code = entity.size() > 1 && (entity[1] == 'x' || entity[1] == 'X')
                              ? entity.mid(2).toUInt(&ok, 16)
                              : entity.mid(1).toUInt(&ok, 10);
        if (!ok || code == 0 || code > 0x10FFFF || (code >= 0xD800 && code <= 0xDFFF))
            return {};
        const char32_t c = code;
        return QString::fromUcs4(&c, 1).toUtf8();
    }
    const auto found = named.find(entity);
    return found == named.end() ? QByteArray() : found->second;
}

qsizetype tagEnd(const QByteArray &raw, qsizetype i)
{
    char quote = 0;
    for (qsizetype k = i + 1; k < raw.size(); ++k) {
        const char c = raw[k];
        if (quote) {
            if (c == quote)
                quote = 0;
        } else if (c == '"' || c == '\'') {
            quote = c;
        } else if (c == '>') {
            return k + 1;
        }
    }
    return -1;
}

namespace {

// Whether renderSegment() writes `c` of a segment's text as an entity (`&amp;`, and quotes in an
// attribute value): a source that had it literally gets it back literally (Segment::asRead).
bool escapedWhenWritten(char c, bool attribute)
{
    return c == '&' || c == '<' || c == '>' || (attribute && (c == '"' || c == '\''));
}

class HtmlReader
{
public:
    // `boxes`: how many notes or frames this markup is nested in.
    HtmlReader(const QByteArray &bytes, const QString &name, const MarkupRules &rules,
               Document &doc, int boxes = 0)
        : m_bytes(bytes), m_name(name), m_rules(rules), m_doc(doc), m_boxes(boxes)
    {
        if (boxes > limits::kMaxBoxDepth)
            throw DocumentError(QStringLiteral("%1: notes or frames nest deeper than the limit "
                                               "of %2")
                                    .arg(m_name)
                                    .arg(limits::kMaxBoxDepth));
    }

    // `check`: the whole input is a document of its own (UTF-8, not empty, a BOM kept).
    void read(bool check)
    {
        const QByteArray bom = check ? checkText(m_bytes, m_name) : QByteArray();
        m_doc.appendSkeleton(bom);
        qsizetype i = bom.size();
        const qsizetype n = m_bytes.size();
        while (i < n) {
            if (m_bytes[i] != '<') {
                qsizetype end = m_bytes.indexOf('<', i + 1);
                end = end < 0 ? n : end;
                text(i, end);
                i = end;
                continue;
            }
            const qsizetype skipped = declaration(i);
            i = skipped >= 0 ? skipped : element(i);
        }
        flush();
    }

private:
    // A comment, CDATA, a declaration or a processing instruction at i, kept as it is. Returns
    // where reading goes on, or -1 where there is none at i.
    qsizetype declaration(qsizetype i)
    {
        const qsizetype n = m_bytes.size();
        if (m_bytes.mid(i, 4) == "<!--") {
            const qsizetype end = m_bytes.indexOf("-->", i + 4);
            return boundary(i, end < 0 ? n : end + 3);
        }
        if (m_bytes.mid(i, 9) == "<![CDATA[") {
            const qsizetype end = m_bytes.indexOf("]]>", i);
            return boundary(i, end < 0 ? n : end + 3);
        }
        if (i + 1 < n && (m_bytes[i + 1] == '!' || m_bytes[i + 1] == '?')) {
            const qsizetype end = m_bytes.indexOf('>', i);
            return boundary(i, end < 0 ? n : end + 1);
        }
        return -1;
    }

    // The start or end tag at i (a lone '<' is text): a raw element kept whole, a note, a block
    // tag or an inline one. Returns where reading goes on.
    qsizetype element(qsizetype i)
    {
        const qsizetype n = m_bytes.size();
        const bool closing = i + 1 < n && m_bytes[i + 1] == '/';
        qsizetype k = i + (closing ? 2 : 1);
        const qsizetype nameStart = k;
        while (k < n && (std::isalnum(uchar(m_bytes[k])) || m_bytes[k] == '-' ||
                         m_bytes[k] == ':' || m_bytes[k] == '_'))
            ++k;
        if (k == nameStart || !std::isalpha(uchar(m_bytes[nameStart]))) {
            text(i, i + 1); // a lone '<' is text
            return i + 1;
        }
        const QByteArray tagName = m_bytes.mid(nameStart, k - nameStart).toLower();
        // To the '>' that is not inside a quoted attribute value.
        const qsizetype end = tagEnd(m_bytes, i);
        if (end < 0)
            throw DocumentError(QStringLiteral("%1: the tag '<%2' at offset %3 is not closed "
                                               "with '>'")
                                    .arg(m_name, QString::fromUtf8(tagName))
                                    .arg(i));
        const QByteArray raw = m_bytes.mid(i, end - i);
        if (!closing && m_rules.raw.contains(tagName) && !raw.endsWith("/>")) {
            // Raw content up to the matching end tag, untouched.
            const QByteArray close = "</" + tagName;
            qsizetype stop = lowered().indexOf(close, end);
            if (stop < 0)
                stop = n;
            const qsizetype after = m_bytes.indexOf('>', stop);
            return boundary(i, after < 0 ? n : after + 1);
        }
        if (!closing && m_rules.notes.contains(tagName) && !raw.endsWith("/>"))
            return note(tagName, raw, end);
        if (!m_rules.inlines.contains(tagName))
            blockTag(raw, closing);
        else
            inlineTag(tagName, raw, closing || raw.endsWith("/>"), closing);
        return end;
    }

    // A tag that is not inline ends the paragraph and is skeleton; its alt or title text gets a
    // slot of its own.
    void blockTag(const QByteArray &raw, bool closing)
    {
        flush();
        std::vector<NestedSegment> nested;
        const QByteArray open = closing ? raw : nestAttributes(raw, nested);
        qsizetype from = 0;
        for (const NestedSegment &n : nested) {
            m_doc.appendSkeleton(open.mid(from, n.at - from));
            m_doc.parts.push_back({{}, n.segment});
            from = n.at;
        }
        m_doc.appendSkeleton(open.mid(from));
    }

    // The input in lower case, made once: end tags of raw elements are found in it (making it
    // for each <script> read 50,000 of them in 162 s).
    const QByteArray &lowered()
    {
        if (m_lower.isEmpty())
            m_lower = m_bytes.toLower();
        return m_lower;
    }

    struct Open
    {
        QByteArray name;
        QByteArray raw;
        qsizetype begin;
        std::size_t index; // in m_segment.spans, reserved at the start tag
        int order;
        std::vector<NestedSegment> nested;
    };

    // An attribute value raw[textBegin, textEnd) as a segment: what it writes otherwise than
    // its text (a run of white space, an entity, a quote) is kept as read.
    static Segment attributeSegment(const QByteArray &raw, qsizetype textBegin, qsizetype textEnd)
    {
        Segment segment;
        segment.attribute = true;
        for (qsizetype c = textBegin; c < textEnd;) {
            const qsizetype at = segment.text.size();
            if (isSpace(raw[c])) {
                qsizetype e = c;
                while (e < textEnd && isSpace(raw[e]))
                    ++e;
                segment.text += ' ';
                if (e - c != 1 || raw[c] != ' ')
                    segment.asRead.push_back({{at, at + 1}, raw.mid(c, e - c)});
                c = e;
                continue;
            }
            const qsizetype semicolon = raw.indexOf(';', c);
            if (raw[c] == '&' && semicolon > c && semicolon < textEnd && semicolon - c <= 10) {
                const QByteArray decoded = decodeEntity(raw.mid(c + 1, semicolon - c - 1));
                if (!decoded.isEmpty()) {
                    segment.text += decoded;
                    segment.asRead.push_back(
                        {{at, segment.text.size()}, raw.mid(c, semicolon + 1 - c)});
                    c = semicolon + 1;
                    continue;
                }
            }
            if (escapedWhenWritten(raw[c], true))
                segment.asRead.push_back({{at, at + 1}, raw.mid(c, 1)});
            segment.text += raw[c++];
        }
        return segment;
    }

    // `raw` without the values of the translated attributes, which become nested segments of
    // the document (at their places in the returned bytes).
    QByteArray nestAttributes(const QByteArray &raw, std::vector<NestedSegment> &nested)
    {
        if (m_rules.attributes.isEmpty())
            return raw;
        QByteArray open;
        qsizetype copied = 0;
        qsizetype k = 1;
        const qsizetype n = raw.size();
        while (k < n && !isSpace(raw[k]) && raw[k] != '>' && raw[k] != '/')
            ++k; // the tag name
        while (k < n) {
            while (k < n && (isSpace(raw[k]) || raw[k] == '/'))
                ++k;
            const qsizetype nameStart = k;
            while (k < n && !isSpace(raw[k]) && raw[k] != '=' && raw[k] != '>' && raw[k] != '/')
                ++k;
            const QByteArray name = raw.mid(nameStart, k - nameStart).toLower();
            if (name.isEmpty())
                break;
            qsizetype j = k;
            while (j < n && isSpace(raw[j]))
                ++j;
            if (j >= n || raw[j] != '=')
                continue; // an attribute without a value
            ++j;
            while (j < n && isSpace(raw[j]))
                ++j;
            if (j >= n)
                break;
            if (raw[j] != '"' && raw[j] != '\'') { // unquoted: to the next space or '>'
                k = j;
                while (k < n && !isSpace(raw[k]) && raw[k] != '>')
                    ++k;
                continue;
            }
            const qsizetype valueBegin = j + 1;
            const qsizetype valueEnd = raw.indexOf(raw[j], valueBegin);
            if (valueEnd < 0)
                break;
            k = valueEnd + 1;
            if (!m_rules.attributes.contains(name))
                continue;
            // White space around the text stays in the tag; inside it, what the text writes
            // otherwise (a run of white space, an entity, a quote) is kept as read.
            qsizetype textBegin = valueBegin, textEnd = valueEnd;
            while (textBegin < textEnd && isSpace(raw[textBegin]))
                ++textBegin;
            while (textEnd > textBegin && isSpace(raw[textEnd - 1]))
                --textEnd;
            Segment segment = attributeSegment(raw, textBegin, textEnd);
            if (segment.text.trimmed().isEmpty())
                continue;
            protectSpans(segment.text, segment.spans);
            open += raw.mid(copied, textBegin - copied);
            nested.push_back({open.size(), m_doc.appendNested(std::move(segment))});
            copied = textEnd;
        }
        return open + raw.mid(copied);
    }

    // An element kept inline whose content is read as paragraphs of its own (a footnote): one
    // empty span holding it all, its paragraphs nested. Returns where reading goes on.
    qsizetype note(const QByteArray &name, const QByteArray &raw, qsizetype contentBegin)
    {
        // The matching end tag: not </text:note-citation>, and past the end of a frame inside
        // a frame's text box.
        auto tagAt = [&](qsizetype k, qsizetype length) {
            return k + length < m_bytes.size() &&
                   (m_bytes[k + length] == '>' || m_bytes[k + length] == '/' ||
                    isSpace(m_bytes[k + length]));
        };
        const QByteArray startTag = "<" + name, endTag = "</" + name;
        qsizetype stop = contentBegin;
        for (int depth = 1; depth > 0;) {
            stop = m_bytes.indexOf('<', stop);
            if (stop < 0) {
                stop = m_bytes.size();
                break;
            }
            if (m_bytes.mid(stop, endTag.size()) == endTag && tagAt(stop, endTag.size()))
                --depth;
            else if (m_bytes.mid(stop, startTag.size()) == startTag &&
                     tagAt(stop, startTag.size()) &&
                     !m_bytes.mid(stop, tagEnd(m_bytes, stop) - stop).endsWith("/>"))
                ++depth;
            if (depth > 0)
                ++stop;
        }
        qsizetype after = m_bytes.indexOf('>', stop);
        after = after < 0 ? m_bytes.size() : after + 1;
        m_trail.clear();
        endRun();
        const qsizetype at = m_segment.text.size();
        const int order = ++m_order;
        InlineSpan span{{at, at}, raw, {}, false, order, order};
        const QByteArray content = m_bytes.mid(contentBegin, stop - contentBegin);
        Document inner;
        inner.escaping = m_doc.escaping;
        HtmlReader(content, m_name, m_rules, inner, m_boxes + 1).read(false);
        m_doc.nestInto(std::move(inner), span);
        span.open += m_bytes.mid(stop, after - stop);
        m_segment.spans.push_back(std::move(span));
        m_last = {Last::Open, m_segment.spans.size() - 1};
        return after;
    }

    void text(qsizetype from, qsizetype to)
    {
        for (qsizetype i = from; i < to; ++i) {
            const char c = m_bytes[i];
            if (isSpace(c)) {
                if (m_segment.text.isEmpty() && m_segment.spans.empty()) {
                    m_lead += c;
                } else {
                    m_trail += c;
                    const qsizetype last = m_segment.text.size() - 1;
                    if (!m_segment.text.endsWith(' ')) {
                        m_segment.text += ' ';
                        m_run = {last + 1, {}};
                    } else if (m_run.first < 0 && !m_segment.asRead.empty() &&
                               m_segment.asRead.back().first.begin == last &&
                               m_segment.asRead.back().second.isEmpty() &&
                               m_last.kind == Last::Open &&
                               m_segment.spans[m_last.index].range.begin == last) {
                        // The space a <br> added, and nothing but the <br> since: this white
                        // space is what it stands for.
                        m_segment.asRead.pop_back();
                        m_run = {last, {}};
                    } else if (m_run.first < 0) {
                        // White space on both sides of a tag (`c <br> d`): the text has its
                        // one space before the tag, so what follows the tag is kept with it.
                        keepWithLast(c);
                    }
                    if (m_run.first == m_segment.text.size() - 1)
                        m_run.second += c;
                }
                continue;
            }
            m_trail.clear();
            endRun();
            m_last = {};
            const qsizetype at = m_segment.text.size();
            if (c == '&') {
                const qsizetype semicolon = m_bytes.indexOf(';', i);
                if (semicolon > i && semicolon < to && semicolon - i <= 10) {
                    const QByteArray entity = m_bytes.mid(i + 1, semicolon - i - 1);
                    const QByteArray decoded = decodeEntity(entity);
                    if (!decoded.isEmpty()) {
                        m_segment.text += decoded;
                        m_segment.asRead.push_back(
                            {{at, m_segment.text.size()}, m_bytes.mid(i, semicolon + 1 - i)});
                        m_last = {Last::AsRead, m_segment.asRead.size() - 1};
                    } else {
                        // Unknown: kept as written, in its place.
                        ++m_order;
                        m_segment.spans.push_back({{at, at},
                                                   m_bytes.mid(i, semicolon + 1 - i),
                                                   {},
                                                   false,
                                                   m_order,
                                                   m_order});
                        m_last = {Last::Open, m_segment.spans.size() - 1};
                    }
                    i = semicolon;
                    continue;
                }
            }
            if (escapedWhenWritten(c, false)) // a lone '<', '&' or '>'
                m_segment.asRead.push_back({{at, at + 1}, QByteArray(1, c)});
            m_segment.text += c;
        }
    }

    // Appends white space to the bytes of the last tag or entity read.
    void keepWithLast(char c)
    {
        switch (m_last.kind) {
        case Last::None:
            break;
        case Last::Open:
            m_segment.spans[m_last.index].open += c;
            // A start tag still open is written again from m_open when it closes.
            for (Open &o : m_open)
                if (o.index == m_last.index)
                    o.raw += c;
            break;
        case Last::Close:
            m_segment.spans[m_last.index].close += c;
            break;
        case Last::AsRead:
            m_segment.asRead[m_last.index].second += c;
            break;
        }
    }

    // A run of white space folded to the one space of the text: kept when it was anything else,
    // so that the untranslated paragraph is written back as it was read (Segment::asRead).
    void endRun()
    {
        if (m_run.first >= 0 && m_run.second != " ")
            m_segment.asRead.push_back({{m_run.first, m_run.first + 1}, m_run.second});
        m_run = {-1, {}};
    }

    void inlineTag(const QByteArray &name, const QByteArray &raw, bool selfClosing, bool closing)
    {
        m_trail.clear();
        endRun();
        const qsizetype at = m_segment.text.size();
        const int order = ++m_order;
        if (closing) {
            for (auto open = m_open.rbegin(); open != m_open.rend(); ++open) {
                if (open->name != name)
                    continue;
                // Close it and everything opened inside it and left open (those close with
                // it, so what came before this end tag was inside them: `<a><s><br>n</a>`).
                const std::size_t keep = std::distance(open, m_open.rend()) - 1;
                for (std::size_t k = m_open.size(); k-- > keep;) {
                    const Open &o = m_open[k];
                    m_segment.spans[o.index] = {{o.begin, at},
                                                o.raw,
                                                k == keep ? raw : "",
                                                k == keep && m_rules.code.contains(o.name),
                                                o.order,
                                                order,
                                                false,
                                                o.nested};
                }
                m_last = {Last::Close, m_open[keep].index};
                m_open.resize(keep);
                return;
            }
            // Opened in an earlier block.
            m_segment.spans.push_back({{at, at}, raw, {}, false, order, order});
            m_last = {Last::Open, m_segment.spans.size() - 1};
            return;
        }
        std::vector<NestedSegment> nested;
        const QByteArray open = nestAttributes(raw, nested);
        if (selfClosing || m_rules.voids.contains(name)) {
            m_segment.spans.push_back({{at, at}, open, {}, false, order, order, false, nested});
            m_last = {Last::Open, m_segment.spans.size() - 1};
            // A line break separates words: "a<br>b" is read as "a b".
            if (m_rules.spaces.contains(name) && !m_segment.text.isEmpty() &&
                !m_segment.text.endsWith(' ')) {
                m_segment.text += ' ';
                m_segment.asRead.push_back(
                    {{m_segment.text.size() - 1, m_segment.text.size()}, {}}); // not in the source
            }
            return;
        }
        if (m_open.size() >= std::size_t(limits::kMaxMarkupDepth))
            throw DocumentError(QStringLiteral("%1: inline elements nest deeper than the limit "
                                               "of %2")
                                    .arg(m_name)
                                    .arg(limits::kMaxMarkupDepth));
        m_open.push_back({name, open, at, m_segment.spans.size(), order, nested});
        m_segment.spans.push_back({{at, at}, open, {}, false, order, order, false, nested});
        m_last = {Last::Open, m_segment.spans.size() - 1};
    }

    qsizetype boundary(qsizetype from, qsizetype to)
    {
        flush();
        m_doc.appendSkeleton(m_bytes.mid(from, to - from));
        return to;
    }

    void flush()
    {
        // Tags left open stay where they were, as empty spans (their close is in a later block).
        for (const Open &o : m_open)
            m_segment.spans[o.index] = {
                {o.begin, o.begin}, o.raw, {}, false, o.order, o.order, false, o.nested};
        m_open.clear();
        m_order = 0;
        m_doc.appendSkeleton(m_lead);
        // Trailing white space after the last text goes back as it was written (white space
        // after a tag that followed a space is already in that tag: keepWithLast).
        QByteArray trail;
        if (m_run.first >= 0 && m_run.first == m_segment.text.size() - 1 && !m_trail.isEmpty()) {
            m_segment.text.chop(1);
            trail = m_trail;
            m_run = {-1, {}}; // written as skeleton
            while (!m_segment.asRead.empty() &&
                   m_segment.asRead.back().first.end > m_segment.text.size())
                m_segment.asRead.pop_back();
        }
        endRun();
        protectSpans(m_segment.text, m_segment.spans);
        m_doc.appendSegment(std::move(m_segment));
        m_doc.appendSkeleton(trail);
        m_segment = Segment();
        m_lead.clear();
        m_trail.clear();
        m_last = {};
    }

    const QByteArray &m_bytes;
    QByteArray m_lower; // lowered()
    QString m_name;
    const MarkupRules &m_rules;
    Document &m_doc;
    const int m_boxes;
    Segment m_segment;
    std::vector<Open> m_open;
    QByteArray m_lead;  // white space before the segment's first text or tag
    QByteArray m_trail; // white space after its last text or tag
    std::pair<qsizetype, QByteArray> m_run{-1, {}}; // the white space run being read
    // The tag or entity read last in the segment, while nothing but white space followed it.
    struct Last
    {
        enum Kind { None, Open, Close, AsRead } kind = None;
        std::size_t index = 0; // in m_segment.spans (Open, Close) or m_segment.asRead
    } m_last;
    int m_order = 0;    // tags seen in the current segment
};

} // namespace

void readMarkup(const QByteArray &bytes, const QString &name, const MarkupRules &rules,
                Document &doc, bool check)
{
    HtmlReader(bytes, name, rules, doc).read(check);
}

void checkMemberUtf8(const QByteArray &data, const QString &label)
{
    const std::size_t bad = engine::findInvalidUtf8({data.constData(), std::size_t(data.size())});
    if (bad != std::string_view::npos)
        throw DocumentError(
            QStringLiteral("%1 is corrupt: not UTF-8 at offset %2").arg(label).arg(bad));
}

} // namespace glosa::documents::formats
