#!/usr/bin/python3
"""Runs glosa.checks.function_lengths (tools/glosa/checks/function_lengths.py, where its usage is
written); from tools/, `python3 -m glosa.checks.function_lengths` does the same."""
import sys

from glosa.checks import function_lengths

if __name__ == "__main__":
    sys.exit(function_lengths.main())
