#!/usr/bin/python3
"""Writes the office fixtures of tst_documents: sample.odt (paragraphs, a heading, a list, a
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


def main():
    write_odt(os.path.join(HERE, "sample.odt"), MANIFEST, CONTENT)
    write_odt(os.path.join(HERE, "encrypted.odt"), ENCRYPTED_MANIFEST, os.urandom(600))
    with open(os.path.join(HERE, "sample.odt"), "rb") as f:
        data = f.read()
    with open(os.path.join(HERE, "corrupt.odt"), "wb") as f:
        f.write(data[: len(data) // 2])


if __name__ == "__main__":
    main()
