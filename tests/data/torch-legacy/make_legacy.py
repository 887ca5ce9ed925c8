"""Writes PyTorch's legacy (pre-1.6, non-zip) checkpoint format, which older Hugging Face uploads
hold as pytorch_model.bin, for tests/engine/tst_torchlegacy.cpp and tests/parity/tst_parity_marian.cpp.
Needs torch (Debian: python3-torch; run with /usr/bin/python3).

    make_legacy.py tiny OUT.bin         a tiny synthetic state dict (committed: tiny-legacy.bin)
    make_legacy.py convert IN.bin OUT.bin
                                        IN (any torch.save checkpoint) re-saved in the legacy format
"""
import sys

import torch


def tiny():
    """Float32, float16 and bfloat16 tensors, a transposed view and two tensors sharing one
    storage: what the reader must gather. Values are small integers, exact in every type."""
    base = torch.arange(12, dtype=torch.float32).reshape(3, 4)
    shared = torch.arange(6, dtype=torch.float32)
    sd = {
        "w": base,
        "w_t": base.t(),                       # a strided view of w's storage
        "half": torch.tensor([1.5, -2.0, 4.0], dtype=torch.float16),
        "bf16": torch.tensor([[0.5, 8.0]], dtype=torch.bfloat16),
        "tail": shared[2:],                    # an offset into a storage shared with "all"
        "all": shared,
    }
    return sd


def main():
    if sys.argv[1] == "tiny":
        sd, out = tiny(), sys.argv[2]
    else:
        sd, out = torch.load(sys.argv[2], map_location="cpu"), sys.argv[3]
    torch.save(sd, out, _use_new_zipfile_serialization=False)


if __name__ == "__main__":
    main()
