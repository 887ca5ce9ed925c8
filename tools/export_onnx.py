#!/usr/bin/python3
"""Runs glosa.export.onnx (tools/glosa/export/onnx.py, where its usage is written); from tools/,
`python3 -m glosa.export.onnx` does the same."""
import sys

from glosa.export import onnx

if __name__ == "__main__":
    sys.exit(onnx.main())
