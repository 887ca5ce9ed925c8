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

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import evaluate  # noqa: E402
import glosa_corpus  # noqa: E402
import glosa_train  # noqa: E402


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("model", help="package folder or checkpoint .pt")
    p.add_argument("--corpus", required=True)
    p.add_argument("--dev-size", type=int, default=400)
    p.add_argument("--threads", type=int, default=1)
    p.add_argument("--short", action="store_true",
                   help="the short-input dev and test sets instead (with the share of outputs "
                   "holding an invented word, and of empty ones)")
    p.add_argument("--chars", help="instead: for each of these characters, in how many dev "
                   "sentences whose reference has it the greedy output has it too (e.g. ¡ÁÍÓÚÑ)")
    a = p.parse_args(argv)
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
        sets = evaluate.short_sets(a.corpus, info["src"], info["tgt"])
        known = evaluate.known_words(info["tgt"])
    else:
        sets = glosa_corpus.read_dev(a.corpus, info["src"], info["tgt"]).items()
    for name, groups in sets:
        groups = glosa_train.dev_sample(groups, a.dev_size)
        bleu, chrf, hyps = glosa_train.evaluate_groups(model, codec, groups)
        scores[name] = {"bleu": round(bleu, 2), "chrf": round(chrf, 2)}
        if a.short:
            bad, empty = evaluate.short_failures(hyps, groups, known)
            scores[name].update(outputs_with_invented_word_percent=round(100.0 * bad / len(hyps), 2),
                                empty_outputs=empty, sources=len(hyps))
    mean = sum(v["bleu"] for v in scores.values()) / len(scores)
    print(json.dumps({"model": a.model, "dev_size": a.dev_size, "mean_bleu": round(mean, 2),
                      "sets": scores}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
