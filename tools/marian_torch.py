#!/usr/bin/python3
"""Runs glosa.export.marian (tools/glosa/export/marian.py, where its usage is written); from tools/,
`python3 -m glosa.export.marian` does the same."""
import sys

from glosa.export import marian

if __name__ == "__main__":
    sys.exit(marian.main())
