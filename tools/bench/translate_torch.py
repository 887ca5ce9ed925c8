#!/usr/bin/python3
"""PyTorch side of the translation speed benchmark (docs/benchmarks.md): the same exported package,
sentences, strategy and thread count as build-*/bin/bench_translate, run with the training code's
own model classes and searches in eager mode (model.greedy, evaluate.beam_search).

  # the input: every k-th distinct English source of the Tatoeba test split (never committed)
  tools/bench/translate_torch.py --make-input /tmp/bench-en.txt --count 400
  # greedy and beam 4, batch 1 and 32, two threads
  tools/bench/translate_torch.py --model resources/models/transformer-en-es --input /tmp/bench-en.txt \
      --strategy greedy --batch 1 --threads 2 --output /tmp/torch-greedy-b1.txt
  # a Hugging Face MarianMT (OPUS-MT) folder: tools/marian_torch.py, greedy only
  tools/bench/translate_torch.py --model /tmp/opus-shape --input /tmp/bench-en.txt --batch 1 --threads 1

Prints one JSON line: sentences/s, target tokens/s (generated pieces, EOS excluded), wall
seconds of the decoding loop (tokenisation and detokenisation included, model loading excluded)
and the peak resident memory of the process (ru_maxrss, model loading included).

Two PyTorch implementations (--impl):
  training  the training code's own model methods: its Transformer has no key/value cache, so each
            step re-runs the decoder over the whole prefix (quadratic in the target length); the
            RNN is recurrent and carries its state. The PyTorch model as we train and evaluate it.
  cached    (Transformer) the same modules and weights driven step by step with a key/value cache
            and the cross-attention keys/values computed once, as the engine does: the fair
            baseline for decoding speed. Its translations are checked against `training` in
            docs/benchmarks.md (identical outputs).
"""

import argparse
import json
import math
import os
import resource
import sys
import time

import torch
import torch.nn.functional as F

from glosa.eval import evaluate  # noqa: E402
from glosa.data import pairs as glosa_data  # noqa: E402
from glosa.train import trainer as glosa_train  # noqa: E402
from glosa.export import marian as marian_torch  # noqa: E402


class CachedTransformer:
    """Incremental decoding with the model's own modules (start_state / step / reorder_state, the
    interface evaluate.beam_search drives), plus a greedy search with model.greedy's rules."""

    def __init__(self, model):
        self.m = model

    def start_state(self, src, src_mask):
        m = self.m
        memory = m.encode(src, src_mask)
        cross = []
        for layer in m.decoder.layers:
            a = layer.cross_attn
            cross.append((a.split(a.k_proj(memory)), a.split(a.v_proj(memory))))
        return {"pad": ~src_mask[:, None, None, :], "cross": cross,
                "keys": [None] * len(cross), "values": [None] * len(cross), "t": 0}

    @staticmethod
    def _attend(a, q, k, v, mask=None):
        scores = torch.matmul(q, k.transpose(-1, -2)) / math.sqrt(a.d_head)
        if mask is not None:
            scores = scores.masked_fill(mask, float("-inf"))
        attn = torch.softmax(scores, dim=-1)
        out = torch.matmul(attn, v)  # [N, h, 1, d_head]
        N = out.shape[0]
        return a.out_proj(out.transpose(1, 2).reshape(N, 1, a.heads * a.d_head)), attn

    def step(self, state, ys):
        m, t = self.m, state["t"]
        y = m.embed(ys[:, -1:], offset=t)  # [N, 1, d]
        keys, values = list(state["keys"]), list(state["values"])
        attn = None
        for l, layer in enumerate(m.decoder.layers):
            a = layer.self_attn
            z = layer.self_attn_norm(y)
            q, k, v = a.split(a.q_proj(z)), a.split(a.k_proj(z)), a.split(a.v_proj(z))
            if keys[l] is not None:
                k, v = torch.cat([keys[l], k], 2), torch.cat([values[l], v], 2)
            keys[l], values[l] = k, v
            y = y + self._attend(a, q, k, v)[0]
            a = layer.cross_attn
            q = a.split(a.q_proj(layer.cross_attn_norm(y)))
            out, attn = self._attend(a, q, *state["cross"][l], state["pad"])
            y = y + out
            y = y + layer.ffn(layer.ffn_norm(y))
        logits = F.linear(m.decoder.final_norm(y[:, -1]), m.embedding.weight)
        new = dict(state, keys=keys, values=values, t=t + 1)
        return torch.log_softmax(logits.float(), -1), attn[:, :, -1].mean(1), new

    def reorder_state(self, state, index):
        pick = (lambda x: None if x is None else x.index_select(0, index))
        return dict(state, pad=pick(state["pad"]),
                    cross=[(pick(k), pick(v)) for k, v in state["cross"]],
                    keys=[pick(k) for k in state["keys"]],
                    values=[pick(v) for v in state["values"]])

    def greedy(self, src, src_mask, max_len):
        """model.greedy's rules (PAD/BOS suppressed, stop at EOS or max_len)."""
        state = self.start_state(src, src_mask)
        B = src.shape[0]
        ys = torch.full((B, 1), glosa_train.BOS, dtype=torch.long)
        done = torch.zeros(B, dtype=torch.bool)
        out = [[] for _ in range(B)]
        for _ in range(min(max_len, self.m.pe.shape[0] - 1)):
            logp, _, state = self.step(state, ys)
            logp[:, glosa_train.PAD] = float("-inf")
            logp[:, glosa_train.BOS] = float("-inf")
            nxt = logp.argmax(-1)
            for b, (tok, d) in enumerate(zip(nxt.tolist(), done.tolist())):
                if not d and tok != glosa_train.EOS:
                    out[b].append(tok)
            done |= nxt == glosa_train.EOS
            if bool(done.all()):
                break
            ys = nxt[:, None]
        return out


def make_input(path, count, pair="en-es", src="en", tgt="es", split="test"):
    groups = glosa_data.group_references(glosa_data.load_pairs(pair, split, src, tgt))
    step = max(1, len(groups) // count)
    sources = [s for s, _ in groups[::step]][:count]
    with open(path, "w", encoding="utf-8") as f:
        for s in sources:
            f.write(s + "\n")
    print("wrote %d sentences to %s" % (len(sources), path))


@torch.no_grad()
def run(model, codec, sentences, strategy, batch, beam, alpha, max_len_a, max_len_b):
    """Translations and target ids in input order, and the number of generated target pieces.
    Batches are made of consecutive sentences after a stable sort by length, as
    glosa_train.translate does."""
    marian = isinstance(codec, marian_torch.MarianCodec)
    if marian:  # vocab.json ids, </s> appended
        ids = codec.encode(list(sentences))
    else:
        ids = [s + [glosa_train.EOS] for s in codec.encode(list(sentences))]
    order = sorted(range(len(ids)), key=lambda i: len(ids[i]))
    out = [None] * len(ids)
    out_ids = [None] * len(ids)
    tokens = 0
    for k in range(0, len(order), batch):
        chunk = order[k:k + batch]
        if marian:
            src, mask = marian_torch.pad_sources([ids[i] for i in chunk], codec.pad)
        else:
            src, mask = glosa_train.pad_sources([ids[i] for i in chunk])
        max_len = int(src.shape[1] * max_len_a + max_len_b)
        if strategy == "greedy":
            hyps = model.greedy(src, mask, max_len)
        else:
            hyps = evaluate.beam_search(model, src, mask, max_len, beam, alpha)
        for i, h in zip(chunk, hyps):
            tokens += len(h)
            out[i] = codec.decode(h)
            out_ids[i] = h
    return out, out_ids, tokens


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--make-input", metavar="PATH")
    p.add_argument("--count", type=int, default=400)
    p.add_argument("--model", help="package folder (model.json + model.safetensors + spm.model), "
                   "or a Hugging Face MarianMT folder")
    p.add_argument("--input", help="one sentence per line")
    p.add_argument("--strategy", choices=["greedy", "beam"], default="greedy")
    p.add_argument("--beam", type=int, default=4)
    p.add_argument("--alpha", type=float, default=0.6)
    p.add_argument("--impl", choices=["training", "cached"], default="training",
                   help="ignored for a MarianMT folder (tools/marian_torch.py, cached)")
    p.add_argument("--batch", type=int, default=1)
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--max-len-a", type=float, default=1.5)
    p.add_argument("--max-len-b", type=float, default=10)
    p.add_argument("--warmup", type=int, default=8, help="sentences translated before timing")
    p.add_argument("--output", help="write the translations here")
    p.add_argument("--output-ids", help="write the target ids here, a line per sentence")
    a = p.parse_args(argv)
    if a.make_input:
        make_input(a.make_input, a.count)
        return 0
    if not a.model or not a.input:
        p.error("--model and --input are required")
    os.environ.pop("OPENBLAS_CORETYPE", None)
    torch.set_num_threads(a.threads)
    if marian_torch.is_marian_folder(a.model):
        if a.strategy != "greedy":
            p.error("a MarianMT folder decodes greedily only here")
        model, codec = marian_torch.Marian.load(a.model), marian_torch.MarianCodec(a.model)
        info = {"manifest": {"id": "marian:" + os.path.basename(os.path.normpath(a.model))}}
        a.impl = "marian_torch"
    else:
        model, codec, info = evaluate.load_model(a.model)
        model.eval()
    if a.impl == "cached":
        if info["architecture"] != "transformer":
            p.error("--impl cached is for the Transformer (the RNN is recurrent already)")
        model = CachedTransformer(model)
    with open(a.input, encoding="utf-8") as f:
        sentences = [line.rstrip("\n") for line in f]
    beam = a.beam if a.strategy == "beam" else 1
    run(model, codec, sentences[:a.warmup], a.strategy, a.batch, beam, a.alpha, a.max_len_a,
        a.max_len_b)
    start = time.perf_counter()
    out, out_ids, tokens = run(model, codec, sentences, a.strategy, a.batch, beam, a.alpha,
                               a.max_len_a, a.max_len_b)
    seconds = time.perf_counter() - start
    if a.output:
        with open(a.output, "w", encoding="utf-8") as f:
            for line in out:
                f.write(line + "\n")
    if a.output_ids:
        with open(a.output_ids, "w") as f:
            for row in out_ids:
                f.write(" ".join(map(str, row)) + "\n")
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0
    print(json.dumps({
        "engine": "pytorch-eager %s (%s)" % (torch.__version__, a.impl),
        "model": info["manifest"]["id"],
        "strategy": a.strategy if a.strategy == "greedy" else "beam %d" % beam,
        "batch": a.batch, "threads": a.threads, "sentences": len(sentences),
        "target_tokens": tokens, "seconds": round(seconds, 3),
        "sentences_per_s": round(len(sentences) / seconds, 2),
        "tokens_per_s": round(tokens / seconds, 1), "peak_rss_mb": round(peak_mb, 1)}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
