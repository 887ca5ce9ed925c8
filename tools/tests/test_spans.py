#!/usr/bin/python3
"""Checks tools/glosa_spans.py against tests/data/protected-spans/cases.tsv (the table the C++
rules are tested on too, tests/engine/tst_protectedspans.cpp) and the placeholder round trip.

  ctest -R py_test_spans     (or, from tools/: /usr/bin/python3 -m unittest tests.test_spans)
"""
import os
import unittest


from glosa.data import spans as glosa_spans  # noqa: E402

from glosa import REPO_ROOT as ROOT


def main():
    failures = 0
    path = os.path.join(ROOT, "tests", "data", "protected-spans", "cases.tsv")
    with open(path, encoding="utf-8") as f:
        rows = [line.rstrip("\n").split("\t") for line in f]
    for cols in rows:
        text, expected = cols[0], cols[1:]
        found = ["%s=%s" % (k, text[s:e]) for s, e, k in glosa_spans.find_spans(text)]
        if found != expected:
            failures += 1
            print("FAIL %r: found %s, expected %s" % (text, found, expected))
        protected, spans = glosa_spans.protect(text)
        if glosa_spans.restore(protected, spans) != text:
            failures += 1
            print("FAIL round trip %r" % text)
    s, t, n = glosa_spans.protect_pair("It costs 10 € at 10:30.", "Cuesta 10 € a las 10:30.")
    if n != 2 or s != "It costs \ue000 at \ue001." or t != "Cuesta \ue000 a las \ue001.":
        failures += 1
        print("FAIL protect_pair: %r %r %d" % (s, t, n))
    print("%d passed, %d failed" % (len(rows) + 1 - failures, failures))
    return 1 if failures else 0


class ProtectedSpans(unittest.TestCase):
    def test_cases_and_round_trip(self):
        self.assertEqual(main(), 0, "the FAIL lines above say which check failed")


if __name__ == "__main__":
    unittest.main()
