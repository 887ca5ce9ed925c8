"""Glosa's training, data, export and evaluation code, as one package (docs/training.md).

  glosa.data     language pairs and their Tatoeba splits, protected spans, safetensors files
  glosa.corpus   the broad and monolingual corpora, everyday phrases, tokenizer surgery,
                 truecase tables, back-translation
  glosa.train    the training loop and the model families (Transformer, RNN, captioner)
  glosa.export   model packages, ONNX graphs, parity fixtures, our PyTorch MarianMT
  glosa.eval     BLEU and chrF2 as sacrebleu computes them, and the evaluations built on them
  glosa.checks   checks on the C++ sources a compiler does not make (function lengths)

The scripts in tools/ are thin entry points into it (`tools/train_transformer.py` runs
`glosa.train.transformer`); from tools/, `python3 -m glosa.train.transformer` does the same.
Its tests are tools/tests/, run by ctest (tests/tools/CMakeLists.txt).
"""
import os

TOOLS_DIR = os.path.dirname(os.path.dirname(os.path.realpath(__file__)))  # through tools/bench/glosa too
REPO_ROOT = os.path.dirname(TOOLS_DIR)
