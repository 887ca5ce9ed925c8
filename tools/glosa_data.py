#!/usr/bin/python3
"""Runs glosa.data.pairs (tools/glosa/data/pairs.py, where its usage is written); from tools/,
`python3 -m glosa.data.pairs` does the same."""
import sys

from glosa.data import pairs

if __name__ == "__main__":
    sys.exit(pairs.main())
