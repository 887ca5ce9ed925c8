// What the line-based readers (txt, srt, md, and html's input checks) share: splitting into
// lines, the input checks every text reader makes, and reading a text in any encoding.
#pragma once

#include "app/core/documents/document.h"

#include <QByteArray>
#include <QString>

#include <vector>

namespace glosa::documents::formats {

bool isSpace(char c);

struct Line
{
    QByteArray indent;  // leading white space
    QByteArray content; // without the indentation and trailing white space
    QByteArray tail;    // trailing white space and the line break
};

std::vector<Line> splitLines(const QByteArray &bytes);

// "\r\n" when the first line ends so, else "\n".
QByteArray lineBreakOf(const QByteArray &bytes);

// Checks what every reader needs: UTF-8 text with something in it. Returns the BOM if any.
QByteArray checkText(const QByteArray &bytes, const QString &name);

// A segment of plain text (URLs, numbers, placeholders protected) on `lines` lines.
Segment plainSegment(const QByteArray &text, int lines, std::vector<qsizetype> breaks);

// `segment`, read from lines that were joined with '\n' where the file broke them with
// `lineBreak`: its text's line breaks become spaces noted in Segment::breaks, and those inside
// markup (a tag or a link that runs over two lines) are written back as the file's line break.
void foldLineBreaks(Segment &segment, const QByteArray &lineBreak);

// Whether a hard-wrapped line ends a sentence, and whether the next starts in lower case: what
// decides that two lines are one paragraph.
bool endsSentence(const QByteArray &line);
bool startsLowerCase(const QByteArray &line);

// Plain text files come in other encodings too: `bytes` decoded to UTF-8 for `readUtf8`, the
// encoding noted in Document::encoding so that writeDocument() converts back.
Document readEncodedText(const QByteArray &bytes, const QString &name,
                         Document (*readUtf8)(const QByteArray &, const QString &));

} // namespace glosa::documents::formats
