#!/usr/bin/python3
"""Exports a training checkpoint to a Glosa model package (docs/model-package.md):

  resources/models/<id>/model.safetensors   weights, fp16 by default, tensor names as in
                                            docs/training.md (= the PyTorch state_dict keys)
  resources/models/<id>/spm.model           the joint SentencePiece model (source and target)
  resources/models/<id>/model.json          manifest: hyperparameters, tokenizer, decoding
                                            defaults, data licence and attribution, scores

  export_package.py /work/runs/transformer-en-es/best.pt --id transformer-en-es --default
  export_package.py CKPT --id ID --verify 400         # also compare fp16 vs fp32 dev BLEU
  export_package.py CKPT --id ID --score dev,test --beam 4   # decode and record scores
  export_package.py --list CKPT                       # print tensor names and shapes
"""

import argparse
import json
import os
import shutil
import sys

# Idle OpenMP threads must sleep, not spin: on this shared 2-core machine a spinning thread
# steals the core its partner needs (measured 5.7 s/step passive vs 30 s/step spinning while
# a compiler ran). Must be set before torch loads libgomp.
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
os.environ.pop("OPENBLAS_CORETYPE", None)  # NOTES.md: its auto-detection is 20-60% faster

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import evaluate  # noqa: E402
import glosa_safetensors  # noqa: E402
import glosa_train  # noqa: E402

REPO_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

LANG_NAMES = {"en": "English", "es": "Spanish", "fr": "French", "de": "German"}
ARCH_TITLES = {"transformer": "Transformer", "rnn-attention": "RNN with attention"}

TATOEBA = {
    "name": "Tatoeba %s (manythings.org Anki export)",
    "licence": "CC-BY 2.0 FR",
    "attribution": "www.manythings.org/anki and tatoeba.org",
}


def manifest_hparams(info, vocab_size):
    """Everything a C++ implementation needs besides the tensors."""
    h = dict(info["hparams"])
    h["vocab_size"] = vocab_size
    h.update({"pad_id": glosa_train.PAD, "unk_id": glosa_train.UNK, "bos_id": glosa_train.BOS,
              "eos_id": glosa_train.EOS})
    if info["architecture"] == "transformer":
        h.update({"normalization": "pre-norm", "activation": "relu",
                  "positional_encoding": "sinusoidal-interleaved",
                  "embedding_scale": "sqrt(d_model)", "tied_embeddings": True,
                  "output_bias": False})
    else:
        h.update({"tied_embeddings": False})
    return h


def dev_history(ck):
    return [{k: (round(v, 2) if isinstance(v, float) else v) for k, v in e.items()}
            for e in ck.get("history", [])]


def export(ckpt_path, out_dir, pkg_id, dtype="f16", version="1.0.0", scores=None,
           decoding=None, is_default=False):
    model, codec, info = evaluate.load_model(ckpt_path)
    cfg, ck = info["config"], info["checkpoint"]
    os.makedirs(out_dir, exist_ok=True)
    np_dtype = {"f16": torch.float16, "f32": torch.float32}[dtype]
    tensors = {k: v.detach().to(np_dtype) for k, v in model.state_dict().items()}
    for k, v in tensors.items():
        if not torch.isfinite(v).all():
            raise ValueError("tensor %s has non-finite values after conversion to %s" % (k, dtype))
    glosa_safetensors.save(tensors, os.path.join(out_dir, "model.safetensors"),
                           metadata={"format": "pt", "architecture": cfg["architecture"],
                                     "id": pkg_id})
    shutil.copyfile(os.path.join(os.path.dirname(ckpt_path), "spm.model"),
                    os.path.join(out_dir, "spm.model"))
    src, tgt = cfg["src"], cfg["tgt"]
    best = [e for e in ck.get("history", []) if e["dev_bleu"] == ck.get("best_bleu")]
    all_scores = {}
    if best:
        all_scores["tatoeba-%s/dev" % cfg["pair"]] = {
            "bleu": round(best[-1]["dev_bleu"], 2), "chrf": round(best[-1]["dev_chrf"], 2),
            "decoding": "greedy", "step": best[-1]["step"]}
    all_scores.update(scores or {})
    manifest = {
        "format_version": 1,
        "id": pkg_id,
        "version": version,
        "name": "%s → %s (%s)" % (LANG_NAMES.get(src, src), LANG_NAMES.get(tgt, tgt),
                                  ARCH_TITLES.get(cfg["architecture"], cfg["architecture"])),
        "task": "translation",
        "architecture": cfg["architecture"],
        "plugin": cfg["plugin"],
        "languages": {"source": src, "target": tgt},
        "hyperparameters": manifest_hparams(info, len(codec)),
        "tokenizer": {"type": "sentencepiece", "source": "spm.model", "target": "spm.model"},
        "weights": "model.safetensors",
        "decoding": decoding or {"strategy": "beam", "beam_size": 4, "length_penalty": 0.6,
                                 "max_length_a": 1.5, "max_length_b": 10,
                                 "suppress_tokens": [glosa_train.PAD, glosa_train.BOS]},
        "training": {
            "script": cfg["script"],
            "pair": cfg["pair"],
            "data": [dict(TATOEBA, name=TATOEBA["name"] % cfg["pair"])],
            "steps": ck["step"],
            "epochs_completed": ck["epoch"],
            "batches_into_epoch": ck["batch_in_epoch"],
            "train_minutes": round(ck["train_seconds"] / 60, 1),
            "options": cfg["train"],
            "dev_history": dev_history(ck),
        },
        "licence": "CC-BY 2.0 FR (weights trained on Tatoeba)",
        "scores": all_scores,
    }
    if is_default:  # the package the app and glosa-cli use for this direction (model-package.md)
        manifest["default"] = True
    # A run that started from another package: say so, since its steps and dev history then
    # continue that package's training (--init-from) or reuse its word vectors (--init-embedding).
    if cfg.get("init_from"):
        manifest["training"]["initialised_from"] = {
            "package": os.path.basename(os.path.normpath(cfg["init_from"])),
            "what": "all weights", "at_step": cfg.get("init_step", 0)}
    elif cfg.get("init_embedding"):
        manifest["training"]["initialised_from"] = {
            "package": os.path.basename(os.path.normpath(cfg["init_embedding"])),
            "what": "embedding.weight (joint vocabulary)"}
    with open(os.path.join(out_dir, "model.json"), "w", encoding="utf-8") as f:
        json.dump(manifest, f, indent=2, ensure_ascii=False)
        f.write("\n")
    return model, codec, info, manifest


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("checkpoint")
    p.add_argument("--id", help="package id (folder name under resources/models)")
    p.add_argument("--out", help="default <repo>/resources/models/<id>")
    p.add_argument("--dtype", default="f16", choices=["f16", "f32"])
    p.add_argument("--version", default="1.0.0")
    p.add_argument("--default", action="store_true",
                   help='write "default": true: the package to use for its direction')
    p.add_argument("--list", action="store_true", help="print tensor names and shapes, then exit")
    p.add_argument("--verify", type=int, default=0,
                   help="greedy-decode the first N dev sources with the fp32 checkpoint and the "
                   "exported package and print both BLEU scores")
    p.add_argument("--score", default="", help="comma-separated splits (dev,test) to decode and "
                   "record in model.json")
    p.add_argument("--beam", type=int, default=4)
    p.add_argument("--alpha", type=float, default=0.6)
    p.add_argument("--threads", type=int, default=2)
    a = p.parse_args(argv)
    os.environ.pop("OPENBLAS_CORETYPE", None)
    torch.set_num_threads(a.threads)
    if a.list:
        model, _, info = evaluate.load_model(a.checkpoint)
        for k, v in model.state_dict().items():
            print("%-50s %s" % (k, list(v.shape)))
        return 0
    if not a.id:
        p.error("--id is required")
    out = a.out or os.path.join(REPO_ROOT, "resources", "models", a.id)
    model, codec, info, manifest = export(a.checkpoint, out, a.id, a.dtype, a.version,
                                        is_default=a.default)
    print("exported %s -> %s (%d bytes)" % (a.checkpoint, out,
                                           os.path.getsize(os.path.join(out, "model.safetensors"))))
    if a.verify:
        groups = evaluate.groups_for(info["pair"], info["src"], info["tgt"], "dev")[:a.verify]
        pkg_model, pkg_codec, _ = evaluate.load_model(out)
        srcs = [s for s, _ in groups]
        b32, c32 = evaluate.score(evaluate.translate_model(model, codec, srcs), groups)
        hyps16 = evaluate.translate_model(pkg_model, pkg_codec, srcs)
        b16, c16 = evaluate.score(hyps16, groups)
        print("verify on %d dev sources (greedy): fp32 BLEU %.2f chrF %.2f | package (%s) BLEU "
              "%.2f chrF %.2f" % (len(srcs), b32.score, c32, a.dtype, b16.score, c16))
    if a.score:
        scores = {}
        pkg_model, pkg_codec, _ = evaluate.load_model(out)
        for split in a.score.split(","):
            groups = evaluate.groups_for(info["pair"], info["src"], info["tgt"], split)
            hyps = evaluate.translate_model(pkg_model, pkg_codec, [s for s, _ in groups],
                                            a.beam, a.alpha)
            bleu, chrf = evaluate.score(hyps, groups)
            dec = "greedy" if a.beam <= 1 else "beam %d, alpha %.1f" % (a.beam, a.alpha)
            key = "tatoeba-%s/%s" % (info["pair"], split)
            scores[key] = {"bleu": round(bleu.score, 2), "chrf": round(chrf, 2),
                           "decoding": dec + " (exported %s package)" % a.dtype}
            print("%s: %s | chrF2 %.2f (%s)" % (key, bleu, chrf, dec))
        manifest["scores"].update(scores)
        with open(os.path.join(out, "model.json"), "w", encoding="utf-8") as f:
            json.dump(manifest, f, indent=2, ensure_ascii=False)
            f.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
