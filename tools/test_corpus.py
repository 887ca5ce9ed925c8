#!/usr/bin/python3
"""Checks glosa_corpus's epoch sampling: MIXTURE's weights, and a run's --mixture overrides.

  python3 tools/test_corpus.py
"""
import collections
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import glosa_corpus  # noqa: E402


def origins(pairs, rows):
    by_text = {en: o for o, en, _ in rows}
    return collections.Counter(by_text[s] for s, _ in pairs)


def main():
    failures = 0
    rows = ([("news", "news %d" % i, "noticia %d" % i) for i in range(100)]
            + [("tatoeba", "tatoeba %d" % i, "frase %d" % i) for i in range(100)]
            + [("bible", "verse %d" % i, "versículo %d" % i) for i in range(100)])
    kw = dict(p_protect=0, p_names=0, p_concat=0)
    base = origins(glosa_corpus.epoch_pairs(rows, "en-es", 0, 1, **kw), rows)
    want = {"news": 400, "tatoeba": 200}  # MIXTURE en-es: news 4, tatoeba 2, bible 0
    if dict(base) != want:
        failures += 1
        print("FAIL default mixture: %s, expected %s" % (dict(base), want))
    tuned = origins(glosa_corpus.epoch_pairs(rows, "en-es", 0, 1, mixture={"news": 8, "tatoeba": 0.5},
                                             **kw), rows)
    if tuned["news"] != 800 or not 30 <= tuned["tatoeba"] <= 70 or tuned["bible"]:
        failures += 1
        print("FAIL overridden mixture: %s" % dict(tuned))
    if glosa_corpus.parse_mixture("news=8, europarl-sample=0.5") != {"news": 8.0,
                                                                    "europarl-sample": 0.5}:
        failures += 1
        print("FAIL parse_mixture")
    for bad in ("nws=3", "news", "news=-1"):
        try:
            glosa_corpus.parse_mixture(bad)
            failures += 1
            print("FAIL parse_mixture accepted %r" % bad)
        except ValueError:
            pass
    print("%s: %d failures" % (os.path.basename(__file__), failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
