#!/usr/bin/python3
"""Checks that the training and evaluation tools take the language pair as a parameter: a corpus
built for en-de reads the en-de files and no others, the language filter and the epoch sampling
follow the pair, evaluate.py finds (or clearly misses) a pair's sets and Apertium mode, and
train_general.sh derives every path from its direction. Data for a pair that is not there is a
clear MissingData message, not a traceback. The data folders are small ones written here.

  ctest -R py_test_pairs     (or, from tools/: /usr/bin/python3 -m unittest tests.test_pairs)
"""
import json
import lzma
import os
import subprocess
import sys
import unittest
import tempfile

from tests import require  # noqa: E402

require("torch", "numpy", "sentencepiece")

from glosa import TOOLS_DIR as HERE  # noqa: E402
from glosa.eval import evaluate  # noqa: E402
from glosa.corpus import broad as glosa_corpus  # noqa: E402
from glosa.data import pairs as glosa_data  # noqa: E402
from glosa.corpus import mono as glosa_mono  # noqa: E402

GERMAN = [("The house is big.", "Das Haus ist groß."), ("I am tired.", "Ich bin müde."),
          ("Where is the station?", "Wo ist der Bahnhof?"), ("We have time.", "Wir haben Zeit."),
          ("Let me be.", "Lass mich in Ruhe."), ("I won't die.", "Ich werde nicht sterben.")]
SPANISH = [("The house is big.", "La casa es grande."), ("I am tired.", "Estoy cansado.")]


def write_tatoeba(data, pair, rows):
    os.makedirs(os.path.join(data, "tatoeba-" + pair))
    for split in ("train", "dev", "test"):
        with open(os.path.join(data, "tatoeba-" + pair, split + ".tsv"), "w",
                  encoding="utf-8") as f:
            for i, (a, b) in enumerate(rows):
                # distinct sentences per split, so that no dev sentence is a training one
                f.write("%s %s %d\t%s %s %d\n" % (a[:-1], split, i, b[:-1], split, i))


def make_data(root):
    """A data folder with Tatoeba en-de and en-es, a parallel-en-de folder with one file of the
    corpus's names (globalvoices) and one of a name it does not know, and a parallel-en-es folder
    whose text must not reach en-de."""
    data = os.path.join(root, "data")
    write_tatoeba(data, "en-de", GERMAN)
    write_tatoeba(data, "en-es", SPANISH)
    for pair, name, rows in (
            ("en-de", "globalvoices", [("Parliament meets today %d." % i,
                                        "Das Parlament tagt heute %d." % i) for i in range(3)]),
            ("en-de", "unknown-source", [("Never read.", "Nie gelesen.")]),
            ("en-es", "globalvoices", [("Parliament meets today %d." % i,
                                        "El Parlamento se reúne hoy %d." % i) for i in range(3)])):
        folder = os.path.join(data, "parallel-" + pair)
        os.makedirs(folder, exist_ok=True)
        for i, lang in enumerate(pair.split("-")):
            with lzma.open(os.path.join(folder, "%s.%s.xz" % (name, lang)), "wt",
                           encoding="utf-8") as f:
                f.write("".join(r[i] + "\n" for r in rows))
    return data


def check(failures, ok, message):
    if not ok:
        print("FAIL " + message)
    return failures + (not ok)


def missing_message(call):
    """The MissingData message of call(), or None when it raised none."""
    try:
        call()
    except glosa_data.MissingData as e:
        return str(e)
    return None


def check_build(root, data):
    failures = 0
    out = os.path.join(root, "broad-en-de")
    glosa_corpus.build(data, out, pair="en-de")
    rows = glosa_corpus.read_train(out)
    text = " ".join(a + " " + b for _, a, b in rows)
    failures = check(failures, "Das Parlament" in text and "Haus ist" in text,
                     "en-de corpus lacks its Tatoeba or parallel-en-de pairs: %s" % rows)
    failures = check(failures, "casa" not in text and "Parlamento" not in text,
                     "en-de corpus holds en-es text: %s" % rows)
    # CLDR's names come for every pair python3-icu can name in both languages.
    origins = {"tatoeba", "globalvoices"} | (
        {"cldr"} if glosa_corpus.glosa_phrases.cldr_pairs("en-de") is not None else set())
    failures = check(failures, {o for o, _, _ in rows} == origins,
                     "en-de corpus origins: %s" % {o for o, _, _ in rows})
    # Correct German pairs with words spelt like English ones ("in", "die") are kept.
    failures = check(failures, any("Ruhe" in b for _, _, b in rows)
                     and any("sterben" in b for _, _, b in rows),
                     "the language filter dropped correct German pairs: %s" % rows)
    failures = check(failures, sorted(os.listdir(os.path.join(out, "dev")))
                     == ["short.de", "short.en", "tatoeba.de", "tatoeba.en"],
                     "en-de dev files: %s" % os.listdir(os.path.join(out, "dev")))
    with open(os.path.join(out, "stats.json"), encoding="utf-8") as f:
        stats = json.load(f)
    left_out = stats.get("left_out", [])
    failures = check(failures, stats.get("pair") == "en-de" and all(
        os.path.join(data, p) in left_out for p in (
            "parallel-en-de-general", os.path.join("newstest", "en-de"),
            os.path.join("parallel-en-de", "bible"), os.path.join("parallel-en-de",
                                                                   "unknown-source")))
        and os.path.join(data, "parallel-en-de", "globalvoices") not in left_out,
        "stats.json must name the pair and the sources left out: %s" % stats)
    failures = check(failures, glosa_corpus.corpus_pair(out) == "en-de", "corpus_pair")
    dev = glosa_corpus.read_dev(out, "de", "en")
    failures = check(failures, dev["tatoeba"][0] == ("Das Haus ist groß dev 0",
                                                     ["The house is big dev 0"]),
                     "de->en dev: %s" % dev.get("tatoeba", [])[:1])
    msg = missing_message(lambda: glosa_corpus.read_dev(out, "es", "en"))
    failures = check(failures, msg and "en-de corpus" in msg and "--pair en-es" in msg,
                     "reading es->en dev from the en-de corpus: %r" % msg)

    # A pair without data: a message naming the pairs that have some, nothing written.
    bad = os.path.join(root, "broad-en-it")
    msg = missing_message(lambda: glosa_corpus.build(data, bad, pair="en-it"))
    failures = check(failures, msg and "en-it" in msg and "en-de, en-es" in msg
                     and not os.path.exists(bad), "build --pair en-it: %r" % msg)
    msg = missing_message(lambda: glosa_corpus.build(data, bad, pair="english"))
    failures = check(failures, msg and "'english'" in msg, "build --pair english: %r" % msg)
    # From the command line: the message and exit status 1, no traceback.
    res = subprocess.run([sys.executable, os.path.join(HERE, "glosa_corpus.py"), "build",
                          "--pair", "en-it", "--data", data, "--out", bad],
                         capture_output=True, text=True, timeout=60)
    failures = check(failures, res.returncode == 1 and "Traceback" not in res.stderr
                     and "no Tatoeba train split for en-it" in res.stderr,
                     "glosa_corpus.py build --pair en-it: rc %d, %s" % (res.returncode, res.stderr))
    return failures


def check_sampling():
    failures = 0
    rows = [(origin, "%s %d" % (en, i), "%s %d" % (de, i))
            for origin, en, de in (("tatoeba", "house", "Haus"), ("bt-de", "synthetic", "echt"),
                                   ("bt-en", "real", "synthetisch")) for i in range(20)]
    kw = dict(p_protect=0, p_names=0, p_concat=0)
    back = glosa_corpus.epoch_pairs(rows, "de-en", 0, 1, **kw)
    failures = check(failures, any(s.startswith("Haus") and t.startswith("house")
                                   for s, t in back), "de-en must translate the German column")
    failures = check(failures, not any("echt" in s or "echt" in t for s, t in back)
                     and any("synthetisch" in s for s, _ in back),
                     "de-en: bt-en (real English) trained, bt-de left out")
    forth = glosa_corpus.epoch_pairs(rows, "en-de", 0, 1, **kw)
    failures = check(failures, all(s.startswith(glosa_corpus.glosa_spans.BT_TAG)
                                   for s, t in forth if "echt" in t)
                     and any("echt" in t for _, t in forth)
                     and not any("synthetisch" in t for _, t in forth),
                     "en-de: bt-de tagged and trained, bt-en left out")
    failures = check(failures, glosa_corpus.parse_mixture("bt-de=0.5") == {"bt-de": 0.5},
                     "parse_mixture must take a bt-<lang> origin of any pair")
    stop = glosa_corpus.stopwords("en-de")
    failures = check(failures, glosa_corpus.filter_reason(
        "The cat is on the table and the dog is in the garden.",
        "The cat is on the table and the dog is in the garden, right.", stop) == "language",
        "an English sentence as the German side must be dropped as 'language'")
    msg = missing_message(lambda: glosa_corpus.stopwords("en-it"))
    failures = check(failures, msg and "it" in msg and "STOPWORDS" in msg,
                     "stopwords of a language without a list: %r" % msg)
    return failures


def check_evaluate(data):
    failures = 0
    msg = missing_message(lambda: evaluate.groups_for("en-de", "en", "de", "newstest2013", data))
    failures = check(failures, msg and os.path.join(data, "newstest", "en-de") in msg,
                     "en-de newstest2013 must say the folder is missing: %r" % msg)
    groups = evaluate.groups_for("en-de", "de", "en", "test", data)
    failures = check(failures, groups[0] == ("Das Haus ist groß test 0",
                                             ["The house is big test 0"]),
                     "de->en Tatoeba test: %s" % groups[:1])
    modes = ["eng-spa", "spa-eng"]
    failures = check(failures, evaluate.apertium_mode("es", "en", modes) == "spa-eng",
                     "apertium mode es->en")
    msg = missing_message(lambda: evaluate.apertium_mode("en", "de", modes))
    failures = check(failures, msg and "eng-deu" in msg and "eng-spa" in msg,
                     "apertium en->de without the mode: %r" % msg)
    for args, want in (((None, None, None), ("en", "es")), (("en-de", None, None), ("en", "de")),
                       (("de-en", None, None), ("en", "de")), (("en-de", "de", None), ("de", "en")),
                       ((None, "de", None), ("de", "en")), ((None, None, "es"), ("en", "es"))):
        got = glosa_data.direction_of(*args)
        failures = check(failures, got == want, "direction_of%s = %s, expected %s"
                         % (args, got, want))
    msg = missing_message(lambda: glosa_data.direction_of("en-de", "es", None))
    failures = check(failures, msg and "en-de" in msg, "direction es->? of en-de: %r" % msg)
    return failures


def check_mono(data):
    """The monolingual corpus leaves out the sentences of the pair's own parallel and test data."""
    keys, files = glosa_mono.exclusion_keys(data, "en-de")
    failures = check(0, files and all("en-de" in f for f in files)
                     and glosa_mono.key("Das Haus ist groß test 0") in keys
                     and glosa_mono.key("El Parlamento se reúne hoy 0.") not in keys,
                     "glosa_mono exclusion for en-de: %s" % files)
    return failures


def check_train_general(root, data):
    """The shell script's commands for de-en, printed (--dry-run), not run."""
    env = dict(os.environ, GLOSA_RUNS=os.path.join(root, "runs"), GLOSA_DATA=data)
    res = subprocess.run([os.path.join(HERE, "train_general.sh"), "--dry-run", "de-en"],
                         capture_output=True, text=True, env=env, timeout=60)
    corpus = os.path.join(root, "runs", "broad-en-de")
    failures = check(0, res.returncode == 0 and "build --pair en-de --out %s" % corpus in res.stdout
                     and "--run general-de-en --corpus %s --src de --tgt en" % corpus
                     in res.stdout and "en-es" not in res.stdout,
                     "train_general.sh --dry-run de-en: rc %d\n%s%s"
                     % (res.returncode, res.stdout, res.stderr))
    res = subprocess.run([os.path.join(HERE, "train_general.sh"), "--dry-run", "english"],
                         capture_output=True, text=True, env=env, timeout=60)
    failures = check(failures, res.returncode == 2 and "'english'" in res.stderr,
                     "train_general.sh english: rc %d %s" % (res.returncode, res.stderr))
    return failures


def main():
    with tempfile.TemporaryDirectory(prefix="glosa-test-pairs-") as root:
        data = make_data(root)
        failures = 0
        for name, run in (("build", lambda: check_build(root, data)),
                          ("sampling", check_sampling),
                          ("evaluate", lambda: check_evaluate(data)),
                          ("glosa_mono", lambda: check_mono(data)),
                          ("train_general.sh", lambda: check_train_general(root, data))):
            try:
                failures += run()
            except (Exception, SystemExit) as e:  # an old or broken tool: report it, go on
                failures += 1
                print("FAIL %s: %s: %s" % (name, type(e).__name__, e))
    print("%s: %d failures" % (os.path.basename(__file__), failures))
    return 1 if failures else 0


class LanguagePairParameter(unittest.TestCase):
    def test_tools_follow_the_pair(self):
        self.assertEqual(main(), 0, "the FAIL lines above say which check failed")


if __name__ == "__main__":
    unittest.main()
