#!/usr/bin/python3
"""Export a Transformer package to two ONNX graphs for the ONNX Runtime column of the translation
benchmark (issue #14, docs/benchmarks.md), then check them against PyTorch through
onnxruntime-node (tools/ort_translate.mjs --check).

  /usr/bin/python3 tools/export_onnx.py --model resources/models/transformer-en-es \
      --out build/onnx/transformer-en-es

The graphs are traced from the training code's own modules (tools/train_transformer.py), with the
package's weights loaded by evaluate.load_model and converted to float32, as both benchmark sides do:

  encoder.onnx       src int64 [B, S] (PAD = 0 marks padding)
                     -> src_pad bool [B, 1, 1, S] (True = padding),
                        cross_k{i}, cross_v{i} float [B, heads, S, d_head] for each decoder layer i
  decoder_step.onnx  token int64 [N, 1], position int64 [1] (the step, 0 for BOS), src_pad,
                     cross_k{i}, cross_v{i}, past_k{i}, past_v{i} [N, heads, t, d_head] (t = 0 at
                     the first step)
                     -> log_probs float [N, vocab], top_log_probs float [N, K], top_ids int64
                        [N, K], present_k{i}, present_v{i} [N, heads, t + 1, d_head]

top_* are the K best entries of each row with PAD and BOS suppressed (the searches' rule), best
first, ties to the lower id (ONNX TopK): greedy reads the first, beam k the first 2k (the best 2k
candidates of a sentence are among its rows' 2k best). The host fetches only these and the cache,
so the selection over the vocabulary runs in ORT's native code, as the engine's does in C++,
rather than in JavaScript over a [N, vocab] copy (which made beam search at batch 32 spend more
time in JS and its garbage collector than in ORT). log_probs is fetched by the check only.

Choice: the cross-attention keys/values are outputs of the encoder graph (Transformer.start_state
traced as is). They depend on the encoder output only, so they are computed once per batch, as in
the engine and the PyTorch baseline; putting them in the encoder graph costs no extra session or
run call and never materialises the encoder output itself. The decoder step reuses
Transformer.step_layers, the code PyTorch decodes with; the self-attention cache is passed in and
returned (concatenation inside the graph), so the host only swaps present_* into past_*.

The check decodes a few sentences greedily in PyTorch (Transformer.greedy), teacher-forces that
output through the ONNX graphs in onnxruntime-node (encoder once, then one decoder step per
position with the cache, the whole set as one padded batch) and prints the maximum absolute
difference of the log-probabilities against Transformer.decode (full recomputation, no cache).

The graphs and a manifest.json (names and dimensions, read by ort_translate.mjs) go to --out,
outside git. onnxruntime-node is installed on first use by ensure_onnxruntime_node() into a
cache folder outside git (npm install --ignore-scripts: the npm package carries its CPU binaries).
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
import warnings

import numpy as np
import torch

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
import evaluate  # noqa: E402
import glosa_train  # noqa: E402

ORT_NODE_VERSION = "1.20"
ORT_SCRIPT = os.path.join(HERE, "ort_translate.mjs")
CHECK_SENTENCES = [
    "Hello.",
    "I don't know what you are talking about.",
    "Tom told me that he would be late for the meeting tomorrow morning.",
    "Where is the station?",
    "She has been living in this small town since she was a child, and she loves it.",
]


def ort_cache_dir():
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "glosa", "onnxruntime-node-" + ORT_NODE_VERSION)


def ensure_onnxruntime_node():
    """The folder holding node_modules/onnxruntime-node, installed there if missing. Only the
    scripts that need it install it (never the build); --ignore-scripts because the package's
    install script downloads GPU extras we do not use, the CPU binaries are in the tarball."""
    folder = ort_cache_dir()
    if not os.path.isdir(os.path.join(folder, "node_modules", "onnxruntime-node")):
        os.makedirs(folder, exist_ok=True)
        print("installing onnxruntime-node@%s into %s" % (ORT_NODE_VERSION, folder),
              file=sys.stderr)
        subprocess.run(["npm", "install", "--ignore-scripts", "--no-audit", "--no-fund",
                        "--prefix", folder, "onnxruntime-node@" + ORT_NODE_VERSION],
                       check=True, stdout=sys.stderr)
    return folder


def run_ort(args):
    """Runs tools/ort_translate.mjs with onnxruntime-node found in the cache folder; returns the
    last JSON line it prints."""
    command = ["node", ORT_SCRIPT, "--ort-dir", ensure_onnxruntime_node()] + list(args)
    out = subprocess.run(command, check=True, capture_output=True, text=True).stdout
    lines = [line for line in out.splitlines() if line.startswith("{")]
    if not lines:
        raise RuntimeError("no JSON line from %s:\n%s" % (" ".join(command), out))
    return json.loads(lines[-1])


def encode_sources(codec, sentences):
    """Source ids with EOS appended, as bench_translate and bench_translate_torch.py make them."""
    return [s + [glosa_train.EOS] for s in codec.encode(list(sentences))]


class EncoderGraph(torch.nn.Module):
    def __init__(self, model):
        super().__init__()
        self.m = model

    def forward(self, src):
        state = self.m.start_state(src, src != glosa_train.PAD)
        L = len(self.m.decoder.layers)
        return (state["src_pad"],) + tuple(
            state["cross_%s%d" % (kv, i)] for i in range(L) for kv in "kv")


class DecoderStepGraph(torch.nn.Module):
    def __init__(self, model, top_k):
        super().__init__()
        self.m = model
        self.top_k = top_k
        self.register_buffer("suppressed", torch.tensor([glosa_train.PAD, glosa_train.BOS]))

    def forward(self, token, position, src_pad, *caches):
        m = self.m
        L = len(m.decoder.layers)
        cross = [(caches[2 * i], caches[2 * i + 1]) for i in range(L)]
        past = [(caches[2 * L + 2 * i], caches[2 * L + 2 * i + 1]) for i in range(L)]
        # Transformer.embed with the step as a tensor (its Python offset would be frozen by the
        # trace): the same E[token] * sqrt(d) + PE[position].
        x = m.embedding(token) * m.scale + m.pe.index_select(0, position)
        h, present, _ = m.step_layers(x, past, cross, src_pad)
        log_probs = torch.log_softmax(torch.nn.functional.linear(h, m.embedding.weight), -1)
        top_log_probs, top_ids = log_probs.index_fill(1, self.suppressed, float("-inf")).topk(
            self.top_k, -1)
        return (log_probs, top_log_probs, top_ids) + tuple(t for kv in present for t in kv)


def export(model, info, out_dir, opset, top_k):
    os.makedirs(out_dir, exist_ok=True)
    # Transformer.embed's length check reads a shape as a Python bool; the step graph does not use
    # embed and the encoder's check is a trace-time constant we do not need in the graph.
    warnings.filterwarnings("ignore", category=torch.jit.TracerWarning)
    h = info["hparams"]
    L, heads = len(model.decoder.layers), h["heads"]
    d_head = h["d_model"] // heads
    cross = ["cross_%s%d" % (kv, i) for i in range(L) for kv in "kv"]
    past = ["past_%s%d" % (kv, i) for i in range(L) for kv in "kv"]
    present = ["present_%s%d" % (kv, i) for i in range(L) for kv in "kv"]
    src = torch.tensor([[5, 6, 7, glosa_train.EOS], [8, 9, glosa_train.EOS, glosa_train.PAD]])
    # The wrappers in eval mode: torch.onnx.export restores the mode it found when it is done,
    # and a new Module is in training mode, which would switch the model's dropout back on.
    encoder, decoder = EncoderGraph(model).eval(), DecoderStepGraph(model, top_k).eval()
    with torch.no_grad():
        torch.onnx.export(
            encoder, (src,), os.path.join(out_dir, "encoder.onnx"),
            input_names=["src"], output_names=["src_pad"] + cross, opset_version=opset,
            dynamic_axes=dict({"src": {0: "batch", 1: "src_len"},
                               "src_pad": {0: "batch", 3: "src_len"}},
                              **{n: {0: "batch", 2: "src_len"} for n in cross}))
        N, S, t = 2, 4, 3
        enc = encoder(src)
        example = ((torch.tensor([[11], [12]]), torch.tensor([t]), enc[0]) + tuple(enc[1:])
                   + tuple(torch.randn(N, heads, t, d_head) for _ in past))
        torch.onnx.export(
            decoder, example, os.path.join(out_dir, "decoder_step.onnx"),
            input_names=["token", "position", "src_pad"] + cross + past,
            output_names=["log_probs", "top_log_probs", "top_ids"] + present,
            opset_version=opset,
            dynamic_axes=dict({"token": {0: "rows"}, "src_pad": {0: "rows", 3: "src_len"},
                               "log_probs": {0: "rows"}, "top_log_probs": {0: "rows"},
                               "top_ids": {0: "rows"}},
                              **{n: {0: "rows", 2: "src_len"} for n in cross},
                              **{n: {0: "rows", 2: "past_len"} for n in past},
                              **{n: {0: "rows", 2: "present_len"} for n in present}))
    manifest = {
        "model": info["manifest"]["id"], "opset": opset, "torch": torch.__version__,
        "decoder_layers": L, "heads": heads, "d_head": d_head, "d_model": h["d_model"],
        "ffn_dim": h["ffn_dim"], "encoder_layers": h["encoder_layers"],
        "vocab_size": model.embedding.weight.shape[0], "max_positions": model.pe.shape[0],
        "top_k": top_k, "pad_id": glosa_train.PAD, "bos_id": glosa_train.BOS, "eos_id": glosa_train.EOS,
        "encoder_outputs": ["src_pad"] + cross, "cross": cross, "past": past,
        "present": present}
    with open(os.path.join(out_dir, "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=1)
    return manifest


@torch.no_grad()
def check(model, codec, out_dir, sentences):
    """Max |log-prob(ORT, cached steps) - log-prob(PyTorch decode, full recomputation)| over the
    teacher-forced positions of PyTorch's greedy output."""
    ids = encode_sources(codec, sentences)
    src, mask = glosa_train.pad_sources(ids)
    hyps = model.greedy(src, mask, int(src.shape[1] * 1.5 + 10))
    tgt_in = [[glosa_train.BOS] + h for h in hyps]  # the input at each position; EOS is predicted
    T = max(len(t) for t in tgt_in)
    ys = torch.full((len(ids), T), glosa_train.PAD, dtype=torch.long)
    for b, t in enumerate(tgt_in):
        ys[b, :len(t)] = torch.tensor(t)
    ref = torch.log_softmax(model.decode(ys, model.encode(src, mask), mask).float(), -1)
    with tempfile.TemporaryDirectory() as tmp:
        request = os.path.join(tmp, "check.json")
        with open(request, "w") as f:
            json.dump({"sources": ids, "targets": tgt_in}, f)
        result = run_ort(["--graphs", out_dir, "--check", request,
                          "--check-out", os.path.join(tmp, "logp.f32")])
        got = np.fromfile(os.path.join(tmp, "logp.f32"), dtype=np.float32).reshape(
            len(ids), T, -1)
    diff = 0.0
    argmax_equal = 0
    positions = 0
    for b, t in enumerate(tgt_in):
        r, g = ref[b, :len(t)].numpy(), got[b, :len(t)]
        # -inf entries (none expected: nothing is masked in the output layer) would give nan
        diff = max(diff, float(np.abs(r - g).max()))
        argmax_equal += int((r.argmax(-1) == g.argmax(-1)).sum())
        positions += len(t)
    return {"sentences": len(ids), "positions": positions, "max_abs_diff_logp": diff,
            "argmax_equal": argmax_equal, "ort": result.get("ort")}


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--model", default=os.path.join(ROOT, "resources", "models",
                                                   "transformer-en-es"), help="package folder")
    p.add_argument("--out", help="output folder (default build/onnx/<model id>)")
    p.add_argument("--opset", type=int, default=17)
    p.add_argument("--top-k", type=int, default=8,
                   help="best entries per row output by the step graph (>= 2 x the beam size)")
    p.add_argument("--no-check", action="store_true")
    a = p.parse_args(argv)
    torch.set_num_threads(1)
    model, codec, info = evaluate.load_model(a.model)
    if info["architecture"] != "transformer":
        p.error("only the Transformer has an ONNX export")
    model = model.float().eval()
    out = a.out or os.path.join(ROOT, "build", "onnx", info["manifest"]["id"])
    export(model, info, out, a.opset, a.top_k)
    print("wrote %s/encoder.onnx, decoder_step.onnx, manifest.json" % out)
    if not a.no_check:
        result = check(model, codec, out, CHECK_SENTENCES)
        print("check against PyTorch: %d sentences, %d positions, max |diff log-prob| %.3g, "
              "argmax equal %d/%d (%s)" % (result["sentences"], result["positions"],
                                           result["max_abs_diff_logp"], result["argmax_equal"],
                                           result["positions"], result["ort"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
