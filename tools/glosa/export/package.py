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
import glob
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

from glosa.eval import evaluate  # noqa: E402
from glosa.data import pairs as glosa_data  # noqa: E402
from glosa.data import safetensors as glosa_safetensors  # noqa: E402
from glosa.train import trainer as glosa_train  # noqa: E402

from glosa import REPO_ROOT

LANG_NAMES = {"en": "English", "es": "Spanish", "fr": "French", "de": "German"}
# A family's name for people: its plugin's metadata "titles" (plugins/<family>/<family>.json),
# which the app's model picker shows too.
ARCH_TITLES = {arch: title
               for path in glob.glob(os.path.join(REPO_ROOT, "plugins", "*", "*.json"))
               for arch, title in json.load(open(path, encoding="utf-8")).get("titles", {}).items()}
# The RNN's score function names the package, so that the attention lab's models can
# be told apart in a model list.
RNN_TITLES = {"general": "RNN, Luong attention", "additive": "RNN, Bahdanau attention",
              "dot": "RNN, dot-product attention", "scaled-dot": "RNN, scaled dot attention",
              "none": "RNN without attention"}


def arch_title(architecture, hparams):
    if architecture == "rnn-attention" and hparams.get("attention") in RNN_TITLES:
        return RNN_TITLES[hparams["attention"]]
    return ARCH_TITLES.get(architecture, architecture)

TATOEBA = {
    "name": "Tatoeba %s (manythings.org Anki export)",
    "licence": "CC-BY 2.0 FR",
    "attribution": "www.manythings.org/anki and tatoeba.org",
}


NEWS = {"name": "WMT news test sets 2008-2011 (news-test2008, newssyscomb2009, newstest2009-2011)",
        "licence": "WMT shared task data, research use",
        "attribution": "Workshop on Statistical Machine Translation (statmt.org)"}


# Who to credit for each parallel-<pair> file (MANIFEST.tsv's licence column mixes licence and
# owner; ABOUT.md names them). The app refuses a package whose training data lacks an attribution.
ATTRIBUTIONS = {
    "msdocs-human": "Microsoft Corporation (MicrosoftDocs localized repositories, Microsoft Learn)",
    "msdocs-machine": "Microsoft Corporation (Microsoft Learn, Microsoft Translator output)",
    "gettext-ui": "the translators of 133 gettext catalogues of Debian packages",
    "libreoffice-help": "The Document Foundation (LibreOffice help)",
    "gimp-help": "The GIMP Documentation Team",
    "debian-docs": "Debian, GNOME, Ubuntu and FreedomBox documentation authors and translators",
    "europarl-sample": "Europarl v7, Philipp Koehn (2005), European Parliament proceedings",
    "globalvoices": "Global Voices (globalvoices.org), via the AmericasNLP 2021 data",
    "bible": "World English Bible; Reina-Valera 1909",
}


def broad_data(pair):
    """training.data for a run on the broad corpus of `pair`: every parallel-<pair> file from its
    MANIFEST.tsv (name, pairs, licence, whether machine translated), the news sets and Tatoeba,
    each of the sources the data folder has (glosa_corpus.py build leaves the others out)."""
    from glosa.corpus import broad as glosa_corpus
    first, second = pair.split("-")
    directions = (pair, "%s-%s" % (second, first))
    mixtures = {d: glosa_corpus.direction_mixture(d) for d in directions}
    data = [dict(TATOEBA, name=TATOEBA["name"] % pair)]
    manifest = os.path.join(glosa_data.data_dir(), "parallel-" + pair, "MANIFEST.tsv")
    rows = []
    if os.path.exists(manifest):
        with open(manifest, encoding="utf-8") as f:
            rows = [line.rstrip("\n").split("\t") for line in f][1:]
    for name, pairs, domain, licence, translation in rows:
        if name not in ATTRIBUTIONS:
            raise glosa_data.MissingData("%s lists %s, which export_package.ATTRIBUTIONS does not "
                                         "credit: add who to credit for it" % (manifest, name))
        data.append({"name": "%s (%s)" % (name, domain), "pairs": int(pairs),
                     "licence": licence, "attribution": ATTRIBUTIONS[name],
                     "translation": translation,
                     "weight": {d: w.get(name, 1.0) for d, w in mixtures.items()}})
    if os.path.isdir(os.path.join(glosa_data.data_dir(), "newstest", pair)):
        data.append(NEWS)
    # parallel-<pair>-general: its MANIFEST.tsv names licence and source of every file; the files
    # are trained as two origins, "general" (sentences) and "lexicon" (word lists).
    manifest = os.path.join(glosa_data.data_dir(), "parallel-%s-general" % pair, "MANIFEST.tsv")
    if os.path.exists(manifest):
        with open(manifest, encoding="utf-8") as f:
            rows = [line.rstrip("\n").split("\t") for line in f][1:]
        for name, pairs, domain, licence, translation, source in rows:
            origin = "lexicon" if name in glosa_corpus.LEXICON else "general"
            data.append({"name": "%s (%s)" % (name, domain), "pairs": int(pairs),
                         "licence": licence, "attribution": source, "translation": translation,
                         "origin": origin,
                         "weight": {d: w.get(origin, 1.0) for d, w in mixtures.items()}})
    # The CLDR names glosa_phrases.py reads from ICU's data (the "everyday" origin is rows of the
    # sources above, relabelled, and needs no entry of its own).
    from glosa.corpus import phrases as glosa_phrases
    cldr = glosa_phrases.cldr_pairs(pair)
    if cldr:
        data.append(dict(glosa_phrases.CLDR_SOURCE, pairs=len(cldr), origin="cldr",
                         weight={d: w.get("cldr", 1.0) for d, w in mixtures.items()}))
    return data


def placeholder_count(codec):
    """How many placeholder pieces U+E000 + k the tokenizer has (0 for the Tatoeba models)."""
    from glosa.data import spans as glosa_spans
    n = 0
    while n < glosa_spans.PLACEHOLDERS and codec.sp.piece_to_id(
            glosa_spans.placeholder(n)) != glosa_train.UNK:
        n += 1
    return n


def manifest_hparams(info, vocab_size, placeholders=0):
    """Everything a C++ implementation needs besides the tensors."""
    h = dict(info["hparams"])
    h["vocab_size"] = vocab_size
    if placeholders:
        h["placeholders"] = placeholders
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


def quantize_package(src_dir, out_dir):
    """An existing package with its weight matrices in int8 (quantize_int8) and "compute_type":
    "int8" in model.json; tokenizer files and everything else copied."""
    tensors = glosa_safetensors.load(os.path.join(src_dir, "model.safetensors"))
    with open(os.path.join(src_dir, "model.json"), encoding="utf-8") as f:
        manifest = json.load(f)
    os.makedirs(out_dir, exist_ok=True)
    for name in os.listdir(src_dir):
        if name not in ("model.safetensors", "model.json") and os.path.isfile(
                os.path.join(src_dir, name)):
            shutil.copyfile(os.path.join(src_dir, name), os.path.join(out_dir, name))
    quantized = glosa_train.quantize_int8({k: torch.as_tensor(v.astype("float32"))
                                           for k, v in tensors.items()})
    quantized = {k: (v if v.dtype == torch.int8 or k.endswith(".scale")
                     else torch.as_tensor(tensors[k])) for k, v in quantized.items()}
    glosa_safetensors.save(quantized, os.path.join(out_dir, "model.safetensors"),
                           metadata={"format": "pt", "architecture": manifest["architecture"],
                                     "id": manifest["id"], "compute_type": "int8"})
    manifest["compute_type"] = "int8"
    with open(os.path.join(out_dir, "model.json"), "w", encoding="utf-8") as f:
        json.dump(manifest, f, indent=2, ensure_ascii=False)
        f.write("\n")
    return manifest


def export(ckpt_path, out_dir, pkg_id, dtype="f16", version="1.0.0", scores=None,
           decoding=None, quantize=None, is_default=False, length_penalty=0.6,
           max_source_length=None, beam_size=4, alignment_layer=None, name=None, truecase=None):
    model, codec, info = evaluate.load_model(ckpt_path)
    cfg, ck = info["config"], info["checkpoint"]
    os.makedirs(out_dir, exist_ok=True)
    np_dtype = {"f16": torch.float16, "f32": torch.float32}[dtype]
    tensors = {k: v.detach().to(np_dtype) for k, v in model.state_dict().items()}
    if quantize == "int8":
        tensors = glosa_train.quantize_int8({k: v.detach() for k, v in model.state_dict().items()})
        tensors = {k: (v if v.dtype == torch.int8 or k.endswith(".scale") else v.to(np_dtype))
                   for k, v in tensors.items()}
    for k, v in tensors.items():
        if not torch.isfinite(v).all():
            raise ValueError("tensor %s has non-finite values after conversion to %s" % (k, dtype))
    glosa_safetensors.save(tensors, os.path.join(out_dir, "model.safetensors"),
                           metadata={"format": "pt", "architecture": cfg["architecture"],
                                     "id": pkg_id})
    shutil.copyfile(os.path.join(os.path.dirname(ckpt_path), "spm.model"),
                    os.path.join(out_dir, "spm.model"))
    src, tgt = cfg["src"], cfg["tgt"]
    if truecase:  # the source side's truecase table (tools/truecase_table.py)
        shutil.copyfile(truecase, os.path.join(out_dir, "truecase." + src))
    best = [e for e in ck.get("history", []) if e["dev_bleu"] == ck.get("best_bleu")]
    all_scores = {}
    if best and cfg.get("corpus"):
        all_scores["broad-dev-mean"] = {
            "bleu": round(best[-1]["dev_bleu"], 2), "chrf": round(best[-1]["dev_chrf"], 2),
            "decoding": "greedy", "step": best[-1]["step"],
            "sets": best[-1].get("dev_sets", {})}
    elif best:
        all_scores["tatoeba-%s/dev" % cfg["pair"]] = {
            "bleu": round(best[-1]["dev_bleu"], 2), "chrf": round(best[-1]["dev_chrf"], 2),
            "decoding": "greedy", "step": best[-1]["step"]}
    all_scores.update(scores or {})
    manifest = {
        "format_version": 1,
        "id": pkg_id,
        "version": version,
        "name": name or "%s → %s (%s%s)" % (
            LANG_NAMES.get(src, src), LANG_NAMES.get(tgt, tgt),
            arch_title(cfg["architecture"], cfg["hparams"]),
            # beside the Tatoeba-only models in one list
            ", general domain" if cfg.get("corpus") else ""),
        "task": "translation",
        "architecture": cfg["architecture"],
        "plugin": cfg["plugin"],
        "languages": {"source": src, "target": tgt},
        "hyperparameters": dict(manifest_hparams(info, len(codec), placeholder_count(codec)),
                                **({"max_source_length": max_source_length}
                                   if max_source_length else {}),
                                **({"alignment_layer": alignment_layer}
                                   if alignment_layer is not None else {})),
        "tokenizer": dict({"type": "sentencepiece", "source": "spm.model", "target": "spm.model"},
                          **({"truecase": "truecase." + src} if truecase else {})),
        "weights": "model.safetensors",
        "decoding": decoding or {"strategy": "beam", "beam_size": beam_size,
                                 "length_penalty": length_penalty,
                                 "max_length_a": 1.5, "max_length_b": 10,
                                 "suppress_tokens": [glosa_train.PAD, glosa_train.BOS]},
        "training": {
            "script": cfg["script"],
            "pair": cfg["pair"],
            "data": (broad_data(cfg["pair"]) if cfg.get("corpus")
                     else [dict(TATOEBA, name=TATOEBA["name"] % cfg["pair"])]),
            "steps": ck["step"],
            "epochs_completed": ck["epoch"],
            "batches_into_epoch": ck["batch_in_epoch"],
            "train_minutes": round(ck["train_seconds"] / 60, 1),
            "options": cfg["train"],
            **({"mixture_overrides": cfg["mixture"]} if cfg.get("mixture") else {}),
            "dev_history": dev_history(ck),
        },
        **({"compute_type": "int8"} if quantize == "int8" else {}),
        "licence": ("weights trained on data under CC BY 4.0, CC BY 3.0, CC-BY 2.0 FR, MPL-2.0, "
                    "GFDL, GPL/LGPL and public-domain licences: see training.data"
                    if cfg.get("corpus") else "CC-BY 2.0 FR (weights trained on Tatoeba)"),
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
    p.add_argument("checkpoint", help="checkpoint .pt, or with --from-package a package folder")
    p.add_argument("--from-package", action="store_true",
                   help="re-export an existing package (with --quantize int8 and --out)")
    p.add_argument("--id", help="package id (folder name under resources/models)")
    p.add_argument("--out", help="default <repo>/resources/models/<id>")
    p.add_argument("--dtype", default="f16", choices=["f16", "f32"],
                   help="float dtype of the tensors (with --quantize: of the vectors)")
    p.add_argument("--quantize", choices=["int8"], help="weight matrices as int8 with per-row "
                   "scales (docs/model-package.md); the engine then computes in int8 by default")
    p.add_argument("--version", default="1.0.0")
    p.add_argument("--name", help="the package's display name (default: from the languages and "
                   "architecture); the GUI translates the bundled ones (app/core/displaynames.cpp)")
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
    # The package's decoding defaults, chosen on dev (e.g. with evaluate.py cli --beam/--alpha);
    # --beam/--alpha above only decode --score.
    p.add_argument("--beam-size", type=int, default=4,
                   help="the package's default beam size (decoding.beam_size)")
    p.add_argument("--length-penalty", type=float, default=0.6,
                   help="the package's default GNMT length penalty (decoding.length_penalty)")
    p.add_argument("--alignment-layer", type=int,
                   help="Transformer: hyperparameters.alignment_layer, the decoder layer whose "
                   "cross-attention the engine reads as the alignment (measure it with "
                   "tools/alignment_heads.py; default: the penultimate layer)")
    p.add_argument("--max-source-length", type=int,
                   help="hyperparameters.max_source_length: longer sentences are cut into "
                   "chunks of at most this many pieces (default 256, or max_positions)")
    p.add_argument("--truecase", metavar="FILE",
                   help="the source side's truecase table (tools/truecase_table.py build), copied "
                        "into the package as truecase.<source language>")
    p.add_argument("--threads", type=int, default=2)
    a = p.parse_args(argv)
    os.environ.pop("OPENBLAS_CORETYPE", None)
    torch.set_num_threads(a.threads)
    if a.list:
        model, _, info = evaluate.load_model(a.checkpoint)
        for k, v in model.state_dict().items():
            print("%-50s %s" % (k, list(v.shape)))
        return 0
    if a.from_package:
        if a.quantize != "int8" or not a.out:
            p.error("--from-package needs --quantize int8 and --out")
        quantize_package(a.checkpoint, a.out)
        print("quantized %s -> %s (%d bytes)" % (a.checkpoint, a.out, os.path.getsize(
            os.path.join(a.out, "model.safetensors"))))
        return 0
    if not a.id:
        p.error("--id is required")
    out = a.out or os.path.join(REPO_ROOT, "resources", "models", a.id)
    model, codec, info, manifest = export(a.checkpoint, out, a.id, a.dtype, a.version,
                                          quantize=a.quantize, is_default=a.default,
                                          length_penalty=a.length_penalty,
                                          max_source_length=a.max_source_length,
                                          beam_size=a.beam_size,
                                          alignment_layer=a.alignment_layer, name=a.name,
                                          truecase=a.truecase)
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
