#!/usr/bin/python3
"""Runs glosa.export.package (tools/glosa/export/package.py, where its usage is written); from tools/,
`python3 -m glosa.export.package` does the same."""
import sys

from glosa.export import package

if __name__ == "__main__":
    sys.exit(package.main())
