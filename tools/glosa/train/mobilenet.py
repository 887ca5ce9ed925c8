#!/usr/bin/python3
"""PyTorch baseline for bench_mobilenet: builds MobileNetV2 from the same config.json +
model.safetensors the engine reads (explicit asymmetric TFLite SAME pads via F.pad), checks its
logits against the test vectors, and prints the median milliseconds per 224x224 image.

Usage: /usr/bin/python3 tools/bench/mobilenet_torch.py [--threads 2] [--runs 200] [--data DIR]
(DIR defaults to $GLOSA_DATA or ../shared/data next to the repository.)
"""
import argparse
import json
import os
import statistics
import struct
import time

import numpy as np
import torch
import torch.nn.functional as F

from glosa import REPO_ROOT


def load_safetensors(path):
    with open(path, "rb") as f:
        data = f.read()
    (n,) = struct.unpack("<Q", data[:8])
    header = json.loads(data[8:8 + n])
    base = 8 + n
    out = {}
    for name, entry in header.items():
        if name == "__metadata__":
            continue
        if entry["dtype"] != "F32":
            raise ValueError(f"{name}: only F32 is supported here, got {entry['dtype']}")
        begin, end = entry["data_offsets"]
        array = np.frombuffer(data, dtype="<f4", count=(end - begin) // 4, offset=base + begin)
        out[name] = torch.from_numpy(array.copy()).reshape(entry["shape"])
    return out


def build(config, weights, outputs=None):
    """Returns forward(x) -> logits, running config["ops"] in order. With `outputs` (a list of
    tensor names, e.g. config["feature_maps"] values) forward returns {name: tensor} instead and
    stops after the last of them (the captioner's feature extraction)."""
    ops = config["ops"]
    logits_name = config["outputs"]["logits"]["name"]
    wanted = set(outputs or [])

    def forward(x):
        values = {config["input"]["name"]: x}
        for op in ops:
            kind = op["type"]
            ins = [values[name] for name in op["inputs"]]
            if kind in ("CONV_2D", "DEPTHWISE_CONV_2D"):
                p = op["pads"]
                y = F.pad(ins[0], (p["left"], p["right"], p["top"], p["bottom"]))
                y = F.conv2d(y, weights[op["weight"]], weights[op["bias"]], stride=op["stride"],
                             dilation=op["dilation"], groups=op["groups"])
            elif kind == "ADD":
                y = ins[0] + ins[1]
            elif kind == "AVERAGE_POOL_2D":
                y = F.avg_pool2d(ins[0], op["kernel"], op["stride"])
            elif kind == "RESHAPE":
                y = ins[0].reshape(op["new_shape"])
            elif kind == "SOFTMAX":
                y = torch.softmax(ins[0], dim=-1)
            else:
                raise ValueError(f"unsupported op {kind}")
            if op.get("activation", "NONE") == "RELU6":
                y = torch.clamp(y, 0.0, 6.0)
            values[op["output"]] = y
            if wanted and wanted.issubset(values):
                return {name: values[name] for name in outputs}
        return values[logits_name]

    return forward


def main():
    default_data = os.environ.get("GLOSA_DATA", os.path.join(REPO_ROOT, "..", "shared", "data"))
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--runs", type=int, default=200)
    parser.add_argument("--data", default=default_data)
    args = parser.parse_args()

    torch.set_num_threads(args.threads)
    model_dir = os.path.join(args.data, "mobilenet_v2")
    with open(os.path.join(model_dir, "config.json")) as f:
        config = json.load(f)
    forward = build(config, load_safetensors(os.path.join(model_dir, "model.safetensors")))

    vectors = os.path.join(model_dir, "testvectors")
    x = torch.from_numpy(np.fromfile(os.path.join(vectors, "parrot", "input.f32.bin"),
                                     dtype="<f4").reshape(1, 3, 224, 224))
    reference = np.fromfile(os.path.join(vectors, "parrot", "logits.f32.bin"), dtype="<f4")
    with torch.inference_mode():
        logits = forward(x).numpy().ravel()
        diff = float(np.abs(logits - reference).max())
        for _ in range(5):
            forward(x)
        times = []
        for _ in range(args.runs):
            start = time.perf_counter()
            forward(x)
            times.append((time.perf_counter() - start) * 1e3)
    times.sort()
    print(f"torch {torch.__version__} MobileNetV2 224x224, threads {args.threads}, "
          f"{args.runs} runs: median {statistics.median(times):.2f} ms, min {times[0]:.2f}, "
          f"p90 {times[len(times) * 9 // 10]:.2f} (max |logits - test vector| {diff:.2g})")


if __name__ == "__main__":
    main()
