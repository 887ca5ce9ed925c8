#!/usr/bin/python3
"""Checks the everyday-phrase data (glosa_phrases.py) and its place in glosa_corpus: which rows
become the "everyday" origin, the CLDR names, the casing augmentation, the mixture's weights, and
that no held-out (dev or test) pair enters training through the new origins.

  ctest -R py_test_phrases     (or, from tools/: /usr/bin/python3 -m unittest tests.test_phrases)
"""
import collections
import os
import random
import tempfile
import unittest

from tests import require  # noqa: E402

require("numpy", "sentencepiece")

from glosa.corpus import broad as glosa_corpus  # noqa: E402
from glosa.corpus import phrases as glosa_phrases  # noqa: E402


def check(failures, ok, message):
    if not ok:
        print("FAIL " + message)
    return failures + (not ok)


def check_everyday_origin():
    f = 0
    eo = glosa_phrases.everyday_origin
    f = check(f, eo("tatoeba", "Very good.", "Muy bien.") == "everyday", "short Tatoeba sentence")
    f = check(f, eo("tatoeba", "I think that he will come back tomorrow.",
                    "Creo que volverá mañana.") == "tatoeba", "a long Tatoeba sentence stays")
    f = check(f, eo("lexicon", "fire engine", "camión de bomberos") == "everyday",
              "multi-word lexicon entry")
    f = check(f, eo("lexicon", "teacher", "profesor") == "lexicon", "one-word entry stays")
    f = check(f, eo("gettext-ui", "Save as", "Guardar como") == "everyday", "short UI string")
    f = check(f, eo("gettext-ui", "Could not open the file for writing",
                    "No se pudo abrir el archivo para escribir") == "gettext-ui",
              "a UI message stays")
    f = check(f, eo("gettext-ui", "use -mcpu=arm710t", "emplea -mcpu=arm710t") == "gettext-ui",
              "a UI string with options is not a glossary entry")
    f = check(f, eo("gettext-ui", "%s: done", "%s: hecho") == "gettext-ui",
              "a UI string with a format code is not a glossary entry")
    f = check(f, eo("gettext-ui", "Open file…", "Abrir archivo…") == "everyday", "UI ellipsis")
    f = check(f, eo("news", "Good.", "Bien.") == "news", "other origins untouched")
    return f


def check_recase():
    f = 0
    rng = random.Random(3)
    seen = collections.defaultdict(set)
    for _ in range(200):
        for s, t, origin in (("Very good.", "Muy bien.", "everyday"),
                             ("Tom left.", "Tom se fue.", "everyday"),
                             ("I'm home.", "Estoy en casa.", "everyday"),
                             ("¿Qué hora es?", "What time is it?", "everyday"),
                             ("Spain", "España", "cldr"),
                             ("good morning", "buenos días", "everyday")):
            seen[s].add(glosa_phrases.recase_pair(s, t, origin, rng))
    f = check(f, seen["Very good."] == {("Very good.", "Muy bien."), ("very good.", "muy bien.")},
              "capitalised phrase also seen lower-cased: %s" % seen["Very good."])
    f = check(f, seen["Tom left."] == {("Tom left.", "Tom se fue.")}, "a name is never lower-cased")
    f = check(f, seen["I'm home."] == {("I'm home.", "Estoy en casa.")}, "'I' stays capitalised")
    f = check(f, ("¿qué hora es?", "what time is it?") in seen["¿Qué hora es?"],
              "the first letter after '¿' is re-cased: %s" % seen["¿Qué hora es?"])
    f = check(f, seen["Spain"] == {("Spain", "España")}, "CLDR names are never lower-cased")
    f = check(f, seen["good morning"] == {("good morning", "buenos días"),
                                          ("Good morning", "Buenos días")},
              "lower-case entry also seen capitalised: %s" % seen["good morning"])
    return f


def check_cldr():
    rows = glosa_phrases.cldr_pairs("en-es")
    if rows is None:
        print("SKIP CLDR names: python3-icu is not installed (apt install python3-icu)")
        return 0
    f = 0
    for want in (("Monday", "lunes"), ("January", "enero"), ("Germany", "Alemania"),
                 ("German", "alemán"), ("kilometers", "kilómetros"),
                 ("5 kilometers", "5 kilómetros")):
        f = check(f, want in rows, "CLDR pairs lack %s" % (want,))
    f = check(f, len(rows) == len(set(rows)) and len(rows) > 500, "CLDR pairs: %d" % len(rows))
    return f


def check_mixture():
    """The new origins are sampled at their weights and never joined or given placeholders."""
    rows = ([("everyday", "phrase %d" % i, "frase %d" % i) for i in range(100)]
            + [("cldr", "Name %d" % i, "Nombre %d" % i) for i in range(100)])
    pairs = glosa_corpus.epoch_pairs(rows, "en-es", 0, 1, p_concat=1.0, p_protect=1.0)
    count = collections.Counter("everyday" if "hrase" in s else "cldr" for s, _ in pairs)
    w = glosa_corpus.MIXTURE["from-en"]
    f = check(0, count == {"everyday": 100 * w["everyday"], "cldr": 100 * w["cldr"]},
              "mixture of the new origins: %s" % dict(count))
    f = check(f, all(s.count(" ") == 1 for s, _ in pairs), "new-origin entries joined")
    f = check(f, glosa_corpus.parse_mixture("everyday=5,cldr=0") == {"everyday": 5.0, "cldr": 0.0},
              "parse_mixture knows the new origins")
    return f


def check_held_out_build():
    """A built corpus: short Tatoeba sentences become 'everyday'; a pair of Tatoeba's test split
    (here "Monday", which CLDR also gives) and a dev sentence are never in train.tsv."""
    with tempfile.TemporaryDirectory() as data:
        tato = os.path.join(data, "tatoeba-en-es")
        os.makedirs(tato)
        splits = {"train": ["Very good.\tMuy bien.", "Monday\tlunes",
                            "Where is the station in this town?\t¿Dónde está la estación de "
                            "esta ciudad?", "I am hungry.\tTengo hambre.",
                            "It is raining in the north today.\tHoy llueve en el norte."],
                  "dev": ["I am hungry.\tTengo hambre."],
                  "test": ["Monday\tlunes",
                           "It is raining in the north today.\tHoy llueve en el norte."]}
        for split, lines in splits.items():
            with open(os.path.join(tato, split + ".tsv"), "w", encoding="utf-8") as fh:
                fh.write("\n".join(lines) + "\n")
        out = os.path.join(data, "out")
        glosa_corpus.build(data, out, pair="en-es")
        rows = glosa_corpus.read_train(out)
    f = check(0, ("everyday", "Very good.", "Muy bien.") in rows, "short Tatoeba row relabelled")
    f = check(f, ("tatoeba", "Where is the station in this town?",
                  "¿Dónde está la estación de esta ciudad?") in rows, "long Tatoeba row kept")
    held = ("monday", "i am hungry.", "it is raining in the north today.")
    f = check(f, not any(en.lower() in held for _, en, _ in rows),
              "a held-out pair entered training: %s" % [r for r in rows if r[1] == "Monday"])
    if glosa_phrases.cldr_pairs("en-es") is not None:
        f = check(f, ("cldr", "Tuesday", "martes") in rows, "CLDR names in the corpus")
    return f


def check_export_bar():
    """A lease exports only when the dev mean gains 1 BLEU and no set loses more than 0.5."""
    from glosa.eval import dev_scores

    def scores(**bleu):
        return {"dev_size": 0, "mean_bleu": sum(bleu.values()) / len(bleu),
                "sets": {k: {"bleu": v} for k, v in bleu.items()}}
    before = scores(news=25.0, docs=50.0, tatoeba=47.0)
    f = check(0, dev_scores.export_bar(before, scores(news=27.0, docs=51.5, tatoeba=46.6))[0],
              "a 1.0 gain with a set down 0.4 meets the bar")
    f = check(f, not dev_scores.export_bar(before, scores(news=26.0, docs=51.5, tatoeba=46.0))[0],
              "a set down 1.0 must not be exported")
    f = check(f, not dev_scores.export_bar(before, scores(news=25.5, docs=50.5, tatoeba=47.5))[0],
              "a 0.5 gain must not be exported")
    f = check(f, not dev_scores.export_bar(before, scores(news=30.0, docs=55.0))[0],
              "different dev sets must not be compared")
    return f


def check_short_parts():
    """The short set's measure per part: accuracy (a reference, case and punctuation aside) and
    outputs holding an invented word."""
    from glosa.eval import evaluate
    groups = [("Hello!", ["¡Hola!"]), ("gym", ["gimnasio"]), ("Save as", ["Guardar como"])]
    got = evaluate.short_by_part(["¡hola!", "gimna", "Guardar como"], groups,
                                 {"hola", "gimnasio", "guardar", "como"},
                                 {"Hello!": "tatoeba", "gym": "lexicon"})
    want = {"tatoeba": (100.0, 0.0), "lexicon": (0.0, 100.0), "ui": (100.0, 0.0)}
    return check(0, {k: (v["accuracy_percent"], v["outputs_with_invented_word_percent"])
                     for k, v in got.items()} == want, "short parts: %s" % got)


class EverydayPhrases(unittest.TestCase):
    def test_origins_names_casing_and_mixture(self):
        failures = (check_everyday_origin() + check_recase() + check_cldr() + check_mixture()
                    + check_held_out_build())
        self.assertEqual(failures, 0, "the FAIL lines above say which check failed")

    def test_export_bar_and_short_parts(self):
        require("torch", "numpy")  # dev_scores and evaluate load models
        self.assertEqual(check_export_bar() + check_short_parts(), 0,
                         "the FAIL lines above say which check failed")


if __name__ == "__main__":
    unittest.main()
