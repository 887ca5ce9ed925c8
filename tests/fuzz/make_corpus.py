#!/usr/bin/python3
"""Writes the seed corpora of the fuzz harnesses (corpus/<harness>/): small valid inputs taken from
the test fixtures, plus a few made here. The output is committed; standard library only:
/usr/bin/python3 tests/fuzz/make_corpus.py"""
import json
import os
import shutil
import struct
import zipfile
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "..", "data")


def put(harness, name, data):
    folder = os.path.join(HERE, "corpus", harness)
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, name), "wb") as f:
        f.write(data)


def read(*path):
    with open(os.path.join(DATA, *path), "rb") as f:
        return f.read()


def safetensors(tensors):
    header, blob = {}, b""
    for name, dtype, shape, data in tensors:
        header[name] = {"dtype": dtype, "shape": shape, "data_offsets": [len(blob), len(blob) + len(data)]}
        blob += data
    h = json.dumps(header, separators=(",", ":")).encode()
    return struct.pack("<Q", len(h)) + h + blob


def png(width, height, rgba):
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    rows = b"".join(b"\0" + bytes(rgba) * width for _ in range(height))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))


def main():
    shutil.rmtree(os.path.join(HERE, "corpus"), ignore_errors=True)
    put("fuzz_safetensors", "two-tensors", safetensors(
        [("w", "F32", [2, 2], struct.pack("<4f", 1, 2, 3, 4)), ("h", "F16", [3], b"\0<\0<\0<"),
         ("ids", "I32", [2], struct.pack("<2i", 5, 6))]))
    h = b'{"__metadata__":{"format":"pt"},"b":{"dtype":"BF16","shape":[1,2],"data_offsets":[0,4]}}'
    put("fuzz_safetensors", "metadata", struct.pack("<Q", len(h)) + h + b"\x80?\x80?")
    put("fuzz_package", "transformer-tiny.json", read("parity", "transformer-tiny", "model.json"))
    # One reader harness per format of the table, each with its sample (tst_documentformats
    # asks every format for tests/data/documents/sample.<format>), so the samples name them.
    for sample in sorted(os.listdir(os.path.join(DATA, "documents"))):
        if sample.startswith("sample."):
            fmt = sample.split(".", 1)[1]
            put("fuzz_" + fmt, sample, read("documents", sample))
    put("fuzz_md", "emphasis-image.md", read("hostile", "emphasis-image.md"))
    put("fuzz_srt", "mixed-line-ends.srt", read("hostile", "mixed-line-ends.srt"))
    put("fuzz_srt", "crossed-empty-tags.srt", read("hostile", "crossed-empty-tags.srt"))
    put("fuzz_html", "report.html", read("documents", "report.html")[:4000])
    put("fuzz_docx", "textbox.docx", read("documents", "textbox.docx"))
    put("fuzz_odt", "textbox.odt", read("documents", "textbox.odt"))
    # A PDF with what pdflayout recovers: headings, nested lists, tables, a footnote mark.
    put("fuzz_pdf", "structure.pdf", read("documents", "structure.pdf"))
    with zipfile.ZipFile(os.path.join(DATA, "documents", "sample.docx")) as z:
        put("fuzz_docx_xml", "document.xml", z.read("word/document.xml"))
    with zipfile.ZipFile(os.path.join(DATA, "documents", "textbox.docx")) as z:
        put("fuzz_docx_xml", "textbox.xml", z.read("word/document.xml"))
    with zipfile.ZipFile(os.path.join(DATA, "hostile", "markup-in-attribute-value.docx")) as z:
        put("fuzz_docx_xml", "markup-in-attribute-value.xml", z.read("word/document.xml"))
    with zipfile.ZipFile(os.path.join(DATA, "documents", "sample.odt")) as z:
        put("fuzz_odt_xml", "content.xml", z.read("content.xml"))
    # fuzz_translate: the first byte picks the format (txt, md, html, srt, docx XML, odt XML).
    for i, fmt in enumerate(("txt", "md", "html", "srt")):
        put("fuzz_translate", "sample." + fmt, bytes([i]) + read("documents", "sample." + fmt))
    put("fuzz_translate", "emphasis-image.md", b"\x01" + read("hostile", "emphasis-image.md"))
    with zipfile.ZipFile(os.path.join(DATA, "documents", "sample.docx")) as z:
        put("fuzz_translate", "sample.docx.xml", b"\x04" + z.read("word/document.xml"))
    with zipfile.ZipFile(os.path.join(DATA, "documents", "sample.odt")) as z:
        put("fuzz_translate", "sample.odt.xml", b"\x05" + z.read("content.xml"))
    put("fuzz_image", "4x3.png", png(4, 3, (255, 0, 0, 128)))
    put("fuzz_image", "1x1.png", png(1, 1, (0, 0, 0, 255)))
    put("fuzz_text", "en", b"\0Dr. Smith arrived. Mr. Brown was late!  Was he? Yes, e.g. by an hour.")
    put("fuzz_text", "es", "\x01¿Cómo estás? ¡Muy bien! El Sr. García llegó.".encode())
    put("fuzz_text", "ja", "\x02今日は。元気ですか？ はい。".encode())
    put("fuzz_cli_args", "beam", b"--strategy\0beam\0--beam-size\x005\0--no-repeat-ngram\x003")
    put("fuzz_cli_args", "sample", b"--strategy\0sample\0--top-k\x0040\0--top-p\x000.9\0--temperature\x000.7\0--seed\x001")


if __name__ == "__main__":
    main()
