#!/usr/bin/python3
"""Export a Transformer package to two ONNX graphs for the ONNX Runtime column of the translation
benchmark (docs/benchmarks.md), then check them against PyTorch through
onnxruntime-node (tools/bench/ort_translate.mjs --check).

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

from glosa import REPO_ROOT as ROOT, TOOLS_DIR
from glosa.eval import evaluate  # noqa: E402
from glosa.train import trainer as glosa_train  # noqa: E402
from glosa.export import marian as marian_torch  # noqa: E402

ORT_NODE_VERSION = "1.20"
ORT_SCRIPT = os.path.join(TOOLS_DIR, "bench", "ort_translate.mjs")
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
    """Runs tools/bench/ort_translate.mjs with onnxruntime-node found in the cache folder; returns the
    last JSON line it prints."""
    command = ["node", ORT_SCRIPT, "--ort-dir", ensure_onnxruntime_node()] + list(args)
    out = subprocess.run(command, check=True, capture_output=True, text=True).stdout
    lines = [line for line in out.splitlines() if line.startswith("{")]
    if not lines:
        raise RuntimeError("no JSON line from %s:\n%s" % (" ".join(command), out))
    return json.loads(lines[-1])


def encode_sources(codec, sentences):
    """Source ids with EOS appended, as bench_translate and tools/bench/translate_torch.py make them."""
    if isinstance(codec, marian_torch.MarianCodec):
        return codec.encode(list(sentences))  # vocab.json ids, </s> appended
    return [s + [glosa_train.EOS] for s in codec.encode(list(sentences))]


def load(folder):
    """(model in float32 eval mode, codec, info) for a package or a MarianMT folder."""
    if marian_torch.is_marian_folder(folder):
        model = marian_torch.Marian.load(folder)
        with open(os.path.join(folder, "config.json"), encoding="utf-8") as f:
            c = json.load(f)
        hparams = {"heads": c["decoder_attention_heads"], "d_model": c["d_model"],
                   "ffn_dim": c["decoder_ffn_dim"], "encoder_layers": c["encoder_layers"],
                   "decoder_layers": c["decoder_layers"]}
        name = "marian-" + os.path.basename(os.path.normpath(folder))
        return model, marian_torch.MarianCodec(folder), {
            "architecture": "transformer", "hparams": hparams, "manifest": {"id": name}}
    model, codec, info = evaluate.load_model(folder)
    return model.float().eval(), codec, info


def special_ids(model):
    """(pad, start, eos): the training code's PAD/BOS/EOS, or a MarianMT model's own
    (<pad> is also its decoder start, </s> is 0)."""
    if isinstance(model, marian_torch.Marian):
        return model.pad_id, model.start_id, model.eos_id
    return glosa_train.PAD, glosa_train.BOS, glosa_train.EOS


def output_logits(model, h):
    """The output layer: a MarianMT model's own (final_logits_bias), else the tied embedding."""
    if isinstance(model, marian_torch.Marian):
        return model.logits(h)
    return torch.nn.functional.linear(h, model.embedding.weight)


class EncoderGraph(torch.nn.Module):
    def __init__(self, model):
        super().__init__()
        self.m = model

    def forward(self, src):
        state = self.m.start_state(src, src != special_ids(self.m)[0])
        L = len(self.m.decoder.layers)
        return (state["src_pad"],) + tuple(
            state["cross_%s%d" % (kv, i)] for i in range(L) for kv in "kv")


class DecoderStepGraph(torch.nn.Module):
    def __init__(self, model, top_k):
        super().__init__()
        self.m = model
        self.top_k = top_k
        self.register_buffer("suppressed", torch.tensor(special_ids(model)[:2]))

    def forward(self, token, position, src_pad, *caches):
        m = self.m
        L = len(m.decoder.layers)
        cross = [(caches[2 * i], caches[2 * i + 1]) for i in range(L)]
        past = [(caches[2 * L + 2 * i], caches[2 * L + 2 * i + 1]) for i in range(L)]
        # Transformer.embed with the step as a tensor (its Python offset would be frozen by the
        # trace): the same E[token] * sqrt(d) + PE[position].
        x = m.embedding(token) * m.scale + m.pe.index_select(0, position)
        h, present, _ = m.step_layers(x, past, cross, src_pad)
        log_probs = torch.log_softmax(output_logits(m, h), -1)
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
    pad, start, eos = special_ids(model)
    src = torch.tensor([[5, 6, 7, eos], [8, 9, eos, pad]])
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
        "quantization": None,
        "decoder_layers": L, "heads": heads, "d_head": d_head, "d_model": h["d_model"],
        "ffn_dim": h["ffn_dim"], "encoder_layers": h["encoder_layers"],
        "vocab_size": model.embedding.weight.shape[0], "max_positions": model.pe.shape[0],
        "top_k": top_k, "pad_id": pad, "bos_id": start, "eos_id": eos,
        "encoder_outputs": ["src_pad"] + cross, "cross": cross, "past": past,
        "present": present}
    with open(os.path.join(out_dir, "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=1)
    return manifest


@torch.no_grad()
def check(model, codec, out_dir, sentences):
    """Max |log-prob(ORT, cached steps) - log-prob(PyTorch decode, full recomputation)| over the
    teacher-forced positions of PyTorch's greedy output."""
    pad, start, _ = special_ids(model)
    ids = encode_sources(codec, sentences)
    if isinstance(model, marian_torch.Marian):
        src, mask = marian_torch.pad_sources(ids, pad)
    else:
        src, mask = glosa_train.pad_sources(ids)
    hyps = model.greedy(src, mask, int(src.shape[1] * 1.5 + 10))
    tgt_in = [[start] + h for h in hyps]  # the input at each position; EOS is predicted
    T = max(len(t) for t in tgt_in)
    ys = torch.full((len(ids), T), pad, dtype=torch.long)
    for b, t in enumerate(tgt_in):
        ys[b, :len(t)] = torch.tensor(t)
    if isinstance(model, marian_torch.Marian):
        ref = model.teacher_forced(src, mask, ys)  # cached steps, <pad> not suppressed
    else:
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


def quantize_int8(src, dst):
    """Writes src's graph with every MatMul by a constant [K, N] weight replaced by ONNX's
    integer ops, as onnxruntime.quantization.quantize_dynamic(per_channel=True,
    weight_type=QInt8) writes them (that package is not installable here; python3-onnx is):

        DynamicQuantizeLinear(x) -> x_q uint8, x_scale, x_zero   (per tensor, per call)
        MatMulInteger(x_q, W_q int8 [K, N], x_zero, zeros [N]) -> int32
        Cast(float) * (x_scale * w_scale [N])

    Weights symmetric per output column (w_scale = max|W[:, n]| / 127, zero point 0), as the
    engine's int8 weights are per output row. ORT's graph optimiser fuses the pattern into
    DynamicQuantizeMatMul / MatMulIntegerToFloat (its own dynamic-quantization kernels). One
    DynamicQuantizeLinear per distinct input (the q, k and v projections share theirs). The
    attention products (activation by activation) and the embedding lookup stay float32.
    Returns the number of MatMuls replaced."""
    import numpy as np
    import onnx
    from onnx import helper, numpy_helper, TensorProto
    m = onnx.load(src)
    g = m.graph
    inits = {i.name: i for i in g.initializer}
    quantized, new_inits, nodes, replaced = {}, [], [], 0
    for node in g.node:
        w = inits.get(node.input[1]) if node.op_type == "MatMul" else None
        if w is None or len(w.dims) != 2 or w.data_type != TensorProto.FLOAT:
            nodes.append(node)
            continue
        x, out, base = node.input[0], node.output[0], node.input[1].replace(":", "_")
        if x not in quantized:
            names = tuple("%s_%s_%d" % (x.replace(":", "_"), k, len(quantized))
                          for k in ("q", "scale", "zero"))
            nodes.append(helper.make_node("DynamicQuantizeLinear", [x], list(names)))
            quantized[x] = names
        x_q, x_scale, x_zero = quantized[x]
        W = numpy_helper.to_array(w).astype(np.float32)
        scale = np.maximum(np.abs(W).max(0), 1e-30) / 127.0  # [N]
        new_inits += [
            numpy_helper.from_array(np.clip(np.round(W / scale), -127, 127).astype(np.int8),
                                    base + "_int8"),
            numpy_helper.from_array(np.zeros(W.shape[1], np.int8), base + "_zero"),
            numpy_helper.from_array(scale.astype(np.float32), base + "_scale")]
        nodes += [
            helper.make_node("MatMulInteger", [x_q, base + "_int8", x_zero, base + "_zero"],
                             [out + "_i32"]),
            helper.make_node("Cast", [out + "_i32"], [out + "_f32"], to=TensorProto.FLOAT),
            helper.make_node("Mul", [x_scale, base + "_scale"], [out + "_rescale"]),
            helper.make_node("Mul", [out + "_f32", out + "_rescale"], [out])]
        replaced += 1
    used = {i for n in nodes for i in n.input}
    kept = [i for i in g.initializer if i.name in used]
    del g.node[:]
    g.node.extend(nodes)
    del g.initializer[:]
    g.initializer.extend(kept + new_inits)
    onnx.checker.check_model(m)
    onnx.save(m, dst)
    return replaced


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--model", default=os.path.join(ROOT, "resources", "models",
                                                   "transformer-en-es"),
                   help="package folder, or a Hugging Face MarianMT folder (tools/marian_torch.py)")
    p.add_argument("--out", help="output folder (default build/onnx/<model id>)")
    p.add_argument("--opset", type=int, default=17)
    p.add_argument("--top-k", type=int, default=8,
                   help="best entries per row output by the step graph (>= 2 x the beam size)")
    p.add_argument("--no-check", action="store_true")
    p.add_argument("--int8", metavar="DIR",
                   help="also write the graphs with int8 MatMulInteger weights into DIR "
                        "(quantize_int8), and compare their greedy ids with float32's")
    a = p.parse_args(argv)
    torch.set_num_threads(1)
    model, codec, info = load(a.model)
    if info["architecture"] != "transformer":
        p.error("only the Transformer has an ONNX export")
    out = a.out or os.path.join(ROOT, "build", "onnx", info["manifest"]["id"])
    export(model, info, out, a.opset, a.top_k)
    print("wrote %s/encoder.onnx, decoder_step.onnx, manifest.json" % out)
    if not a.no_check:
        result = check(model, codec, out, CHECK_SENTENCES)
        print("check against PyTorch: %d sentences, %d positions, max |diff log-prob| %.3g, "
              "argmax equal %d/%d (%s)" % (result["sentences"], result["positions"],
                                           result["max_abs_diff_logp"], result["argmax_equal"],
                                           result["positions"], result["ort"]))
    if a.int8:
        os.makedirs(a.int8, exist_ok=True)
        for graph in ("encoder.onnx", "decoder_step.onnx"):
            n = quantize_int8(os.path.join(out, graph), os.path.join(a.int8, graph))
            print("wrote %s/%s: %d MatMuls on int8 weights" % (a.int8, graph, n))
        with open(os.path.join(out, "manifest.json")) as f:
            manifest = json.load(f)
        manifest["quantization"] = ("int8: DynamicQuantizeLinear + MatMulInteger, weights "
                                    "symmetric per output column (export_onnx.quantize_int8)")
        with open(os.path.join(a.int8, "manifest.json"), "w") as f:
            json.dump(manifest, f, indent=1)
        if not a.no_check:
            ids = encode_sources(codec, CHECK_SENTENCES)
            with tempfile.TemporaryDirectory() as tmp:
                request = os.path.join(tmp, "ids.json")
                with open(request, "w") as f:
                    json.dump(ids, f)
                rows = {}
                for name, graphs in (("float32", out), ("int8", a.int8)):
                    run_ort(["--graphs", graphs, "--ids", request, "--warmup", "0",
                             "--output", os.path.join(tmp, name + ".json")])
                    with open(os.path.join(tmp, name + ".json")) as f:
                        rows[name] = json.load(f)["ids"]
            print("int8 graphs: greedy ids equal to float32's on %d/%d sentences" % (
                sum(x == y for x, y in zip(rows["float32"], rows["int8"])), len(ids)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
