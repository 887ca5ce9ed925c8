#!/usr/bin/python3
"""Runs glosa.corpus.truecase (tools/glosa/corpus/truecase.py, where its usage is written); from tools/,
`python3 -m glosa.corpus.truecase` does the same."""
import sys

from glosa.corpus import truecase

if __name__ == "__main__":
    sys.exit(truecase.main())
