#!/usr/bin/python3
"""The translation speed table of docs/benchmarks.md, end to end: engine float32, engine int8
(build/bin/bench_translate --compute-type), PyTorch (tools/bench/translate_torch.py) and ONNX
Runtime (tools/bench/ort_translate.mjs on the graphs of tools/export_onnx.py, Transformer only) on the
same input, strategy, batch and threads. Each row runs the sides in turn --runs times, rotating
which side goes first (a shared VM's speed drifts over minutes; alternating keeps a row's sides
under the same conditions), and prints each side's median run, the ratios, peak memory, a
roofline figure, and how many outputs equal the engine float32's.

  /usr/bin/python3 tools/bench/translate_torch.py --make-input /tmp/bench-en.txt --count 400
  OMP_WAIT_POLICY=passive /usr/bin/python3 tools/bench/translate_table.py --input /tmp/bench-en.txt

A Hugging Face MarianMT folder (--marian DIR, e.g. the random-weight opus-mt-en-es shape that
tools/bench/make_opus_shape.py writes) is benchmarked on the same sides: the engine on the packages
`glosa-cli models import` makes of it (int8, and --float32 for engine fp32; imported into
build/marian-import/ when missing), PyTorch through tools/marian_torch.py (our own implementation,
checked against transformers' outputs for the fixture), ORT on export_onnx.py's float32 graphs and
their int8 (MatMulInteger) version. Outputs are compared by token ids (random weights give text
of unknown pieces). Random weights never emit EOS, so every sentence runs to the length cap:
--max-len-a/--max-len-b set it for every side (int(a × longest source ids in the batch + b)).

  /usr/bin/python3 tools/bench/make_opus_shape.py build/opus-shape
  OMP_WAIT_POLICY=passive /usr/bin/python3 tools/bench/translate_table.py --input /tmp/bench-en.txt \
      --models --marian build/opus-shape --strategies greedy --max-len-a 1.2 --max-len-b 0 \
      --sides engine int8 torch ort ort8 --cpu 1

Set OMP_WAIT_POLICY=passive before starting it (libgomp reads it once, at load): see "Spinning
threads" in docs/benchmarks.md. The PyTorch Transformer runs --impl cached (key/value cache, the
fair baseline), the RNN --impl training (already recurrent). The ONNX graphs are exported into
build/onnx/<model> when missing, and onnxruntime-node is installed into ~/.cache/glosa on first use.
"""

import argparse
import contextlib
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))

SIDES = {"engine": "engine fp32", "int8": "engine int8", "torch": "PyTorch", "ort": "ORT fp32",
         "ort8": "ORT int8", "base": "baseline fp32", "base8": "baseline int8"}


def run_json(command, peak=False):
    """The command's last JSON line. With peak, its peak_rss_mb is replaced by the maximum
    resident set that /usr/bin/time reports for the process: the sides' own ru_maxrss(SELF) would
    start at this script's (torch loaded) because Linux carries the high-water mark of the
    forking process across exec; /usr/bin/time is small and forks the benchmark itself."""
    with tempfile.NamedTemporaryFile("r") as rss:
        if peak:
            command = ["/usr/bin/time", "-f", "%M", "-o", rss.name] + list(command)
        out = subprocess.run(command, check=True, capture_output=True, text=True).stdout
        lines = [line for line in out.splitlines() if line.startswith("{")]
        if not lines:
            raise RuntimeError("no JSON line from %s:\n%s" % (" ".join(command), out))
        result = json.loads(lines[-1])
        if peak:
            result["peak_rss_mb"] = round(int(rss.read().split()[-1]) / 1024.0, 1)
    return result


def median_run(runs):
    return sorted(runs, key=lambda r: r["seconds"])[len(runs) // 2]


def fma_peak():
    """The core's fp32 FMA peak in GFLOP/s, measured by tools/bench/fma_peak.c, compiled into this
    checkout's build/ (not --build's, which may be another checkout's)."""
    build = os.path.join(ROOT, "build", "tools")
    exe = os.path.join(build, "fma_peak")
    src = os.path.join(HERE, "fma_peak.c")
    if not os.path.exists(exe) or os.path.getmtime(exe) < os.path.getmtime(src):
        os.makedirs(build, exist_ok=True)
        subprocess.run(["cc", "-O2", "-o", exe, src], check=True)
    return run_json([exe])


def flops(h, vocab):
    """FLOPs of the dense matmuls (weights × activations; 2 per multiply-add). Attention's own
    products (scores and weighted values: 4·d per layer per attended position) and the
    element-wise ops are left out: under 5% at these lengths."""
    d, f = h["d_model"], h["ffn_dim"]
    per_step = 2 * (h["decoder_layers"] * (6 * d * d + 2 * d * f) + d * vocab)
    per_source = 2 * (h["encoder_layers"] * (4 * d * d + 2 * d * f) + h["decoder_layers"] * 2 * d * d)
    formula = ("decoder step per row: 2·(L_dec·(6d² + 2·d·f) + d·V) = 2·(%d·(6·%d² + 2·%d·%d) + %d·%d) "
               "= %.2f MFLOP; encoder per source token: 2·(L_enc·(4d² + 2·d·f) + L_dec·2d²) = %.2f MFLOP"
               % (h["decoder_layers"], d, d, f, d, vocab, per_step / 1e6, per_source / 1e6))
    return per_step, per_source, formula


def compare(reference, other):
    """(equal lines, total, first differing indices)."""
    diff = [i for i, (a, b) in enumerate(zip(reference, other)) if a != b]
    return len(reference) - len(diff), len(reference), diff


def load_average():
    with open("/proc/loadavg") as f:
        return float(f.read().split()[0])


def import_marian(args, folder):
    """(float32 package, int8 package): glosa-cli models import of the folder, once, into
    build/marian-import/<name>-{f32,int8} (a user data folder of its own, outside git)."""
    name = os.path.basename(os.path.normpath(folder))
    xdg = os.path.join(args.build, "marian-import")
    packages = []
    for suffix, extra in (("f32", ["--float32"]), ("int8", [])):
        package_id = "%s-%s" % (name, suffix)
        path = os.path.join(xdg, "Glosa", "Glosa", "models", package_id)
        if not os.path.exists(os.path.join(path, "model.json")):
            subprocess.run([os.path.join(args.build, "bin", "glosa-cli"), "models", "import",
                            folder, "--id", package_id] + extra, check=True, stdout=sys.stderr,
                           env=dict(os.environ, XDG_DATA_HOME=xdg))
        packages.append(path)
    return packages


def model_specs(args):
    """One dict per benchmarked model: its name, the folder each side reads, the codec and
    information of export_onnx.load, and whether outputs are compared as ids."""
    from glosa.export import onnx as export_onnx
    specs = []
    for model in args.models:
        package = os.path.join(ROOT, "resources", "models", model)
        torch_model, codec, info = export_onnx.load(package)
        del torch_model
        transformer = info["architecture"] == "transformer"
        specs.append({"name": model, "engine": package, "int8": package, "torch": package,
                      "impl": "cached" if transformer else "training", "onnx": transformer,
                      "codec": codec, "info": info, "ids": False})
    for folder in args.marian:
        f32, int8 = import_marian(args, folder)
        torch_model, codec, info = export_onnx.load(folder)
        del torch_model
        specs.append({"name": info["manifest"]["id"], "engine": f32, "int8": int8,
                      "torch": folder, "impl": "cached", "onnx": True, "codec": codec,
                      "info": info, "ids": True, "folder": folder})
    return specs


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--input", required=True, help="one sentence per line (--make-input above)")
    p.add_argument("--models", nargs="*", default=["transformer-en-es", "rnn-attention-en-es"],
                   help="package folders under resources/models")
    p.add_argument("--marian", nargs="*", default=[],
                   help="Hugging Face MarianMT folders (see the docstring)")
    p.add_argument("--strategies", nargs="+", default=["greedy", "beam"])
    p.add_argument("--batches", nargs="+", type=int, default=[1, 32])
    p.add_argument("--sides", nargs="+", default=["engine", "int8", "torch", "ort"],
                   choices=list(SIDES))
    p.add_argument("--threads", type=int, default=1)
    p.add_argument("--cpu", type=int, help="pin every side to this CPU (taskset -c)")
    p.add_argument("--max-len-a", type=float, default=1.5)
    p.add_argument("--max-len-b", type=float, default=10)
    p.add_argument("--runs", type=int, default=3, help="runs per side and row (odd: a true median)")
    p.add_argument("--build", default=os.path.join(ROOT, "build"))
    p.add_argument("--baseline", help="another build folder: sides base/base8 run its "
                   "bench_translate on the same packages (before/after in one run)")
    p.add_argument("--onnx", default=os.path.join(ROOT, "build", "onnx"),
                   help="folder of the exported graphs, one subfolder per model")
    p.add_argument("--show-diffs", type=int, default=5, help="differing outputs printed per row")
    args = p.parse_args()
    if os.environ.get("OMP_WAIT_POLICY", "").lower() != "passive":
        print("note: OMP_WAIT_POLICY is not 'passive'; see the docstring", file=sys.stderr)
    # Imported here: they load torch (slow), and --help should not wait for it.
    from glosa.export import onnx as export_onnx

    with open(args.input, encoding="utf-8") as f:
        sentences = [line.rstrip("\n") for line in f]
    peak = fma_peak()
    peak_gflops = max(peak["avx2_gflops"], peak["avx512_gflops"])
    work = tempfile.mkdtemp(prefix="glosa-bench-")
    pin = ["taskset", "-c", str(args.cpu)] if args.cpu is not None else []
    length = ["--max-len-a", str(args.max_len_a), "--max-len-b", str(args.max_len_b)]
    roofline, sameness, loads = [], [], []

    print("| model | search | batch | side | sent/s | tok/s | peak MB | vs ORT fp32 | vs ORT int8 "
          "| vs PyTorch | GFLOP/s (% of peak) |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for spec in model_specs(args):
        model, codec, info = spec["name"], spec["codec"], spec["info"]
        sides = [s for s in args.sides if not s.startswith("ort") or spec["onnx"]]
        src_ids = export_onnx.encode_sources(codec, sentences)
        source_tokens = sum(len(s) for s in src_ids)
        per_step = None  # the roofline is worked out for the Transformer only
        if info["architecture"] == "transformer":
            per_step, per_source, formula = flops(info["hparams"], len(codec))
            roofline.append("%s: %s; core peak %.1f GFLOP/s fp32 (tools/bench/fma_peak.c, one thread: AVX2 "
                            "%.1f, AVX-512 %.1f)" % (model, formula, peak_gflops,
                                                     peak["avx2_gflops"], peak["avx512_gflops"]))
        graphs = {"ort": os.path.join(args.onnx, model), "ort8": os.path.join(args.onnx, model + "-int8")}
        if any(s.startswith("ort") for s in sides):
            if not all(os.path.exists(os.path.join(g, "manifest.json")) for g in graphs.values()):
                with contextlib.redirect_stdout(sys.stderr):  # stdout is the table
                    export_onnx.main(["--model", spec.get("folder", spec["engine"]), "--out",
                                      graphs["ort"], "--int8", graphs["ort8"]])
            ids_file = os.path.join(work, model + "-ids.json")
            with open(ids_file, "w") as f:
                json.dump(src_ids, f)
        for strategy in args.strategies:
            for batch in args.batches:
                common = ["--input", args.input, "--strategy", strategy, "--batch", str(batch),
                          "--threads", str(args.threads)] + length
                runs = {s: [] for s in sides}
                row_loads = []
                outputs = {s: os.path.join(work, "%s-%s-%d-%s.out" % (model, strategy, batch, s))
                           for s in sides}

                def command(side, first):
                    out = ["--output-ids" if spec["ids"] else "--output", outputs[side]] if first else []
                    if side in ("engine", "int8", "base", "base8"):
                        build = args.baseline if side.startswith("base") else args.build
                        int8 = side in ("int8", "base8")
                        return pin + ([os.path.join(build, "bin", "bench_translate"), "--model",
                                       spec["int8" if int8 else "engine"], "--compute-type",
                                       "int8" if int8 else "float32"] + common + out)
                    if side == "torch":
                        return pin + (["/usr/bin/python3", os.path.join(HERE, "translate_torch.py"),
                                       "--model", spec["torch"], "--impl", spec["impl"]] + common + out)
                    if first:
                        out = ["--output", outputs[side]]
                    return pin + (["node", export_onnx.ORT_SCRIPT, "--ort-dir",
                                   export_onnx.ensure_onnxruntime_node(), "--graphs", graphs[side],
                                   "--ids", ids_file, "--strategy", strategy, "--batch", str(batch),
                                   "--threads", str(args.threads)] + length + out)

                for r in range(args.runs):
                    for k in range(len(sides)):
                        side = sides[(r + k) % len(sides)]
                        row_loads.append(load_average())
                        runs[side].append(run_json(command(side, r == 0), peak=True))
                med = {s: median_run(runs[s]) for s in sides}
                label = med[sides[0]]["strategy"]
                for s in sides:
                    m = med[s]
                    vs = []
                    for ref in ("ort", "ort8", "torch"):
                        vs.append("%.2f×" % (med[ref]["seconds"] / m["seconds"])
                                  if ref in med and ref != s else "")
                    gflops = ""
                    if strategy == "greedy" and per_step:
                        # Useful work: one decoder row-step per target token and one per EOS,
                        # the encoder per source token (finished rows still computed in a batch
                        # are not counted).
                        total = per_step * (m["target_tokens"] + m["sentences"]) + \
                            per_source * source_tokens
                        g = total / m["seconds"] / 1e9
                        gflops = "%.1f (%.0f%%)" % (g, 100 * g / peak_gflops)
                    print("| %s | %s | %d | %s | %.1f | %s | %.0f | %s | %s | %s | %s |" % (
                        model, label, batch, SIDES[s], m["sentences_per_s"],
                        format(round(m["tokens_per_s"]), ","), m["peak_rss_mb"], vs[0], vs[1],
                        vs[2], gflops), flush=True)
                row_loads.sort()
                loads.append("%s %s batch %d: %.1f (%.1f–%.1f)" % (
                    model, label, batch, row_loads[len(row_loads) // 2], row_loads[0],
                    row_loads[-1]))
                print("  %s %s batch %d: seconds %s; target tokens %s" % (
                    model, strategy, batch,
                    {s: [round(x["seconds"], 3) for x in runs[s]] for s in sides},
                    {s: med[s]["target_tokens"] for s in sides}), file=sys.stderr)

                # Same outputs: every side against engine fp32, and ORT against PyTorch (its beam
                # search is a port of PyTorch's, the engine's BeamSearch differs; docs).
                texts = {}
                for s in sides:
                    if s.startswith("ort"):
                        with open(outputs[s]) as f:
                            rows = json.load(f)["ids"]
                        texts[s] = ([" ".join(map(str, ids)) for ids in rows] if spec["ids"]
                                    else [codec.decode(ids) for ids in rows])
                    else:
                        with open(outputs[s], encoding="utf-8") as f:
                            texts[s] = [line.rstrip("\n") for line in f]
                pairs = [("engine", s) for s in sides if s != "engine"] + [("torch", "ort"),
                                                                          ("ort", "ort8")]
                for a, b in pairs:
                    if a not in texts or b not in texts:
                        continue
                    equal, total, diff = compare(texts[a], texts[b])
                    sameness.append("%s %s batch %d: %s = %s on %d/%d%s" % (
                        model, label, batch, SIDES[b], SIDES[a], equal, total,
                        " (token ids)" if spec["ids"] else ""))
                    for i in diff[:args.show_diffs]:
                        print("  differs (%s vs %s) #%d: %r\n    %s: %r\n    %s: %r" % (
                            SIDES[a], SIDES[b], i, sentences[i], SIDES[a], texts[a][i], SIDES[b],
                            texts[b][i]), file=sys.stderr)

    print()
    print("Same outputs (first run of each side):")
    for line in sameness:
        print("- " + line)
    print()
    print("Load average (1 minute, /proc/loadavg before each run: median, range):")
    for line in loads:
        print("- " + line)
    print()
    print("Roofline (dense matmul FLOPs; GFLOP/s = (decoder FLOPs × (target tokens + sentences) "
          "+ encoder FLOPs × %s) / seconds, greedy rows only):" % "source tokens")
    for line in roofline:
        print("- " + line)


if __name__ == "__main__":
    main()
