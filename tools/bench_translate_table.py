#!/usr/bin/python3
"""The engine-vs-PyTorch translation table of docs/benchmarks.md, end to end: runs
build/bin/bench_translate and tools/bench_translate_torch.py on the same input, strategy, batch and
threads, alternating the two sides --runs times per row (a shared VM's speed drifts over minutes;
alternating keeps a row's two sides under the same conditions), and prints the markdown table with
each side's median run and the ratio of the medians, plus the spread on stderr.

  /usr/bin/python3 tools/bench_translate_torch.py --make-input /tmp/bench-en.txt --count 400
  OMP_WAIT_POLICY=passive /usr/bin/python3 tools/bench_translate_table.py --input /tmp/bench-en.txt

Set OMP_WAIT_POLICY=passive before starting it (libgomp reads it once, at load): see "Spinning
threads" in docs/benchmarks.md. The PyTorch Transformer runs --impl cached (key/value cache, the
fair baseline), the RNN --impl training (already recurrent).
"""

import argparse
import json
import os
import statistics
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def run_json(command):
    out = subprocess.run(command, check=True, capture_output=True, text=True).stdout
    lines = [line for line in out.splitlines() if line.startswith("{")]
    if not lines:
        raise RuntimeError("no JSON line from %s:\n%s" % (" ".join(command), out))
    return json.loads(lines[-1])


def median_run(runs):
    return sorted(runs, key=lambda r: r["seconds"])[len(runs) // 2]


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--input", required=True, help="one sentence per line (--make-input above)")
    p.add_argument("--models", nargs="+",
                   default=["transformer-en-es", "rnn-attention-en-es"],
                   help="package folders under resources/models")
    p.add_argument("--strategies", nargs="+", default=["greedy", "beam"])
    p.add_argument("--batches", nargs="+", type=int, default=[1, 32])
    p.add_argument("--threads", type=int, default=1)
    p.add_argument("--runs", type=int, default=3, help="runs per side and row (odd: a true median)")
    p.add_argument("--build", default=os.path.join(ROOT, "build"))
    args = p.parse_args()
    if os.environ.get("OMP_WAIT_POLICY", "").lower() != "passive":
        print("note: OMP_WAIT_POLICY is not 'passive'; see the docstring", file=sys.stderr)

    print("| model | search | batch | engine sent/s | engine tok/s | PyTorch sent/s | PyTorch tok/s "
          "| ratio | peak MB engine / PyTorch |")
    print("|---|---|---|---|---|---|---|---|---|")
    for model in args.models:
        package = os.path.join(ROOT, "resources", "models", model)
        impl = "training" if model.startswith("rnn") else "cached"
        for strategy in args.strategies:
            for batch in args.batches:
                common = ["--model", package, "--input", args.input, "--strategy", strategy,
                          "--batch", str(batch), "--threads", str(args.threads)]
                engine, torch = [], []
                for _ in range(args.runs):
                    engine.append(run_json([os.path.join(args.build, "bin", "bench_translate")]
                                           + common))
                    torch.append(run_json(["/usr/bin/python3",
                                           os.path.join(ROOT, "tools", "bench_translate_torch.py")]
                                          + common + ["--impl", impl]))
                e, t = median_run(engine), median_run(torch)
                print("| %s | %s | %d | **%.1f** | %s | %.1f | %s | **%.2f×** | %.0f / %.0f |" % (
                    model, e["strategy"], batch, e["sentences_per_s"], format(round(e["tokens_per_s"]), ","),
                    t["sentences_per_s"], format(round(t["tokens_per_s"]), ","),
                    t["seconds"] / e["seconds"], e["peak_rss_mb"], t["peak_rss_mb"]), flush=True)
                print("  %s %s batch %d: engine s %s, PyTorch s %s, tokens %d / %d" % (
                    model, strategy, batch, [round(r["seconds"], 3) for r in engine],
                    [round(r["seconds"], 3) for r in torch], e["target_tokens"],
                    t["target_tokens"]), file=sys.stderr)


if __name__ == "__main__":
    main()
