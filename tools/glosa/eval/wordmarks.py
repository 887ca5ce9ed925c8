#!/usr/bin/python3
"""Measures the Translate view's unknown-word marks (app/core/inference/wordcheck.h: a word of a
translation in neither the target language's Hunspell dictionary nor the source, underlined with
red dots) on a Tatoeba split, with the real `glosa-cli translate --json`, whose "unknown_words"
are those marks.

  tools/wordmarks_eval.py                    # transformer-general-en-es on Tatoeba en-es dev
  tools/wordmarks_eval.py --model transformer-en-es --sample 80 --out marks.tsv
  # the short-input dev set of glosa_corpus.py build (1-4 words: word-list entries, UI strings,
  # Tatoeba's short sentences) instead of Tatoeba dev
  tools/wordmarks_eval.py --corpus $GLOSA_RUNS/broad-en-es

Prints one JSON object: the translations and words checked; the marks; how many marks
evaluate.py's invented-word measure also counts (a word in neither Debian's word list plus
Hunspell's inflected forms nor the sentence's references: evaluate.known_words and
evaluate.invented_words, which see the references the app never has); and how many of the words
that measure counts as made up (invented and not a word of the source) carry a mark: the share of
invented words the marks catch, taking that measure as the truth (both read Hunspell's Spanish,
so this counts what the marks leave out by design and by their word splitting, not the made-up
words that happen to be real ones); and the words that measure counts that carry no mark, with
examples (copied from the source, or made up). With --out, a seeded sample of
--sample marks, one TSV row each (word, translation, source, references, and an empty verdict
column), for checking by hand: the share of sampled marks that are made-up words, not real words
the dictionary lacks, is the precision a user sees (docs/training.md, "Unknown-word marks").
"""
import argparse
import json
import os
import random
import subprocess
import sys

from glosa import REPO_ROOT
from glosa.data import pairs as glosa_data
from glosa.eval import evaluate


def model_languages(executable, model):
    """(source, target) language of an installed model, from `glosa-cli models --json`."""
    listing = [json.loads(line) for line in subprocess.run(
        [executable, "models", "--json"], capture_output=True, text=True,
        check=True).stdout.splitlines() if line.strip()]
    entry = next((m for m in listing if m.get("id") == model), None)
    if entry is None:
        raise SystemExit("wordmarks: glosa-cli knows no model %s" % model)
    return entry["source_language"], entry["target_language"]


def letter_words(text):
    return [w.lower() for w in evaluate._LETTERS.findall(text)]


def measure(rows, groups, known):
    """The counts of the marks in `rows` (glosa-cli's JSON objects) against evaluate.py's
    invented-word measure of the same translations; and every mark as (word, row index)."""
    out = {"translations": len(rows), "words": 0, "marks": 0, "translations_with_a_mark": 0,
           "marks_the_measure_counts": 0, "made_up_words": 0, "made_up_words_marked": 0,
           "unmarked_copied": 0, "unmarked_made_up": 0, "unmarked_examples": []}
    marks = []
    if rows and rows[0].get("unknown_words") is None:
        raise SystemExit("wordmarks: the target language has no Hunspell dictionary here")
    for i, (row, (src, refs)) in enumerate(zip(rows, groups)):
        words = letter_words(row["translation"])
        out["words"] += len(words)
        refs_words = {w for r in refs for w in letter_words(r)}
        invented = {w for w in words if w not in known and w not in refs_words}
        made_up = invented - set(letter_words(src))
        marked = [m["word"] for m in row["unknown_words"]]
        marked_parts = {p for m in marked for p in letter_words(m)}
        out["marks"] += len(marked)
        out["translations_with_a_mark"] += bool(marked)
        out["marks_the_measure_counts"] += sum(
            any(p in invented for p in letter_words(m)) for m in marked)
        out["made_up_words"] += sum(w in made_up for w in words)
        out["made_up_words_marked"] += sum(w in made_up and w in marked_parts for w in words)
        for w in words:
            if w in invented and w not in marked_parts:
                out["unmarked_made_up" if w in made_up else "unmarked_copied"] += 1
                if len(out["unmarked_examples"]) < 20:
                    out["unmarked_examples"].append(w)
        marks += [(m, i) for m in marked]
    out["marks_per_100_words"] = round(100.0 * out["marks"] / max(out["words"], 1), 2)
    out["agreement_percent"] = round(
        100.0 * out["marks_the_measure_counts"] / max(out["marks"], 1), 1)
    out["made_up_caught_percent"] = round(
        100.0 * out["made_up_words_marked"] / max(out["made_up_words"], 1), 1)
    return out, marks


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--model", default="transformer-general-en-es")
    p.add_argument("--split", default="dev", help="a Tatoeba split (dev, test)")
    p.add_argument("--corpus", help="a glosa_corpus.py build folder: its short-input dev set "
                   "(dev/short.<lang>) instead of the Tatoeba split")
    p.add_argument("--data", help="the data folder (default: ../shared/data)")
    p.add_argument("--glosa-cli", default=os.path.join(REPO_ROOT, "build", "bin", "glosa-cli"))
    p.add_argument("--sample", type=int, default=80, help="marks written to --out")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--out", help="the sample of marks, a TSV to check by hand")
    a = p.parse_args(argv)
    src, tgt = model_languages(a.glosa_cli, a.model)
    pair = glosa_data.data_pair(None, src, tgt)
    if a.corpus:
        sets = dict(evaluate.short_sets(a.corpus, src, tgt))
        if "dev-short" not in sets:
            raise SystemExit("wordmarks: no dev/short.%s and .%s in %s" % (src, tgt, a.corpus))
        groups, name = sets["dev-short"], os.path.join(a.corpus, "dev", "short")
    else:
        groups = evaluate.groups_for(pair, src, tgt, a.split, a.data)
        name = evaluate.split_name(pair, a.split)
    # --force-language: a short dev sentence the language guard doubts is still translated.
    lines = evaluate.glosa_cli([s for s, _ in groups], a.model, a.glosa_cli,
                               ["--json", "--force-language"])
    rows = [json.loads(line) for line in lines]
    result, marks = measure(rows, groups, evaluate.known_words(tgt))
    result.update({"model": a.model, "set": name})
    print(json.dumps(result, ensure_ascii=False))
    if a.out:
        sample = random.Random(a.seed).sample(marks, min(a.sample, len(marks)))
        with open(a.out, "w", encoding="utf-8") as f:
            f.write("word\ttranslation\tsource\treferences\tverdict\n")
            for word, i in sample:
                f.write("%s\t%s\t%s\t%s\t\n" % (word, rows[i]["translation"], groups[i][0],
                                                " | ".join(groups[i][1])))
    return 0


if __name__ == "__main__":
    sys.exit(main())
