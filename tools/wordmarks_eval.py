#!/usr/bin/python3
"""Runs glosa.eval.wordmarks (tools/glosa/eval/wordmarks.py, where its usage is written); from
tools/, `python3 -m glosa.eval.wordmarks` does the same."""
import sys

from glosa.eval import wordmarks

if __name__ == "__main__":
    sys.exit(wordmarks.main())
