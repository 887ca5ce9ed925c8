"""Tests of the glosa package and the tools' scripts, run by ctest (tests/tools/CMakeLists.txt),
one file a test, each as `python3 -m unittest discover -s tests -p test_NAME.py` from tools/."""
import importlib.util
import sys
import unittest


def require(*modules):
    """Skips the test (or, called at import, the test file) when the interpreter lacks one of
    these modules: torch, numpy and sentencepiece come with Debian's /usr/bin/python3
    (python3-torch, ...), a pyenv or virtualenv python3 often has none of them."""
    missing = [m for m in modules if importlib.util.find_spec(m) is None]
    if missing:
        raise unittest.SkipTest("%s lacks %s" % (sys.executable, ", ".join(missing)))
