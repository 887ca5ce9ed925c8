#!/usr/bin/python3
"""Runs glosa.eval.evaluate (tools/glosa/eval/evaluate.py, where its usage is written); from tools/,
`python3 -m glosa.eval.evaluate` does the same."""
import sys

from glosa.eval import evaluate

if __name__ == "__main__":
    sys.exit(evaluate.main())
