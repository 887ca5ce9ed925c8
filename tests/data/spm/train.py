#!/usr/bin/python3
"""Rebuilds the tiny SentencePiece models used by tst_text and tst_package.

corpus.txt is written for these tests (no external data). Two models:
  spm.model           unigram, nmt_nfkc normaliser: configured like the real models
                      (tools/glosa_data.py: pad 0, unk 1, <s> 2, </s> 3)
  spm-identity.model  the same without a normaliser, so that only the engine's own NFC step
                      composes decomposed input
Run from anywhere: /usr/bin/python3 tests/data/spm/train.py
"""
import os

import sentencepiece as spm

HERE = os.path.dirname(os.path.abspath(__file__))

for name, rule in (("spm", "nmt_nfkc"), ("spm-identity", "identity")):
    spm.SentencePieceTrainer.train(
        input=os.path.join(HERE, "corpus.txt"), model_prefix=os.path.join(HERE, name),
        vocab_size=300, model_type="unigram", normalization_rule_name=rule,
        character_coverage=1.0, input_sentence_size=0, shuffle_input_sentence=False,
        pad_id=0, unk_id=1, bos_id=2, eos_id=3,
        pad_piece="<pad>", unk_piece="<unk>", bos_piece="<s>", eos_piece="</s>",
        hard_vocab_limit=False, num_threads=1, minloglevel=2)
    os.unlink(os.path.join(HERE, name + ".vocab"))
