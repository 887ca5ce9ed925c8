#!/usr/bin/python3
"""Runs glosa.eval.dev_scores (tools/glosa/eval/dev_scores.py, where its usage is written); from tools/,
`python3 -m glosa.eval.dev_scores` does the same."""
import sys

from glosa.eval import dev_scores

if __name__ == "__main__":
    sys.exit(dev_scores.main())
