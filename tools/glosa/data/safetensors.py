"""A small reader/writer for the safetensors format (no `safetensors` package on Debian 12).

Layout (https://github.com/huggingface/safetensors): 8-byte little-endian header length N, then N
bytes of UTF-8 JSON {"name": {"dtype": "F16", "shape": [..], "data_offsets": [begin, end]}, ...,
"__metadata__": {str: str}} padded with spaces so that the data starts 8-byte aligned, then the
raw little-endian, row-major tensor data; offsets are relative to the start of the data.
"""

import json
import struct

import numpy as np

_DTYPES = {"F32": np.float32, "F16": np.float16, "F64": np.float64, "I64": np.int64,
           "I32": np.int32, "I8": np.int8, "U8": np.uint8}
_NAMES = {np.dtype(v): k for k, v in _DTYPES.items()}


def save(tensors, path, metadata=None):
    """tensors: {name: numpy array or torch tensor}; written in sorted name order."""
    arrays = {}
    for name, t in tensors.items():
        if hasattr(t, "detach"):
            t = t.detach().cpu().numpy()
        a = np.ascontiguousarray(t)
        if a.dtype not in _NAMES:
            raise ValueError("tensor %s: unsupported dtype %s" % (name, a.dtype))
        arrays[name] = a.astype(a.dtype.newbyteorder("<"), copy=False)
    header = {}
    offset = 0
    for name in sorted(arrays):
        a = arrays[name]
        header[name] = {"dtype": _NAMES[np.dtype(a.dtype.name)], "shape": list(a.shape),
                        "data_offsets": [offset, offset + a.nbytes]}
        offset += a.nbytes
    if metadata:
        header["__metadata__"] = {str(k): str(v) for k, v in metadata.items()}
    raw = json.dumps(header, separators=(",", ":"), ensure_ascii=True).encode("utf-8")
    raw += b" " * ((8 - (8 + len(raw)) % 8) % 8)
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(raw)))
        f.write(raw)
        for name in sorted(arrays):
            f.write(arrays[name].tobytes(order="C"))


def read_header(path):
    with open(path, "rb") as f:
        n = struct.unpack("<Q", f.read(8))[0]
        return json.loads(f.read(n).decode("utf-8")), 8 + n


def load(path):
    """{name: numpy array} (dtype as stored)."""
    header, start = read_header(path)
    with open(path, "rb") as f:
        blob = f.read()
    out = {}
    for name, info in header.items():
        if name == "__metadata__":
            continue
        b, e = info["data_offsets"]
        dt = np.dtype(_DTYPES[info["dtype"]]).newbyteorder("<")
        out[name] = np.frombuffer(blob[start + b:start + e], dtype=dt).reshape(
            info["shape"]).copy()
    return out
