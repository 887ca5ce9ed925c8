#!/usr/bin/python3
"""Runs glosa.corpus.backtranslate (tools/glosa/corpus/backtranslate.py, where its usage is written); from tools/,
`python3 -m glosa.corpus.backtranslate` does the same."""
import sys

from glosa.corpus import backtranslate

if __name__ == "__main__":
    sys.exit(backtranslate.main())
