// HTML: every tag, comment and raw element (script, style, pre) is kept byte for byte; text
// between block tags is one segment, inline tags its spans (formats.h).
#include "app/core/documents/formats/entrypoints.h"
#include "app/core/documents/formats/markup.h"
#include "app/core/documents/formats/textlines.h"

#include <QRegularExpression>

namespace glosa::documents::formats {

namespace {

const QSet<QByteArray> &inlineElements()
{
    static const QSet<QByteArray> names = {
        "a",      "abbr", "b",   "bdi",  "bdo", "big",  "cite", "code", "data", "del",   "dfn",
        "em",     "font", "i",   "ins",  "kbd", "mark", "q",    "s",    "samp", "small", "span",
        "strong", "sub",  "sup", "time", "tt",  "u",    "var",  "br",   "img",  "wbr",   "label"};
    return names;
}

const MarkupRules &htmlRules()
{
    // Alt and title texts are translated: a reader of the Spanish page hears the Spanish alt text
    // from a screen reader and sees the Spanish tooltip.
    static const MarkupRules rules{inlineElements(),
                                   {"br", "img", "wbr"},
                                   {"script", "style", "pre", "textarea"},
                                   {"code", "kbd", "samp", "var", "tt"},
                                   {"br"},
                                   {},
                                   {"alt", "title", "placeholder", "aria-label"}};
    return rules;
}

// `html` with lang="`language`" on its <html> tag (replacing the source's own language).
QByteArray withLanguage(QByteArray html, const QString &language)
{
    static const QRegularExpression tag(QStringLiteral("<html\\b[^>]*>"),
                                        QRegularExpression::CaseInsensitiveOption);
    static const QRegularExpression lang(
        QStringLiteral("\\slang\\s*=\\s*(\"[^\"]*\"|'[^']*'|[^\\s>]+)"),
        QRegularExpression::CaseInsensitiveOption);
    const QString text = QString::fromLatin1(html.left(64 * 1024)); // the tag's bytes, 1:1
    const QRegularExpressionMatch open = tag.match(text);
    if (!open.hasMatch() || language.isEmpty())
        return html;
    const QByteArray value = " lang=\"" + language.toUtf8() + "\"";
    const QRegularExpressionMatch old = lang.match(open.captured());
    if (old.hasMatch())
        return html.replace(open.capturedStart() + old.capturedStart(), old.capturedLength(),
                            value);
    return html.insert(open.capturedStart() + 5, value);
}

// What goes out as .html gets the target language on its <html> tag once translated.
QByteArray withTargetLanguage(const QByteArray &html, const Document &document)
{
    return document.translatedCount() > 0 ? withLanguage(html, document.targetLanguage) : html;
}

} // namespace

Document parseHtml(const QByteArray &bytes, const QString &name)
{
    Document doc;
    doc.format = QStringLiteral("html");
    doc.escaping = TextEscaping::Xml;
    doc.lineBreak = lineBreakOf(bytes);
    readMarkup(bytes, name, htmlRules(), doc, true);
    return doc;
}

QByteArray writeHtml(const Document &document)
{
    return withTargetLanguage(document.render(), document);
}

} // namespace glosa::documents::formats
