#!/usr/bin/python3
"""Runs glosa.corpus.spm_surgery (tools/glosa/corpus/spm_surgery.py, where its usage is written); from tools/,
`python3 -m glosa.corpus.spm_surgery` does the same."""
import sys

from glosa.corpus import spm_surgery

if __name__ == "__main__":
    sys.exit(spm_surgery.main())
