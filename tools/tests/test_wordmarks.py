#!/usr/bin/python3
"""Checks glosa.eval.wordmarks' counts: which of glosa-cli's unknown-word marks the reference-based
invented-word measure also counts, which made-up words the marks catch, and what they leave
unmarked. Run: ctest -R py_test_wordmarks (or, from tools/:
/usr/bin/python3 -m unittest tests.test_wordmarks)"""
import unittest

from tests import require  # noqa: E402

require("torch")  # glosa.eval.evaluate imports it

from glosa.eval import wordmarks  # noqa: E402

KNOWN = {"voy", "al", "gimnasio", "hola", "vive", "en", "tom", "los", "gatos", "duermen"}


def row(translation, *marked):
    return {"translation": translation, "unknown_words": [{"word": w} for w in marked]}


class Measure(unittest.TestCase):
    def test_counts(self):
        rows = [row("Voy al gimna.", "gimna"),            # made up, marked
                row("¡Holalo!", "Holalo"),                # made up, marked
                row("Tom vive en Wolfsburg."),           # copied from the source, unmarked
                row("Los gatos durmen."),                # made up, left unmarked
                row("Los gatos duermen."),               # right
                row("Hola, Kwabena.", "Kwabena")]        # marked, but the reference has it
        groups = [("I go to the gym.", ["Voy al gimnasio."]),
                  ("Hello!", ["¡Hola!"]),
                  ("Tom lives in Wolfsburg.", ["Tom vive en Wolfsburgo."]),
                  ("The cats sleep.", ["Los gatos duermen."]),
                  ("The cats sleep.", ["Los gatos duermen."]),
                  ("Hi, Kwabena.", ["Hola, Kwabena."])]
        out, marks = wordmarks.measure(rows, groups, KNOWN)
        self.assertEqual(out["translations"], 6)
        self.assertEqual(out["words"], 16)
        self.assertEqual(out["marks"], 3)
        self.assertEqual(out["translations_with_a_mark"], 3)
        self.assertEqual(out["marks_the_measure_counts"], 2)
        self.assertEqual(out["made_up_words"], 3)             # gimna, holalo, durmen
        self.assertEqual(out["made_up_words_marked"], 2)
        self.assertEqual(out["unmarked_copied"], 1)           # wolfsburg
        self.assertEqual(out["unmarked_made_up"], 1)          # durmen
        self.assertEqual(sorted(out["unmarked_examples"]), ["durmen", "wolfsburg"])
        self.assertEqual(marks, [("gimna", 0), ("Holalo", 1), ("Kwabena", 5)])

    def test_no_dictionary(self):
        with self.assertRaises(SystemExit):
            wordmarks.measure([{"translation": "x", "unknown_words": None}], [("x", ["x"])], KNOWN)


if __name__ == "__main__":
    unittest.main()
