"""How many protected spans (numbers, URLs, e-mail addresses, code, tags, emoji, format
placeholders) come through a model's translation verbatim: the measurement behind the
protected-spans decision for models without placeholder pieces (docs/model-package.md,
"Protected spans and imported models").

    tools/span_survival.py --cli build/bin/glosa-cli --model ID_OR_DIR [--model ...]
        [--cases tests/data/protected-spans/cases.tsv]

cases.tsv: a source sentence, then kind=span columns (the spans engine/text/protectedspans.cpp
finds). Prints, per model and kind, the spans found verbatim in the translation."""
import argparse
import collections
import subprocess


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--cli", default="build/bin/glosa-cli")
    p.add_argument("--model", action="append", required=True)
    p.add_argument("--cases", default="tests/data/protected-spans/cases.tsv")
    a = p.parse_args()
    cases = []
    for line in open(a.cases, encoding="utf-8"):
        cols = line.rstrip("\n").split("\t")
        spans = [c.split("=", 1) for c in cols[1:] if "=" in c]
        if spans:
            cases.append((cols[0], spans))
    for model in a.model:
        out = subprocess.run([a.cli, "translate", "--model", model], input="\n".join(c[0] for c in cases) + "\n",
                             capture_output=True, text=True, check=True).stdout.split("\n")
        kept, total = collections.Counter(), collections.Counter()
        for (source, spans), translation in zip(cases, out):
            for kind, span in spans:
                total[kind] += 1
                kept[kind] += span in translation
        print("%s: %d/%d spans verbatim (%.1f%%)" % (model, sum(kept.values()), sum(total.values()),
                                                     100.0 * sum(kept.values()) / sum(total.values())))
        for kind in sorted(total):
            print("  %-12s %3d/%3d" % (kind, kept[kind], total[kind]))


if __name__ == "__main__":
    main()
