#!/usr/bin/python3
"""Measures the coverage warnings (engine/decoding/coverage.h) on omissions we make ourselves,
with the real `glosa-cli translate --json`, and prints precision, recall and a threshold sweep.

  tools/coverage_eval.py                      # both en-es models, 200 Tatoeba dev sentences
  tools/coverage_eval.py --models transformer-en-es --sentences 50 --markdown table.md

Three protocols, per model (every step is the model's own decoding, package defaults):

Common: the sentences are every 8th distinct source of the model's pair's Tatoeba dev split
(../shared/data/tatoeba-<pair>/dev.tsv, or --data; the file runs from short to long, so this
spans every length), the first 200; the source must be English; lines the model splits
into several sentences are left out. A word's translation: each content word (letters only, not a
stop word) translated alone by the same model, lower-cased, kept when it is one word.

A. Forced omissions. The omission: a source content word whose lone translation appears as a
   word of the normal translation (the first in a seeded shuffle). The normal translation without
   that word is forced as the target prefix (--target-prefix-text) and the search goes on from
   it; kept when the output still lacks the word. Positive: the deleted word; negative: every
   other word the engine scores (its translation is in the prefix, as the model wrote it).
B. Natural omissions. In the model's own translation, a source content word whose lone
   translation is not among the output's words is positive (missing), one whose lone translation
   is there is negative. Noisy in one direction: a word translated by another form (gata for
   gato, a synonym) counts as missing, so recall is a lower bound; precision is what a user sees.
C. Forced truncation (the short-translation failure of NMT). The normal translation cut after
   half its words and closed with "." is forced as the target prefix; kept when the search ends
   there. Positive: a source content word whose lone translation was in the normal translation
   but is not in the truncated one; negative: one whose lone translation is in the truncated one.

Predicted: flagged, i.e. mass below the threshold. Precision and recall are over words. "Normal
outputs with a warning": the share of the normal translations with at least one flagged word.
The masses do not depend on the threshold, so one run gives the whole sweep.
"""
import argparse
import json
import os
import random
import re
import subprocess
import sys

from glosa.data import pairs as glosa_data  # noqa: E402

from glosa import REPO_ROOT as ROOT
STOP = set("""a an the and or but if of to in on at by for with from as into onto about than then
so is am are was were be been being do does did have has had i you he she it we they me him her us
them my your his its our their this that these those there here not no yes what who whom which
when where why how all any some very too can could will would shall should may might must just
up out off over again one s t don didn doesn isn aren wasn weren won ll re ve m d""".split())
SWEEP = [0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.3, 0.4, 0.5, 0.75, 1.0]


def manifest(model):
    """The shipped package's model.json, or {} for a model that is not in resources/models."""
    try:
        with open(os.path.join(ROOT, "resources", "models", model, "model.json"),
                  encoding="utf-8") as f:
            return json.load(f)
    except OSError:
        return {}


def shipped_threshold(model):
    """The model's own bar: model.json decoding.coverage_threshold, else the engine's 0.1."""
    return float(manifest(model).get("decoding", {}).get("coverage_threshold", 0.1))


def model_sources(model, data, count, every):
    """Every `every`-th distinct source sentence of the Tatoeba dev split of the model's pair
    (or the TSV `data`), the first `count`."""
    languages = manifest(model).get("languages")
    if languages is None and not data:
        raise glosa_data.MissingData("%s is not a package of resources/models, so its pair is not "
                                     "known here: give --data (a Tatoeba TSV, English first)"
                                     % model)
    # STOP (the words that are never scored) is English: with --data alone, the source is.
    src = languages.get("source") if languages else "en"
    if src != "en":
        raise glosa_data.MissingData("%s translates from %r: coverage_eval.py scores English "
                                     "source words only" % (model, src))
    path = data or glosa_data.split_path(glosa_data.pair_of(src, languages.get("target")), "dev")
    with open(path, encoding="utf-8") as f:  # English first: the source is column 0
        sources = [line.split("\t")[0].strip() for line in f if line.strip()]
    seen, unique = set(), []
    for s in sources:  # a source with several references appears once
        if s not in seen:
            seen.add(s)
            unique.append(s)
    return unique[::every][:count]


def words_of(text):
    return re.findall(r"[^\W\d_]+", text.lower())


def cli(executable, model, lines, prefix=None):
    args = [executable, "translate", "--model", model, "--json"]
    if prefix is not None:
        args += ["--target-prefix-text", prefix]
    out = subprocess.run(args, input="\n".join(lines) + "\n", capture_output=True, text=True,
                         check=True).stdout.splitlines()
    if len(out) != len(lines):
        raise RuntimeError("glosa-cli gave %d lines for %d" % (len(out), len(lines)))
    return [json.loads(line) for line in out]


def one_segment(result):
    segments = result.get("segments", [])
    if len(segments) != 1 or not segments[0]["coverage"]["available"]:
        return None
    return segments[0]["coverage"]


def evaluate(model, sources, executable, seed):
    normal = cli(executable, model, sources)
    vocabulary = sorted({w for s in sources for w in words_of(s) if w not in STOP and len(w) > 1})
    lone = dict(zip(vocabulary, cli(executable, model, vocabulary)))
    dictionary = {}
    for word, result in lone.items():
        translated = words_of(result["translation"])
        if len(translated) == 1:
            dictionary[word] = translated[0]
    # B: natural omissions in the normal translations.
    natural = []
    for result in normal:
        coverage = one_segment(result)
        if coverage is None:
            continue
        out_words = set(words_of(result["translation"]))
        for w in coverage["words"]:
            word = w["text"].lower()
            if word in dictionary:
                natural.append((w["mass"], dictionary[word] not in out_words))
    rng = random.Random(seed)
    masses = []  # (mass, is_omission) of every scored word of every kept forced translation
    normal_masses = []  # per normal translation: the masses of its words
    made = kept = 0
    for source, result in zip(sources, normal):
        coverage = one_segment(result)
        if coverage is None:
            continue
        normal_masses.append([w["mass"] for w in coverage["words"]])
        output = result["translation"]
        out_words = words_of(output)
        candidates = [w["text"].lower() for w in coverage["words"]
                      if w["text"].lower() in dictionary
                      and dictionary[w["text"].lower()] in out_words]
        if not candidates:
            continue
        rng.shuffle(candidates)
        omitted = candidates[0]
        target = dictionary[omitted]
        # Delete the first occurrence of the word (whole word, any case) from the translation.
        prefix = re.sub(r"(?i)(?<!\w)%s(?!\w)\s*" % re.escape(target), "", output, count=1).strip()
        if not prefix:
            continue
        made += 1
        forced = cli(executable, model, [source], prefix)[0]
        forced_coverage = one_segment(forced)
        if forced_coverage is None or target in words_of(forced["translation"]):
            continue
        kept += 1
        labelled = False
        for w in forced_coverage["words"]:
            positive = not labelled and w["text"].lower() == omitted
            labelled = labelled or positive
            masses.append((w["mass"], positive))
    # C: forced truncation.
    truncated = []
    cut = 0
    for source, result in zip(sources, normal):
        coverage = one_segment(result)
        output = result["translation"].split()
        if coverage is None or len(output) < 4:
            continue
        prefix = " ".join(output[: (len(output) + 1) // 2]).rstrip(".,;:!?¡¿") + "."
        forced = cli(executable, model, [source], prefix)[0]
        forced_coverage = one_segment(forced)
        if forced_coverage is None or forced["translation"].strip() != prefix:
            continue
        cut += 1
        before, after = set(words_of(result["translation"])), set(words_of(prefix))
        for w in forced_coverage["words"]:
            word = w["text"].lower()
            if word in dictionary and dictionary[word] in before:
                truncated.append((w["mass"], dictionary[word] not in after))
    return {"masses": masses, "natural": natural, "truncated": truncated, "cut": cut,
            "normal": normal_masses, "made": made, "kept": kept,
            "sentences": len(sources), "dictionary": len(dictionary)}


def scores(data, threshold, protocol="masses"):
    tp = sum(1 for m, p in data[protocol] if p and m < threshold)
    fp = sum(1 for m, p in data[protocol] if not p and m < threshold)
    fn = sum(1 for m, p in data[protocol] if p and m >= threshold)
    precision = tp / (tp + fp) if tp + fp else float("nan")
    recall = tp / (tp + fn) if tp + fn else float("nan")
    alarms = sum(1 for sentence in data["normal"] if any(m < threshold for m in sentence))
    return precision, recall, alarms / max(1, len(data["normal"])), tp, fp, fn


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--models", default="transformer-en-es,rnn-attention-en-es")
    parser.add_argument("--data", help="a Tatoeba TSV (English first); default: "
                        "$GLOSA_DATA/tatoeba-<pair>/dev.tsv of each model's pair")
    parser.add_argument("--sentences", type=int, default=200)
    parser.add_argument("--every", type=int, default=8)
    parser.add_argument("--seed", type=int, default=17)
    parser.add_argument("--threshold", type=float,
                        help="the threshold to mark as shipped; default: each model's own "
                        "(model.json decoding.coverage_threshold, else 0.1)")
    parser.add_argument("--sweep", default=",".join(str(t) for t in SWEEP),
                        help="comma-separated thresholds for the table")
    parser.add_argument("--executable", default=os.path.join(ROOT, "build", "bin", "glosa-cli"))
    parser.add_argument("--markdown", help="also write the tables to this file")
    args = parser.parse_args()

    lines = []
    for model in args.models.split(","):
        sources = model_sources(model, args.data, args.sentences, args.every)
        data = evaluate(model, sources, args.executable, args.seed)
        positives = sum(1 for _, p in data["masses"] if p)
        natural = sum(1 for _, p in data["natural"] if p)
        dropped = sum(1 for _, p in data["truncated"] if p)
        block = ["### %s\n" % model,
                 "%d sentences, %d scored as one sentence; %d one-word lone translations. "
                 "A (forced): %d omissions made, %d kept (the model did not restore the word), "
                 "%d scored words, %d of them omitted. B (natural): %d scored words, %d of them "
                 "missing. C (truncated): %d translations cut and kept, %d scored words, %d of "
                 "them cut off.\n" % (data["sentences"], len(data["normal"]), data["dictionary"],
                                      data["made"], data["kept"], len(data["masses"]), positives,
                                      len(data["natural"]), natural, data["cut"],
                                      len(data["truncated"]), dropped),
                 "| threshold | A precision | A recall | A TP / FP | B precision | B recall | "
                 "B TP / FP | C precision | C recall | C TP / FP | normal outputs with a "
                 "warning |",
                 "|---|---|---|---|---|---|---|---|---|---|---|"]
        shipped = args.threshold if args.threshold is not None else shipped_threshold(model)
        for t in sorted(set([float(x) for x in args.sweep.split(",")] + [shipped])):
            p, r, alarm, tp, fp, _ = scores(data, t)
            bp, br, _, btp, bfp, _ = scores(data, t, "natural")
            cp, cr, _, ctp, cfp, _ = scores(data, t, "truncated")
            mark = " **(shipped)**" if t == shipped else ""
            block.append("| %g%s | %.3f | %.3f | %d / %d | %.3f | %.3f | %d / %d | %.3f | %.3f "
                         "| %d / %d | %.1f%% |" % (t, mark, p, r, tp, fp, bp, br, btp, bfp, cp, cr,
                                                   ctp, cfp, 100 * alarm))
        block.append("")
        print("\n".join(block), flush=True)
        lines += block
    if args.markdown:
        with open(args.markdown, "w", encoding="utf-8") as f:
            f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    sys.exit(main())
