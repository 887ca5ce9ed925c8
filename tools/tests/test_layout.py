#!/usr/bin/python3
"""The tools' layout: the scripts in tools/ are thin entry points into the glosa package, each
naming a module of it that has a main(); nothing under tools/ puts a folder on sys.path to find
its neighbours (the package is imported as one).

  ctest -R py_test_layout     (or, from tools/: /usr/bin/python3 -m unittest tests.test_layout)
"""
import ast
import os
import unittest

from glosa import TOOLS_DIR

SYS_PATH_EDIT = "sys.path." + "insert"  # spelt so that this file does not match itself


def python_files():
    # os.walk does not follow tools/bench/glosa, the link to the package.
    for folder, _, files in os.walk(TOOLS_DIR):
        for name in files:
            if name.endswith(".py"):
                yield os.path.join(folder, name)


class Layout(unittest.TestCase):
    def test_no_sys_path_edits(self):
        found = [os.path.relpath(path, TOOLS_DIR) for path in python_files()
                 if SYS_PATH_EDIT in open(path, encoding="utf-8").read()]
        self.assertEqual(found, [], "these put a folder on sys.path: import glosa.<module>")

    def test_entry_points_run_a_module_main(self):
        entries = sorted(f for f in os.listdir(TOOLS_DIR) if f.endswith(".py"))
        self.assertIn("train_transformer.py", entries)
        for entry in entries:
            tree = ast.parse(open(os.path.join(TOOLS_DIR, entry), encoding="utf-8").read())
            imports = [node for node in tree.body if isinstance(node, ast.ImportFrom)
                       and (node.module or "").startswith("glosa.")]
            self.assertEqual(len(imports), 1, "%s: one `from glosa.<sub> import <module>`" % entry)
            module = os.path.join(TOOLS_DIR, *imports[0].module.split("."),
                                  imports[0].names[0].name + ".py")
            self.assertTrue(os.path.isfile(module), "%s: no %s" % (entry, module))
            functions = {node.name for node in ast.parse(open(module, encoding="utf-8").read()).body
                         if isinstance(node, ast.FunctionDef)}
            self.assertIn("main", functions, "%s: %s has no main()" % (entry, module))
            self.assertLessEqual(len(tree.body), 5, "%s is not a thin entry point" % entry)


if __name__ == "__main__":
    unittest.main()
