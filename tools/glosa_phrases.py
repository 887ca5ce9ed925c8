#!/usr/bin/python3
"""Runs glosa.corpus.phrases (tools/glosa/corpus/phrases.py, where its usage is written); from tools/,
`python3 -m glosa.corpus.phrases` does the same."""
import sys

from glosa.corpus import phrases

if __name__ == "__main__":
    sys.exit(phrases.main())
