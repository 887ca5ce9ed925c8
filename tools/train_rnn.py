#!/usr/bin/python3
"""Runs glosa.train.rnn (tools/glosa/train/rnn.py, where its usage is written); from tools/,
`python3 -m glosa.train.rnn` does the same."""
import sys

from glosa.train import rnn

if __name__ == "__main__":
    sys.exit(rnn.main())
