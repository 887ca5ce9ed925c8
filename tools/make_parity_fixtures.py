#!/usr/bin/python3
"""Runs glosa.export.parity (tools/glosa/export/parity.py, where its usage is written); from tools/,
`python3 -m glosa.export.parity` does the same."""
import sys

from glosa.export import parity

if __name__ == "__main__":
    sys.exit(parity.main())
