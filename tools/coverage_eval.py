#!/usr/bin/python3
"""Runs glosa.eval.coverage (tools/glosa/eval/coverage.py, where its usage is written); from tools/,
`python3 -m glosa.eval.coverage` does the same."""
import sys

from glosa.eval import coverage

if __name__ == "__main__":
    sys.exit(coverage.main())
