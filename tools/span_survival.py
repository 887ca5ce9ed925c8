#!/usr/bin/python3
"""Runs glosa.eval.span_survival (tools/glosa/eval/span_survival.py, where its usage is written); from tools/,
`python3 -m glosa.eval.span_survival` does the same."""
import sys

from glosa.eval import span_survival

if __name__ == "__main__":
    sys.exit(span_survival.main())
