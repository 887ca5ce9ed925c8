#!/bin/sh
# Makes the office fixtures of tst_documents and tst_documentsview from report.html with
# LibreOffice, as a user's word processor would write them: report.docx (Word 2007+),
# report.odt (ODF 1.3) and report.pdf, each with a heading, paragraphs with bold, italic and links,
# lists, a table, a footnote, a header and a footer; and textbox.docx/.odt from textbox.fodt (text
# boxes, inline and anchored, in the toy model's words). The outputs are committed (a few KB each), so
# that building and testing need no LibreOffice; run this again after editing report.html.
#
# Needs soffice (Debian: apt-get install libreoffice-writer-nogui). The small hand-made edge
# cases (sample.docx/.odt/.pdf, encrypted and corrupt files) come from make_fixtures.py.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# A profile of its own: no interference with a running LibreOffice, no settings left behind.
export HOME="$work/home"
convert() { # FORMAT:FILTER
    nice -n 10 soffice --headless --norestore --infilter="HTML (StarWriter)" \
        --convert-to "$1" --outdir "$work" "$here/report.html" >/dev/null 2>&1
}
convert 'docx:MS Word 2007 XML'
convert 'odt:writer8'
convert 'pdf:writer_pdf_Export'
for suffix in docx odt pdf; do
    cp "$work/report.$suffix" "$here/report.$suffix"
done
# structure.html (nested lists, three heading levels, tables with an empty cell, a footnote) as
# Word's file, and the PDF LibreOffice prints from that .docx: what tst_pdflayout measures the
# structure read from a PDF against.
nice -n 10 soffice --headless --norestore --infilter="HTML (StarWriter)" \
    --convert-to 'docx:MS Word 2007 XML' --outdir "$work" "$here/structure.html" >/dev/null 2>&1
nice -n 10 soffice --headless --norestore --convert-to 'pdf:writer_pdf_Export' \
    --outdir "$work/pdf" "$work/structure.docx" >/dev/null 2>&1
cp "$work/structure.docx" "$work/pdf/structure.pdf" "$here/"
# Text boxes as Word stores them (DrawingML with a VML fallback) and as ODF does (draw:frame),
# from a flat ODF text.
for target in 'docx:MS Word 2007 XML' 'odt:writer8'; do
    nice -n 10 soffice --headless --norestore --convert-to "$target" --outdir "$work" \
        "$here/textbox.fodt" >/dev/null 2>&1
done
cp "$work/textbox.docx" "$work/textbox.odt" "$here/"
# A document cut short, as an interrupted download leaves it.
head -c 3000 "$here/report.docx" > "$here/truncated.docx"
ls -l "$here"/report.* "$here"/structure.* "$here"/textbox.* "$here/truncated.docx"
