#!/usr/bin/python3
"""Runs glosa.eval.truecase (tools/glosa/eval/truecase.py, where its usage is written); from tools/,
`python3 -m glosa.eval.truecase` does the same."""
import sys

from glosa.eval import truecase

if __name__ == "__main__":
    sys.exit(truecase.main())
