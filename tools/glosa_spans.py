#!/usr/bin/python3
"""Runs glosa.data.spans (tools/glosa/data/spans.py, where its usage is written); from tools/,
`python3 -m glosa.data.spans` does the same."""
import sys

from glosa.data import spans

if __name__ == "__main__":
    sys.exit(spans.main(sys.argv))
