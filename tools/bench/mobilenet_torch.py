#!/usr/bin/python3
"""Runs glosa.train.mobilenet's benchmark (tools/glosa/train/mobilenet.py, where its usage is
written): the PyTorch side of bench_mobilenet."""
import sys

from glosa.train import mobilenet

if __name__ == "__main__":
    sys.exit(mobilenet.main())
