// What each format's file (formats/<name>.cpp) gives the format table (documents/formats.cpp):
// its reader and the writers other formats are converted with. Readers take the label used in
// messages; writers return the file's bytes.
#pragma once

#include "app/core/documents/document.h"

#include <QByteArray>
#include <QString>

#include <atomic>
#include <chrono>

namespace glosa::documents::formats {

Document parseTxt(const QByteArray &bytes, const QString &name);
Document readTxt(const QByteArray &utf8, const QString &name); // no encoding detection (PDF)
Document parseSrt(const QByteArray &bytes, const QString &name);
Document parseMd(const QByteArray &bytes, const QString &name);
Document parseHtml(const QByteArray &bytes, const QString &name);
Document parseOdt(const QByteArray &bytes, const QString &name);
Document parseDocx(const QByteArray &bytes, const QString &name);
// QtPdf reads files, not bytes. It runs in the glosa-pdftext helper (formats/pdftext.h), stopped
// after limits::kMaxPdfReadSeconds, or after `timeLimit` (the tests' shorter one). When
// `cancelled` (its owner's flag, set from any thread) becomes true the helper is killed within
// about 50 ms and DocumentCancelled is thrown.
Document readPdf(const QString &path, const std::atomic<bool> *cancelled = nullptr);
Document readPdf(const QString &path, std::chrono::milliseconds timeLimit,
                 const std::atomic<bool> *cancelled = nullptr);

// The document as read, with the target language on its <html> tag once translated (a PDF's
// too: it is read as HTML, formats/pdflayout.h).
QByteArray writeHtml(const Document &document);
// A document of another format (a PDF) as a word processor's file of its layout's headings,
// paragraphs, lists and tables (formats/blockxml.h).
QByteArray writeOdtBlocks(const Document &document);
QByteArray writeDocxBlocks(const Document &document);

} // namespace glosa::documents::formats
