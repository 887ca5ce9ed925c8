#!/usr/bin/python3
"""Trains the image captioner: frozen MobileNetV2 features + a Show, Attend and Tell decoder
(Xu et al. 2015, "Show, Attend and Tell", soft attention), on Flickr8k train with early stopping
on dev BLEU-4 (5 references, lower-cased, 13a tokenisation).

  train_captioner.py train --run captioner            # features once, then train / resume
  train_captioner.py export /work/runs/captioner/best.pt --id captioner-en [--score-beam 3]
  train_captioner.py tiny tests/data/parity/captioner-tiny   # random tiny package + goldens
  train_captioner.py bleu HYPS.txt [--split dev]      # score glosa-cli caption output

Features: the PyTorch MobileNetV2 of tools/bench/mobilenet_torch.py (same config.json and
model.safetensors the engine runs) on each image, preprocessed as the backbone's README says (RGB,
224x224 bilinear, (x-128)/128). Both candidate grids are cached once in the run folder's parent
(/work/runs/captioner-features/, outside the repository): 7x7x1280 (`Conv_1`) and 14x14x96
(`expanded_conv_12.add`), float16, rows in row-major grid order (row = y*cols + x).

Decoder (tensor names = state_dict keys = the exported names, prefixed "decoder." in the package):
  a_i = relu(project(f_i))    f_i: [L, 1280] backbone grid rows; a_i: [L, P] (projection_dim P)
  h0 = tanh(init_h(mean_i a_i)), c0 = tanh(init_c(mean_i a_i))
  e_ti = full_att(relu(encoder_att(a_i) + decoder_att(h_{t-1})))       additive attention
  alpha_t = softmax_i(e_ti); z_t = sigmoid(f_beta(h_{t-1})) * sum_i alpha_ti a_i   (gate beta)
  h_t, c_t = LSTMCell([embedding(y_{t-1}); z_t], (h_{t-1}, c_{t-1}))  (PyTorch gate order i,f,g,o)
  logits_t = fc(dropout(h_t))
Loss: cross entropy + alpha_c * mean_i (1 - sum_t alpha_ti)^2 (doubly stochastic regularisation).
Vocabulary: a SentencePiece *word* model (so the package loader and the engine's Tokenizer read it)
of the lower-cased, already space-tokenised training captions, words seen at least --min-count
times; ids 0..3 = <pad> <unk> <s> </s> as in the translation packages.

Reuses glosa_train (log, atomic_save, runs_dir), glosa_metrics (BLEU) and
glosa_safetensors (writer).
"""

import argparse
import collections
import json
import math
import os
import random
import sys
import time

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

from glosa import REPO_ROOT  # noqa: E402
from glosa.train import mobilenet as bench_mobilenet_torch  # noqa: E402
from glosa.eval import metrics as glosa_metrics  # noqa: E402
from glosa.data import safetensors as glosa_safetensors  # noqa: E402
from glosa.train.trainer import atomic_save, log, runs_dir, stop_on_signals  # noqa: E402

PAD, UNK, BOS, EOS = 0, 1, 2, 3
SPECIALS = ["<pad>", "<unk>", "<s>", "</s>"]
# Never generated: padding, <s>, and <unk> (a caption with " ⁇ " in it helps nobody).
SUPPRESS = [PAD, UNK, BOS]
FLICKR8K = {"name": "Flickr8k",
            "splits": "train (6,000 images, 30,000 captions); early stopping on dev (1,000 "
                      "images)",
            "licence": "research and education use only; images are the copyright of their "
                       "Flickr owners (the package holds no images)",
            "attribution": "Hodosh, Young, Hockenmaier 2013, Framing Image Description as a "
                           "Ranking Task"}
GRIDS = {"7x7x1280": "stride32_7x7x1280", "14x14x96": "stride16_14x14x96"}
DEFAULTS = {"grid": "7x7x1280", "projection_dim": 384, "embed_dim": 256, "hidden_dim": 384,
            "attention_dim": 256, "dropout": 0.5}


def data_dir(explicit=None):
    return explicit or os.environ.get("GLOSA_DATA") or os.path.join(REPO_ROOT, "..", "shared",
                                                                     "data")


# ---------------------------------------------------------------------------------------------
# Data and features


def load_captions(data, split):
    """[(image file, [captions])] in file order of first appearance."""
    groups = collections.OrderedDict()
    with open(os.path.join(data, "flickr8k", split + ".tsv"), encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\n")
            if not line:
                continue
            image, caption = line.split("\t", 1)
            groups.setdefault(image, []).append(caption)
    return list(groups.items())


def words(caption):
    return caption.lower().split()


def preprocess(path):
    """[3, 224, 224] float32: RGB, 224x224 bilinear, (x - 128) / 128 (backbone README)."""
    from PIL import Image
    with Image.open(path) as im:
        im = im.convert("RGB")
        if im.size != (224, 224):
            im = im.resize((224, 224), Image.BILINEAR)
        x = np.asarray(im, dtype=np.float32)
    return torch.from_numpy(((x - 128.0) / 128.0).transpose(2, 0, 1).copy())


def load_backbone(data):
    model_dir = os.path.join(data, "mobilenet_v2")
    with open(os.path.join(model_dir, "config.json")) as f:
        config = json.load(f)
    weights = bench_mobilenet_torch.load_safetensors(os.path.join(model_dir, "model.safetensors"))
    return config, weights


def features_path(feat_dir, split, grid):
    return os.path.join(feat_dir, "%s-%s.f16.npy" % (split, grid))


def compute_features(data, feat_dir, splits, batch=16):
    """Caches [images, L, D] float16 per split and grid (rows in y*cols + x order) once."""
    os.makedirs(feat_dir, exist_ok=True)
    config, weights = load_backbone(data)
    names = [config["feature_maps"][GRIDS[g]] for g in GRIDS]
    forward = bench_mobilenet_torch.build(config, weights, outputs=names)
    for split in splits:
        if all(os.path.exists(features_path(feat_dir, split, g)) for g in GRIDS):
            continue
        images = [im for im, _ in load_captions(data, split)]
        outs = {}
        t0 = time.time()
        with torch.inference_mode():
            for k in range(0, len(images), batch):
                x = torch.stack([preprocess(os.path.join(data, "flickr8k", "images", im))
                                 for im in images[k:k + batch]])
                values = forward(x)
                for g, name in zip(GRIDS, names):
                    v = values[name]  # [B, C, H, W] -> [B, H*W, C]
                    v = v.flatten(2).transpose(1, 2).to(torch.float16).numpy()
                    if g not in outs:
                        outs[g] = np.lib.format.open_memmap(
                            features_path(feat_dir, split, g) + ".tmp.npy", mode="w+",
                            dtype=np.float16, shape=(len(images),) + v.shape[1:])
                    outs[g][k:k + len(v)] = v
                if (k // batch) % 25 == 0:
                    log("features %s %d/%d (%.0f s)" % (split, k + len(v), len(images),
                                                        time.time() - t0))
        for g, arr in outs.items():
            arr.flush()
            del arr
            os.replace(features_path(feat_dir, split, g) + ".tmp.npy",
                       features_path(feat_dir, split, g))
        with open(os.path.join(feat_dir, split + "-images.txt"), "w") as f:
            f.write("\n".join(images) + "\n")


def train_word_spm(train_groups, min_count, prefix):
    """A SentencePiece *word* model (model_type=word, case-folding normaliser nmt_nfkc_cf) over
    the lower-cased training captions, keeping the words seen at least min_count times: a plain
    word vocabulary, stored in the format the engine's Tokenizer and the package loader read.
    Returns the path of the .model file."""
    import sentencepiece as spm
    captions = [" ".join(words(c)) for _, caps in train_groups for c in caps]
    counts = collections.Counter(w for c in captions for w in c.split())
    size = len(SPECIALS) + sum(1 for n in counts.values() if n >= min_count)
    tmp = prefix + ".txt"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write("\n".join(captions) + "\n")
    spm.SentencePieceTrainer.train(
        input=tmp, model_prefix=prefix, vocab_size=size, model_type="word",
        normalization_rule_name="nmt_nfkc_cf", character_coverage=1.0, input_sentence_size=0,
        shuffle_input_sentence=False, pad_id=PAD, unk_id=UNK, bos_id=BOS, eos_id=EOS,
        pad_piece=SPECIALS[PAD], unk_piece=SPECIALS[UNK], bos_piece=SPECIALS[BOS],
        eos_piece=SPECIALS[EOS], num_threads=1, minloglevel=2)
    os.unlink(tmp)
    return prefix + ".model"


class WordCodec:
    """Captions <-> ids through the run's SentencePiece word model."""

    def __init__(self, path):
        import sentencepiece as spm
        self.path = path
        self.sp = spm.SentencePieceProcessor(model_file=path)

    def __len__(self):
        return self.sp.get_piece_size()

    def encode(self, caption):
        return self.sp.encode(" ".join(words(caption)))

    def decode(self, ids):
        return self.sp.decode(ids)


# ---------------------------------------------------------------------------------------------
# Model


class Captioner(nn.Module):
    def __init__(self, hp, vocab_size, feature_dim):
        super().__init__()
        E, H, A, D = hp["embed_dim"], hp["hidden_dim"], hp["attention_dim"], feature_dim
        # A learned projection of the frozen backbone features (relu(W a + b)), so that the
        # per-step work (context, gate, LSTM input) is on P instead of 1280 channels: 1.5x faster
        # training on this machine's 2 shared cores. 0 keeps the raw features.
        self.project = nn.Linear(D, hp["projection_dim"]) if hp["projection_dim"] else None
        D = hp["projection_dim"] or D
        self.encoder_att = nn.Linear(D, A)
        self.decoder_att = nn.Linear(H, A)
        self.full_att = nn.Linear(A, 1)
        self.embedding = nn.Embedding(vocab_size, E)
        self.init_h = nn.Linear(D, H)
        self.init_c = nn.Linear(D, H)
        self.f_beta = nn.Linear(H, D)
        self.lstm = nn.LSTMCell(E + D, H)
        self.fc = nn.Linear(H, vocab_size)
        self.drop = nn.Dropout(hp["dropout"])
        nn.init.uniform_(self.embedding.weight, -0.1, 0.1)
        nn.init.uniform_(self.fc.weight, -0.1, 0.1)
        nn.init.zeros_(self.fc.bias)

    def encode(self, raw):
        """Backbone features [B, L, D_backbone] -> annotation vectors a_i [B, L, D]."""
        return torch.relu(self.project(raw)) if self.project is not None else raw

    def start(self, feats):
        """feats [B, L, D] (encoded) -> (h, c, attention keys [B, L, A])."""
        mean = feats.mean(dim=1)
        return (torch.tanh(self.init_h(mean)), torch.tanh(self.init_c(mean)),
                self.encoder_att(feats))

    def step(self, feats, proj, tokens, h, c):
        """One decoder step: tokens [B] -> (logits [B, V], alpha [B, L], h, c)."""
        e = self.full_att(torch.relu(proj + self.decoder_att(h).unsqueeze(1))).squeeze(2)
        alpha = torch.softmax(e, dim=1)
        context = torch.bmm(alpha.unsqueeze(1), feats).squeeze(1)
        context = torch.sigmoid(self.f_beta(h)) * context
        h, c = self.lstm(torch.cat([self.embedding(tokens), context], dim=1), (h, c))
        return self.fc(self.drop(h)), alpha, h, c

    def forward_teacher(self, feats, tgt_in, lengths):
        """feats [B, L, D], tgt_in [B, T] (<s> + words), lengths [B] (words + 1), sorted by
        decreasing length -> logits [B, T, V], alphas [B, T, L] (zero past each length)."""
        B, T = tgt_in.shape
        feats = self.encode(feats)
        h, c, proj = self.start(feats)
        logits = feats.new_zeros(B, T, self.fc.out_features)
        alphas = feats.new_zeros(B, T, feats.shape[1])
        for t in range(T):
            n = int((lengths > t).sum())  # rows still running (sorted by length)
            out, alpha, h_n, c_n = self.step(feats[:n], proj[:n], tgt_in[:n, t], h[:n], c[:n])
            logits[:n, t] = out
            alphas[:n, t] = alpha
            h = torch.cat([h_n, h[n:]]) if n < B else h_n
            c = torch.cat([c_n, c[n:]]) if n < B else c_n
        return logits, alphas

    @torch.no_grad()
    def greedy(self, feats, max_len=30):
        B = feats.shape[0]
        feats = self.encode(feats)
        h, c, proj = self.start(feats)
        tokens = torch.full((B,), BOS, dtype=torch.long)
        out = [[] for _ in range(B)]
        done = torch.zeros(B, dtype=torch.bool)
        for _ in range(max_len):
            logits, _, h, c = self.step(feats, proj, tokens, h, c)
            logits[:, SUPPRESS] = -math.inf
            tokens = logits.argmax(dim=1)
            for b in range(B):
                if not done[b]:
                    if int(tokens[b]) == EOS:
                        done[b] = True
                    else:
                        out[b].append(int(tokens[b]))
            if bool(done.all()):
                break
        return out

    @torch.no_grad()
    def beam(self, feats, beam=3, max_len=30):
        """Beam search for one image (feats [1, L, D]); a finished hypothesis scores
        sum log p / (words + 1) (the engine's length_normalization "average")."""
        feats = self.encode(feats)
        h, c, proj = self.start(feats)
        hyps = [([], 0.0, h, c)]
        finished = []
        for _ in range(max_len):
            toks = torch.tensor([(hy[0][-1] if hy[0] else BOS) for hy in hyps])
            n = len(hyps)
            logits, _, h2, c2 = self.step(feats.expand(n, -1, -1), proj.expand(n, -1, -1), toks,
                                          torch.cat([hy[2] for hy in hyps]),
                                          torch.cat([hy[3] for hy in hyps]))
            logits[:, SUPPRESS] = -math.inf
            logp = torch.log_softmax(logits, dim=1)
            total = logp + torch.tensor([hy[1] for hy in hyps]).unsqueeze(1)
            vals, idx = total.flatten().topk(min(2 * beam, total.numel()))
            new = []
            for v, i in zip(vals.tolist(), idx.tolist()):
                b, tok = divmod(i, logp.shape[1])
                if tok == EOS:
                    finished.append((hyps[b][0], v / (len(hyps[b][0]) + 1)))
                else:
                    new.append((hyps[b][0] + [tok], v, h2[b:b + 1], c2[b:b + 1]))
                if len(new) == beam:
                    break
            hyps = new
            if len(finished) >= beam or not hyps:
                break
        if not finished:
            finished = [(hy[0], hy[1] / (len(hy[0]) + 1)) for hy in hyps]
        return max(finished, key=lambda f: f[1])[0]


# ---------------------------------------------------------------------------------------------
# Training


def dev_bleu(model, codec, feats, groups, beam=0, limit=0):
    """BLEU-4 (lower-cased, 13a) of greedy (beam 0) or beam-search captions on dev."""
    was = model.training
    model.eval()
    n = limit or len(groups)
    hyps = []
    for k in range(0, n, 100):
        x = torch.from_numpy(feats[k:min(n, k + 100)].astype(np.float32))
        if beam:
            ids = [model.beam(x[i:i + 1], beam) for i in range(x.shape[0])]
        else:
            ids = model.greedy(x)
        hyps += [codec.decode(s) for s in ids]
    refs = [[c.lower() for c in caps] for _, caps in groups[:n]]
    if was:
        model.train()
    return glosa_metrics.corpus_bleu(hyps, refs).score, hyps


def train(args):
    os.environ.pop("OPENBLAS_CORETYPE", None)
    torch.set_num_threads(args.threads)
    data = data_dir(args.data)
    run_dir = os.path.join(runs_dir(args.runs_dir), args.run)
    feat_dir = args.features or os.path.join(runs_dir(args.runs_dir), "captioner-features")
    os.makedirs(run_dir, exist_ok=True)
    train_groups = load_captions(data, "train")
    dev_groups = load_captions(data, "dev")
    compute_features(data, feat_dir, ["train", "dev"])

    last = os.path.join(run_dir, "last.pt")
    if os.path.exists(last):
        ck = torch.load(last, map_location="cpu")
        cfg = ck["config"]
        log("resuming from %s (step %d, epoch %d)" % (last, ck["step"], ck["epoch"]))
        for k in ("max_epochs", "patience", "max_minutes"):
            if ("--" + k.replace("_", "-")) in " ".join(sys.argv):
                cfg["train"][k] = getattr(args, k)
    else:
        ck = None
        train_word_spm(train_groups, args.min_count, os.path.join(run_dir, "spm"))
        cfg = {"architecture": "show-attend-tell", "plugin": "captioner",
               "script": "tools/train_captioner.py",
               "hparams": {k: getattr(args, k) for k in DEFAULTS},
               "train": {k: getattr(args, k) for k in (
                   "batch_size", "lr", "alpha_c", "clip_norm", "max_epochs", "patience",
                   "min_count", "seed", "checkpoint_minutes", "max_minutes", "lr_decay")}}
    hp, tr = cfg["hparams"], cfg["train"]
    codec = WordCodec(os.path.join(run_dir, "spm.model"))
    train_feats = np.load(features_path(feat_dir, "train", hp["grid"]), mmap_mode="r")
    dev_feats = np.load(features_path(feat_dir, "dev", hp["grid"]))
    log("features train %s dev %s, vocab %d" % (train_feats.shape, dev_feats.shape, len(codec)))
    # Load train features into memory once (float16, ~0.75 GB for 7x7x1280).
    train_feats = np.ascontiguousarray(train_feats)

    torch.manual_seed(tr["seed"])
    model = Captioner(hp, len(codec), train_feats.shape[2])
    opt = torch.optim.Adam(model.parameters(), lr=tr["lr"])
    state = {"step": 0, "epoch": 0, "batch_in_epoch": 0, "best_bleu": -1.0,
             "evals_since_best": 0, "history": [], "train_seconds": 0.0, "lr": tr["lr"]}
    if ck is not None:
        model.load_state_dict(ck["model"])
        opt.load_state_dict(ck["optimizer"])
        for k in state:
            state[k] = ck[k]
    log("captioner: %d parameters, hparams %s, train %s" % (
        sum(p.numel() for p in model.parameters()), json.dumps(hp), json.dumps(tr)))

    examples = [(i, codec.encode(c)) for i, (_, caps) in enumerate(train_groups) for c in caps]
    examples = [(i, s[:args.max_len]) for i, s in examples if s]

    def save(path, best=False):
        obj = {"config": cfg, "model": model.state_dict()}
        obj.update(state)
        if not best:
            obj["optimizer"] = opt.state_dict()
        atomic_save(obj, path)

    stop = stop_on_signals()

    def evaluate():
        t0 = time.time()
        bleu, hyps = dev_bleu(model, codec, dev_feats, dev_groups)
        entry = {"step": state["step"], "epoch": state["epoch"] + state["batch_in_epoch"] /
                 max(len(batches), 1), "train_minutes": round(state["train_seconds"] / 60, 1),
                 "dev_bleu": bleu, "decoding": "greedy",
                 "time": time.strftime("%Y-%m-%d %H:%M:%S")}
        state["history"].append(entry)
        if bleu > state["best_bleu"]:
            state["best_bleu"] = bleu
            state["evals_since_best"] = 0
            save(os.path.join(run_dir, "best.pt"), best=True)
            with open(os.path.join(run_dir, "best-dev-hyps.txt"), "w") as f:
                f.write("\n".join(hyps) + "\n")
        else:
            state["evals_since_best"] += 1
            # Halve the learning rate when dev BLEU stalls (ReduceLROnPlateau by hand so that it
            # survives resume through `state`).
            state["lr"] *= tr["lr_decay"]
            for g in opt.param_groups:
                g["lr"] = state["lr"]
        with open(os.path.join(run_dir, "history.json"), "w") as f:
            json.dump(state["history"], f, indent=1)
        log("DEV step %d epoch %.2f: BLEU-4 %.2f (best %.2f) lr %.1e [%.0f s] | %s" % (
            state["step"], entry["epoch"], bleu, state["best_bleu"], state["lr"],
            time.time() - t0, hyps[0]))
        save(os.path.join(run_dir, "last.pt"))

    model.train()
    proc_start = last_ckpt = time.time()
    loss_acc, n_acc = 0.0, 0
    batches = []
    while state["epoch"] < tr["max_epochs"] and not stop["flag"]:
        rng = random.Random(tr["seed"] * 1000 + state["epoch"])
        order = list(range(len(examples)))
        rng.shuffle(order)
        # Batches of similar lengths (sorted within chunks of 50 batches), then shuffled.
        chunk = tr["batch_size"] * 50
        batches = []
        for k in range(0, len(order), chunk):
            part = sorted(order[k:k + chunk], key=lambda i: len(examples[i][1]))
            batches += [part[j:j + tr["batch_size"]] for j in range(0, len(part),
                                                                    tr["batch_size"])]
        rng.shuffle(batches)
        while state["batch_in_epoch"] < len(batches):
            t_step = time.time()
            idx = sorted(batches[state["batch_in_epoch"]], key=lambda i: -len(examples[i][1]))
            lengths = torch.tensor([len(examples[i][1]) + 1 for i in idx])
            T = int(lengths[0])
            tgt_in = torch.full((len(idx), T), PAD, dtype=torch.long)
            tgt_out = torch.full((len(idx), T), PAD, dtype=torch.long)
            for b, i in enumerate(idx):
                s = examples[i][1]
                tgt_in[b, 0] = BOS
                tgt_in[b, 1:len(s) + 1] = torch.tensor(s)
                tgt_out[b, :len(s)] = torch.tensor(s)
                tgt_out[b, len(s)] = EOS
            feats = torch.from_numpy(train_feats[[examples[i][0] for i in idx]].astype(np.float32))
            logits, alphas = model.forward_teacher(feats, tgt_in, lengths)
            ce = F.cross_entropy(logits.reshape(-1, logits.shape[-1]), tgt_out.reshape(-1),
                                 ignore_index=PAD)
            # Doubly stochastic attention: every region should receive ~1 attention in total.
            reg = tr["alpha_c"] * ((1.0 - alphas.sum(dim=1)) ** 2).mean()
            loss = ce + reg
            opt.zero_grad(set_to_none=True)
            loss.backward()
            if tr["clip_norm"] > 0:
                nn.utils.clip_grad_norm_(model.parameters(), tr["clip_norm"])
            opt.step()
            state["step"] += 1
            state["batch_in_epoch"] += 1
            state["train_seconds"] += time.time() - t_step
            loss_acc += float(ce)
            n_acc += 1
            if state["step"] % 50 == 0:
                log("step %d epoch %d batch %d/%d ce %.3f (%.2f s/step)" % (
                    state["step"], state["epoch"] + 1, state["batch_in_epoch"], len(batches),
                    loss_acc / n_acc, state["train_seconds"] / max(state["step"], 1)))
                loss_acc, n_acc = 0.0, 0
            if time.time() - last_ckpt > tr["checkpoint_minutes"] * 60:
                evaluate()  # every checkpoint interval: early epochs move fast
                last_ckpt = time.time()
            if stop["flag"] or (tr["max_minutes"] and
                                time.time() - proc_start > tr["max_minutes"] * 60):
                stop["flag"] = True
                break
        if state["batch_in_epoch"] >= len(batches):
            state["epoch"] += 1
            state["batch_in_epoch"] = 0
            evaluate()
            last_ckpt = time.time()
        if state["evals_since_best"] >= tr["patience"]:
            log("early stopping: %d evaluations without improvement" % tr["patience"])
            break
    save(os.path.join(run_dir, "last.pt"))
    log("finished: step %d, best dev BLEU-4 %.2f" % (state["step"], state["best_bleu"]))


# ---------------------------------------------------------------------------------------------
# Export


def backbone_tensors(data, dtype):
    config, weights = load_backbone(data)
    return config, {"backbone." + k: v.to(dtype) for k, v in weights.items()}


def write_package(out_dir, model, cfg, spm_path, data, dtype, manifest_extra, backbone=None):
    """model.safetensors (decoder.* + backbone.*), backbone.json, spm.model, model.json.
    backbone: (graph config, {name: tensor}) instead of the data folder's MobileNetV2."""
    os.makedirs(out_dir, exist_ok=True)
    if backbone:
        config = backbone[0]
        tensors = {"backbone." + k: v.to(dtype) for k, v in backbone[1].items()}
    else:
        config, tensors = backbone_tensors(data, dtype)
    for k, v in model.state_dict().items():
        tensors["decoder." + k] = v.detach().to(dtype)
    for k, v in tensors.items():
        if not torch.isfinite(v.float()).all():
            raise ValueError("tensor %s has non-finite values in %s" % (k, dtype))
    glosa_safetensors.save(tensors, os.path.join(out_dir, "model.safetensors"),
                           metadata={"format": "pt", "architecture": cfg["architecture"]})
    # The backbone graph as the engine's MobileNetV2 reads it (tensors prefixed "backbone.").
    with open(os.path.join(out_dir, "backbone.json"), "w") as f:
        json.dump(config, f, separators=(",", ":"))
    if os.path.abspath(spm_path) != os.path.abspath(os.path.join(out_dir, "spm.model")):
        with open(spm_path, "rb") as fi, open(os.path.join(out_dir, "spm.model"), "wb") as fo:
            fo.write(fi.read())
    hp = dict(cfg["hparams"])
    rows, cols, dim = (int(x) for x in hp["grid"].split("x"))
    # The backbone's alias for the grid, e.g. "stride32_7x7x1280" for "7x7x1280".
    alias = next(a for a in config["feature_maps"] if a.endswith("_" + hp["grid"]))
    hp.update({"vocab_size": int(model.fc.out_features), "feature_dim": dim, "grid_rows": rows,
               "grid_cols": cols, "feature_map": alias,
               "feature_tensor": config["feature_maps"][alias],
               "pad_id": PAD, "unk_id": UNK, "bos_id": BOS, "eos_id": EOS,
               "lstm_gate_order": "i,f,g,o"})
    manifest = {
        "format_version": 1,
        "task": "captioning",
        "architecture": cfg["architecture"],
        "plugin": cfg["plugin"],
        "languages": {"target": "en"},
        "hyperparameters": hp,
        "tokenizer": {"type": "sentencepiece", "target": "spm.model"},
        "weights": "model.safetensors",
        "backbone": {"graph": "backbone.json", "tensor_prefix": "backbone.",
                     "preprocessing": {"color_order": "RGB", "size": [224, 224],
                                       "resize": "bilinear, whole image, no crop",
                                       "mean": 128.0, "std": 128.0},
                     "licence": "CC0 (random test weights)" if backbone else
                                "Apache-2.0 (MobileNetV2, TensorFlow Authors; see "
                                "../shared/data/mobilenet_v2/NOTICE)",
                     "source": config.get("source")},
        # Beam 3 ranked by log-probability / length (EOS included), as Captioner.beam() scores.
        "decoding": {"strategy": "beam", "beam_size": 3, "length_normalization": "average",
                     "max_length": 30, "suppress_tokens": SUPPRESS},
    }
    manifest.update(manifest_extra)
    with open(os.path.join(out_dir, "model.json"), "w", encoding="utf-8") as f:
        json.dump(manifest, f, indent=2, ensure_ascii=False)
        f.write("\n")
    return manifest


def export(args):
    data = data_dir(args.data)
    ck = torch.load(args.checkpoint, map_location="cpu")
    cfg = ck["config"]
    feat_dir = args.features or os.path.join(os.path.dirname(os.path.dirname(
        os.path.abspath(args.checkpoint))), "captioner-features")
    spm_path = os.path.join(os.path.dirname(os.path.abspath(args.checkpoint)), "spm.model")
    codec = WordCodec(spm_path)
    model = Captioner(cfg["hparams"], len(codec),
                      int(cfg["hparams"]["grid"].split("x")[2]))
    model.load_state_dict(ck["model"])
    model.eval()
    scores = {"flickr8k/dev": {"bleu4": round(ck["best_bleu"], 2), "decoding": "greedy",
                               "step": ck["step"], "references": 5,
                               "tokenize": "13a, lower-cased"}}
    if args.score_beam:
        dev_groups = load_captions(data, "dev")
        dev_feats = np.load(features_path(feat_dir, "dev", cfg["hparams"]["grid"]))
        bleu, _ = dev_bleu(model, codec, dev_feats, dev_groups, beam=args.score_beam)
        scores["flickr8k/dev-beam%d" % args.score_beam] = {
            "bleu4": round(bleu, 2), "decoding": "beam %d (training code)" % args.score_beam,
            "step": ck["step"], "references": 5, "tokenize": "13a, lower-cased"}
        log("dev BLEU-4 beam %d: %.2f" % (args.score_beam, bleu))
    if args.engine_hyps:
        # Captions the shipped engine wrote for dev with this package (glosa-cli caption).
        dev_groups = load_captions(data, "dev")
        with open(args.engine_hyps, encoding="utf-8") as f:
            hyps = [line.rstrip("\n").lower() for line in f]
        refs = [[c.lower() for c in caps] for _, caps in dev_groups]
        scores["flickr8k/dev-engine"] = {
            "bleu4": round(glosa_metrics.corpus_bleu(hyps, refs).score, 2),
            "decoding": "glosa-cli caption, the package's defaults (beam 3, fp16 weights)",
            "step": ck["step"], "references": 5, "tokenize": "13a, lower-cased"}
        log("engine dev BLEU-4: %.2f" % scores["flickr8k/dev-engine"]["bleu4"])
    out = args.out or os.path.join(REPO_ROOT, "resources", "models", args.id)
    extra = {
        "id": args.id, "version": args.version, "name": "English image captions (Show, Attend "
        "and Tell on MobileNetV2)",
        "training": {"script": cfg["script"], "steps": ck["step"], "epochs_completed": ck["epoch"],
                     "train_minutes": round(ck["train_seconds"] / 60, 1),
                     "options": cfg["train"], "dev_history": ck.get("history", []),
                     "data": [FLICKR8K]},
        "licence": "weights trained on Flickr8k (research use); backbone Apache-2.0",
        "scores": scores,
        "reproduce": "see README.md in this folder",
    }
    write_package(out, model, cfg, spm_path, data, torch.float16 if args.dtype == "f16" else torch.float32,
                  extra)
    log("wrote %s" % os.path.abspath(out))


# ---------------------------------------------------------------------------------------------
# Tiny random package + PyTorch golden outputs for tests/parity/tst_parity_captioner.cpp


def tiny_backbone(seed):
    """A 5-layer stand-in for MobileNetV2 in the same graph format (stride 32: 224 -> 7x7x16),
    with TFLite-style asymmetric SAME pads, a depthwise layer, RELU6 and a classifier head."""
    g = torch.Generator().manual_seed(seed)
    ops, tensors, shape = [], {}, [1, 3, 224, 224]

    def conv(name, cin, cout, k, stride, groups, act):
        nonlocal shape
        pad = {"top": 0, "left": 0, "bottom": 1, "right": 1} if stride == 2 else \
            {"top": k // 2, "left": k // 2, "bottom": k // 2, "right": k // 2}
        out_hw = (shape[2] + pad["top"] + pad["bottom"] - k) // stride + 1
        w = torch.randn(cout, cin // groups, k, k, generator=g) * (2.0 / (cin // groups * k * k))
        tensors[name + ".weight"] = w * 12
        tensors[name + ".bias"] = torch.randn(cout, generator=g) * 0.1
        out = [1, cout, out_hw, out_hw]
        ops.append({"type": "DEPTHWISE_CONV_2D" if groups > 1 else "CONV_2D", "name": name,
                    "inputs": [ops[-1]["output"] if ops else "input"], "output": name,
                    "weight": name + ".weight", "weight_shape": list(w.shape),
                    "bias": name + ".bias", "bias_shape": [cout], "kernel": [k, k],
                    "stride": [stride, stride], "dilation": [1, 1], "pads": pad,
                    "groups": groups, "activation": act, "input_shape": shape,
                    "output_shape": out})
        shape = out

    conv("Conv", 3, 8, 3, 2, 1, "RELU6")
    conv("dw1", 8, 8, 3, 2, 8, "RELU6")
    conv("conv2", 8, 8, 3, 2, 1, "RELU6")
    conv("dw3", 8, 8, 3, 2, 8, "RELU6")
    conv("Conv_1", 8, 16, 3, 2, 1, "RELU6")
    ops.append({"type": "AVERAGE_POOL_2D", "name": "pool", "inputs": ["Conv_1"], "output": "pool",
                "kernel": [7, 7], "stride": [1, 1],
                "pads": {"top": 0, "left": 0, "bottom": 0, "right": 0}, "activation": "NONE",
                "input_shape": shape, "output_shape": [1, 16, 1, 1]})
    shape = [1, 16, 1, 1]
    conv("logits", 16, 5, 1, 1, 1, "NONE")
    ops.append({"type": "RESHAPE", "name": "squeeze", "inputs": ["logits"], "output": "squeeze",
                "new_shape": [1, 5], "output_shape": [1, 5]})
    ops.append({"type": "SOFTMAX", "name": "probs", "inputs": ["squeeze"], "output": "probs",
                "beta": 1.0, "axis": -1, "output_shape": [1, 5]})
    config = {"format": "float32-backbone-graph/v1", "model": "tiny random test backbone",
              "input": {"name": "input", "shape": [1, 3, 224, 224], "layout": "NCHW"},
              "outputs": {"logits": {"name": "squeeze", "shape": [1, 5]},
                          "probabilities": {"name": "probs", "shape": [1, 5]}},
              "feature_maps": {"stride32_7x7x16": "Conv_1"}, "num_classes": 5, "ops": ops}
    return config, tensors


def tiny(args):
    """Random tiny captioner package + golden outputs of this file's PyTorch code."""
    from PIL import Image
    out = args.out
    os.makedirs(out, exist_ok=True)
    torch.manual_seed(7)
    config, backbone = tiny_backbone(7)
    sentences = ["a dog runs on the grass .", "two dogs play in the snow .",
                 "a man rides a bike .", "a girl in a red shirt jumps .",
                 "the boy plays with a ball on the beach ."] * 3
    groups = [("x", sentences)]
    spm_path = train_word_spm(groups, 1, os.path.join(out, "spm"))
    os.unlink(os.path.join(out, "spm.vocab"))
    codec = WordCodec(spm_path)
    hp = {"grid": "7x7x16", "projection_dim": 8, "embed_dim": 8, "hidden_dim": 12,
          "attention_dim": 6, "dropout": 0.0}
    model = Captioner(hp, len(codec), 16)
    with torch.no_grad():
        for p in model.parameters():  # larger than the default init so that outputs vary
            p.copy_(torch.randn_like(p) * 0.8)
    model.eval()
    cfg = {"architecture": "show-attend-tell", "plugin": "captioner", "hparams": hp,
           "script": "tools/train_captioner.py"}
    # write_package takes the backbone from the data folder; the tiny one is written here.
    write_package(out, model, cfg, spm_path, None, torch.float32, {
        "id": "captioner-tiny", "version": "0", "name": "tiny random captioner (tests)",
        "training": {"script": "tools/train_captioner.py tiny", "data": [
            {"name": "none (random weights)", "licence": "CC0", "attribution": "Glosa tests"}]},
        "licence": "CC0 (random weights)"}, backbone=(config, backbone))
    # Image: a 224x224 pattern (exact input), and a 61x97 one for the resize check.
    yy, xx = np.mgrid[0:224, 0:224]
    img = np.stack([(xx * 255 // 223), (yy * 255 // 223), ((xx * 7 + yy * 13) % 256)], axis=2)
    img = img.astype(np.uint8)
    img.tofile(os.path.join(out, "image-224x224.rgb"))
    small = np.stack([(np.arange(97)[None, :] * 37 + np.arange(61)[:, None] * 11) % 256] * 3, 2)
    small[..., 1] = 255 - small[..., 1]
    small = small.astype(np.uint8)
    small.tofile(os.path.join(out, "image-97x61.rgb"))
    resized = np.asarray(Image.fromarray(small).resize((224, 224), Image.BILINEAR))
    resized.tofile(os.path.join(out, "image-97x61-resized-224.rgb"))
    # Golden outputs.
    forward = bench_mobilenet_torch.build(config, backbone, outputs=["Conv_1"])
    x = torch.from_numpy(((img.astype(np.float32) - 128) / 128).transpose(2, 0, 1).copy())[None]
    with torch.no_grad():
        grid = forward(x)["Conv_1"].flatten(2).transpose(1, 2)  # [1, 49, 16]
        feats = model.encode(grid)
        h, c, proj = model.start(feats)
        tok = torch.tensor([BOS])
        tokens, logps, atts = [], [], []
        for _ in range(8):
            logits, alpha, h, c = model.step(feats, proj, tok, h, c)
            logits[:, SUPPRESS] = -math.inf
            lp = torch.log_softmax(logits, dim=1)
            tok = lp.argmax(dim=1)
            if int(tok) == EOS:
                break
            tokens.append(int(tok))
            logps.append(float(lp[0, tok]))
            atts.append(alpha[0].tolist())
    golden = {"features": grid[0].flatten().tolist(), "grid": [7, 7], "feature_dim": 16,
              "greedy": {"max_length": 8, "suppress_tokens": SUPPRESS, "tokens": tokens,
                         "token_log_probs": logps, "attention": atts,
                         "text": codec.decode(tokens)}}
    with open(os.path.join(out, "golden.json"), "w") as f:
        json.dump(golden, f)
    log("wrote %s (%d tokens: %r)" % (out, len(tokens), codec.decode(tokens)))


def bleu(args):
    groups = load_captions(data_dir(args.data), args.split)
    with open(args.hyps, encoding="utf-8") as f:
        hyps = [line.rstrip("\n").lower() for line in f]
    refs = [[c.lower() for c in caps] for _, caps in groups]
    score = glosa_metrics.corpus_bleu(hyps, refs)
    print("BLEU-4 %.2f on flickr8k/%s (%d images, 5 references, lower-cased, 13a)" % (
        score.score, args.split, len(hyps)))


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    sub = p.add_subparsers(dest="cmd", required=True)
    t = sub.add_parser("train")
    t.add_argument("--run", default="captioner")
    t.add_argument("--runs-dir")
    t.add_argument("--data")
    t.add_argument("--features", help="feature cache dir (default <runs>/captioner-features)")
    t.add_argument("--threads", type=int, default=1)
    t.add_argument("--batch-size", type=int, default=64)
    t.add_argument("--lr", type=float, default=1e-3)
    t.add_argument("--lr-decay", type=float, default=0.5, help="lr factor after a dev stall")
    t.add_argument("--alpha-c", type=float, default=1.0, help="doubly stochastic weight")
    t.add_argument("--clip-norm", type=float, default=5.0)
    t.add_argument("--max-epochs", type=int, default=30)
    t.add_argument("--max-minutes", type=float, default=0)
    t.add_argument("--patience", type=int, default=4)
    t.add_argument("--min-count", type=int, default=5)
    t.add_argument("--max-len", type=int, default=40)
    t.add_argument("--seed", type=int, default=1)
    t.add_argument("--checkpoint-minutes", type=float, default=8.0)
    for k, v in DEFAULTS.items():
        t.add_argument("--" + k.replace("_", "-"), type=type(v), default=v)
    e = sub.add_parser("export")
    e.add_argument("checkpoint")
    e.add_argument("--id", default="captioner-en")
    e.add_argument("--out")
    e.add_argument("--data")
    e.add_argument("--features")
    e.add_argument("--dtype", default="f16", choices=["f16", "f32"])
    e.add_argument("--version", default="1.0.0")
    e.add_argument("--score-beam", type=int, default=0,
                   help="also decode dev with the training code's beam search of this size")
    e.add_argument("--engine-hyps", help="dev captions written by glosa-cli caption with this "
                   "package (one per image, dev order): recorded as scores.flickr8k/dev-engine")
    b = sub.add_parser("bleu", help="BLEU-4 of one caption per line against the split's "
                       "references, e.g. glosa-cli caption output (lower-cased, 13a, 5 refs)")
    b.add_argument("hyps")
    b.add_argument("--split", default="dev")
    b.add_argument("--data")
    k = sub.add_parser("tiny")
    k.add_argument("out")
    args = p.parse_args()
    {"train": train, "export": export, "tiny": tiny, "bleu": bleu}[args.cmd](args)


if __name__ == "__main__":
    main()
