"""Training machinery shared by train_transformer.py and train_rnn.py.

A model script provides an `Architecture` (name, default hyperparameters, a builder) and calls
`main()`. Everything else lives here: data loading and token-based batching, the Adam + warm-up +
inverse-square-root schedule, label-smoothed cross entropy, periodic atomic checkpoints in
$GLOSA_RUNS/<run>/ (default /work/runs/<run>, outside the repository), automatic resume from the
latest checkpoint (mid-epoch, with the same batch order), dev BLEU at every epoch end or every N
minutes, keeping the best model, early stopping, and `--init-from <package dir>` to restart from an
exported model package when the checkpoints are gone.

Models built by an Architecture must:
  * have state_dict() keys equal to the exported tensor names (docs/training.md),
  * implement `loss_logits(src, src_mask, tgt_in) -> [batch, tgt_len, vocab]` (teacher forcing),
  * implement `greedy(src, src_mask, max_len) -> [[token ids]]` (without BOS/EOS).
Token conventions: source = pieces + </s>; decoder input = <s> + pieces; decoder output =
pieces + </s>; pad id 0 is masked everywhere.
"""

import argparse
import json
import math
import os
import random
import re
import signal
import sys
import time

import torch
import torch.nn.functional as F

from glosa.corpus import broad as glosa_corpus  # noqa: E402
from glosa.data import pairs as glosa_data  # noqa: E402
from glosa.eval import metrics as glosa_metrics  # noqa: E402
from glosa.data import safetensors as glosa_safetensors  # noqa: E402

PAD, UNK, BOS, EOS = glosa_data.PAD_ID, glosa_data.UNK_ID, glosa_data.BOS_ID, glosa_data.EOS_ID


class Dropout(torch.nn.Module):
    """nn.Dropout with a cheaper mask: torch 1.13's CPU bernoulli_ draws one random number per
    element (18 ms for a 3500 x 1024 activation here, a fifth of a training step); this draws one
    64-bit number per four elements and compares 16-bit slices with p rounded to 1/65536 (5 ms).
    Same expectation and the same global RNG, so checkpoints resume as before."""

    def __init__(self, p):
        super().__init__()
        self.p = float(p)

    def forward(self, x):
        if not self.training or self.p == 0.0:
            return x
        n = x.numel()
        bits = torch.randint(-2**63, 2**63 - 1, ((n + 3) // 4,), dtype=torch.int64,
                             device=x.device).view(torch.int16)[:n].view(x.shape)
        threshold = int(round(self.p * 65536)) - 32768
        # Multiplying by a float mask: x * bool_mask takes a slow type-promotion path (7 ms).
        mask = (bits >= threshold).to(x.dtype).mul_(1.0 / (1.0 - self.p))
        return x * mask

    def extra_repr(self):
        return "p=%g" % self.p


class _SmoothedCrossEntropy(torch.autograd.Function):
    """Label-smoothed cross entropy, mean over the targets that are not `ignore`, from logits in
    any float type, computed in row chunks that stay in cache: per row the loss is
    -(1 - eps) * logp[target] - eps * mean(logp), and the gradient
    softmax - (1 - eps) * onehot - eps / V. Equal to F.cross_entropy(..., label_smoothing=eps,
    ignore_index=ignore) within float rounding. On a 16k vocabulary F.cross_entropy made five
    passes over a [tokens, V] fp32 tensor in main memory (its log_softmax backward alone took 15%
    of a CPU step); this reads the logits twice and writes the gradient once."""

    # Rows per chunk. On a CPU 128 x 16k fp32 = 8 MB stays within the L3 cache; on a GPU that size
    # meant thousands of kernel launches a step, and a [25k, 16k] fp32 chunk fits its memory.
    CHUNK = {"cpu": 128}
    CHUNK_OTHER = 32768

    @staticmethod
    def chunk(device):
        return _SmoothedCrossEntropy.CHUNK.get(device.type, _SmoothedCrossEntropy.CHUNK_OTHER)

    @staticmethod
    def forward(ctx, logits, target, eps, ignore):
        valid = target != ignore
        tgt = torch.where(valid, target, torch.zeros_like(target))
        rows = torch.empty(logits.shape[0], dtype=torch.float32, device=logits.device)
        chunk = _SmoothedCrossEntropy.chunk(logits.device)
        for i in range(0, logits.shape[0], chunk):
            j = i + chunk
            logp = torch.log_softmax(logits[i:j].float(), dim=-1)
            rows[i:j] = -(1.0 - eps) * logp.gather(1, tgt[i:j, None]).squeeze(1) \
                - eps * logp.mean(dim=-1)
        count = valid.sum().clamp(min=1)
        ctx.save_for_backward(logits, tgt, valid, count)
        ctx.eps = eps
        return (rows * valid).sum() / count

    @staticmethod
    def backward(ctx, grad):
        logits, tgt, valid, count = ctx.saved_tensors
        eps, V = ctx.eps, logits.shape[-1]
        scale = valid.float() * (grad / count)
        out = torch.empty_like(logits)
        chunk = _SmoothedCrossEntropy.chunk(logits.device)
        for i in range(0, logits.shape[0], chunk):
            j = i + chunk
            g = torch.softmax(logits[i:j].float(), dim=-1).sub_(eps / V)
            g.scatter_add_(1, tgt[i:j, None], torch.full((g.shape[0], 1), -(1.0 - eps),
                                                          device=g.device))
            out[i:j] = g.mul_(scale[i:j, None])
        return out, None, None, None


def smoothed_cross_entropy(logits, target, eps, ignore=PAD):
    """logits [N, V], target [N] -> scalar loss (see _SmoothedCrossEntropy)."""
    return _SmoothedCrossEntropy.apply(logits, target, float(eps), ignore)


def runs_dir(explicit=None):
    return explicit or os.environ.get("GLOSA_RUNS") or "/work/runs"


def log(*args):
    print(time.strftime("%H:%M:%S"), *args, flush=True)


class Architecture:
    """What a model script hands to main(): `build(hparams, vocab_size) -> nn.Module`."""

    def __init__(self, name, plugin, script, defaults, build, describe=None):
        self.name = name            # "transformer", "rnn-attention" (model.json architecture)
        self.plugin = plugin        # "transformer", "rnnattention" (model.json plugin)
        self.script = script        # "tools/train_transformer.py"
        self.defaults = defaults    # architecture hyperparameters with defaults
        self.build = build
        self.describe = describe    # optional: hparams -> str


# ---------------------------------------------------------------------------------------------
# Data


class SpmCodec:
    def __init__(self, path):
        import sentencepiece as spm
        self.path = path
        self.sp = spm.SentencePieceProcessor(model_file=path)
        for pid, piece in ((PAD, "<pad>"), (UNK, "<unk>"), (BOS, "<s>"), (EOS, "</s>")):
            if self.sp.id_to_piece(pid) != piece:
                raise ValueError("%s: id %d is %r, expected %r" % (path, pid,
                                                                  self.sp.id_to_piece(pid), piece))

    def __len__(self):
        return self.sp.get_piece_size()

    def encode(self, texts):
        return self.sp.encode(texts, num_threads=torch.get_num_threads())

    def decode(self, ids):
        return self.sp.decode(ids)


def encode_pairs(codec, pairs, max_len):
    """[(src ids + EOS, tgt ids)] keeping pairs whose sides are at most max_len pieces."""
    return glosa_corpus.examples(codec.encode([s for s, _ in pairs]),
                                 codec.encode([t for _, t in pairs]), EOS, max_len)


def make_batches(examples, max_tokens, seed):
    """Token-based batches: examples sorted by length (with a seeded random tie-break so batches
    differ between epochs), grouped so that batch_size * max(padded source, padded target length)
    stays under max_tokens, then shuffled. Deterministic for a given seed (needed for resume).
    Sorted in numpy: sorting a million Python tuples took a minute of the training thread, which
    a GPU spends waiting."""
    import numpy as np
    rng = np.random.RandomState(seed % 2**32)
    src_len = np.fromiter((len(s) for s, _ in examples), dtype=np.int64, count=len(examples))
    tgt_len = np.fromiter((len(t) for _, t in examples), dtype=np.int64, count=len(examples))
    order = np.lexsort((rng.random_sample(len(examples)), src_len, tgt_len))
    longest = np.maximum(src_len, tgt_len + 1)[order].tolist()
    batches, start, cur_max = [], 0, 0
    for k, m in enumerate(longest):
        if k > start and (k - start + 1) * max(cur_max, m) > max_tokens:
            batches.append(order[start:k].tolist())
            start, cur_max = k, 0
        cur_max = max(cur_max, m)
    if start < len(longest):
        batches.append(order[start:].tolist())
    rng.shuffle(batches)
    return batches


def collate(examples, idx):
    """src [B, S], src_mask [B, S] (True = real token), tgt_in [B, T], tgt_out [B, T]."""
    srcs = [examples[i][0] for i in idx]
    tgts = [examples[i][1] for i in idx]
    import numpy as np
    B = len(idx)
    S = max(len(s) for s in srcs)
    T = max(len(t) for t in tgts) + 1
    # Filled in numpy: a torch.tensor per row cost more than a GPU step of a small model.
    src = np.full((B, S), PAD, dtype=np.int64)
    tgt_in = np.full((B, T), PAD, dtype=np.int64)
    tgt_out = np.full((B, T), PAD, dtype=np.int64)
    tgt_in[:, 0] = BOS
    for b, (s, t) in enumerate(zip(srcs, tgts)):
        src[b, :len(s)] = s
        tgt_in[b, 1:len(t) + 1] = t
        tgt_out[b, :len(t)] = t
        tgt_out[b, len(t)] = EOS
    src = torch.from_numpy(src)
    return src, src != PAD, torch.from_numpy(tgt_in), torch.from_numpy(tgt_out)


def pad_sources(id_lists):
    B = len(id_lists)
    S = max(len(s) for s in id_lists)
    src = torch.full((B, S), PAD, dtype=torch.long)
    for b, s in enumerate(id_lists):
        src[b, :len(s)] = torch.tensor(s)
    return src, src != PAD


def dev_sample(groups, n):
    """n sources spread evenly over the dev set (all of it when n is 0 or larger). Not the first
    n: dev sets are ordered (newstest2012 by story, Tatoeba by length), and the first 400 news
    sentences score 11.7 BLEU where the whole set scores 21.4 (docs/training.md)."""
    if not n or n >= len(groups):
        return groups
    return [groups[i * len(groups) // n] for i in range(n)]


class TatoebaData:
    """The Tatoeba split of one pair: the same examples every epoch, one dev set."""

    def __init__(self, cfg, codec, data):
        tr = cfg["train"]
        self.train = encode_pairs(codec, glosa_data.load_pairs(cfg["pair"], "train", cfg["src"],
                                                               cfg["tgt"], data), tr["max_len"])
        groups = glosa_data.group_references(
            glosa_data.load_pairs(cfg["pair"], "dev", cfg["src"], cfg["tgt"], data))
        groups = dev_sample(groups, tr["dev_size"])
        self.dev = {"tatoeba": groups}
        log("train %d pairs, dev %d sources" % (len(self.train), len(groups)))

    def examples(self, epoch):
        return self.train


class CorpusData:
    """A corpus folder made by glosa_corpus.py: each epoch samples the mixture and applies the
    augmentations afresh (seeded by the epoch, so a resumed run sees the same examples); several
    dev sets, whose mean BLEU picks the best checkpoint."""

    def __init__(self, cfg, codec, workers):
        tr = cfg["train"]
        self.cfg, self.codec = cfg, codec
        self.dev = glosa_corpus.read_dev(cfg["corpus"], cfg["src"], cfg["tgt"])
        self.dev = {k: dev_sample(v, tr["dev_size"]) for k, v in self.dev.items()}
        self.epoch, self.cache = None, None
        self.pool = glosa_corpus.EpochPool(cfg["corpus"], codec.path,
                                           cfg["src"] + "-" + cfg["tgt"], tr["seed"],
                                           cfg.get("mixture"), tr["max_len"], workers)
        log("corpus %s: dev %s, %d data workers%s" % (
            cfg["corpus"], {k: len(v) for k, v in self.dev.items()}, workers,
            ", mixture overrides %s" % cfg["mixture"] if cfg.get("mixture") else ""))

    def examples(self, epoch):
        if epoch != self.epoch:
            t0 = time.time()
            self.cache, sampled = self.pool.examples(epoch)
            self.epoch = epoch
            log("epoch %d data: %d examples of %d sampled pairs, %d target tokens [%.0fs waited]"
                % (epoch + 1, len(self.cache), sampled, sum(len(t) for _, t in self.cache),
                   time.time() - t0))
        return self.cache


# ---------------------------------------------------------------------------------------------
# Decoding helpers used for dev evaluation


@torch.no_grad()
def translate(model, codec, sources, batch_size=64, max_len_a=1.5, max_len_b=10, decode=None):
    """Greedy translations of a list of source strings (batched by length, order preserved).
    `decode(model, src, src_mask, max_len)` overrides the search (default: model.greedy)."""
    was_training = model.training
    model.eval()
    ids = [s + [EOS] for s in codec.encode(list(sources))]
    order = sorted(range(len(ids)), key=lambda i: len(ids[i]))
    out = [None] * len(ids)
    for k in range(0, len(order), batch_size):
        chunk = order[k:k + batch_size]
        src, mask = pad_sources([ids[i] for i in chunk])
        device = next(model.parameters()).device
        src, mask = src.to(device), mask.to(device)
        max_len = int(src.shape[1] * max_len_a + max_len_b)
        hyps = (decode or (lambda m, s, sm, ml: m.greedy(s, sm, ml)))(model, src, mask, max_len)
        for i, h in zip(chunk, hyps):
            out[i] = codec.decode(h)
    if was_training:
        model.train()
    return out


def evaluate_groups(model, codec, groups, **kw):
    """(BLEU, chrF, hypotheses) on [(source, [refs])]."""
    hyps = translate(model, codec, [s for s, _ in groups], **kw)
    refs = [r for _, r in groups]
    return (glosa_metrics.corpus_bleu(hyps, refs).score, glosa_metrics.corpus_chrf(hyps, refs),
            hyps)


# ---------------------------------------------------------------------------------------------
# Checkpoints


def stop_on_signals():
    """SIGTERM and SIGINT set the returned flag instead of killing the process: the training loop
    checkpoints and stops at the next step, so a stopped run resumes where it was."""
    stop = {"flag": False}

    def on_signal(signum, frame):
        log("signal %d: checkpointing and stopping" % signum)
        stop["flag"] = True
    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    return stop


def atomic_save(obj, path):
    tmp = path + ".tmp"
    torch.save(obj, tmp)
    os.replace(tmp, path)


def dequantize(tensors):
    """int8 weights (I8 codes + "<name>.scale" F32 per row, docs/model-package.md) as float32,
    the way the engine's ModelPackage::weight reads them; other tensors as they are."""
    import numpy as np
    out = {}
    for name, t in tensors.items():
        if name.endswith(".scale") and name[:-len(".scale")] in tensors:
            continue
        if t.dtype == np.int8:
            scale = tensors[name + ".scale"].astype(np.float32)
            t = t.astype(np.float32) * scale.reshape((-1,) + (1,) * (t.ndim - 1))
        out[name] = t
    return out


def quantize_int8(tensors):
    """Every weight matrix (2-D and up: projections, GRU gates, the embedding) as int8 codes with
    one F32 scale per row (per output channel): scale = max|row| / 127, code = round(w / scale),
    halves away from zero, as engine/ops/quantizedlinear.cpp quantizes. Vectors (biases, layer
    norms) keep their float dtype."""
    out = {}
    for name, t in tensors.items():
        if t.dim() < 2:
            out[name] = t
            continue
        w = t.float().reshape(t.shape[0], -1)
        amax = w.abs().max(dim=1).values
        scale = torch.where(amax > 0, amax / 127.0, torch.ones_like(amax))
        q = w / scale[:, None]
        codes = torch.trunc(q + torch.where(q >= 0, 0.5, -0.5)).clamp(-127, 127).to(torch.int8)
        out[name] = codes.reshape(t.shape)
        out[name + ".scale"] = scale.float()
    return out


def compact_checkpoint(src, dst):
    """A checkpoint's weights as int8 codes with per-row scales (quantize_int8), without the
    optimizer: a third of the fp32 file, small enough to come back from a lent GPU machine, and
    exactly what an int8 export quantizes (re-quantizing the dequantized rows gives the same
    codes). expand_checkpoint() makes a loadable checkpoint of it again."""
    try:  # torch >= 2.6 (the GPU machine) loads tensors only unless told otherwise
        ck = torch.load(src, map_location="cpu", weights_only=False)
    except TypeError:
        ck = torch.load(src, map_location="cpu")
    ck.pop("optimizer", None)
    ck["model"] = quantize_int8({k: v.float() for k, v in ck["model"].items()})
    ck["compact"] = "int8"
    atomic_save(ck, dst)


def expand_checkpoint(src, dst):
    ck = torch.load(src, map_location="cpu")
    if ck.pop("compact", None) != "int8":
        raise SystemExit("%s is not a compact checkpoint" % src)
    ck["model"] = {k: torch.as_tensor(v).float() for k, v in dequantize(
        {k: v.numpy() for k, v in ck["model"].items()}).items()}
    atomic_save(ck, dst)


def package_tensors(package_dir):
    """model.safetensors of an exported package, int8 weights dequantized: {name: numpy array}."""
    return dequantize(glosa_safetensors.load(os.path.join(package_dir, "model.safetensors")))


def load_package_weights(model, package_dir):
    """Loads model.safetensors (any float dtype, or int8 with scales) of an exported package."""
    tensors = package_tensors(package_dir)
    own = model.state_dict()
    missing = sorted(set(own) - set(tensors))
    extra = sorted(set(tensors) - set(own))
    if missing or extra:
        raise ValueError("%s: tensors missing %s, unexpected %s" % (package_dir, missing, extra))
    for name, t in tensors.items():
        if tuple(t.shape) != tuple(own[name].shape):
            raise ValueError("%s: tensor %s has shape %s, model expects %s"
                             % (package_dir, name, tuple(t.shape), tuple(own[name].shape)))
    model.load_state_dict({k: torch.as_tensor(v).float() for k, v in tensors.items()})


def remap_embedding(model, surgery_path):
    """Starts the rows of the pieces tools/spm_surgery.py gave the tokenizer from what the model
    knows (its spm-surgery.json): the mean of the rows listed, plus for a capitalised word the mean
    capitalised-minus-lower-case difference of the word pairs the vocabulary had."""
    with open(surgery_path, encoding="utf-8") as f:
        plan = json.load(f)
    emb = model.embedding.weight
    with torch.no_grad():
        old = emb.detach().clone()
        pairs = torch.tensor(plan["capital_pairs"], dtype=torch.long)
        capital = (old[pairs[:, 0]] - old[pairs[:, 1]]).mean(0) if len(pairs) else 0
        for i, how in plan["init"].items():
            row = old[torch.tensor(how["mean_of"], dtype=torch.long)].mean(0)
            if how.get("plus") == "capital":
                row = row + capital
            emb[int(i)] = row
    log("embedding rows of %d new pieces initialised from %s" % (len(plan["init"]), surgery_path))


def package_embedding(package_dir):
    """The joint `embedding.weight` of an exported package as float32 vectors: an int8 package
    stores codes and a scale per row, and the codes alone are not the vectors."""
    return torch.as_tensor(package_tensors(package_dir)["embedding.weight"]).float()


def build_from_checkpoint(arch_builders, path):
    """(model, config, checkpoint dict) from a best.pt/last.pt; arch_builders maps name->build."""
    ck = torch.load(path, map_location="cpu")
    cfg = ck["config"]
    build = arch_builders[cfg["architecture"]]
    model = build(cfg["hparams"], cfg["vocab_size"])
    model.load_state_dict(ck["model"])
    model.eval()
    return model, cfg, ck


# ---------------------------------------------------------------------------------------------
# Training loop


def add_common_args(p, arch):
    g = p.add_argument_group("run")
    g.add_argument("--run", required=True, help="run name: checkpoints in $GLOSA_RUNS/<run>/")
    g.add_argument("--runs-dir", help="default $GLOSA_RUNS or /work/runs")
    g.add_argument("--data", help="default $GLOSA_DATA or <repo>/../shared/data")
    g.add_argument("--pair", help="data folder tatoeba-<pair>; default: from --src/--tgt, English "
                   "first (en-de for both en->de and de->en)")
    g.add_argument("--corpus", help="train on a corpus folder made by glosa_corpus.py (its "
                   "spm.model, mixture and dev sets) instead of Tatoeba")
    g.add_argument("--mixture", type=glosa_corpus.parse_mixture,
                   help="with --corpus: origin=weight,... replacing glosa_corpus.MIXTURE's weights "
                   "for the origins named (e.g. a news-weighted fine-tuning run started with "
                   "--init-from); stored in the run, so a resume keeps it")
    g.add_argument("--src", default="en")
    g.add_argument("--tgt", default="es")
    g.add_argument("--spm", help="SentencePiece model; default: train a joint one in the run dir")
    g.add_argument("--vocab-size", type=int, default=8000)
    g.add_argument("--init-from", help="package dir (model.json + model.safetensors + spm.model), "
                   "or another run's checkpoint (.pt, its run dir's spm.model), to take weights, "
                   "hyperparameters and tokenizer from when no checkpoint exists (e.g. es-en "
                   "warm-started from the en-es run: same joint vocabulary, same architecture)")
    g.add_argument("--init-embedding", help="package dir whose joint `embedding.weight` (same "
                   "vocabulary and width) starts this model's embedding; its spm.model is used")
    g.add_argument("--threads", type=int, default=2)
    g.add_argument("--device", default="cpu", help="cpu, or cuda on a GPU machine")
    g.add_argument("--data-workers", type=int, default=2,
                   help="processes preparing the next epoch's examples (--corpus only)")
    g.add_argument("--autocast", choices=("auto", "bf16", "off"), default="auto",
                   help="bf16 autocast for the matmuls (weights, optimizer, softmax, layer norm and "
                   "loss stay fp32); auto: on for cuda and for CPUs with native bf16 "
                   "(avx512_bf16 / amx_bf16), where it trains about 2x faster")
    g.add_argument("--seed", type=int, default=1)
    t = p.add_argument_group("training")
    t.add_argument("--max-tokens", type=int, default=3000,
                   help="batch size in tokens: batch * max(padded src, padded tgt) <= this")
    t.add_argument("--max-len", type=int, default=100, help="drop training pairs longer (pieces)")
    t.add_argument("--lr", type=float, default=1e-3, help="peak learning rate")
    t.add_argument("--warmup", type=int, default=600, help="linear warm-up steps, then 1/sqrt")
    t.add_argument("--rewarm", type=int, default=200,
                   help="after --init-from: linear ramp of the learning rate over this many steps")
    t.add_argument("--adam-betas", type=float, nargs=2, default=[0.9, 0.98])
    t.add_argument("--adam-eps", type=float, default=1e-9)
    t.add_argument("--weight-decay", type=float, default=0.0)
    t.add_argument("--clip-norm", type=float, default=1.0, help="0 turns clipping off")
    t.add_argument("--label-smoothing", type=float, default=0.1)
    t.add_argument("--max-epochs", type=int, default=40)
    t.add_argument("--max-minutes", type=float, default=0, help="stop after this much training "
                   "time in this process (0: no limit)")
    t.add_argument("--checkpoint-minutes", type=float, default=5.0)
    t.add_argument("--snapshot-every", type=int, default=0,
                   help="every N steps also keep the weights as snap-<step>.pt, for "
                   "tools/average_checkpoints.py (0: none)")
    t.add_argument("--keep-snapshots", type=int, default=8,
                   help="snapshots kept (the oldest is deleted)")
    t.add_argument("--eval-minutes", type=float, default=15.0,
                   help="dev evaluation every N minutes and at every epoch end")
    t.add_argument("--dev-size", type=int, default=0,
                   help="evaluate on N grouped dev sources spread evenly over each set (0: all)")
    t.add_argument("--patience", type=int, default=6,
                   help="stop after this many evaluations without a better dev BLEU")
    t.add_argument("--log-every", type=int, default=50)
    a = p.add_argument_group("architecture (ignored when resuming: the checkpoint's values win)")
    for k, v in arch.defaults.items():
        flag = "--" + k.replace("_", "-")
        if isinstance(v, bool):
            a.add_argument(flag, type=lambda x: x.lower() in ("1", "true", "yes"), default=v)
        else:
            a.add_argument(flag, type=type(v), default=v)


def lr_at(step, peak, warmup):
    """Linear warm-up to `peak` over `warmup` steps, then peak * sqrt(warmup / step)
    (the inverse-square-root schedule of Vaswani et al. 2017, rescaled to a chosen peak)."""
    step = max(step, 1)
    if step < warmup:
        return peak * step / warmup
    return peak * math.sqrt(warmup / step)


def latest_checkpoint(run_dir):
    p = os.path.join(run_dir, "last.pt")
    return p if os.path.exists(p) else None


def cpu_has_bf16():
    try:
        with open("/proc/cpuinfo") as f:
            flags = next((line.split(":", 1)[1].split() for line in f if line.startswith("flags")), [])
    except OSError:
        return False
    return "avx512_bf16" in flags or "amx_bf16" in flags


def resumed_config(arch, args, argv, ckpt_path):
    """The run's config from its latest checkpoint, with the training options given explicitly
    now applied (so a resumed run can be given more time or a new patience); everything else,
    architecture and data direction included, comes from the checkpoint."""
    ck = torch.load(ckpt_path, map_location="cpu")
    cfg = ck["config"]
    if cfg["architecture"] != arch.name:
        raise SystemExit("%s holds a %s model, not %s" % (ckpt_path, cfg["architecture"],
                                                          arch.name))
    log("resuming from %s (step %d, epoch %d, batch %d)" % (
        ckpt_path, ck["step"], ck["epoch"], ck["batch_in_epoch"]))
    given = {a.split("=")[0][2:].replace("-", "_") for a in (argv if argv is not None
                                                               else sys.argv[1:])
             if a.startswith("--")}
    cfg["train"].update({k: getattr(args, k) for k in cfg["train"]
                         if k in given and k not in ("seed", "max_tokens", "max_len")})
    for k in ("snapshot_every", "keep_snapshots"):  # options newer than some runs
        cfg["train"].setdefault(k, getattr(args, k))
    return cfg, ck


def init_source(arch, args):
    """What a new run starts from: (hyperparameters, tokenizer path or None, initial step, the
    --init-from checkpoint or None), from --init-from (a checkpoint or a package),
    --init-embedding or the command line."""
    hparams = {k: getattr(args, k) for k in arch.defaults}
    if args.init_from and os.path.isfile(args.init_from):
        init_ck = torch.load(args.init_from, map_location="cpu")
        other = init_ck["config"]
        if other["architecture"] != arch.name:
            raise SystemExit("%s is a %s checkpoint" % (args.init_from, other["architecture"]))
        init_step = int(init_ck["step"])
        log("initialising from checkpoint %s (%s-%s, step %d)"
            % (args.init_from, other.get("src"), other.get("tgt"), init_step))
        spm_path = os.path.join(os.path.dirname(os.path.abspath(args.init_from)), "spm.model")
        return dict(other["hparams"]), spm_path, init_step, init_ck
    if args.init_from:
        with open(os.path.join(args.init_from, "model.json"), encoding="utf-8") as f:
            manifest = json.load(f)
        if manifest["architecture"] != arch.name:
            raise SystemExit("%s is a %s package" % (args.init_from, manifest["architecture"]))
        hparams = {k: manifest["hyperparameters"][k] for k in arch.defaults}
        # --spm: the package's tokenizer after tools/spm_surgery.py (its spm-surgery.json
        # beside it says how the new pieces' rows start).
        spm_path = args.spm or os.path.join(args.init_from, manifest["tokenizer"]["source"])
        init_step = int(manifest.get("training", {}).get("steps", 0))
        log("initialising from package %s (step %d)" % (args.init_from, init_step))
        return hparams, spm_path, init_step, None
    if args.init_embedding:
        with open(os.path.join(args.init_embedding, "model.json"), encoding="utf-8") as f:
            manifest = json.load(f)
        return hparams, os.path.join(args.init_embedding, manifest["tokenizer"]["source"]), 0, None
    return hparams, args.spm, 0, None


def place_tokenizer(args, spm_path, run_dir):
    """The run's spm.model: copied from spm_path (else the corpus's), or trained on the pair's
    Tatoeba data when the run has none yet."""
    dst_spm = os.path.join(run_dir, "spm.model")
    if args.corpus and not spm_path:
        spm_path = os.path.join(args.corpus, "spm.model")
    if spm_path:
        if os.path.abspath(spm_path) != os.path.abspath(dst_spm):
            with open(spm_path, "rb") as fi, open(dst_spm, "wb") as fo:
                fo.write(fi.read())
    elif not os.path.exists(dst_spm):
        log("training a joint SentencePiece model (%d pieces)" % args.vocab_size)
        glosa_data.train_spm(args.pair, run_dir, args.vocab_size, data=args.data)


def new_config(arch, args, run_dir):
    """A new run's config (and the --init-from checkpoint, read once, or None); places its
    tokenizer."""
    hparams, spm_path, init_step, init_ck = init_source(arch, args)
    place_tokenizer(args, spm_path, run_dir)
    cfg = {
        "architecture": arch.name, "plugin": arch.plugin, "script": arch.script,
        "hparams": hparams, "pair": args.pair, "src": args.src, "tgt": args.tgt,
        "train": {k: getattr(args, k) for k in (
            "max_tokens", "max_len", "lr", "warmup", "rewarm", "adam_betas", "adam_eps",
            "weight_decay", "clip_norm", "label_smoothing", "max_epochs", "max_minutes",
            "checkpoint_minutes", "snapshot_every", "keep_snapshots", "eval_minutes",
            "dev_size", "patience", "log_every", "seed")},
        "init_from": args.init_from, "init_step": init_step,
        "init_embedding": args.init_embedding,
        "corpus": os.path.abspath(args.corpus) if args.corpus else None,
        "mixture": args.mixture,
    }
    return cfg, init_ck


def initial_weights(model, cfg, args, init_ck):
    """A new run's starting weights: the --init-from checkpoint's or package's (the embedding
    rows of new pieces remapped after tools/spm_surgery.py), or another architecture's embedding
    (--init-embedding); otherwise the builder's random ones stay."""
    if cfg.get("init_from") and os.path.isfile(cfg["init_from"]):
        model.load_state_dict(init_ck["model"])
    elif cfg.get("init_from"):
        load_package_weights(model, cfg["init_from"])
        surgery = os.path.join(os.path.dirname(os.path.abspath(args.spm or "")), "spm-surgery.json")
        if args.spm and os.path.exists(surgery):
            remap_embedding(model, surgery)
    elif cfg.get("init_embedding"):
        # Another architecture's embedding over the same joint vocabulary: the RNN starts from
        # the Transformer's word vectors instead of noise (the rest is trained from scratch).
        emb = package_embedding(cfg["init_embedding"])
        if tuple(emb.shape) != tuple(model.embedding.weight.shape):
            raise SystemExit("%s: embedding %s, model expects %s" % (
                cfg["init_embedding"], tuple(emb.shape), tuple(model.embedding.weight.shape)))
        with torch.no_grad():
            model.embedding.weight.copy_(emb)
        log("embedding initialised from %s" % cfg["init_embedding"])


class Run:
    """One training run: its folder, config, model, optimiser, counters and data; `train()` runs
    the epochs (checkpoints, dev evaluations, early stopping, time limit, signals)."""

    def __init__(self, arch, args, cfg, ck, init_ck, run_dir):
        self.args, self.cfg, self.run_dir = args, cfg, run_dir
        self.tr = tr = cfg["train"]
        self.codec = SpmCodec(os.path.join(run_dir, "spm.model"))
        cfg["vocab_size"] = len(self.codec)
        torch.manual_seed(tr["seed"])
        self.model = model = arch.build(cfg["hparams"], cfg["vocab_size"])
        self.device = torch.device(args.device)
        self.use_bf16 = args.autocast == "bf16" or (
            args.autocast == "auto" and (self.device.type == "cuda" or cpu_has_bf16()))
        log("autocast: %s" % ("bf16" if self.use_bf16 else "off"))
        nparams = sum(p.numel() for p in model.parameters())
        self.opt = torch.optim.Adam(model.parameters(), lr=tr["lr"],
                                    betas=tuple(tr["adam_betas"]), eps=tr["adam_eps"],
                                    weight_decay=tr["weight_decay"])
        self.state = {"step": cfg.get("init_step", 0), "epoch": 0, "batch_in_epoch": 0,
                      "best_bleu": -1.0, "evals_since_best": 0, "history": [],
                      "train_seconds": 0.0}
        if ck is not None:
            model.load_state_dict(ck["model"])
            model.to(self.device)
            self.opt.load_state_dict(ck["optimizer"])
            for k in self.state:
                self.state[k] = ck[k]
            torch.set_rng_state(ck["torch_rng"])
        else:
            initial_weights(model, cfg, args, init_ck)
        model.to(self.device)  # no-op where the checkpoint's weights already moved it
        log("%s: %d parameters, hparams %s" % (arch.name, nparams, json.dumps(cfg["hparams"])))
        log("run dir %s, training options %s" % (run_dir, json.dumps(tr)))
        if cfg.get("corpus") and args.corpus:
            cfg["corpus"] = os.path.abspath(args.corpus)  # the folder may have moved between runs
        self.data = (CorpusData(cfg, self.codec, args.data_workers) if cfg.get("corpus")
                     else TatoebaData(cfg, self.codec, args.data))
        self.batches = []  # the current epoch's, for the fraction of an epoch evaluate() logs

    def save(self, path, best=False):
        obj = {"config": self.cfg,
               "model": {k: v.cpu() for k, v in self.model.state_dict().items()},
               "torch_rng": torch.get_rng_state()}
        obj.update(self.state)
        if not best:
            obj["optimizer"] = self.opt.state_dict()
        atomic_save(obj, path)

    def save_snapshot(self):
        # Weights only (no optimizer): what averaging the last few needs.
        self.save(os.path.join(self.run_dir, "snap-%07d.pt" % self.state["step"]), best=True)
        snaps = sorted(f for f in os.listdir(self.run_dir) if re.fullmatch(r"snap-\d+\.pt", f))
        for f in snaps[:max(0, len(snaps) - self.tr["keep_snapshots"])]:
            os.remove(os.path.join(self.run_dir, f))

    def dev_scores(self):
        """Each dev set's BLEU and chrF2, and all hypotheses; logs two examples a set."""
        scores, all_hyps = {}, []
        for name, groups in self.data.dev.items():
            b, c, h = evaluate_groups(self.model, self.codec, groups)
            scores[name] = {"bleu": b, "chrf": c}
            all_hyps += h
            for i in range(min(2, len(h))):
                log("  [%s] %s => %s" % (name, groups[i][0], h[i]))
        return scores, all_hyps

    def evaluate(self):
        t0 = time.time()
        state, run_dir = self.state, self.run_dir
        scores, hyps = self.dev_scores()
        # One set: its score. Several: the mean, so that no domain is traded away unseen.
        bleu = sum(v["bleu"] for v in scores.values()) / len(scores)
        chrf = sum(v["chrf"] for v in scores.values()) / len(scores)
        entry = {"step": state["step"], "epoch": state["epoch"] + state["batch_in_epoch"] /
                 max(len(self.batches), 1), "train_minutes": state["train_seconds"] / 60,
                 "dev_bleu": bleu, "dev_chrf": chrf, "time": time.strftime("%Y-%m-%d %H:%M:%S")}
        if len(scores) > 1:
            entry["dev_sets"] = scores
        state["history"].append(entry)
        improved = bleu > state["best_bleu"]
        if improved:
            state["best_bleu"] = bleu
            state["evals_since_best"] = 0
            self.save(os.path.join(run_dir, "best.pt"), best=True)
            with open(os.path.join(run_dir, "best-dev-hyps.txt"), "w", encoding="utf-8") as f:
                f.write("\n".join(hyps) + "\n")
        else:
            state["evals_since_best"] += 1
        with open(os.path.join(run_dir, "history.json"), "w") as f:
            json.dump(state["history"], f, indent=1)
        log("DEV step %d epoch %.2f train %.1f min: BLEU %.2f chrF %.2f (best %.2f%s) %s "
            "[%.0fs]" % (state["step"], entry["epoch"], entry["train_minutes"], bleu, chrf,
                         state["best_bleu"], ", new best" if improved else "",
                         " ".join("%s %.2f" % (k, v["bleu"]) for k, v in scores.items())
                         if len(scores) > 1 else "", time.time() - t0))
        self.save(os.path.join(run_dir, "last.pt"))

    def step(self, train):
        """One optimiser step on the current batch; returns (loss, target tokens, lr)."""
        state, tr, cfg, opt = self.state, self.tr, self.cfg, self.opt
        t_step = time.time()
        src, src_mask, tgt_in, tgt_out = (x.to(self.device, non_blocking=True) for x in collate(
            train, self.batches[state["batch_in_epoch"]]))
        lr = lr_at(state["step"] + 1, tr["lr"], tr["warmup"])
        if cfg.get("init_step"):
            # Adam's moments start from zero after --init-from: ramp the rate up again
            # so that the first, sign-like Adam updates do not knock the weights about.
            lr *= min(1.0, (state["step"] + 1 - cfg["init_step"]) / tr.get("rewarm", 200))
        for g in opt.param_groups:
            g["lr"] = lr
        with torch.autocast(self.device.type, dtype=torch.bfloat16, enabled=self.use_bf16):
            logits = self.model.loss_logits(src, src_mask, tgt_in)
        loss = smoothed_cross_entropy(logits.reshape(-1, logits.shape[-1]),
                                      tgt_out.reshape(-1), tr["label_smoothing"])
        opt.zero_grad(set_to_none=True)
        loss.backward()
        if tr["clip_norm"] > 0:
            torch.nn.utils.clip_grad_norm_(self.model.parameters(), tr["clip_norm"])
        opt.step()
        state["step"] += 1
        state["batch_in_epoch"] += 1
        state["train_seconds"] += time.time() - t_step
        return float(loss), int((tgt_out != PAD).sum()), lr

    def after_step(self, clock, proc_start, stop):
        """Evaluation, checkpoints and the reasons to stop after a step: "epoch" at an epoch's
        end, "stop" to end the run, None to go on."""
        state, tr = self.state, self.tr
        if state["batch_in_epoch"] == len(self.batches):
            state["epoch"] += 1
            state["batch_in_epoch"] = 0
            self.evaluate()
            clock["eval"] = clock["ckpt"] = time.time()
            return "epoch"
        if tr["eval_minutes"] > 0 and time.time() - clock["eval"] > tr["eval_minutes"] * 60:
            self.evaluate()
            clock["eval"] = clock["ckpt"] = time.time()
        elif time.time() - clock["ckpt"] > tr["checkpoint_minutes"] * 60:
            self.save(os.path.join(self.run_dir, "last.pt"))
            clock["ckpt"] = time.time()
        if state["evals_since_best"] >= tr["patience"]:
            log("early stopping: %d evaluations without improvement" % tr["patience"])
            return "stop"
        if tr["max_minutes"] and time.time() - proc_start > tr["max_minutes"] * 60:
            log("time limit reached")
            # The steps since the last evaluation count too: a GPU run ends on its limit,
            # and its last minutes are often its best.
            if not state["history"] or state["history"][-1]["step"] != state["step"]:
                self.evaluate()
            return "stop"
        return "stop" if stop["flag"] else None

    def train(self):
        state, tr = self.state, self.tr
        stop = stop_on_signals()
        self.model.train()
        proc_start = time.time()
        clock = {"ckpt": time.time(), "eval": time.time()}
        loss_acc, tok_acc, t_acc = 0.0, 0, time.time()
        done = False
        while not done and state["epoch"] < tr["max_epochs"]:
            train = self.data.examples(state["epoch"])
            self.batches = make_batches(train, tr["max_tokens"],
                                        tr["seed"] * 1000 + state["epoch"])
            if state["batch_in_epoch"] == 0:
                log("epoch %d: %d batches" % (state["epoch"] + 1, len(self.batches)))
            while state["batch_in_epoch"] < len(self.batches):
                loss, ntok, lr = self.step(train)
                loss_acc += loss * ntok
                tok_acc += ntok
                if tr["snapshot_every"] and state["step"] % tr["snapshot_every"] == 0:
                    self.save_snapshot()
                if state["step"] % tr["log_every"] == 0:
                    dt = time.time() - t_acc
                    log("step %d epoch %d batch %d/%d loss %.3f lr %.2e %.0f tok/s" % (
                        state["step"], state["epoch"] + 1, state["batch_in_epoch"],
                        len(self.batches), loss_acc / tok_acc, lr, tok_acc / dt))
                    loss_acc, tok_acc, t_acc = 0.0, 0, time.time()
                outcome = self.after_step(clock, proc_start, stop)
                if outcome:
                    done = outcome == "stop"
                    break
            if state["evals_since_best"] >= tr["patience"]:
                done = True
        self.save(os.path.join(self.run_dir, "last.pt"))
        if hasattr(self.data, "pool"):
            self.data.pool.close()
        log("finished: step %d, best dev BLEU %.2f" % (state["step"], state["best_bleu"]))


def main(arch, argv=None):
    """Trains arch: the run's options, its config (resumed from its latest checkpoint, or new),
    the model, optimiser and data (Run), then the epochs (Run.train)."""
    p = argparse.ArgumentParser(description="Train a %s translation model" % arch.name)
    add_common_args(p, arch)
    args = p.parse_args(argv)
    args.pair = glosa_data.data_pair(args.pair, args.src, args.tgt)
    os.environ.pop("OPENBLAS_CORETYPE", None)
    torch.set_num_threads(args.threads)
    run_dir = os.path.join(runs_dir(args.runs_dir), args.run)
    os.makedirs(run_dir, exist_ok=True)
    ckpt_path = latest_checkpoint(run_dir)
    if ckpt_path:
        cfg, ck = resumed_config(arch, args, argv, ckpt_path)
        init_ck = None
    else:
        (cfg, init_ck), ck = new_config(arch, args, run_dir), None
    Run(arch, args, cfg, ck, init_ck, run_dir).train()
    return 0
