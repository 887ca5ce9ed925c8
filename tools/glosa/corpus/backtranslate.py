#!/usr/bin/python3
"""Back-translate a monolingual file through our engine (glosa-cli), batched, int8, greedy.

    tools/backtranslate.py --model resources/models/transformer-general-es-en \
        --input /work/runs/mono/es.txt --output /work/runs/bt/bt-es.tsv --order synthetic-first

Writes one TSV line per input line, in input order, appended chunk by chunk (flushed and fsynced
after each chunk), so a partial file is usable at any time; each line holds both sides:
    --order synthetic-first:  synthetic_translation<TAB>real_input   (es mono -> bt-es.tsv)
    --order real-first:       real_input<TAB>synthetic_translation   (en mono -> bt-en.tsv)
A sentence that fails gets an empty translation (its line is kept, so nothing shifts); drop
pairs with an empty side before training. A chunk in which every sentence failed (the model or
glosa-cli missing, say) is not written: the run stops with exit code 3.

Why `glosa-cli evaluate`: `glosa-cli translate` decodes one stdin line at a time (batch 1);
`evaluate --source F --reference F --json` sends 4 x batch-size lines per Translator::translate
call, whose sentences are decoded in batches of 16. Each chunk is sorted by length first so that
a batch holds sentences of similar length (less padding), then put back in input order.

Resumes: if OUTPUT exists, its complete lines are kept and every input line whose real side is
already there is skipped, so the input may be rebuilt (sources added, order changed) between runs. Run it in the background with nice -n 10, OMP_WAIT_POLICY=PASSIVE, OMP_NUM_THREADS=1.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time


def count_lines(path):
    if not os.path.exists(path):
        return 0
    # drop a trailing partial line (a crash mid-write), keep complete ones
    with open(path, "rb") as f:
        data = f.read()
    if data and not data.endswith(b"\n"):
        cut = data.rfind(b"\n") + 1
        with open(path, "r+b") as f:
            f.truncate(cut)
        data = data[:cut]
    return data.count(b"\n")


def translate_chunk(cli, model, lines, extra, tmpdir):
    """Return a list of translations, one per line (empty string on failure)."""
    order = sorted(range(len(lines)), key=lambda i: len(lines[i]))
    src = os.path.join(tmpdir, "chunk.src")
    with open(src, "w", encoding="utf-8") as f:
        for i in order:
            f.write(lines[i] + "\n")
    cmd = [cli, "evaluate", "--model", model, "--source", src, "--reference", src, "--json",
           "--differences", "0"] + extra
    r = subprocess.run(cmd, capture_output=True)
    out = [""] * len(lines)
    if r.returncode == 0:
        try:
            hyps = json.loads(r.stdout)["models"][0]["hypotheses"]
            if len(hyps) == len(lines):
                for k, i in enumerate(order):
                    out[i] = " ".join(str(hyps[k]).split())
                return out, None
            err = f"evaluate gave {len(hyps)} hypotheses for {len(lines)} lines"
        except (ValueError, KeyError, IndexError) as e:
            err = f"evaluate output unreadable: {e}"
    else:
        err = f"evaluate rc {r.returncode}: {r.stderr.decode(errors='replace')[-500:]}"
    # Fallback: one line at a time through `translate` (an empty line for a failed one).
    r = subprocess.run([cli, "translate", "--model", model] + extra,
                       input=("\n".join(lines) + "\n").encode("utf-8"), capture_output=True)
    got = r.stdout.decode("utf-8", errors="replace").split("\n")
    if len(got) >= len(lines):
        out = [" ".join(g.split()) for g in got[:len(lines)]]
    return out, err


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cli", default="/work/main/build/bin/glosa-cli")
    ap.add_argument("--model", required=True)
    ap.add_argument("--input", required=True)
    ap.add_argument("--output", required=True)
    ap.add_argument("--order", choices=["synthetic-first", "real-first"], required=True)
    ap.add_argument("--chunk", type=int, default=4000)
    ap.add_argument("--limit", type=int, default=0, help="stop after this many input lines")
    ap.add_argument("--compute-type", default="int8")
    ap.add_argument("--strategy", default="greedy")
    args = ap.parse_args()

    extra = ["--compute-type", args.compute_type, "--strategy", args.strategy]
    with open(args.input, encoding="utf-8") as f:
        lines = [l.rstrip("\n").replace("\t", " ") for l in f]
    if args.limit:
        lines = lines[:args.limit]
    have = count_lines(args.output)
    col = 1 if args.order == "synthetic-first" else 0
    seen = set()
    if have:
        with open(args.output, encoding="utf-8") as f:
            for l in f:
                parts = l.rstrip("\n").split("\t")
                if len(parts) == 2 and parts[1 - col].strip():  # an empty translation is retried
                    seen.add(parts[col])
    total = len(lines)
    lines = [l for l in lines if l not in seen]
    print(f"{args.input}: {total} lines, {have} pairs already in {args.output}, "
          f"{len(lines)} to translate", flush=True)
    done = 0
    t0 = time.time()
    n0 = done
    with tempfile.TemporaryDirectory(prefix="bt-") as tmpdir, \
            open(args.output, "a", encoding="utf-8") as out:
        while done < len(lines):
            chunk = lines[done:done + args.chunk]
            c0 = time.time()
            hyps, err = translate_chunk(args.cli, args.model, chunk, extra, tmpdir)
            if err:
                print(f"chunk at line {done + 1}: {err} (fell back to translate)", flush=True)
            if not any(hyps):
                print(f"chunk at line {done + 1}: no sentence translated; stopping", flush=True)
                sys.exit(3)
            for real, syn in zip(chunk, hyps):
                syn = syn.replace("\t", " ")
                if args.order == "synthetic-first":
                    out.write(f"{syn}\t{real}\n")
                else:
                    out.write(f"{real}\t{syn}\n")
            out.flush()
            os.fsync(out.fileno())
            done += len(chunk)
            dt = time.time() - c0
            rate = (done - n0) / (time.time() - t0)
            empty = sum(1 for h in hyps if not h)
            print(f"{time.strftime('%H:%M:%S')} {done}/{len(lines)} lines; chunk "
                  f"{len(chunk) / dt:.1f} sent/s, overall {rate:.1f} sent/s; {empty} empty",
                  flush=True)
    print("done", flush=True)


if __name__ == "__main__":
    main()
