#!/usr/bin/python3
"""Runs glosa.eval.alignment_heads (tools/glosa/eval/alignment_heads.py, where its usage is written); from tools/,
`python3 -m glosa.eval.alignment_heads` does the same."""
import sys

from glosa.eval import alignment_heads

if __name__ == "__main__":
    sys.exit(alignment_heads.main())
