"""Writes the hostile MarianMT folders of docs/robustness.md's round-3 table into OUT, from the
MarianMT fixture (FIXTURE: ../shared/fixtures/marian-tiny-en-es/safetensors). Any Python 3, no
torch:
    python3 tests/data/hostile/marian/make_model_probes.py FIXTURE OUT
Each OUT/<name> is a folder for `glosa-cli models import`, or a file the table says how to use."""
import io, json, os, shutil, struct, sys, zipfile

FIXTURE, OUT = sys.argv[1], sys.argv[2]
os.makedirs(OUT, exist_ok=True)


def folder(name, drop=()):
    path = os.path.join(OUT, name)
    shutil.rmtree(path, ignore_errors=True)
    shutil.copytree(FIXTURE, path)
    os.chmod(path, 0o755)
    for f in os.listdir(path):
        os.chmod(os.path.join(path, f), 0o644)
    for f in drop:
        os.remove(os.path.join(path, f))
    return path


# 1. vocab.json of 1.4M `"k":{}` entries (20 MB; the finding's 1.85 MB took 175 s).
p = folder("vocab-1.4M-objects")
with open(os.path.join(p, "vocab.json"), "w") as f:
    f.write("{" + ",".join('"k%d":{}' % i for i in range(1_400_000)) + "}")
# A safetensors header of 200,000 tensors (14 MB).
p = folder("header-200k-tensors")
header = "{" + ",".join('"t%d":{"dtype":"F32","shape":[0],"data_offsets":[0,0]}' % i
                        for i in range(200_000)) + "}"
with open(os.path.join(p, "model.safetensors"), "wb") as f:
    f.write(struct.pack("<Q", len(header)) + header.encode())
# A 1 MiB config.json of small objects.
p = folder("config-1MiB-objects")
with open(os.path.join(p, "config.json")) as f:
    config = json.load(f)
config["x"] = [{}] * ((1 << 20) // 3 - 400)
with open(os.path.join(p, "config.json"), "w") as f:
    json.dump(config, f, separators=(",", ":"))

# 2, 3, 10. FIFOs: the weights, vocab.json, and a package's model.json in a models folder.
for name, file in (("fifo-weights", "model.safetensors"), ("fifo-vocab", "vocab.json")):
    p = folder(name)
    os.remove(os.path.join(p, file))
    os.mkfifo(os.path.join(p, file))
os.makedirs(os.path.join(OUT, "models-with-fifo", "broken"), exist_ok=True)
if not os.path.exists(os.path.join(OUT, "models-with-fifo", "broken", "model.json")):
    os.mkfifo(os.path.join(OUT, "models-with-fifo", "broken", "model.json"))


# 6. pytorch_model.bin whose every tensor has stride 0 over a one-element storage, with
# config.json's sizes raised (d_model 1024, FFN 4096, 6 + 6 layers): 11 KB of file for 182
# million parameters to materialise.
def uni(s):
    b = s.encode()
    return b"X" + struct.pack("<I", len(b)) + b


def ints(values):
    return b"(" + b"".join(b"J" + struct.pack("<i", v) for v in values) + b"t"


def stride_zero_pickle(shapes):
    out = b"\x80\x02}("
    for name, shape in shapes:
        out += (uni(name) + b"ctorch._utils\n_rebuild_tensor_v2\n((" + uni("storage") +
                b"ctorch\nFloatStorage\n" + uni("0") + uni("cpu") + b"K\x01tQK\x00" +
                ints(shape) + ints([0] * len(shape)) +
                b"\x89ccollections\nOrderedDict\n)RtR")
    return out + b"u."


p = folder("stride-zero", drop=("model.safetensors",))
with open(os.path.join(p, "config.json")) as f:
    config = json.load(f)
d, ffn, layers, vocab = 1024, 4096, 6, config["vocab_size"]
config.update(d_model=d, encoder_ffn_dim=ffn, decoder_ffn_dim=ffn, encoder_layers=layers,
              decoder_layers=layers, encoder_attention_heads=8, decoder_attention_heads=8)
with open(os.path.join(p, "config.json"), "w") as f:
    json.dump(config, f, indent=2)
shapes = [("model.shared.weight", [vocab, d]), ("final_logits_bias", [1, vocab])]
def attention(prefix):
    for proj in ("q_proj", "k_proj", "v_proj", "out_proj"):
        shapes.extend([(prefix + "." + proj + ".weight", [d, d]), (prefix + "." + proj + ".bias", [d])])
def norm(prefix):
    shapes.extend([(prefix + ".weight", [d]), (prefix + ".bias", [d])])
def feed_forward(prefix):
    shapes.extend([(prefix + ".fc1.weight", [ffn, d]), (prefix + ".fc1.bias", [ffn]),
                   (prefix + ".fc2.weight", [d, ffn]), (prefix + ".fc2.bias", [d])])
for stack in ("encoder", "decoder"):
    for l in range(layers):
        at = "model.%s.layers.%d" % (stack, l)
        attention(at + ".self_attn")
        norm(at + ".self_attn_layer_norm")
        if stack == "decoder":
            attention(at + ".encoder_attn")
            norm(at + ".encoder_attn_layer_norm")
        feed_forward(at)
        norm(at + ".final_layer_norm")
buf = io.BytesIO()
with zipfile.ZipFile(buf, "w", zipfile.ZIP_STORED) as z:
    z.writestr("archive/data.pkl", stride_zero_pickle(shapes))
    z.writestr("archive/byteorder", "little")
    z.writestr("archive/data/0", struct.pack("<f", 0.01))
    z.writestr("archive/version", "3\n")
with open(os.path.join(p, "pytorch_model.bin"), "wb") as f:
    f.write(buf.getvalue())

# 8. README.md linked to /etc/shadow.
p = folder("readme-to-shadow")
if os.path.lexists(os.path.join(p, "README.md")):
    os.remove(os.path.join(p, "README.md"))
os.symlink("/etc/shadow", os.path.join(p, "README.md"))

# 4. Settings: 50,000 lists inside one another (450 KB), as QDataStream (Qt 6.4) writes them.
stream = struct.pack(">I", 1) + struct.pack(">I", 22) + "ui/language".encode("utf-16-be")
stream += (struct.pack(">IbI", 9, 0, 1)) * 50_000 + struct.pack(">Ibi", 2, 0, 1)
with open(os.path.join(OUT, "deep.settings"), "wb") as f:
    f.write(b"GLOSA-SETTINGS 1\n" + stream)
