#!/usr/bin/python3
"""Before/after on a loaded machine: each side runs once per round, the order rotated every
round, and each side's time is compared with a reference side's *within* each round. The median
of those per-round ratios cancels the load's drift better than a ratio of medians over minutes
(docs/benchmarks.md, "Imported models at small M"). Same engine, packages and length cap as
translate_table.py's MarianMT rows.

  OMP_WAIT_POLICY=passive /usr/bin/python3 tools/bench/alternate.py --input /tmp/bench-en200.txt \\
      --count 24 --rounds 7 --strategy greedy --batch 1 --sides build-de7c build ort --cpu 1

A side is a build folder holding bin/bench_translate (relative to the checkout or absolute), or
"ort" (ONNX Runtime on export_onnx.py's graphs, int8 or float32 as --compute-type says);
"SIDE@N" runs it with N threads (for thread scaling: --sides build@1 build@2 --reference build@1).
Prints each side's seconds per round and its per-round ratios to the reference side (default:
the last side), with the 1-minute load's range."""

import argparse
import json
import os
import statistics
import tempfile

import translate_table as table

HERE = table.HERE
ROOT = table.ROOT


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--input", required=True, help="one sentence per line")
    p.add_argument("--count", type=int, default=24, help="the first COUNT sentences")
    p.add_argument("--marian", default=os.path.join(ROOT, "build", "opus-shape"))
    p.add_argument("--build", default=os.path.join(ROOT, "build"),
                   help="where the imported packages live (build/marian-import)")
    p.add_argument("--onnx", default=os.path.join(ROOT, "build", "onnx"))
    p.add_argument("--strategy", choices=["greedy", "beam"], default="greedy")
    p.add_argument("--batch", type=int, default=1)
    p.add_argument("--compute-type", choices=["int8", "float32"], default="int8")
    p.add_argument("--threads", type=int, default=1)
    p.add_argument("--cpu", type=int, help="pin every side to this CPU (taskset -c)")
    p.add_argument("--rounds", type=int, default=7)
    p.add_argument("--sides", nargs="+", required=True)
    p.add_argument("--reference", help="the side the others are compared with (default: last)")
    p.add_argument("--max-len-a", type=float, default=1.2)
    p.add_argument("--max-len-b", type=float, default=0)
    args = p.parse_args()
    from glosa.export import onnx as export_onnx  # loads torch: after --help

    with open(args.input, encoding="utf-8") as f:
        sentences = [line.rstrip("\n") for line in f][:args.count]
    work = tempfile.mkdtemp(prefix="glosa-alternate-")
    inputs = os.path.join(work, "input.txt")
    with open(inputs, "w", encoding="utf-8") as f:
        f.write("\n".join(sentences) + "\n")
    f32, int8 = table.import_marian(args, args.marian)
    package = int8 if args.compute_type == "int8" else f32
    torch_model, codec, info = export_onnx.load(args.marian)
    del torch_model
    ids = os.path.join(work, "ids.json")
    with open(ids, "w") as f:
        json.dump(export_onnx.encode_sources(codec, sentences), f)
    graphs = os.path.join(args.onnx, info["manifest"]["id"] +
                          ("-int8" if args.compute_type == "int8" else ""))
    pin = ["taskset", "-c", str(args.cpu)] if args.cpu is not None else []
    length = ["--max-len-a", str(args.max_len_a), "--max-len-b", str(args.max_len_b)]

    def command(side):
        name, _, threads = side.partition("@")
        threads = threads or str(args.threads)
        if name == "ort":
            return pin + ["node", export_onnx.ORT_SCRIPT, "--ort-dir",
                          export_onnx.ensure_onnxruntime_node(), "--graphs", graphs, "--ids", ids,
                          "--strategy", args.strategy, "--batch", str(args.batch),
                          "--threads", threads] + length
        build = name if os.path.isabs(name) else os.path.join(ROOT, name)
        return pin + [os.path.join(build, "bin", "bench_translate"), "--model", package,
                      "--compute-type", args.compute_type, "--input", inputs, "--strategy",
                      args.strategy, "--batch", str(args.batch), "--threads", threads,
                      "--warmup", "4"] + length

    seconds = {side: [] for side in args.sides}
    loads = []
    for r in range(args.rounds):
        for k in range(len(args.sides)):
            side = args.sides[(r + k) % len(args.sides)]
            loads.append(table.load_average())
            seconds[side].append(table.run_json(command(side))["seconds"])
    reference = args.reference or args.sides[-1]
    print("%s batch %d %s, %d sentences x %d rounds, load %.1f-%.1f (median %.1f)" % (
        args.strategy, args.batch, args.compute_type, len(sentences), args.rounds, min(loads),
        max(loads), statistics.median(loads)))
    for side in args.sides:
        line = "  %-12s seconds %s" % (side, " ".join("%.2f" % s for s in seconds[side]))
        if side != reference:
            ratios = [a / b for a, b in zip(seconds[reference], seconds[side])]
            line += "; %s / %s per round: median %.2f (%.2f-%.2f)" % (
                reference, side, statistics.median(ratios), min(ratios), max(ratios))
        print(line, flush=True)


if __name__ == "__main__":
    main()
