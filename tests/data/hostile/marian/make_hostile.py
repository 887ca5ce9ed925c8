"""Writes the hostile (and two well-formed) pytorch_model.bin files tests/engine/tst_marianimport.cpp feeds the importer:
zip archives laid out as torch.save writes them, whose data.pkl does what an unpickler must never
let it do, and the pre-1.6 format. Each is a few hundred bytes; run with any Python 3 (no torch):
    python3 tests/data/hostile/marian/make_hostile.py tests/data/hostile/marian"""
import io, os, struct, sys, zipfile

OUT = sys.argv[1]


def checkpoint(name, pickle_bytes, storages=(), compress=False):
    buf = io.BytesIO()
    method = zipfile.ZIP_DEFLATED if compress else zipfile.ZIP_STORED
    with zipfile.ZipFile(buf, "w", method) as z:
        z.writestr("archive/data.pkl", pickle_bytes)
        z.writestr("archive/byteorder", "little")
        for key, data in storages:
            z.writestr("archive/data/" + key, data)
        z.writestr("archive/version", "3\n")
    with open(os.path.join(OUT, name), "wb") as f:
        f.write(buf.getvalue())


def uni(s):
    b = s.encode()
    return b"X" + struct.pack("<I", len(b)) + b


# GLOBAL os.system, then REDUCE it with a shell command: what `pickle.load` would run.
checkpoint("global-os-system.bin",
           b"\x80\x02cos\nsystem\nq\x00" + uni("touch /tmp/glosa-pwned") + b"\x85R.")
# builtins.eval through STACK_GLOBAL (protocol 4's way of naming a global).
checkpoint("stack-global-eval.bin",
           b"\x80\x04" + uni("builtins") + uni("eval") + b"\x93" + uni("1+1") + b"\x85R.")
# REDUCE of a whitelisted global that is not a tensor rebuild: the storage class itself.
checkpoint("reduce-storage-class.bin",
           b"\x80\x02ctorch\nFloatStorage\n)R.")
# INST / OBJ / NEWOBJ build objects of arbitrary classes: refused as opcodes.
checkpoint("newobj.bin",
           b"\x80\x02ccollections\nOrderedDict\n)\x81.")


def state_dict(size, stride, elements=4):
    """{"w": a FloatStorage tensor of `size` and `stride`} in a storage of `elements` floats."""
    ints = lambda values: b"".join(b"K" + bytes([v]) for v in values) + b"\x86"
    return (b"\x80\x02}(" + uni("w") + b"ctorch._utils\n_rebuild_tensor_v2\n((" + uni("storage") +
            b"ctorch\nFloatStorage\n" + uni("0") + uni("cpu") + b"K" + bytes([elements]) + b"tQK\x00" +
            ints(size) + ints(stride) + b"\x89ccollections\nOrderedDict\n)RtRu.")


# A tensor whose view reaches past its 4-element storage.
tensor = state_dict((3, 3), (3, 1))
checkpoint("view-past-storage.bin", tensor, [("0", b"\x00" * 16)])
# A valid 2x2 tensor whose storage is cut short in the archive (a truncated download).
checkpoint("storage-truncated.bin", state_dict((2, 2), (2, 1)), [("0", b"\x00" * 8)])
# data.pkl compressed: torch.save never does it.
checkpoint("compressed.bin", state_dict((2, 2), (2, 1)), [("0", b"\x00" * 64)], compress=True)
# PyTorch before 1.6: a bare pickle stream starting with the legacy magic number.
with open(os.path.join(OUT, "legacy-format.bin"), "wb") as f:
    f.write(b"\x80\x02\x8a\x0al\xfc\x9cF\xf9 j\xa8P\x19.\x80\x02M\xe9\x03.")
# Two well-formed ones, to check what is read: a 2x2 tensor and its transposed view.
values = struct.pack("<4f", 1, 2, 3, 4)
checkpoint("valid-2x2.bin", state_dict((2, 2), (2, 1)), [("0", values)])
checkpoint("transposed-2x2.bin", state_dict((2, 2), (1, 2)), [("0", values)])
# Stride 0 over a one-element storage: each tensor passes the storage bound, but materialised a
# 200x200 matrix is 40,000 floats from 4 bytes of file (layer after layer, gigabytes).
checkpoint("stride-zero.bin", state_dict((200, 200), (0, 0), elements=1), [("0", values[:4])])
# Overlapping strides (a 4x4 view over 7 elements, rows one element apart): not a real view.
checkpoint("overlapping-strides.bin", state_dict((4, 4), (1, 1), elements=7),
           [("0", b"\x00" * 28)])
