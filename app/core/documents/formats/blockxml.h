// A document written as a word processor's XML from its layout (documents/layout.h): headings,
// paragraphs, nested lists and tables, with footnote marks as superscript runs. How a PDF's
// structure (formats/pdflayout.h) reaches the .docx and .odt written for it; docx.cpp and odt.cpp
// give the vocabulary.
#pragma once

#include "app/core/documents/document.h"
#include "app/core/documents/layout.h"

#include <QByteArray>

#include <functional>

namespace glosa::documents::formats {

struct BlockXml
{
    // A paragraph (a heading, a list item, a table cell's or a plain one) holding `runs`.
    std::function<QByteArray(const BlockRole &role, const QByteArray &runs)> paragraph;
    // Escaped text as a run, and a footnote's mark ("1", "*") as a raised one.
    std::function<QByteArray(const QByteArray &escaped)> run;
    std::function<QByteArray(const QByteArray &escaped)> mark;
    // Lists nested as elements (ODF), or empty where the paragraph says its level (Word).
    std::function<QByteArray(bool ordered)> listOpen;
    QByteArray listClose, itemOpen, itemClose;
    std::function<QByteArray(int columns)> tableOpen;
    QByteArray tableClose, rowOpen, rowClose, cellOpen, cellClose;
    // What an empty cell holds (Word: a cell needs a paragraph).
    QByteArray emptyCell;
};

// The body: every segment (translated, else as read) as its block, in order.
QByteArray blocksAsXml(const Document &document, const BlockXml &xml);

} // namespace glosa::documents::formats
