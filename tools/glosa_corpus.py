#!/usr/bin/python3
"""Runs glosa.corpus.broad (tools/glosa/corpus/broad.py, where its usage is written); from tools/,
`python3 -m glosa.corpus.broad` does the same."""
import sys

from glosa.corpus import broad

if __name__ == "__main__":
    sys.exit(broad.main())
