#!/usr/bin/python3
"""Runs glosa.train.transformer (tools/glosa/train/transformer.py, where its usage is written); from tools/,
`python3 -m glosa.train.transformer` does the same."""
import sys

from glosa.train import transformer

if __name__ == "__main__":
    sys.exit(transformer.main())
