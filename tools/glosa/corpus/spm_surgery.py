#!/usr/bin/python3
"""Gives a trained SentencePiece model pieces it lacks, in place of its least-used ones, and says
how a trained model's embedding rows for the new pieces start (docs/training.md, "The tokenizer").

The joint 16k model of the general-domain packages was trained on a documentation-heavy sample:
  - characters common in Spanish prose have no piece and are spelt in bytes ("¡" is
    <0xC2> <0xA1>, "Á" <0xC3> <0x81>): two steps to produce, and a slip between them is garbage;
  - capitalised forms of everyday words are split though their lower-case form is one piece
    ("Very" is "▁Ver y", "Residents" "▁Re s ident s", "Teacher" "▁T each er"), and a capitalised
    word in fragments looks to the model like a name it should copy: "Very good" came out as
    "Ciudad bien", "Residents" as "Losidentes".
Piece ids of everything else stay as they are, so the trained weights keep their meaning; a new
piece's embedding starts from what the model already knows:
  - a character: the mean of its UTF-8 byte pieces' rows;
  - a capitalised word: its lower-case piece's row plus the mean difference between the
    capitalised and lower-case rows of the word pairs the vocabulary already has ("▁The" - "▁the");
  - a user-defined symbol (a tag): the row of a symbol of the same role (`--symbol-init`).

  tools/spm_surgery.py plan --spm OLD.model --corpus CORPUS --out NEW_DIR [--words 600]
writes NEW_DIR/spm.model and NEW_DIR/spm-surgery.json ({new id: how its row starts}), which
train_*.py --init-from PACKAGE --spm NEW_DIR/spm.model applies (glosa_train.remap_embedding).
"""

import argparse
import collections
import json
import os
import random
import sys
import unicodedata

from glosa.corpus import broad as glosa_corpus  # noqa: E402
from glosa.data import spans as glosa_spans  # noqa: E402

NORMAL, USER_DEFINED, BYTE = 1, 4, 6


# Documentation origins: most of the corpus, but not where everyday capitalised words come from
# ("Defines", "Establezca" would crowd out "Very", "Muy", "Teacher").
# The Bible is not trained on en->es, and its archaic capitals ("Behold") are not everyday words.
NOT_EVERYDAY = {"msdocs-human", "msdocs-machine", "libreoffice-help", "gimp-help", "debian-docs",
                "bible"}
# Punctuation that starts a word and gets a word-initial piece too ("▁¡" as "▁¿" has).
WORD_INITIAL = {"¡"}


def sample_lines(corpus, n, seed=1, exclude=()):
    """Up to n lines of each language from the corpus (machine-translated Spanish left out, as in
    the tokenizer's own training sample; origins in `exclude` too)."""
    rows = glosa_corpus.read_train(corpus)
    rng = random.Random(seed)
    rng.shuffle(rows)
    en, es = [], []
    for o, a, b in rows:
        if glosa_corpus.is_back_translated(o) or o in exclude:
            continue
        if len(en) < n:
            en.append(a)
        if len(es) < n and o not in glosa_corpus.MACHINE_TRANSLATED:
            es.append(b)
        if len(en) >= n and len(es) >= n:
            break
    return en, es


def wanted_char(c):
    """Letters and punctuation earn a piece; emoji, symbols and combining marks stay in bytes
    (emoji are protected spans, replaced by placeholders before the model sees them)."""
    return unicodedata.category(c)[0] in "LP"


def byte_spelt_chars(sp, lines):
    """Counter of the characters the model spells in bytes."""
    counts = collections.Counter()
    for line in lines:
        for ch in set(line):
            if not ch.isspace() and sp.piece_to_id(ch) == sp.unk_id():
                counts[ch] += line.count(ch)
    return counts


def split_capitals(sp, lines):
    """Counter of capitalised words that are split into several pieces although their lower-case
    form is a single piece."""
    counts = collections.Counter()
    for line in lines:
        for w in line.split():
            w = w.strip(".,;:!?¡¿\"'()[]«»“”")
            if len(w) > 1 and w[0].isupper() and w[1:].islower() and w.isalpha():
                counts[w] += 1
    out = collections.Counter()
    for w, c in counts.items():
        if sp.piece_to_id("▁" + w) == sp.unk_id() and sp.piece_to_id("▁" + w.lower()) != sp.unk_id():
            out[w] = c
    return out


def piece_usage(sp, lines):
    usage = collections.Counter()
    for ids in sp.encode(lines):
        usage.update(ids)
    return usage


def plan(spm_path, corpus, out_dir, words, chars_min, lines, symbols):
    import sentencepiece as spm
    from sentencepiece import sentencepiece_model_pb2 as pb
    sp = spm.SentencePieceProcessor(model_file=spm_path)
    en, es = sample_lines(corpus, lines)
    both = en + es
    general = sum(sample_lines(corpus, lines, exclude=NOT_EVERYDAY), [])
    chars = byte_spelt_chars(sp, both)
    new_chars = [c for c, n in chars.most_common() if n >= chars_min and wanted_char(c)]
    new_chars += ["▁" + c for c in new_chars if c in WORD_INITIAL]
    caps = split_capitals(sp, general)
    new_words = [w for w, _ in caps.most_common(words)]
    # Counted on both samples, so that a piece common in everyday text but rare in documentation
    # is not taken.
    usage = piece_usage(sp, both) + piece_usage(sp, general)

    proto = pb.ModelProto()
    with open(spm_path, "rb") as f:
        proto.ParseFromString(f.read())
    existing = {p.piece for p in proto.pieces}
    new_symbols = [s for s in symbols if s not in existing]
    wanted = len(new_chars) + len(new_words) + len(new_symbols)
    # Victims: normal multi-character pieces, least used first. Single characters stay (removing
    # one would send that character to byte fallback), and so do the lower-case counterparts of
    # the new capitalised words, whose rows the new ones start from.
    keep = {"▁" + w.lower() for w in new_words}
    victims = sorted((usage[i], i) for i, p in enumerate(proto.pieces)
                     if p.type == NORMAL and len(p.piece) > 1 and p.piece not in keep)
    victims = [i for _, i in victims[:wanted]]
    if len(victims) < wanted:
        raise SystemExit("only %d pieces can be replaced, %d wanted" % (len(victims), wanted))
    removed_uses = sum(usage[i] for i in victims)

    # Scores: a new character scores as the median single-character piece; a capitalised word as
    # its lower-case form (so that "▁Very" beats "▁Ver" + "y" as "▁very" beats its parts).
    single = sorted(p.score for p in proto.pieces if p.type == NORMAL and len(p.piece) == 1)
    char_score = single[len(single) // 2]
    ids = {p.piece: i for i, p in enumerate(proto.pieces)}
    caps_pairs = [(ids[p.piece], ids["▁" + p.piece[1:].lower()]) for p in proto.pieces
                  if p.type == NORMAL and p.piece.startswith("▁") and len(p.piece) > 2
                  and p.piece[1].isupper() and p.piece[2:].islower()
                  and "▁" + p.piece[1:].lower() in ids]
    init = {}
    it = iter(victims)
    for c in new_chars:
        i = next(it)
        old = proto.pieces[i].piece
        proto.pieces[i].piece, proto.pieces[i].score, proto.pieces[i].type = c, char_score, NORMAL
        init[i] = {"piece": c, "replaces": old, "mean_of": [
            ids["▁"] if ch == "▁" else ids["<0x%02X>" % b]
            for ch in c for b in (ch.encode("utf-8") if ch != "▁" else b"_")]}
    for w in new_words:
        i = next(it)
        old = proto.pieces[i].piece
        low = ids["▁" + w.lower()]
        proto.pieces[i].piece, proto.pieces[i].score, proto.pieces[i].type = (
            "▁" + w, proto.pieces[low].score, NORMAL)
        init[i] = {"piece": "▁" + w, "replaces": old, "mean_of": [low], "plus": "capital"}
    for s, like in symbols.items():
        if s not in new_symbols:
            continue
        i = next(it)
        old = proto.pieces[i].piece
        proto.pieces[i].piece, proto.pieces[i].score, proto.pieces[i].type = s, 0.0, USER_DEFINED
        init[i] = {"piece": s, "replaces": old, "mean_of": [ids[like]]}

    os.makedirs(out_dir, exist_ok=True)
    with open(os.path.join(out_dir, "spm.model"), "wb") as f:
        f.write(proto.SerializeToString())
    report = {
        "from": os.path.abspath(spm_path), "sample_lines_per_language": lines,
        "byte_spelt_chars": {c: n for c, n in chars.most_common(40)},
        "new_chars": new_chars, "new_words": len(new_words),
        "victim_uses_in_sample": removed_uses, "sample_pieces": sum(usage.values()),
        "capital_pairs": [[a, b] for a, b in caps_pairs],
        "init": {str(k): v for k, v in sorted(init.items())},
    }
    with open(os.path.join(out_dir, "spm-surgery.json"), "w", encoding="utf-8") as f:
        json.dump(report, f, ensure_ascii=False, indent=1)
    new = spm.SentencePieceProcessor(model_file=os.path.join(out_dir, "spm.model"))
    before = sum(len(x) for x in sp.encode(both))
    after = sum(len(x) for x in new.encode(both))
    g_before = sum(len(x) for x in sp.encode(general))
    g_after = sum(len(x) for x in new.encode(general))
    print("everyday sample (no documentation): %d -> %d pieces (%.2f%%)" % (
        g_before, g_after, 100.0 * (g_after - g_before) / g_before))
    report["length_change_percent"] = {"sample": 100.0 * (after - before) / before,
                                       "everyday_sample": 100.0 * (g_after - g_before) / g_before}
    with open(os.path.join(out_dir, "spm-surgery.json"), "w", encoding="utf-8") as f:
        json.dump(report, f, ensure_ascii=False, indent=1)
    print("new characters %s; %d capitalised words (top: %s); %d pieces replaced (%d of %d uses "
          "in the sample); sample length %d -> %d pieces (%.2f%%)" % (
              "".join(new_chars), len(new_words), " ".join(new_words[:12]), len(victims),
              removed_uses, sum(usage.values()), before, after, 100.0 * (after - before) / before))
    for s in ("¡Hola!", "Área", "Very good", "Muy bien", "Residents can send comments.",
              "Teacher", "Done", "Quarterly update"):
        print("  %-30s %s" % (s, " ".join(new.encode(s, out_type=str))))


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    sub = p.add_subparsers(dest="cmd", required=True)
    a = sub.add_parser("plan")
    a.add_argument("--spm", required=True)
    a.add_argument("--corpus", required=True)
    a.add_argument("--out", required=True)
    a.add_argument("--words", type=int, default=2500, help="capitalised words given a piece")
    a.add_argument("--chars-min", type=int, default=10,
                   help="byte-spelt characters seen at least this often in the sample get a piece")
    a.add_argument("--lines", type=int, default=300000, help="sample lines per language")
    args = p.parse_args(argv)
    # New user-defined symbols and the existing symbol whose row each starts from.
    symbols = {glosa_spans.BT_TAG: glosa_spans.MT_TAG}
    plan(args.spm, args.corpus, args.out, args.words, args.chars_min, args.lines, symbols)
    return 0


if __name__ == "__main__":
    sys.exit(main())
