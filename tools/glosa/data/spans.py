#!/usr/bin/python3
"""Protected spans: the parts of a sentence that must come through translation unchanged.

URLs, e-mail addresses, numbers (with separators and symbol units), emoji, inline code,
markup tags, format placeholders (%1, %1$s, %s, {name}, ${x}) and typographic marks (&, ©, §)
are replaced by placeholder tokens before the model sees the text, and put back afterwards.
The model is trained to copy the placeholder tokens (tools/glosa_corpus.py replaces spans that
occur verbatim on both sides of a training pair), so it places them where the words around them
go.

The C++ side (engine/text/protectedspans.cpp) implements the same rules; both are checked
against tests/data/protected-spans/cases.tsv so that training and inference agree.

Placeholders are private-use characters U+E000 + k (k < PLACEHOLDERS), one SentencePiece piece
each (user-defined symbols). Private-use characters already in the input are themselves
protected spans, so a placeholder can never be forged by the text.
"""

import re
import sys
import unicodedata

PLACEHOLDERS = 16
PLACEHOLDER_BASE = 0xE000
# Source-side tag for machine-translated training pairs (tagged training, Caswell et al. 2019):
# never produced at inference.
MT_TAG = "\ue010"
# Source-side tag for back-translated pairs, whose source is the machine's (Sennrich et al. 2016,
# tagged as Caswell et al. 2019): kept apart from MT_TAG, whose pairs have a machine-made target.
BT_TAG = "\ue011"
USER_SYMBOLS = [chr(PLACEHOLDER_BASE + k) for k in range(PLACEHOLDERS)] + [MT_TAG, BT_TAG]

# Units written the same in English and Spanish, allowed right after a number.
_UNITS = (r"%|‰|€|\$|£|¥|°[CF]?|km/h|km²|m²|m³|km|cm|mm|µm|nm|kg|mg|g|ml|l|KiB|MiB|GiB|TiB|"
          r"KB|MB|GB|TB|kB|Kbps|Mbps|Gbps|GHz|MHz|kHz|Hz|ms|px|pt|dpi|mAh|kWh|kW|W|V")
_NUMBER = (r"(?:[$€£¥]\s?)?"                                  # currency before
           r"(?<![\w.,])[+-]?\d+(?:[.,:/-]\d+)*"               # 1,000.50  10:30  2024-03-15
           r"(?:\s?(?:" + _UNITS + r"))?"                      # 5 km, 20%, 90 €
           r"(?![\w])")
_EMOJI_CHAR = (r"[\U0001F000-\U0001FAFF\u2600-\u27BF\u2B00-\u2BFF\u2300-\u23FF]")
_EMOJI = _EMOJI_CHAR + r"(?:[\uFE0F\u200D\U0001F3FB-\U0001F3FF]|" + _EMOJI_CHAR + r")*"

_PATTERNS = [
    ("private", r"[\uE000-\uF8FF]"),
    ("url", r"(?:(?:https?|ftp)://|www\.)[^\s<>\"'`]*[^\s<>\"'`.,;:!?)\]}]"),
    ("email", r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+"),
    ("code", r"`[^`\n]+`"),
    ("tag", r"</?[A-Za-z][\w:-]*(?:\s[^<>]*)?/?>"),
    ("placeholder", r"%\(\w+\)[sd]|%\d+\$[-+ #0]*\d*(?:\.\d+)?[sdifuxXcpeEgG@]|"
                    r"%[-+ #0]*\d*(?:\.\d+)?[sdifuxXcpeEgG@]|%\d+|"
                    r"\$\{\w+\}|\{\{?\w*\}?\}"),
    ("emoji", _EMOJI),
    ("number", _NUMBER),
    # Typographic marks a model has no words for (and a document wants unchanged).
    ("symbol", r"[&§¶†‡•©®™]"),
]
_RE = re.compile("|".join("(?P<%s>%s)" % p for p in _PATTERNS))


def find_spans(text):
    """[(start, end, kind)] of the protected spans in `text`, left to right, not overlapping."""
    return [(m.start(), m.end(), m.lastgroup) for m in _RE.finditer(text)]


def placeholder(k):
    return chr(PLACEHOLDER_BASE + k)


def protect(text, limit=PLACEHOLDERS):
    """(text with the first `limit` spans replaced by placeholders, [span strings])."""
    spans = find_spans(text)[:limit]
    out, pos, kept = [], 0, []
    for k, (s, e, _) in enumerate(spans):
        out.append(text[pos:s])
        out.append(placeholder(k))
        kept.append(text[s:e])
        pos = e
    out.append(text[pos:])
    return "".join(out), kept


def restore(text, spans):
    """Puts the spans back: the first copy of each placeholder becomes its span, later copies
    are dropped, and spans the output lost are appended (so each span appears exactly once).
    The same as restoreSpans() in engine/text/protectedspans.cpp."""
    seen = set()
    out = ""
    i = 0
    while i < len(text):
        k = ord(text[i]) - PLACEHOLDER_BASE
        i += 1
        if not 0 <= k < 64:
            out += text[i - 1]
        elif k < len(spans) and k not in seen:
            seen.add(k)
            out += spans[k]
        elif i < len(text) and text[i] == " " and (not out or out[-1] == " "):
            i += 1  # a dropped copy takes one of the spaces around it along
    restored = out
    missing = [spans[k] for k in range(len(spans)) if k not in seen]
    if missing:
        restored = (restored.rstrip() + " " + " ".join(missing)).strip()
    return restored


def protect_pair(src, tgt, limit=PLACEHOLDERS):
    """Training: replaces the spans that occur verbatim in both `src` and `tgt` by the same
    placeholders (numbered in source order). Returns (src, tgt, count)."""
    spans = []
    for s, e, _ in find_spans(src):
        span = src[s:e]
        if span in tgt and span not in spans:
            spans.append(span)
        if len(spans) == limit:
            break
    if not spans:
        return src, tgt, 0
    # Longest first so that '10' does not eat into '10:30' on the target side.
    order = sorted(range(len(spans)), key=lambda k: -len(spans[k]))
    src_out, tgt_out = src, tgt
    for k in order:
        ph = placeholder(k)
        src_out = _replace_whole(src_out, spans[k], ph)
        tgt_out = _replace_whole(tgt_out, spans[k], ph)
    return src_out, tgt_out, len(spans)


def _replace_whole(text, span, ph):
    """Replaces occurrences of `span` not glued to a word character on either side."""
    pat = (r"(?<!\w)" if span[0].isalnum() else "") + re.escape(span) + \
          (r"(?!\w)" if span[-1].isalnum() else "")
    return re.sub(pat, lambda _: ph, text)


def main(argv):
    """Prints the spans found in each line of stdin (one `kind<TAB>span` a line, blank between)."""
    for line in sys.stdin:
        line = unicodedata.normalize("NFC", line.rstrip("\n"))
        for s, e, kind in find_spans(line):
            print("%s\t%s" % (kind, line[s:e]))
        print()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
