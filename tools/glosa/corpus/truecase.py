#!/usr/bin/python3
"""The truecase table of a model package (engine/text/truecaser.h): the words of the training
data's source side whose usual form is lower-case, counted as Moses' train-truecaser.perl counts
them, leaving out each sentence's first word (its case is the sentence's, not the word's).

  # the table of the English side of the broad corpus, into the en->es package
  truecase_table.py build --corpus /work/runs/broad-en-es --lang en \\
      --out resources/models/transformer-general-en-es/truecase.en
  # one word's counts (lower-case, capitalised, other) and the decision
  truecase_table.py show --corpus /work/runs/broad-en-es --lang en hello madrid brown

A word is a run of letters and marks (the C++ Truecaser's word); it goes into the table when its
all-lower-case form is more frequent than all its other forms together, so "hello", "teacher" and
"brown" are in it and "Madrid", "John" and "I" are not. The package names the table in model.json
("tokenizer": {"truecase": "truecase.en"}); a word the table lacks keeps its case.
"""

import argparse
import collections
import os
import re


WORD = re.compile(r"[^\W\d_]+")
# What ends a sentence inside a line (Moses' SENTENCE_END): the next word starts a sentence.
SENTENCE_END = re.compile(r"[.!?:…]['\"»”’)\]]*$")
# The origins counted: running prose, whose capitals are the language's. Documentation and UI
# strings are left out: they capitalise labels inside sentences ("set the option to Yes", "a
# Hello World app", "Open File"), which made "Hello" and "Yes" look like the usual forms; word
# lists have no sentence to count in.
PROSE = {"tatoeba", "news", "europarl-sample", "globalvoices", "general", "bible"}
# What starts a sentence inside a line: quoted speech ("Tom said, "Hello."") and Spanish's
# inverted marks. A token opening with one is skipped like a line's first word.
OPENING = tuple("\"“«‘'¡¿")


def count_forms(rows):
    """(forms, initial) of (origin, text) rows: forms is {lower-case word: Counter(form: count)}
    of the words of the PROSE rows that do not start a sentence; initial is {lower-case word:
    times it starts a sentence capitalised} in every row (what the model was trained to read)."""
    forms = collections.defaultdict(collections.Counter)
    initial = collections.Counter()
    for origin, line in rows:
        prose = origin in PROSE
        start = True
        for token in line.split():
            start = start or token.startswith(OPENING)
            words = WORD.findall(token)
            if words:
                for i, w in enumerate(words):
                    # A token's first word may start a sentence; words after an apostrophe or
                    # a hyphen inside the token ("don't", "e-mail") do not.
                    if start and i == 0:
                        initial[w.lower()] += w[:1].isupper()
                    elif prose:
                        forms[w.lower()][w] += 1
                start = False
            if SENTENCE_END.search(token):
                start = True
    return forms, initial


def lower_is_usual(counter, word):
    lower = counter.get(word, 0)
    return lower > sum(counter.values()) - lower


def source_rows(corpus, lang):
    """(origin, text) of the `lang` side of the corpus's train.tsv (origin, English, other)."""
    path = os.path.join(corpus, "train.tsv")
    if not os.path.exists(path):
        raise SystemExit("%s does not exist: build the corpus first (glosa_corpus.py build)" % path)
    # The pair is English first: column 1 is English, column 2 the other language.
    column = 1 if lang == "en" else 2
    with open(path, encoding="utf-8") as f:
        for line in f:
            cols = line.rstrip("\n").split("\t")
            if len(cols) == 3:
                yield cols[0], cols[column]


def build_table(forms, initial, min_count, max_initial):
    """The words whose lower-case form is usual, seen at least min_count times inside sentences,
    and (max_initial > 0) starting fewer than max_initial sentences capitalised."""
    return sorted(w for w, c in forms.items()
                  if sum(c.values()) >= min_count and lower_is_usual(c, w)
                  and (max_initial <= 0 or initial[w] < max_initial))


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    sub = p.add_subparsers(dest="command", required=True)
    b = sub.add_parser("build", help="write the table")
    b.add_argument("--corpus", required=True, help="a glosa_corpus.py build folder")
    b.add_argument("--lang", required=True, help="the side: en, or the pair's other language")
    b.add_argument("--out", required=True)
    b.add_argument("--min-count", type=int, default=2,
                   help="occurrences (not sentence-initial) a word needs (default 2)")
    b.add_argument("--max-initial", type=int, default=0,
                   help="leave out words that start this many sentences capitalised or more in "
                        "the training data (the model knows them there; 0: no limit)")
    s = sub.add_parser("show", help="print the counts of some words")
    s.add_argument("--corpus", required=True)
    s.add_argument("--lang", required=True)
    s.add_argument("words", nargs="+")
    args = p.parse_args(argv)
    forms, initial = count_forms(source_rows(args.corpus, args.lang))
    if args.command == "show":
        for w in args.words:
            c = forms.get(w.lower(), collections.Counter())
            print("%-16s %-5s %-40s starts %d sentences capitalised" % (
                w, "lower" if lower_is_usual(c, w.lower()) else "keep",
                dict(c.most_common(4)), initial[w.lower()]))
        return
    words = build_table(forms, initial, args.min_count, args.max_initial)
    with open(args.out, "w", encoding="utf-8") as f:
        f.write("# Glosa truecase table (engine/text/truecaser.h): words of the %s side of the "
                "training data\n# whose lower-case form is the usual one, not counting "
                "sentence-initial words\n# (tools/truecase_table.py build --min-count %d "
                "--max-initial %d)\n" % (args.lang, args.min_count, args.max_initial))
        for w in words:
            f.write(w + "\n")
    print("%s: %d words (of %d distinct, %d bytes)" % (args.out, len(words), len(forms),
                                                       os.path.getsize(args.out)))


if __name__ == "__main__":
    main()
