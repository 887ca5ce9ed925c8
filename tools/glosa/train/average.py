#!/usr/bin/python3
"""Averages the weights of several checkpoints of one run into one checkpoint (Vaswani et al. 2017
average the last 5-20 checkpoints; the mean of nearby points of a noisy, decaying-rate trajectory
usually scores higher than any one of them). The result is a checkpoint like best.pt (config,
weights, the newest input's counters) that export_package.py and evaluate.py read.

  average_checkpoints.py --out /work/runs/general-en-es/avg.pt /work/runs/general-en-es/snap-*.pt
  average_checkpoints.py --out avg.pt --last 6 /work/runs/general-en-es   # its newest snapshots
"""
import argparse
import os
import re

import torch

from glosa.train.trainer import atomic_save  # noqa: E402


def snapshots(run_dir, last):
    names = sorted(f for f in os.listdir(run_dir) if re.fullmatch(r"snap-\d+\.pt", f))
    if not names:
        raise SystemExit("%s has no snap-*.pt (train with --snapshot-every N)" % run_dir)
    return [os.path.join(run_dir, f) for f in names[-last:]]


def average(paths):
    """(averaged checkpoint, steps averaged). All inputs must share the config's architecture
    and every tensor's shape; integer tensors (none in our models) would be taken from the last."""
    total, newest, steps = None, None, []
    for path in paths:
        ck = torch.load(path, map_location="cpu")
        steps.append(int(ck["step"]))
        if total is None:
            total = {k: v.double().clone() for k, v in ck["model"].items()}
            arch = ck["config"]["architecture"], ck["config"]["hparams"]
        else:
            if (ck["config"]["architecture"], ck["config"]["hparams"]) != arch:
                raise SystemExit("%s: another architecture than %s" % (path, paths[0]))
            for k, v in ck["model"].items():
                if k not in total or total[k].shape != v.shape:
                    raise SystemExit("%s: tensor %s differs from %s" % (path, k, paths[0]))
                total[k] += v.double()
        if newest is None or ck["step"] >= newest["step"]:
            newest = ck
    out = dict(newest)
    out.pop("optimizer", None)
    out["model"] = {k: (total[k] / len(paths)).to(v.dtype) for k, v in newest["model"].items()}
    out["averaged_steps"] = sorted(steps)
    return out, sorted(steps)


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("inputs", nargs="+", help="checkpoints, or with --last one run folder")
    p.add_argument("--out", required=True)
    p.add_argument("--last", type=int, help="average the newest N snap-*.pt of the run folder")
    a = p.parse_args()
    paths = snapshots(a.inputs[0], a.last) if a.last else a.inputs
    ck, steps = average(paths)
    atomic_save(ck, a.out)
    print("%s: mean of %d checkpoints, steps %s" % (a.out, len(steps), steps))


if __name__ == "__main__":
    main()
