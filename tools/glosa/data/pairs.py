#!/usr/bin/python3
"""Data preparation for Glosa's translation models (Tatoeba sentence pairs).

The data is read-only and never copied into the repository: it is found through `--data` or
`$GLOSA_DATA` (default `../shared/data` relative to the repository root).

Clean-up applied to every sentence (train, dev and test alike, so that training and evaluation see
the same text):
  * Unicode NFC (the data is documented as NFC; this makes sure of it),
  * every run of whitespace (tabs, no-break spaces, U+200B...) becomes one ASCII space,
    leading/trailing whitespace is removed,
  * pairs with an empty side are dropped.
Training pairs are additionally de-duplicated (exact duplicates after clean-up), and pairs whose
SentencePiece length is above a limit are dropped when batches are built (see glosa_train.py).

Usage:
  /usr/bin/python3 tools/glosa_data.py stats --pair en-es
  /usr/bin/python3 tools/glosa_data.py spm --pair en-es --vocab-size 8000 --out /work/runs/spm-en-es
"""

import argparse
import collections
import os
import re
import sys
import tempfile
import unicodedata

from glosa import REPO_ROOT

# SentencePiece special ids. The C++ engine relies on these (documented in docs/training.md).
PAD_ID = 0
UNK_ID = 1
BOS_ID = 2
EOS_ID = 3

_WS = re.compile(r"\s+")


def data_dir(explicit=None):
    """The shared data folder: `explicit`, else $GLOSA_DATA, else <repo>/../shared/data."""
    if explicit:
        return explicit
    env = os.environ.get("GLOSA_DATA")
    if env:
        return env
    return os.path.normpath(os.path.join(REPO_ROOT, "..", "shared", "data"))


def clean(text):
    """NFC + whitespace normalisation (see the module docstring)."""
    text = unicodedata.normalize("NFC", text)
    # U+200B (zero width space) is not \s in Python; treat it as whitespace too.
    text = text.replace("\u200b", " ").replace("\ufeff", "")
    return _WS.sub(" ", text).strip()


class MissingData(SystemExit):
    """Data a tool needs is not in the data folder (a pair without that set, a wrong --data).
    A SystemExit, so that every script stops with the message alone, not a traceback; tests catch
    it by this name."""


_LANG = re.compile(r"^[a-z]{2,3}$")


def pair_of(src, tgt):
    """The folder name of a language pair: English first, as on disk ('de','en' -> 'en-de').
    Both directions of a pair share its data folders (tatoeba-<pair>, parallel-<pair>, ...)."""
    for lang in (src, tgt):
        if not isinstance(lang, str) or not _LANG.match(lang):
            raise MissingData("language %r: expected a 2- or 3-letter code such as en, es, de"
                              % (lang,))
    if src == tgt:
        raise MissingData("source and target are both %r" % src)
    return "%s-%s" % ((tgt, src) if tgt == "en" else (src, tgt))


def parse_pair(text):
    """(pair, (first, second)) of a pair written 'en-de' or 'de-en': the folder name (English
    first) and its two languages in the order of the data files' columns."""
    langs = text.split("-") if isinstance(text, str) else []
    if len(langs) != 2:
        raise MissingData("language pair %r: expected two codes joined by '-', e.g. en-es" % text)
    pair = pair_of(*langs)
    return pair, tuple(pair.split("-"))


def direction_of(pair, src, tgt, default=("en", "es")):
    """(src, tgt) of a command's --pair/--src/--tgt: as given; a side left out is the other
    language of the pair (English first when neither is given); without a pair, the other side
    of a given one is English (or default's other language), and `default` when neither is."""
    if pair:
        pair, (first, second) = parse_pair(pair)
        other = {first: second, second: first}
        if src and src not in other or tgt and tgt not in other:
            raise MissingData("direction %s->%s does not match pair %s"
                              % (src or "?", tgt or "?", pair))
        src = src or (other[tgt] if tgt else first)
        tgt = tgt or other[src]
    elif not src and not tgt:
        src, tgt = default
    elif not tgt:
        tgt = "en" if src != "en" else default[1]
    elif not src:
        src = "en" if tgt != "en" else default[1]
    pair_of(src, tgt)  # checks the codes
    return src, tgt


def data_pair(pair, src, tgt):
    """The data folders' pair of the direction src->tgt: `pair` (a --pair option) written English
    first, else pair_of(src, tgt); MissingData when src->tgt is not a direction of it."""
    if not pair:
        return pair_of(src, tgt)
    pair, langs = parse_pair(pair)
    if sorted(langs) != sorted([src, tgt]):
        raise MissingData("direction %s->%s does not match pair %s" % (src, tgt, pair))
    return pair


def available_pairs(data=None):
    """The pairs with a Tatoeba folder in the data folder, e.g. ['en-de', 'en-es', 'en-fr']."""
    folder = data_dir(data)
    if not os.path.isdir(folder):
        return []
    return sorted(n[len("tatoeba-"):] for n in os.listdir(folder)
                  if n.startswith("tatoeba-") and os.path.isdir(os.path.join(folder, n)))


def split_path(pair, split, data=None):
    """Path of `tatoeba-<pair>/<split>.tsv`. `pair` is like 'en-es' (English first, as on disk).
    Raises MissingData, naming the pairs that do have data, when the file is not there."""
    path = os.path.join(data_dir(data), "tatoeba-" + pair, split + ".tsv")
    if not os.path.exists(path):
        raise MissingData("no Tatoeba %s split for %s: %s does not exist (pairs with Tatoeba data "
                          "in %s: %s)" % (split, pair, path, data_dir(data),
                                          ", ".join(available_pairs(data)) or "none"))
    return path


def read_tsv(path):
    """[(english, other)] from a two-column TSV, cleaned; empty pairs dropped."""
    pairs = []
    with open(path, encoding="utf-8") as f:
        for lineno, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line:
                continue
            cols = line.split("\t")
            if len(cols) < 2:
                raise ValueError("%s:%d: expected 2 tab-separated columns, got %d"
                                 % (path, lineno, len(cols)))
            a, b = clean(cols[0]), clean(cols[1])
            if a and b:
                pairs.append((a, b))
    return pairs


def load_pairs(pair, split, src, tgt, data=None, dedupe=None):
    """[(source, target)] for a direction. `pair` is the folder name ('en-es'); `src`/`tgt` pick
    the direction ('en','es' or 'es','en'). Training data is de-duplicated by default."""
    langs = pair.split("-")
    if sorted([src, tgt]) != sorted(langs):
        raise MissingData("direction %s->%s does not match pair %s" % (src, tgt, pair))
    rows = read_tsv(split_path(pair, split, data))
    if src != langs[0]:
        rows = [(b, a) for a, b in rows]
    if dedupe is None:
        dedupe = split == "train"
    if dedupe:
        seen = set()
        out = []
        for r in rows:
            if r not in seen:
                seen.add(r)
                out.append(r)
        rows = out
    return rows


def group_references(pairs):
    """Multi-reference view of an evaluation split: [(source, [ref, ...])] in first-seen order.
    Tatoeba has several translations of the same sentence; all of them are references."""
    groups = collections.OrderedDict()
    for s, t in pairs:
        groups.setdefault(s, [])
        if t not in groups[s]:
            groups[s].append(t)
    return list(groups.items())


def train_spm(pair, out_dir, vocab_size=8000, model_type="unigram", data=None, langs=None):
    """Trains a joint SentencePiece model on both sides of the training split.

    Writes <out_dir>/spm.model and spm.vocab and returns the model path. Ids: pad 0, unk 1,
    <s> 2, </s> 3. Training on all lines with no sampling makes the model deterministic."""
    import sentencepiece as spm
    os.makedirs(out_dir, exist_ok=True)
    rows = read_tsv(split_path(pair, "train", data))
    seen = set()
    lines = []
    for a, b in rows:
        for s in (a, b):
            if s not in seen:
                seen.add(s)
                lines.append(s)
    fd, tmp = tempfile.mkstemp(prefix="glosa-spm-", suffix=".txt")
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        for s in lines:
            f.write(s + "\n")
    try:
        prefix = os.path.join(out_dir, "spm")
        spm.SentencePieceTrainer.train(
            input=tmp, model_prefix=prefix, vocab_size=vocab_size, model_type=model_type,
            character_coverage=1.0, input_sentence_size=0, shuffle_input_sentence=False,
            pad_id=PAD_ID, unk_id=UNK_ID, bos_id=BOS_ID, eos_id=EOS_ID,
            pad_piece="<pad>", unk_piece="<unk>", bos_piece="<s>", eos_piece="</s>",
            num_threads=2, minloglevel=2)
    finally:
        os.unlink(tmp)
    return prefix + ".model"


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    sub = p.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("stats", help="sizes of the splits after clean-up")
    s.add_argument("--pair", default="en-es")
    s.add_argument("--data")
    t = sub.add_parser("spm", help="train a joint SentencePiece model")
    t.add_argument("--pair", default="en-es")
    t.add_argument("--data")
    t.add_argument("--vocab-size", type=int, default=8000)
    t.add_argument("--model-type", default="unigram")
    t.add_argument("--out", required=True)
    a = p.parse_args(argv)
    a.pair, (src, tgt) = parse_pair(a.pair)
    if a.cmd == "stats":
        for split in ("train", "dev", "test"):
            raw = read_tsv(split_path(a.pair, split, a.data))
            rows = load_pairs(a.pair, split, src, tgt, a.data)
            groups = group_references(rows)
            print("%-5s raw %7d  kept %7d  unique sources %7d" % (split, len(raw), len(rows),
                                                                  len(groups)))
    elif a.cmd == "spm":
        path = train_spm(a.pair, a.out, a.vocab_size, a.model_type, a.data)
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
