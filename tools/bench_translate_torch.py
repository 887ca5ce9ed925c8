#!/usr/bin/python3
"""PyTorch side of the translation speed benchmark (docs/benchmarks.md): the same exported package,
sentences, strategy and thread count as build-*/bin/bench_translate, run with the training code's
own model classes and searches in eager mode (model.greedy, evaluate.beam_search).

  # the input: every k-th distinct English source of the Tatoeba test split (never committed)
  bench_translate_torch.py --make-input /tmp/bench-en.txt --count 400
  # greedy and beam 4, batch 1 and 32, two threads
  bench_translate_torch.py --model resources/models/transformer-en-es --input /tmp/bench-en.txt \
      --strategy greedy --batch 1 --threads 2 --output /tmp/torch-greedy-b1.txt

Prints one JSON line: sentences/s, target tokens/s (generated pieces, EOS excluded), wall
seconds of the decoding loop (tokenisation and detokenisation included, model loading excluded)
and the peak resident memory of the process (ru_maxrss, model loading included).

Note what "eager" means here: the training code's Transformer has no key/value cache, so each
step re-runs the decoder over the whole prefix (quadratic in the target length); the RNN is
recurrent and carries its state. That is the PyTorch model as we train and evaluate it.
"""

import argparse
import json
import os
import resource
import sys
import time

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import evaluate  # noqa: E402
import glosa_data  # noqa: E402
import glosa_train  # noqa: E402


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
    """Translations in input order and the number of generated target pieces. Batches are made
    of consecutive sentences after a stable sort by length, as glosa_train.translate does."""
    ids = [s + [glosa_train.EOS] for s in codec.encode(list(sentences))]
    order = sorted(range(len(ids)), key=lambda i: len(ids[i]))
    out = [None] * len(ids)
    tokens = 0
    for k in range(0, len(order), batch):
        chunk = order[k:k + batch]
        src, mask = glosa_train.pad_sources([ids[i] for i in chunk])
        max_len = int(src.shape[1] * max_len_a + max_len_b)
        if strategy == "greedy":
            hyps = model.greedy(src, mask, max_len)
        else:
            hyps = evaluate.beam_search(model, src, mask, max_len, beam, alpha)
        for i, h in zip(chunk, hyps):
            tokens += len(h)
            out[i] = codec.decode(h)
    return out, tokens


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--make-input", metavar="PATH")
    p.add_argument("--count", type=int, default=400)
    p.add_argument("--model", help="package folder (model.json + model.safetensors + spm.model)")
    p.add_argument("--input", help="one sentence per line")
    p.add_argument("--strategy", choices=["greedy", "beam"], default="greedy")
    p.add_argument("--beam", type=int, default=4)
    p.add_argument("--alpha", type=float, default=0.6)
    p.add_argument("--batch", type=int, default=1)
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--max-len-a", type=float, default=1.5)
    p.add_argument("--max-len-b", type=float, default=10)
    p.add_argument("--warmup", type=int, default=8, help="sentences translated before timing")
    p.add_argument("--output", help="write the translations here")
    a = p.parse_args(argv)
    if a.make_input:
        make_input(a.make_input, a.count)
        return 0
    if not a.model or not a.input:
        p.error("--model and --input are required")
    os.environ.pop("OPENBLAS_CORETYPE", None)
    torch.set_num_threads(a.threads)
    model, codec, info = evaluate.load_model(a.model)
    model.eval()
    with open(a.input, encoding="utf-8") as f:
        sentences = [line.rstrip("\n") for line in f]
    beam = a.beam if a.strategy == "beam" else 1
    run(model, codec, sentences[:a.warmup], a.strategy, a.batch, beam, a.alpha, a.max_len_a,
        a.max_len_b)
    start = time.perf_counter()
    out, tokens = run(model, codec, sentences, a.strategy, a.batch, beam, a.alpha, a.max_len_a,
                      a.max_len_b)
    seconds = time.perf_counter() - start
    if a.output:
        with open(a.output, "w", encoding="utf-8") as f:
            for line in out:
                f.write(line + "\n")
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0
    print(json.dumps({
        "engine": "pytorch-eager %s" % torch.__version__, "model": info["manifest"]["id"],
        "strategy": a.strategy if a.strategy == "greedy" else "beam %d" % beam,
        "batch": a.batch, "threads": a.threads, "sentences": len(sentences),
        "target_tokens": tokens, "seconds": round(seconds, 3),
        "sentences_per_s": round(len(sentences) / seconds, 2),
        "tokens_per_s": round(tokens / seconds, 1), "peak_rss_mb": round(peak_mb, 1)}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
