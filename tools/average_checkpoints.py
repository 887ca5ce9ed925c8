#!/usr/bin/python3
"""Runs glosa.train.average (tools/glosa/train/average.py, where its usage is written); from tools/,
`python3 -m glosa.train.average` does the same."""
import sys

from glosa.train import average

if __name__ == "__main__":
    sys.exit(average.main())
