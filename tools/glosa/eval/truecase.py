#!/usr/bin/python3
"""Truecasing measured through the real glosa-cli, with and without (--no-truecase), on DEV sets
only (docs/training.md, "Truecasing the first word"):

  # the short-input dev set: each source capitalised ("Teacher") and lower-cased ("teacher")
  truecase_eval.py short --model transformer-general-en-es
  # BLEU / chrF2 on a sample of the full-sentence dev sets (news, docs, prose, Tatoeba, general)
  truecase_eval.py sentences --model transformer-general-en-es --per-set 300
  # a few inputs, both ways
  truecase_eval.py examples --model transformer-general-en-es "Hello!" Teacher Gym

`short` reports, for every form and setting, the share of outputs that match a reference (case and
punctuation aside: the dictionary accuracy) and the share with an invented word (a
word in neither the target language's word list nor the references: evaluate.py's measure), for
the single words and for all the 1-4-word inputs; the gap is lower-cased minus capitalised.
The corpus is evaluate.py's default (/work/runs/broad-<pair>, or --corpus).
"""

import argparse
import json
import os
import re
import subprocess

from glosa.eval import evaluate  # noqa: E402
from glosa.corpus import broad as glosa_corpus  # noqa: E402
from glosa.data import pairs as glosa_data  # noqa: E402
from glosa.train import trainer as glosa_train  # noqa: E402

from glosa import REPO_ROOT
WORD = re.compile(r"[^\W\d_]+|\d+")
SETTINGS = (("without", ["--no-truecase"]), ("with", []))


def normalized(text):
    """Letters and digits, lower-cased, one space between words: "¡Hola!" == "hola"."""
    return " ".join(WORD.findall(text.lower()))


def first_letter(text, upper):
    for i, c in enumerate(text):
        if c.isalnum():
            return text[:i] + (c.upper() if upper else c.lower()) + text[i + 1:]
    return text


def model_languages(model, executable):
    for line in subprocess.run([executable, "models", "--json"], capture_output=True, text=True,
                               check=True).stdout.splitlines():
        entry = json.loads(line) if line.strip() else {}
        if entry.get("id") == model:
            return entry["source_language"], entry["target_language"]
    raise SystemExit("glosa-cli knows no model %s" % model)


def translate(sources, model, executable, extra):
    return evaluate.glosa_cli(sources, model, executable, extra)


def short(args, src, tgt):
    corpus = args.corpus or evaluate.default_corpus(glosa_data.pair_of(src, tgt))
    groups = dict(evaluate.short_sets(corpus, src, tgt)).get("dev-short")
    if not groups:
        raise SystemExit("no dev/short.%s in %s: build the corpus (glosa_corpus.py build)"
                         % (src, corpus))
    # Sources that start with a letter and have no other capital: the everyday inputs whose
    # capitalised and lower-cased forms are both natural ("Teacher" / "teacher").
    groups = [(s, refs) for s, refs in groups
              if s[:1].isalpha() and s[1:] == s[1:].lower() and s.lower() != s.upper()]
    known = evaluate.known_words(tgt) if tgt in evaluate.WORD_LISTS else None
    rows = []
    for setting, extra in SETTINGS:
        for form, upper in (("capitalised", True), ("lower-cased", False)):
            sources = [first_letter(s, upper) for s, _ in groups]
            hyps = translate(sources, args.model, args.executable, extra)
            for part, keep in (("single words", lambda s: len(s.split()) == 1),
                               ("all 1-4 words", lambda s: True)):
                idx = [i for i, (s, _) in enumerate(groups) if keep(s)]
                right = sum(normalized(hyps[i]) in {normalized(r) for r in groups[i][1]}
                            for i in idx)
                invented = (evaluate.short_failures([hyps[i] for i in idx],
                                                    [groups[i] for i in idx], known)[0]
                            if known else float("nan"))
                rows.append({"setting": setting, "form": form, "part": part, "n": len(idx),
                             "right": round(100.0 * right / len(idx), 1),
                             "invented": round(100.0 * invented / len(idx), 1)})
                print(json.dumps(rows[-1]), flush=True)
    print("\n| truecasing | part | n | capitalised right | lower-cased right | gap | "
          "capitalised invented | lower-cased invented |\n|---|---|---|---|---|---|---|---|")
    for setting, _ in SETTINGS:
        for part in ("single words", "all 1-4 words"):
            cap, low = (next(r for r in rows if r["setting"] == setting and r["part"] == part
                             and r["form"] == f) for f in ("capitalised", "lower-cased"))
            print("| %s | %s | %d | %.1f%% | %.1f%% | %.1f | %.1f%% | %.1f%% |" % (
                setting, part, cap["n"], cap["right"], low["right"], low["right"] - cap["right"],
                cap["invented"], low["invented"]))


def sentences(args, src, tgt):
    corpus = args.corpus or evaluate.default_corpus(glosa_data.pair_of(src, tgt))
    sets = glosa_corpus.read_dev(corpus, src, tgt)
    print("| set | sources | BLEU without | BLEU with | chrF2 without | chrF2 with | outputs "
          "changed |\n|---|---|---|---|---|---|---|")
    for name, groups in sets.items():
        groups = glosa_train.dev_sample(groups, args.per_set)
        sources = [s for s, _ in groups]
        hyps = {setting: translate(sources, args.model, args.executable, extra)
                for setting, extra in SETTINGS}
        scores = {setting: evaluate.score(h, groups) for setting, h in hyps.items()}
        changed = sum(a != b for a, b in zip(hyps["without"], hyps["with"]))
        print("| %s | %d | %.2f | %.2f | %.2f | %.2f | %d |" % (
            name, len(groups), scores["without"][0].score, scores["with"][0].score,
            scores["without"][1], scores["with"][1], changed), flush=True)


def examples(args, src, tgt):
    hyps = {setting: translate(args.inputs, args.model, args.executable, extra)
            for setting, extra in SETTINGS}
    print("| input | without truecasing | with |\n|---|---|---|")
    for i, text in enumerate(args.inputs):
        print("| %s | %s | %s |" % (text, hyps["without"][i], hyps["with"][i]))


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("command", choices=["short", "sentences", "examples"])
    p.add_argument("inputs", nargs="*", help="examples: the inputs")
    p.add_argument("--model", required=True, help="an installed package id")
    p.add_argument("--corpus", help="default: evaluate.py's /work/runs/broad-<pair>")
    p.add_argument("--per-set", type=int, default=300,
                   help="sentences: sources a dev set, spread evenly (0: all)")
    p.add_argument("--executable", default=os.path.join(REPO_ROOT, "build", "bin", "glosa-cli"))
    args = p.parse_intermixed_args(argv)
    src, tgt = model_languages(args.model, args.executable)
    {"short": short, "sentences": sentences, "examples": examples}[args.command](args, src, tgt)


if __name__ == "__main__":
    main()
