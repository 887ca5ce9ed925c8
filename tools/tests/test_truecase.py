#!/usr/bin/python3
"""Checks tools/truecase_table.py: which words are counted (not sentence-initial ones, not outside
the prose origins), and which go into the table.

  ctest -R py_test_truecase     (or, from tools/: /usr/bin/python3 -m unittest tests.test_truecase)
"""
import unittest


from glosa.corpus import truecase as truecase_table  # noqa: E402

ROWS = [
    ("tatoeba", "Hello, my teacher is here."),
    # a quote and a full stop start sentences
    ("tatoeba", "Tom said, \"Hello.\" Then he left."),
    ("tatoeba", "I met John in Madrid. The teacher was brown."),
    ("tatoeba", "Say hello to the teacher; don't wait."),
    ("news", "The brown dog met Brown, the mayor, and the teacher."),
    ("gettext-ui", "Open File and Save Teacher"),          # not prose: not counted inside sentences
    ("tatoeba", "Teacher"),                                 # starts a sentence capitalised
]


def main():
    failures = []
    forms, initial = truecase_table.count_forms(ROWS)

    def check(what, got, expected):
        if got != expected:
            failures.append("%s: %r, expected %r" % (what, got, expected))

    check("hello's forms", dict(forms["hello"]), {"hello": 1})
    check("teacher's forms", dict(forms["teacher"]), {"teacher": 4})
    check("brown's forms", dict(forms["brown"]), {"brown": 2, "Brown": 1})
    check("john's forms", dict(forms["john"]), {"John": 1})
    check("then (after a full stop)", "then" in forms, False)
    check("file (UI string)", "file" in forms, False)
    check("don (before an apostrophe)", dict(forms["don"]), {"don": 1})
    check("t (after an apostrophe)", dict(forms["t"]), {"t": 1})
    check("teacher starts", initial["teacher"], 1)
    check("hello starts", initial["hello"], 2)
    check("the starts", initial["the"], 2)
    table = truecase_table.build_table(forms, initial, 1, 0)
    for word, inside in (("hello", True), ("teacher", True), ("brown", True), ("john", False),
                         ("madrid", False), ("i", False)):
        check("%s in the table" % word, word in table, inside)
    check("--min-count 2", "hello" in truecase_table.build_table(forms, initial, 2, 0), False)
    check("--max-initial 2", "hello" in truecase_table.build_table(forms, initial, 1, 2), False)
    check("--max-initial 3", "hello" in truecase_table.build_table(forms, initial, 1, 3), True)
    for failure in failures:
        print("FAIL " + failure)
    print("%d failed" % len(failures))
    return 1 if failures else 0


class TruecaseTable(unittest.TestCase):
    def test_counts_and_table(self):
        self.assertEqual(main(), 0, "the FAIL lines above say which check failed")


if __name__ == "__main__":
    unittest.main()
