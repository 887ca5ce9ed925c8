#!/usr/bin/python3
"""Checks tools/glosa_mono.py's sentence splitter, cleaning filters, held-out key and
WikiSplit detokenizer on a few fixed cases (no corpus needed).

  ctest -R py_test_mono     (or, from tools/: /usr/bin/python3 -m unittest tests.test_mono)
"""
import unittest


from glosa.corpus import mono as g  # noqa: E402

SPLITS = [
    ("es", "El Sr. Pérez llegó a las 5. —¿Qué haces? —dijo ella. Luego se fue con J. García.",
     ["El Sr. Pérez llegó a las 5.", "—¿Qué haces? —dijo ella.", "Luego se fue con J. García."]),
    ("en", 'Mr. Smith went home. "Why?" she asked. He said no. It was late.',
     ["Mr. Smith went home.", '"Why?" she asked.', "He said no.", "It was late."]),
    ("es", "«No lo sé.» Y se marchó.", ["«No lo sé.»", "Y se marchó."]),
]

CLEAN = [  # (lang, sentence, kept?)
    ("es", "El faro alargaba con intermitencia sus antenas rectilíneas.", True),
    ("es", "The lighthouse stretched out its long beams over the sea.", False),  # wrong language
    ("en", "The lighthouse stretched out its long beams over the sea.", True),
    ("en", "Three words only.", False),                                      # under 4 words
    ("en", "See http://example.com for the rest of the story.", False),      # markup
    ("en", "CHAPTER ONE IN WHICH THE HERO IS BORN.", False),                  # heading in capitals
    ("en", "1. Take the first of the three roads", False),                    # list item
    ("en", "And then the long road home through the hills", False),           # no end punctuation
    ("en", "12 34 56 78 90 12 34 56 78 90 the end.", False),                  # mostly non-letters
]


def main():
    failures = 0
    for lang, text, expected in SPLITS:
        got = g.split_sentences(text, lang)
        if got != expected:
            failures += 1
            print("FAIL split %r: %r" % (text, got))
    for lang, text, kept in CLEAN:
        if (g.clean_sentence(text, lang) is not None) != kept:
            failures += 1
            print("FAIL clean (%s) %r: expected %s" % (lang, text, "kept" if kept else "dropped"))
    if g.key("Hola, ¿qué tal?") != "holaquétal":
        failures += 1
        print("FAIL key: %r" % g.key("Hola, ¿qué tal?"))
    got = g.detok_ptb("`` Aerodynamic '' is a song by Daft Punk , and it 's `` good '' ( really ) .")
    if got != '"Aerodynamic" is a song by Daft Punk, and it\'s "good" (really).':
        failures += 1
        print("FAIL detok: %r" % got)
    print("%d failure(s)" % failures)
    return 1 if failures else 0


class MonolingualCleaning(unittest.TestCase):
    def test_splitter_filters_and_keys(self):
        self.assertEqual(main(), 0, "the FAIL lines above say which check failed")


if __name__ == "__main__":
    unittest.main()
