#!/usr/bin/python3
"""Runs glosa.corpus.mono (tools/glosa/corpus/mono.py, where its usage is written); from tools/,
`python3 -m glosa.corpus.mono` does the same."""
import sys

from glosa.corpus import mono

if __name__ == "__main__":
    sys.exit(mono.main())
