#!/usr/bin/python3
"""Self-test of glosa_metrics (BLEU, chrF) against hand-computed cases and values published by
sacrebleu / its metric cards. Run: ctest -R py_test_metrics (or, from tools/:
/usr/bin/python3 -m unittest tests.test_metrics)"""

import math
import unittest

from glosa.eval import metrics as m  # noqa: E402
from tests import require  # noqa: E402


class Tokenizer13a(unittest.TestCase):
    def test_cases(self):
        cases = [
            ("Hello, world!", "Hello , world !"),
            # commas/periods between digits stay, a dash after a digit splits
            ("It costs $3.50 (or 4,000-5).", "It costs $ 3.50 ( or 4,000 - 5 ) ."),
            ("&quot;a&quot; &amp; b", '" a " & b'),
            ("¿Qué tal?", "¿Qué tal ?"),  # non-ASCII punctuation is not split by 13a
            ("Tom's", "Tom's"),  # the apostrophe (0x27) is outside 13a's ranges
            ("  many   spaces ", "many spaces"),
        ]
        for raw, tok in cases:
            self.assertEqual(m.tokenize_13a(raw), tok, raw)


class Bleu(unittest.TestCase):
    def test_identical(self):
        self.assertAlmostEqual(m.corpus_bleu(["this is a test"], [["this is a test"]]).score,
                               100.0)

    def test_hand_computed(self):
        # hyp: the cat sat on the mat / ref: the cat is on the mat (6 tokens each, BP 1)
        # 1-grams 5/6, 2-grams 3/5 (the cat, on the, the mat), 3-grams 1/4 (on the mat),
        # 4-grams 0/3 -> exp smoothing: 100 / (2 * 3)
        b = m.corpus_bleu(["the cat sat on the mat"], [["the cat is on the mat"]])
        self.assertEqual(b.counts, [5, 3, 1, 0])
        self.assertEqual(b.totals, [6, 5, 4, 3])
        expected = 100 * math.exp((math.log(5 / 6) + math.log(3 / 5) + math.log(1 / 4)
                                   + math.log(1 / 6)) / 4)
        self.assertAlmostEqual(b.score, expected, places=9)

    def test_clipping_and_multi_reference(self):
        # "the the the": clipped by the max count over refs (2 in the second reference)
        b = m.corpus_bleu(["the the the"], [["the cat", "the the dog"]])
        self.assertEqual(b.counts[0], 2)
        self.assertEqual(b.totals[0], 3)

    def test_closest_reference_length(self):
        # hyp 4 tokens, refs 3 and 5 tokens: tie -> the shorter (3) -> no brevity penalty
        b = m.corpus_bleu(["a b c d"], [["a b c", "a b c d e"]])
        self.assertEqual(b.ref_len, 3)
        self.assertEqual(b.bp, 1.0)
        # refs 5 and 7: closest is 5 -> BP = exp(1 - 5/4)
        b = m.corpus_bleu(["a b c d"], [["a b c d e", "a b c d e f g"]])
        self.assertEqual(b.ref_len, 5)
        self.assertAlmostEqual(b.bp, math.exp(1 - 5 / 4))

    def test_sacrebleu_readme_example(self):
        # sacrebleu's test_bleu.py: corpus_bleu(_hyps, _refs) == 48.530827 (13a, exp smoothing)
        refs_streams = [
            ["The dog bit the man.", "It was not unexpected.", "The man bit him first."],
            ["The dog had bit the man.", "No one was surprised.", "The man had bitten the dog."],
        ]
        hyps = ["The dog bit the man.", "It wasn't surprising.", "The man had just bitten him."]
        refs = [list(r) for r in zip(*refs_streams)]
        self.assertAlmostEqual(m.corpus_bleu(hyps, refs).score, 48.530827, places=5)
        self.assertEqual(m.corpus_bleu(["", "", ""], refs).score, 0.0)

    def test_short_segment_without_4grams_scores_zero(self):
        # no effective-order smoothing at corpus level: missing 3/4-gram totals give 0
        self.assertEqual(m.corpus_bleu(["the cat"], [["the cat sat"]]).score, 0.0)

    def test_mismatched_lengths_raise(self):
        with self.assertRaises(ValueError):
            m.corpus_bleu(["a"], [])


class Chrf(unittest.TestCase):
    def test_metric_card_examples(self):
        # values from the huggingface chrf metric card, computed with sacrebleu CHRF()
        self.assertAlmostEqual(m.corpus_chrf(
            ["The relationship between Obama and Netanyahu is not exactly friendly."],
            [["The ties between Obama and Netanyahu are not particularly friendly."]]),
            61.576379378113785, places=9)
        self.assertAlmostEqual(m.corpus_chrf(
            ["The relationship between cats and dogs is not exactly friendly.",
             "a good bookshop is just a genteel black hole that knows how to read."],
            [["The relationship between dogs and cats is not exactly friendly."],
             ["A good bookshop is just a genteel Black Hole that knows how to read."]]),
            84.64214891738334, places=9)

    def test_hand_computed(self):
        # hyp "ab" vs ref "abc" (whitespace ignored): order 1: P 2/2, R 2/3; order 2: P 1/1,
        # R 1/2; orders 3..6 do not exist in the hypothesis -> averaged over 2 orders.
        P = (1 + 1) / 2
        R = (2 / 3 + 1 / 2) / 2
        expected = 100 * 5 * P * R / (4 * P + R)
        self.assertAlmostEqual(m.corpus_chrf(["a b"], [["abc"]]), expected, places=9)

    def test_best_reference_is_used(self):
        self.assertAlmostEqual(m.corpus_chrf(["hola"], [["adiós", "hola"]]), 100.0)

    def test_empty_hypothesis(self):
        self.assertEqual(m.corpus_chrf([""], [["hola"]]), 0.0)


class InventedWords(unittest.TestCase):
    """evaluate.invented_words (needs /usr/bin/python3: evaluate imports torch)."""

    def test_counts_and_copies(self):
        require("torch", "numpy")
        from glosa.eval import evaluate
        known = {"el", "valle", "es", "verde", "lo", "dijo"}
        groups = [("The valley is green.", ["El valle es verde."]),
                  ("Lopez said so.", ["López lo dijo."])]
        hyps = ["El valley es verdoso.", "Lopez lo dijo."]
        # "valley" and "lopez" are copied from the source; "verdoso" is made up.
        self.assertEqual(evaluate.invented_words(hyps, groups, known),
                         (3, 2, 7, ["valley", "verdoso", "lopez"]))
        # A word of the reference is never invented, known or not.
        self.assertEqual(evaluate.invented_words(["El valle"], [("x", ["el valle"])], set())[:3],
                         (0, 0, 2))


if __name__ == "__main__":
    unittest.main()
