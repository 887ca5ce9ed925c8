#!/usr/bin/python3
"""Runs glosa.train.captioner (tools/glosa/train/captioner.py, where its usage is written); from tools/,
`python3 -m glosa.train.captioner` does the same."""
import sys

from glosa.train import captioner

if __name__ == "__main__":
    sys.exit(captioner.main())
