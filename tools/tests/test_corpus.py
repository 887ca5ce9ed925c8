#!/usr/bin/python3
"""Checks glosa_corpus's epoch sampling: MIXTURE's weights, a run's --mixture overrides, the
word-list and back-translation origins, and the epoch pool's determinism.

  ctest -R py_test_corpus     (or, from tools/: /usr/bin/python3 -m unittest tests.test_corpus)
"""
import collections
import os
import unittest

from tests import require  # noqa: E402

require("numpy", "sentencepiece")

from glosa import REPO_ROOT  # noqa: E402
from glosa.corpus import broad as glosa_corpus  # noqa: E402


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
    failures += check_origins()
    failures += check_epoch_pool()
    print("%s: %d failures" % (os.path.basename(__file__), failures))
    return 1 if failures else 0


def check_origins():
    """Word-list entries are never joined or given placeholders; back-translations are tagged and
    trained in their direction only."""
    failures = 0
    rows = ([("lexicon", "word %d" % i, "palabra %d" % i) for i in range(200)]
            + [("bt-es", "synthetic %d" % i, "real %d" % i) for i in range(50)]
            + [("bt-en", "real %d" % i, "sintético %d" % i) for i in range(50)])
    pairs = glosa_corpus.epoch_pairs(rows, "en-es", 0, 1, p_concat=1.0, p_protect=1.0)
    lex = [p for p in pairs if p[0].lower().startswith("word")]
    if len(lex) != 200 or any(s.count("ord") != 1 for s, _ in lex):
        failures += 1
        print("FAIL lexicon entries joined or lost: %s" % lex[:3])
    if not any(s[0].isupper() for s, _ in lex) or not any(s[0].islower() for s, _ in lex):
        failures += 1
        print("FAIL lexicon entries should be seen both capitalised and not")
    bt = [p for p in pairs if "synthetic" in p[0]]
    if not bt or any(not s.startswith(glosa_corpus.glosa_spans.BT_TAG) for s, _ in bt):
        failures += 1
        print("FAIL bt-es pairs must be tagged in en-es: %s" % bt[:2])
    if any("sintético" in t or "sintético" in s for s, t in pairs):
        failures += 1
        print("FAIL bt-en (a machine-made Spanish side) must not be trained en-es")
    back = glosa_corpus.epoch_pairs(rows, "es-en", 0, 1, p_concat=0)
    if any("real" in t and "synthetic" in s for s, t in back) or not any(
            s.startswith(glosa_corpus.glosa_spans.BT_TAG) and "sintético" in s for s, _ in back):
        failures += 1
        print("FAIL es-en: bt-en tagged and trained, bt-es left out")
    return failures


def check_epoch_pool():
    """An epoch's examples do not depend on how many processes prepare them."""
    import tempfile
    spm_model = os.path.join(REPO_ROOT, "resources", "models", "transformer-general-en-es", "spm.model")
    if not os.path.exists(spm_model):
        print("SKIP epoch pool: no %s" % spm_model)
        return 0
    with tempfile.TemporaryDirectory() as d:
        with open(os.path.join(d, "train.tsv"), "w", encoding="utf-8") as f:
            for i in range(300):
                f.write("%s\tThe cat %d sleeps.\tEl gato %d duerme.\n"
                        % ("news" if i % 3 else "tatoeba", i, i))
        got = []
        for workers in (1, 3):
            pool = glosa_corpus.EpochPool(d, spm_model, "en-es", 1, None, 256, workers)
            got.append(pool.examples(0))
            got.append(pool.examples(1))
            pool.close()
    if got[0] != got[2] or got[1] != got[3] or got[0] == got[1] or not got[0][0]:
        print("FAIL epoch pool: examples differ with the number of workers, or between epochs")
        return 1
    return 0


class EpochSampling(unittest.TestCase):
    def test_mixture_origins_and_pool(self):
        self.assertEqual(main(), 0, "the FAIL lines above say which check failed")


if __name__ == "__main__":
    unittest.main()
