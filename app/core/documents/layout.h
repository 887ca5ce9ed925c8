// How each segment of a Document sits on the page (heading, list item, table cell or paragraph)
// and which of its text is bold, italic, underlined, struck out, code or a link: what the
// Documents view needs to show a document as it is formatted, not as flat text.
//
// Basic usage:
//     const Document doc = readDocument("report.docx");           // formats.h
//     const std::vector<SegmentLayout> layout = describeLayout(doc); // one per segment
//     if (layout[3].role.kind == BlockRole::Kind::TableCell) ...    // layout[3].role.row, .column
//
// The readers keep markup as bytes (the skeleton between segments, and each inline span's
// `open`), so that writing a document back changes only its text. This file is the one place
// that reads meaning out of those bytes, so that no reader has to carry a second description of
// the same markup: the tags of HTML, OpenDocument (content.xml, styles.xml: headings, lists,
// tables and the automatic text styles that make a <text:span> bold) and Word (w:pStyle Heading1,
// w:numPr, w:tbl; a run's w:rPr), and Markdown's line prefixes and emphasis markers. Subtitle
// tags (<i>, <b>) are read as HTML's, and so is a PDF (the HTML formats/pdflayout.h makes of
// its boxes). Plain text is paragraphs without styles.
#pragma once

#include "app/core/documents/document.h"

#include <vector>

namespace glosa::documents {

struct BlockRole
{
    enum class Kind { Paragraph, Heading, ListItem, TableCell };
    Kind kind = Kind::Paragraph;
    // A heading's level (1 the largest, up to 6); a list item's nesting depth (0 the outermost).
    int level = 0;
    bool ordered = false; // a numbered list's item (HTML <ol>, Markdown "1.", ODF's numbering)
    // A cell's table (counted in the document from 0) and its place there. Cells of a table
    // inside a cell are reported as the outer cell's: its content, without the inner grid.
    int table = -1;
    int row = -1;
    int column = -1;
    bool operator==(const BlockRole &) const = default;
};

enum TextStyle : int {
    Bold = 1,
    Italic = 2,
    Underline = 4,
    StrikeOut = 8,
    Code = 16,
    Link = 32,
};

struct StyledRange
{
    ByteRange range; // in Segment::text
    int styles = 0;  // TextStyle flags
    // The span of Segment::spans it comes from: projectSpans() gives its range in a translation.
    int span = -1;
};

struct SegmentLayout
{
    BlockRole role;
    // The styled stretches of the segment's text, in span order; they nest as the markup did.
    std::vector<StyledRange> styles;
};

// One per segment, in Document::segments order. A nested segment (a footnote, an alt text) is a
// paragraph of its own, except inside a table cell: there it has its host's cell, so that the
// table stays whole.
std::vector<SegmentLayout> describeLayout(const Document &document);

} // namespace glosa::documents
