#!/usr/bin/python3
"""Greedy BLEU of a package or checkpoint on the broad corpus's dev sets, sampled as training
samples them (--dev-size N sources spread over each set): the number a training run's "DEV" line
reports, for a model that was not trained in that run (the starting point of a fine-tune).

  tools/dev_scores.py --corpus /work/runs/broad-en-es --dev-size 400 resources/models/transformer-general-en-es
"""
import argparse
import json
import os
import sys

os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
import torch  # noqa: E402

from glosa.eval import evaluate  # noqa: E402
from glosa.corpus import broad as glosa_corpus  # noqa: E402
from glosa.data import pairs as glosa_data  # noqa: E402
from glosa.train import trainer as glosa_train  # noqa: E402


# The export bar of a lease: the mean dev BLEU up by at least EXPORT_GAIN, no set down by more
# than EXPORT_SET_LOSS. Exports stay in git for ever; a smaller gain is noise of one run.
EXPORT_GAIN = 1.0
EXPORT_SET_LOSS = 0.5


def export_bar(before, after):
    """(meets the bar, why) for two outputs of this script on the same dev sets."""
    if set(before["sets"]) != set(after["sets"]) or before["dev_size"] != after["dev_size"]:
        return False, "not measured on the same dev sets"
    gain = after["mean_bleu"] - before["mean_bleu"]
    worse = {k: round(before["sets"][k]["bleu"] - v["bleu"], 2) for k, v in after["sets"].items()
             if before["sets"][k]["bleu"] - v["bleu"] > EXPORT_SET_LOSS}
    if gain < EXPORT_GAIN:
        return False, "mean BLEU %+.2f (needs %+.1f)" % (gain, EXPORT_GAIN)
    if worse:
        return False, "mean BLEU %+.2f but worse by more than %.1f on %s" % (
            gain, EXPORT_SET_LOSS, worse)
    return True, "mean BLEU %+.2f, no set worse by more than %.1f" % (gain, EXPORT_SET_LOSS)


def casing_gap(model, codec, hyps, groups, known):
    """The lower-case sources of a short set ("teacher", "very good") translated as typed and
    capitalised ("Teacher"): {"as typed": measure, "capitalised": measure}, each output compared
    with the references case aside."""
    idx = [i for i, g in enumerate(groups) if g[0][:1].islower()]
    lower = [groups[i] for i in idx]
    capitalised = [(s[:1].upper() + s[1:], refs) for s, refs in lower]
    cap_hyps = glosa_train.translate(model, codec, [s for s, _ in capitalised])
    return {"as typed": evaluate.short_measure([hyps[i] for i in idx], lower, known),
            "capitalised": evaluate.short_measure(cap_hyps, capitalised, known)}


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("model", nargs="?", help="package folder or checkpoint .pt")
    p.add_argument("--corpus")
    p.add_argument("--export-bar", nargs=2, metavar=("BEFORE", "AFTER"),
                   help="instead: two outputs of this script (the shipped package's, a run's); "
                   "exit 0 when AFTER meets the export bar (EXPORT_GAIN, EXPORT_SET_LOSS)")
    p.add_argument("--dev-size", type=int, default=400)
    p.add_argument("--threads", type=int, default=1)
    p.add_argument("--short", nargs="?", const="dev,test", choices=("dev", "test", "dev,test"),
                   help="the short-input dev and test sets instead (or only one of them), with "
                   "the share of outputs holding an invented word, of empty ones, and per part "
                   "(tatoeba, ui, lexicon) the accuracy and invented-word share")
    p.add_argument("--data", help="for --short's parts: default $GLOSA_DATA or ../shared/data")
    p.add_argument("--chars", help="instead: for each of these characters, in how many dev "
                   "sentences whose reference has it the greedy output has it too (e.g. ¡ÁÍÓÚÑ)")
    a = p.parse_args(argv)
    if a.export_bar:
        ok, why = export_bar(*(json.load(open(f, encoding="utf-8")) for f in a.export_bar))
        print("%s %s: %s" % ("EXPORT" if ok else "KEEP the package,", a.export_bar[1], why))
        return 0 if ok else 1
    if not a.model or not a.corpus:
        p.error("a model and --corpus are needed")
    torch.set_num_threads(a.threads)
    model, codec, info = evaluate.load_model(a.model)
    if a.chars:
        rows = [(s, refs) for groups in glosa_corpus.read_dev(a.corpus, info["src"],
                                                              info["tgt"]).values()
                for s, refs in groups if any(c in r for r in refs for c in a.chars)]
        hyps = glosa_train.translate(model, codec, [s for s, _ in rows])
        out = {c: {"sources": sum(any(c in r for r in refs) for _, refs in rows),
                   "output_has_it": sum(c in h for h, (_, refs) in zip(hyps, rows)
                                        if any(c in r for r in refs))} for c in a.chars}
        print(json.dumps({"model": a.model, "sentences": len(rows), "chars": out,
                          "broken_bytes": sum("\ufffd" in h for h in hyps)}, ensure_ascii=False))
        return 0
    scores = {}
    if a.short:
        sets = [(n, g) for n, g in evaluate.short_sets(a.corpus, info["src"], info["tgt"])
                if n.split("-")[0] in a.short.split(",")]
        known = evaluate.known_words(info["tgt"])
        parts = evaluate.short_parts(glosa_data.data_dir(a.data),
                                     glosa_corpus.corpus_pair(a.corpus))
    else:
        sets = glosa_corpus.read_dev(a.corpus, info["src"], info["tgt"]).items()
    for name, groups in sets:
        groups = glosa_train.dev_sample(groups, a.dev_size)
        bleu, chrf, hyps = glosa_train.evaluate_groups(model, codec, groups)
        scores[name] = {"bleu": round(bleu, 2), "chrf": round(chrf, 2)}
        if a.short:
            bad, empty = evaluate.short_failures(hyps, groups, known)
            scores[name].update(outputs_with_invented_word_percent=round(100.0 * bad / len(hyps), 2),
                                empty_outputs=empty, sources=len(hyps),
                                parts=evaluate.short_by_part(hyps, groups, known, parts),
                                casing=casing_gap(model, codec, hyps, groups, known))
    mean = sum(v["bleu"] for v in scores.values()) / len(scores)
    print(json.dumps({"model": a.model, "dev_size": a.dev_size, "mean_bleu": round(mean, 2),
                      "sets": scores}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
