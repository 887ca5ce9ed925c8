// The tag-soup reader that HTML and OpenDocument's XML share (HTML is not XML, and ODF's XML is
// read with the same rules): tags are skeleton or inline spans, text between block tags is one
// segment. Also the small XML helpers the office formats use.
#pragma once

#include "app/core/documents/document.h"

#include <QByteArray>
#include <QSet>
#include <QString>

namespace glosa::documents::formats {

// What a markup reader treats specially; every other element is a block boundary.
struct MarkupRules
{
    QSet<QByteArray> inlines; // inside a sentence: become spans
    QSet<QByteArray> voids;   // inline and never closed (HTML's <br>)
    QSet<QByteArray> raw;     // content kept untouched up to the end tag
    QSet<QByteArray> code;    // inline whose text is kept verbatim
    QSet<QByteArray> spaces;  // inline that separates words (a line break, a tab)
    // Inline elements whose content is paragraphs of their own, kept in place inside the
    // sentence and translated as nested segments (ODF's <text:note>: a footnote written where
    // it is referenced).
    QSet<QByteArray> notes;
    // Attributes whose quoted values are text for people (alt, title): translated as segments.
    QSet<QByteArray> attributes;
};

// Reads `bytes` with `rules` into `doc` (appending skeleton and segments). `check`: the whole
// input is a document of its own (UTF-8, not empty, a BOM kept); `name` is used in messages.
void readMarkup(const QByteArray &bytes, const QString &name, const MarkupRules &rules,
                Document &doc, bool check);

// An entity's text ("amp" → "&", "#233" → "é"), empty when unknown or invalid.
QByteArray decodeEntity(const QByteArray &entity);

// The index just after the '>' of the tag starting at `i` (quotes respected), or -1.
qsizetype tagEnd(const QByteArray &raw, qsizetype i);

// Throws DocumentError "`label` is corrupt" when an archive member is not UTF-8.
void checkMemberUtf8(const QByteArray &data, const QString &label);

} // namespace glosa::documents::formats
