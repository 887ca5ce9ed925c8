#!/usr/bin/python3
"""Builds the toy English->Spanish package used by tst_cli and the decoding tests.

A word-by-word "translator": a SentencePiece model trained on a tiny bilingual word list, and a
probability table [vocab, vocab] (model.safetensors, tensor "table", fp16 log-probabilities) giving
P(target piece | source piece at the current position). The toytranslator test plugin reads it
through the same package loader, Translator and glosa-cli code as real models.

Run from anywhere with /usr/bin/python3 (needs python3-sentencepiece); the output is committed.
"""
import json
import math
import os
import struct
import tempfile

import sentencepiece as spm

HERE = os.path.dirname(os.path.abspath(__file__))

# source word -> [(target word, probability), ...]; the rest of the mass goes to copying the
# source piece and to a uniform floor.
DICTIONARY = {
    "the": [("el", 0.6), ("la", 0.35)],
    "a": [("un", 0.55), ("una", 0.4)],
    "cat": [("gato", 0.9)],
    "dog": [("perro", 0.9)],
    "house": [("casa", 0.9)],
    "is": [("es", 0.5), ("está", 0.45)],
    "big": [("grande", 0.9)],
    "small": [("pequeño", 0.9)],
    "red": [("rojo", 0.9)],
    "green": [("verde", 0.9)],
    "black": [("negro", 0.9)],
    "white": [("blanco", 0.9)],
    "i": [("yo", 0.9)],
    "you": [("tú", 0.8), ("usted", 0.15)],
    "we": [("nosotros", 0.9)],
    "see": [("veo", 0.9)],
    "have": [("tengo", 0.9)],
    "book": [("libro", 0.9)],
    "water": [("agua", 0.9)],
    "good": [("bueno", 0.7), ("buen", 0.25)],
    "morning": [("mañana", 0.9)],
    "hello": [("hola", 0.95)],
    "friend": [("amigo", 0.6), ("amiga", 0.35)],
    "and": [("y", 0.95)],
    "with": [("con", 0.9)],
    "my": [("mi", 0.9)],
    "new": [("nuevo", 0.9)],
    "car": [("coche", 0.9)],
    "eats": [("come", 0.9)],
    "sleeps": [("duerme", 0.9)],
    "runs": [("corre", 0.9)],
    "today": [("hoy", 0.9)],
    "very": [("muy", 0.9)],
    "not": [("no", 0.9)],
    "yes": [("sí", 0.9)],
}


def train_spm(model_prefix):
    words = set(DICTIONARY)
    for options in DICTIONARY.values():
        words.update(w for w, _ in options)
    lines = []
    for word in sorted(words):
        lines += [word] * 20
    lines += ["the cat is big .", "hello my friend !", "is the dog small ?",
              "yes , no ; (a) : \"b\" 'c' - 1 2 3 4 5 6 7 8 9 0"] * 20
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False, encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")
        corpus = f.name
    spm.SentencePieceTrainer.train(
        input=corpus, model_prefix=model_prefix, model_type="bpe", vocab_size=400, normalization_rule_name="identity",
        character_coverage=1.0, unk_id=0, bos_id=1, eos_id=2, pad_id=-1,
        user_defined_symbols=[], hard_vocab_limit=False, num_threads=1, minloglevel=2)
    os.unlink(corpus)


def write_safetensors(path, name, rows):
    vocab = len(rows)
    # fp16 storage (converted to fp32 at load, like real packages): half the size.
    data = b"".join(struct.pack("<%de" % vocab, *row) for row in rows)
    header = {name: {"dtype": "F16", "shape": [vocab, vocab], "data_offsets": [0, len(data)]},
              "__metadata__": {"format": "pt", "generator": "tests/data/toy-en-es/make_toy.py"}}
    blob = json.dumps(header, separators=(",", ":")).encode()
    blob += b" " * (-len(blob) % 8)
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(blob)) + blob + data)


def main():
    prefix = os.path.join(HERE, "spm")
    train_spm(prefix)
    os.unlink(prefix + ".vocab")
    sp = spm.SentencePieceProcessor(model_file=prefix + ".model")
    vocab = sp.get_piece_size()
    eos = sp.eos_id()
    floor = 0.02 / vocab
    rows = []
    for source in range(vocab):
        p = [floor] * vocab
        piece = sp.id_to_piece(source)
        word = piece[1:] if piece.startswith("\u2581") else None
        if source == eos:
            p[eos] = 1.0
        elif word in DICTIONARY:
            rest = 1.0
            for target, probability in DICTIONARY[word]:
                ids = sp.encode(target)
                if len(ids) != 1:
                    raise SystemExit(f"'{target}' is not one piece: {sp.encode(target, out_type=str)}")
                p[ids[0]] += probability
                rest -= probability
            p[source] += max(rest - 0.02, 0.0)
        else:
            p[source] += 0.95  # copy what the dictionary does not know
        total = sum(p)
        rows.append([math.log(v / total) for v in p])
    write_safetensors(os.path.join(HERE, "model.safetensors"), "table", rows)
    for word in DICTIONARY:
        pieces = sp.encode(word, out_type=str)
        if len(pieces) != 1:
            raise SystemExit(f"source word '{word}' is not one piece: {pieces}")
    print(f"vocab {vocab}, eos {eos}, table {vocab}x{vocab}")


if __name__ == "__main__":
    main()
