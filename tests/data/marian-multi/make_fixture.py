"""Makes tests/data/marian-multi: a tiny multi-target MarianMT model in Hugging Face format (the
layout of opus-mt-en-ROMANCE: a ">>xxx<<" target-language token first in every source) and the
reference outputs of an independent plain-numpy implementation of MarianMT, for
tests/parity/tst_parity_marianmulti.cpp. No transformers needed: /usr/bin/python3 with numpy and
sentencepiece (Debian: python3-numpy python3-sentencepiece).

    /usr/bin/python3 tests/data/marian-multi/make_fixture.py

The weights are random (seeded), not trained: what is checked is the architecture, the language
token and the decoding, not the quality. The language tokens' embeddings are scaled up so that
the target token changes the output (and their output bias is low: they are never generated). The numpy forward follows transformers' modeling_marian.py:
post-norm layers (LayerNorm eps 1e-5), swish FFN, sinusoidal positions as [sin | cos] halves,
embeddings x sqrt(d_model), logits = hidden . shared^T + final_logits_bias, greedy from <pad>
with <pad> never generated. The tokenizer follows MarianTokenizer: a leading >>xxx<< is one
vocabulary token, source.spm splits the rest, pieces map through vocab.json, then </s>.
"""
import json, os, shutil, struct

import numpy as np
import sentencepiece as spm

HERE = os.path.dirname(os.path.abspath(__file__))
SPM = os.path.join(HERE, "..", "spm", "spm-identity.model")
D, HEADS, FFN, LAYERS, MAX_POS, MAX_NEW = 16, 2, 32, 1, 64, 12
CODES = [">>fra<<", ">>spa<<", ">>por<<"]  # the card names fra and spa only
SOURCES = ["Hello world.", "The cat is on the table.", "We are very happy.", "Where is it?"]

sp = spm.SentencePieceProcessor(model_file=SPM)
pieces = [sp.id_to_piece(i) for i in range(sp.get_piece_size())]
vocab = {"</s>": 0, "<unk>": 1}
for p in pieces:
    if p not in ("<pad>", "<unk>", "<s>", "</s>"):
        vocab[p] = len(vocab)
for c in CODES:
    vocab[c] = len(vocab)
vocab["<pad>"] = len(vocab)
V, PAD, EOS, UNK = len(vocab), vocab["<pad>"], 0, 1

rng = np.random.default_rng(int(os.environ.get("SEED", "4")))
def param(*shape, scale=0.3):
    return (rng.standard_normal(shape) * scale).astype(np.float32)
W = {"model.shared.weight": param(V, D, scale=1.0), "final_logits_bias": param(1, V, scale=0.5)}
for c in CODES:  # a strong input, never an output (as in OPUS-MT models, which never emit them)
    W["model.shared.weight"][vocab[c]] *= 2.0
    W["final_logits_bias"][0, vocab[c]] = -100.0
W["final_logits_bias"][0, EOS] += 2.0  # so that most outputs end before MAX_NEW
def attention(prefix):
    for p in ("q_proj", "k_proj", "v_proj", "out_proj"):
        W[prefix + "." + p + ".weight"] = param(D, D)
        W[prefix + "." + p + ".bias"] = param(D, scale=0.1)
def norm(prefix):
    W[prefix + ".weight"] = (1 + param(D, scale=0.1)).astype(np.float32)
    W[prefix + ".bias"] = param(D, scale=0.1)
def ffn(prefix):
    W[prefix + ".fc1.weight"], W[prefix + ".fc1.bias"] = param(FFN, D), param(FFN, scale=0.1)
    W[prefix + ".fc2.weight"], W[prefix + ".fc2.bias"] = param(D, FFN), param(D, scale=0.1)
for l in range(LAYERS):
    e, d = "model.encoder.layers.%d" % l, "model.decoder.layers.%d" % l
    attention(e + ".self_attn"); norm(e + ".self_attn_layer_norm"); ffn(e); norm(e + ".final_layer_norm")
    attention(d + ".self_attn"); norm(d + ".self_attn_layer_norm")
    attention(d + ".encoder_attn"); norm(d + ".encoder_attn_layer_norm")
    ffn(d); norm(d + ".final_layer_norm")

# --- the numpy MarianMT, in float64 -----------------------------------------------------------
def positions(n):
    pos = np.arange(n)[:, None] / np.power(10000, 2 * (np.arange(D) // 2) / D)[None, :]
    return np.concatenate([np.sin(pos[:, 0::2]), np.cos(pos[:, 1::2])], axis=1)
def w(name):
    return W[name].astype(np.float64)
def linear(x, prefix):
    return x @ w(prefix + ".weight").T + w(prefix + ".bias")
def layer_norm(x, prefix):
    m, v = x.mean(-1, keepdims=True), x.var(-1, keepdims=True)
    return (x - m) / np.sqrt(v + 1e-5) * w(prefix + ".weight") + w(prefix + ".bias")
def mha(x, memory, prefix, causal):
    hd = D // HEADS
    q = linear(x, prefix + ".q_proj") * hd ** -0.5
    k, v = linear(memory, prefix + ".k_proj"), linear(memory, prefix + ".v_proj")
    out = []
    for h in range(HEADS):
        s = q[:, h * hd:(h + 1) * hd] @ k[:, h * hd:(h + 1) * hd].T
        if causal:
            s = s + np.triu(np.full(s.shape, -np.inf), 1)
        p = np.exp(s - s.max(-1, keepdims=True)); p /= p.sum(-1, keepdims=True)
        out.append(p @ v[:, h * hd:(h + 1) * hd])
    return linear(np.concatenate(out, -1), prefix + ".out_proj")
def swish(x):
    return x / (1 + np.exp(-x))
def embed(ids):
    return w("model.shared.weight")[ids] * np.sqrt(D) + positions(len(ids))
def encode(ids):
    h = embed(ids)
    for l in range(LAYERS):
        p = "model.encoder.layers.%d" % l
        h = layer_norm(h + mha(h, h, p + ".self_attn", False), p + ".self_attn_layer_norm")
        h = layer_norm(h + linear(swish(linear(h, p + ".fc1")), p + ".fc2"), p + ".final_layer_norm")
    return h
def log_probs(memory, decoder_ids, never_pad=True):
    h = embed(decoder_ids)
    for l in range(LAYERS):
        p = "model.decoder.layers.%d" % l
        h = layer_norm(h + mha(h, h, p + ".self_attn", True), p + ".self_attn_layer_norm")
        h = layer_norm(h + mha(h, memory, p + ".encoder_attn", False), p + ".encoder_attn_layer_norm")
        h = layer_norm(h + linear(swish(linear(h, p + ".fc1")), p + ".fc2"), p + ".final_layer_norm")
    logits = h @ w("model.shared.weight").T + w("final_logits_bias")[0]
    if never_pad:  # bad_words_ids [[pad]] while generating; teacher forcing reads them all
        logits[:, PAD] = -np.inf
    m = logits.max(-1, keepdims=True)
    return logits - m - np.log(np.exp(logits - m).sum(-1, keepdims=True))
def greedy(ids):
    memory, out, gaps = encode(ids), [PAD], []
    while len(out) <= MAX_NEW:
        lp = log_probs(memory, out)[-1]
        top = np.sort(lp)[-2:]
        gaps.append(float(top[1] - top[0]))
        out.append(int(lp.argmax()))
        if out[-1] == EOS:
            break
    forced = log_probs(memory, out[:-1], never_pad=False)
    return out, [round(float(forced[t, i]), 6) for t, i in enumerate(out[1:])], min(gaps)

def tokenize(text):  # MarianTokenizer: the code, then source.spm's pieces through vocab.json
    code = [text.split(" ", 1)[0]] if text.startswith(">>") else []
    rest = text.split(" ", 1)[1] if code else text
    ps = code + sp.encode(rest, out_type=str)
    return ps, [vocab.get(p, UNK) for p in ps] + [EOS]

cases, worst_gap = [], 1e9
for code, language in ((">>fra<<", "fr"), (">>spa<<", "es")):
    for s in SOURCES:
        ps, ids = tokenize(code + " " + s)
        out, forced, gap = greedy(ids)
        worst_gap = min(worst_gap, gap)
        cases.append({"source": s, "target_language": language, "code": code, "source_pieces": ps,
                      "input_ids": ids, "greedy": {"ids": out, "token_logprobs": forced}})
        print(language, s, "->", out, "gap %.3f" % gap)
print("smallest gap between the best two log-probabilities:", worst_gap)

# --- the files, as save_pretrained writes them -------------------------------------------------
shutil.copy(SPM, os.path.join(HERE, "source.spm"))
shutil.copy(SPM, os.path.join(HERE, "target.spm"))
json.dump(vocab, open(os.path.join(HERE, "vocab.json"), "w"), ensure_ascii=False, indent=1)
header, blobs, offset = {"__metadata__": {"format": "pt"}}, [], 0
for name in sorted(W):
    b = W[name].tobytes()
    header[name] = {"dtype": "F32", "shape": list(W[name].shape), "data_offsets": [offset, offset + len(b)]}
    blobs.append(b); offset += len(b)
h = json.dumps(header).encode(); h += b" " * ((8 - len(h) % 8) % 8)
with open(os.path.join(HERE, "model.safetensors"), "wb") as f:
    f.write(struct.pack("<Q", len(h)) + h + b"".join(blobs))
config = {"model_type": "marian", "architectures": ["MarianMTModel"], "d_model": D,
          "encoder_layers": LAYERS, "decoder_layers": LAYERS, "encoder_attention_heads": HEADS,
          "decoder_attention_heads": HEADS, "encoder_ffn_dim": FFN, "decoder_ffn_dim": FFN,
          "activation_function": "swish", "max_position_embeddings": MAX_POS, "vocab_size": V,
          "decoder_vocab_size": V, "pad_token_id": PAD, "eos_token_id": EOS,
          "decoder_start_token_id": PAD, "forced_eos_token_id": EOS, "scale_embedding": True,
          "share_encoder_decoder_embeddings": True, "tie_word_embeddings": True}
json.dump(config, open(os.path.join(HERE, "config.json"), "w"), indent=1)
json.dump({"bad_words_ids": [[PAD]], "decoder_start_token_id": PAD, "eos_token_id": EOS,
           "pad_token_id": PAD, "num_beams": 1, "max_length": MAX_NEW + 1},
          open(os.path.join(HERE, "generation_config.json"), "w"), indent=1)
json.dump({"source_lang": "en", "target_lang": "ROMANCE", "separate_vocabs": False,
           "tokenizer_class": "MarianTokenizer"},
          open(os.path.join(HERE, "tokenizer_config.json"), "w"), indent=1)
json.dump({"pad_token_id": PAD, "eos_token_id": EOS, "max_new_tokens": MAX_NEW,
           "smallest_greedy_gap": round(worst_gap, 6), "cases": cases},
          open(os.path.join(HERE, "reference.json"), "w"), ensure_ascii=False, indent=1)
