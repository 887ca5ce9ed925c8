#!/usr/bin/python3
"""Writes the office fixtures of tst_documents: sample.docx (the same content in WordprocessingML,
runs with bold/italic, a hyperlink, a footnote, a header and a footer, a tab), sample.odt (paragraphs, a heading, a list, a
table, a footnote, bold/italic spans, a link, a header and a footer), corrupt.odt (a truncated
archive) and encrypted.odt (a manifest with encryption data). The output is committed; run from
anywhere with /usr/bin/python3 (standard library only). LibreOffice is not needed."""
import os
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))

ODF_NS = (
    'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
    'xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" '
    'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" '
    'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" '
    'xmlns:fo="urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0" '
    'xmlns:xlink="http://www.w3.org/1999/xlink"')

CONTENT = f"""<?xml version="1.0" encoding="UTF-8"?>
<office:document-content {ODF_NS} office:version="1.3"><office:automatic-styles><style:style style:name="T1" style:family="text"><style:text-properties fo:font-weight="bold"/></style:style><style:style style:name="T2" style:family="text"><style:text-properties fo:font-style="italic"/></style:style></office:automatic-styles><office:body><office:text><text:h text:style-name="Heading_20_1" text:outline-level="1">the red house</text:h><text:p text:style-name="Standard">the <text:span text:style-name="T1">red</text:span> car is very small. the dog &amp; the cat see <text:a xlink:type="simple" xlink:href="http://example.com/?a=1&amp;b=2">my friend</text:a>.</text:p><text:p text:style-name="Standard">i have a <text:span text:style-name="T2">new</text:span> book<text:note text:id="ftn1" text:note-class="footnote"><text:note-citation>1</text:note-citation><text:note-body><text:p text:style-name="Footnote">the book is green.</text:p></text:note-body></text:note> today.</text:p><text:list text:style-name="L1"><text:list-item><text:p text:style-name="P1">the house is white</text:p></text:list-item><text:list-item><text:p text:style-name="P1">we see the black dog</text:p></text:list-item></text:list><table:table table:name="Table1"><table:table-column table:number-columns-repeated="2"/><table:table-row><table:table-cell office:value-type="string"><text:p>the cat</text:p></table:table-cell><table:table-cell office:value-type="string"><text:p>the dog</text:p></table:table-cell></table:table-row></table:table></office:text></office:body></office:document-content>
"""

STYLES = f"""<?xml version="1.0" encoding="UTF-8"?>
<office:document-styles {ODF_NS} office:version="1.3"><office:master-styles><style:master-page style:name="Standard" style:page-layout-name="pm1"><style:header><text:p text:style-name="Header">hello, my friend</text:p></style:header><style:footer><text:p text:style-name="Footer">the green book</text:p></style:footer></style:master-page></office:master-styles></office:document-styles>
"""

MANIFEST = """<?xml version="1.0" encoding="UTF-8"?>
<manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.3">
 <manifest:file-entry manifest:full-path="/" manifest:media-type="application/vnd.oasis.opendocument.text"/>
 <manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/>
 <manifest:file-entry manifest:full-path="styles.xml" manifest:media-type="text/xml"/>
</manifest:manifest>
"""

ENCRYPTED_MANIFEST = MANIFEST.replace(
    'manifest:full-path="content.xml" manifest:media-type="text/xml"/>',
    'manifest:full-path="content.xml" manifest:media-type="text/xml" manifest:size="2000">'
    '<manifest:encryption-data manifest:checksum-type="SHA1/1K" manifest:checksum="AAAA">'
    '<manifest:algorithm manifest:algorithm-name="Blowfish CFB" manifest:initialisation-vector="AAAA"/>'
    '</manifest:encryption-data></manifest:file-entry>')


def write_odt(path, manifest, content):
    with zipfile.ZipFile(path, "w") as z:
        z.writestr(zipfile.ZipInfo("mimetype"), "application/vnd.oasis.opendocument.text",
                   compress_type=zipfile.ZIP_STORED)
        z.writestr("META-INF/manifest.xml", manifest, compress_type=zipfile.ZIP_DEFLATED)
        z.writestr("content.xml", content, compress_type=zipfile.ZIP_DEFLATED)
        z.writestr("styles.xml", STYLES, compress_type=zipfile.ZIP_DEFLATED)


W = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"'

DOCUMENT = f"""<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<w:document {W}><w:body><w:p><w:pPr><w:pStyle w:val="Heading1"/></w:pPr><w:r><w:t>the red house</w:t></w:r></w:p><w:p><w:pPr><w:pStyle w:val="Normal"/></w:pPr><w:bookmarkStart w:id="0" w:name="start"/><w:r><w:t xml:space="preserve">the </w:t></w:r><w:r><w:rPr><w:b/></w:rPr><w:t>red</w:t></w:r><w:r><w:t xml:space="preserve"> car is very small. the dog &amp; the cat see </w:t></w:r><w:hyperlink r:id="rId9" w:history="1"><w:r><w:rPr><w:rStyle w:val="Hyperlink"/></w:rPr><w:t>my friend</w:t></w:r></w:hyperlink><w:r><w:t>.</w:t></w:r><w:bookmarkEnd w:id="0"/></w:p><w:p><w:r><w:t xml:space="preserve">i have a </w:t></w:r><w:r><w:rPr><w:i/></w:rPr><w:t>new</w:t></w:r><w:r><w:t xml:space="preserve"> book</w:t></w:r><w:r><w:rPr><w:rStyle w:val="FootnoteReference"/></w:rPr><w:footnoteReference w:id="1"/></w:r><w:r><w:t xml:space="preserve"> today.</w:t></w:r></w:p><w:p><w:pPr><w:numPr><w:ilvl w:val="0"/><w:numId w:val="1"/></w:numPr></w:pPr><w:r><w:t>the house is white</w:t></w:r></w:p><w:p><w:pPr><w:numPr><w:ilvl w:val="0"/><w:numId w:val="1"/></w:numPr></w:pPr><w:r><w:t>we see the black dog</w:t></w:r></w:p><w:tbl><w:tr><w:tc><w:p><w:r><w:t>the cat</w:t></w:r></w:p></w:tc><w:tc><w:p><w:r><w:t>the dog</w:t></w:r><w:r><w:tab/><w:t>hello</w:t></w:r></w:p></w:tc></w:tr></w:tbl><w:p/><w:sectPr><w:headerReference w:type="default" r:id="rId10"/><w:footerReference w:type="default" r:id="rId11"/></w:sectPr></w:body></w:document>
"""

FOOTNOTES = f"""<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<w:footnotes {W}><w:footnote w:type="separator" w:id="-1"><w:p><w:r><w:separator/></w:r></w:p></w:footnote><w:footnote w:id="1"><w:p><w:r><w:rPr><w:rStyle w:val="FootnoteReference"/></w:rPr><w:footnoteRef/></w:r><w:r><w:t xml:space="preserve"> the book is green.</w:t></w:r></w:p></w:footnote></w:footnotes>
"""

HEADER = f"""<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<w:hdr {W}><w:p><w:r><w:t>hello, my friend</w:t></w:r></w:p></w:hdr>
"""

FOOTER = f"""<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<w:ftr {W}><w:p><w:r><w:t>the green book</w:t></w:r></w:p></w:ftr>
"""

CONTENT_TYPES = """<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/><Override PartName="/word/footnotes.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.footnotes+xml"/><Override PartName="/word/header1.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.header+xml"/><Override PartName="/word/footer1.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.footer+xml"/></Types>
"""

RELS = """<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>
"""

DOCUMENT_RELS = """<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId8" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/footnotes" Target="footnotes.xml"/><Relationship Id="rId9" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/hyperlink" Target="http://example.com/?a=1&amp;b=2" TargetMode="External"/><Relationship Id="rId10" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/header" Target="header1.xml"/><Relationship Id="rId11" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/footer" Target="footer1.xml"/></Relationships>
"""


def write_docx(path):
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as z:
        z.writestr("[Content_Types].xml", CONTENT_TYPES)
        z.writestr("_rels/.rels", RELS)
        z.writestr("word/document.xml", DOCUMENT)
        z.writestr("word/_rels/document.xml.rels", DOCUMENT_RELS)
        z.writestr("word/footnotes.xml", FOOTNOTES)
        z.writestr("word/header1.xml", HEADER)
        z.writestr("word/footer1.xml", FOOTER)


def write_pdf(path, lines_by_page, encrypt=False):
    """A minimal PDF 1.4: Helvetica text lines drawn top-down on each page; with `encrypt`, a
    standard security handler whose user password is not empty (as a protected file has)."""
    objects = []
    pages = []
    font = 3
    objects.append(b"<< /Type /Catalog /Pages 2 0 R >>")
    objects.append(None)  # pages, filled below
    objects.append(b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>")
    for lines in lines_by_page:
        ops = ["BT /F1 12 Tf 14 TL 72 740 Td"]
        for line in lines:
            text = line.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")
            ops.append(f"({text}) Tj T*")
        ops.append("ET")
        stream = "\n".join(ops).encode("latin-1")
        objects.append(b"<< /Length %d >>\nstream\n" % len(stream) + stream + b"\nendstream")
        content = len(objects)
        objects.append(b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents %d 0 R "
                       b"/Resources << /Font << /F1 %d 0 R >> >> >>" % (content, font))
        pages.append(len(objects))
    objects[1] = b"<< /Type /Pages /Kids [%s] /Count %d >>" % (
        b" ".join(b"%d 0 R" % p for p in pages), len(pages))
    trailer_extra = b""
    if encrypt:
        objects.append(b"<< /Filter /Standard /V 1 /R 2 /O <" + b"11" * 32 + b"> /U <" +
                       b"22" * 32 + b"> /P -4 >>")
        trailer_extra = b" /Encrypt %d 0 R /ID [<%s> <%s>]" % (len(objects), b"33" * 16, b"33" * 16)
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    for offset in offsets:
        out += b"%010d 00000 n \n" % offset
    out += b"trailer\n<< /Size %d /Root 1 0 R%s >>\nstartxref\n%d\n%%%%EOF\n" % (
        len(objects) + 1, trailer_extra, xref)
    with open(path, "wb") as f:
        f.write(out)


PDF_PAGES = [
    ["the red house", "", "the cat is very small. the dog is big and",
     "the house is red.", "", "i see a green book today."],
    ["hello, my friend!", "", "we have water."],
]


def main():
    write_pdf(os.path.join(HERE, "sample.pdf"), PDF_PAGES)
    write_pdf(os.path.join(HERE, "encrypted.pdf"), PDF_PAGES, encrypt=True)
    write_docx(os.path.join(HERE, "sample.docx"))
    with open(os.path.join(HERE, "encrypted.docx"), "wb") as f:
        # What Word writes for a password-protected file: an OLE compound file, not a zip.
        f.write(bytes.fromhex("D0CF11E0A1B11AE1") + bytes(504))
    write_odt(os.path.join(HERE, "sample.odt"), MANIFEST, CONTENT)
    write_odt(os.path.join(HERE, "encrypted.odt"), ENCRYPTED_MANIFEST, os.urandom(600))
    with open(os.path.join(HERE, "sample.odt"), "rb") as f:
        data = f.read()
    with open(os.path.join(HERE, "corrupt.odt"), "wb") as f:
        f.write(data[: len(data) // 2])


if __name__ == "__main__":
    main()
