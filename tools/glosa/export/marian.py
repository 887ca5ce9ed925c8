#!/usr/bin/python3
"""Our own PyTorch (eager) implementation of MarianMT / OPUS-MT, the baseline of the
speed rows in docs/benchmarks.md: it reads a Hugging Face MarianMT folder (config.json,
pytorch_model.bin or model.safetensors, source.spm, target.spm, vocab.json) without the
`transformers` package, which Debian does not have.

  # check it against what transformers computed for the fixture (greedy ids, first step, encoder)
  /usr/bin/python3 tools/marian_torch.py --check ../shared/fixtures/marian-tiny-en-es

The model, as modeling_marian.py computes it (and engine/layers/transformer.h describes):
post-norm layers (LayerNorm eps 1e-5 after each residual), swish feed-forward, sinusoidal
positions from 0 laid out as [sin | cos] halves, embeddings × sqrt(d_model) when scale_embedding,
no final norms, logits = hidden · sharedᵀ + final_logits_bias (a separate lm_head when the
embeddings are not tied), decoding starts from <pad> (decoder_start_token_id), <pad> is never
generated. Token ids are vocab.json's: source.spm pieces mapped through it (unknown -> <unk>),
then </s>; output ids map back through it and are joined by target.spm.

Decoding is incremental, as the engine's: a key/value cache for the decoder self-attention and
the cross-attention keys/values computed once per batch (start_state), the per-layer work in
step_layers on tensors only, so that tools/export_onnx.py traces the same code into its graphs
(the interface of tools/train_transformer.py's Transformer: embedding, scale, pe, decoder.layers,
start_state, step_layers, logits).
"""

import argparse
import json
import math
import os
import sys

import torch
import torch.nn as nn
import torch.nn.functional as F



def is_marian_folder(path):
    config = os.path.join(path, "config.json")
    if not os.path.isfile(config):
        return False
    with open(config, encoding="utf-8") as f:
        return json.load(f).get("model_type") == "marian"


def sinusoidal_halves(n, d):
    """[n, d]: PE[pos, i] = sin(pos / 10000^(2i/d)), PE[pos, d/2 + i] = cos(...), in float64
    rounded once (as modeling_marian.py's table)."""
    pos = torch.arange(n, dtype=torch.float64)[:, None]
    freq = torch.pow(10000.0, torch.arange(0, d, 2, dtype=torch.float64) / d)
    return torch.cat([torch.sin(pos / freq), torch.cos(pos / freq)], 1).float()


class Attention(nn.Module):
    def __init__(self, d, heads):
        super().__init__()
        self.heads, self.d_head = heads, d // heads
        self.q_proj, self.k_proj = nn.Linear(d, d), nn.Linear(d, d)
        self.v_proj, self.out_proj = nn.Linear(d, d), nn.Linear(d, d)

    def split(self, x):  # [B, T, d] -> [B, h, T, d_head]
        B, T, _ = x.shape
        return x.view(B, T, self.heads, self.d_head).transpose(1, 2)

    def attend(self, q, k, v, mask):
        """q [B, h, Tq, dh], k/v [B, h, Tk, dh], mask broadcastable, True = blocked."""
        scores = torch.matmul(q, k.transpose(-1, -2)) / math.sqrt(self.d_head)
        if mask is not None:
            scores = scores.masked_fill(mask, float("-inf"))
        out = torch.matmul(torch.softmax(scores, -1), v)
        B, _, Tq, _ = out.shape
        return self.out_proj(out.transpose(1, 2).reshape(B, Tq, self.heads * self.d_head))


class Layer(nn.Module):
    """One post-norm layer; the decoder's has the cross-attention (encoder_attn)."""

    def __init__(self, d, heads, ffn, eps, decoder):
        super().__init__()
        self.self_attn = Attention(d, heads)
        self.self_attn_layer_norm = nn.LayerNorm(d, eps=eps)
        if decoder:
            self.encoder_attn = Attention(d, heads)
            self.encoder_attn_layer_norm = nn.LayerNorm(d, eps=eps)
        self.fc1, self.fc2 = nn.Linear(d, ffn), nn.Linear(ffn, d)
        self.final_layer_norm = nn.LayerNorm(d, eps=eps)


class Stack(nn.Module):
    def __init__(self, n, *args):
        super().__init__()
        self.layers = nn.ModuleList([Layer(*args) for _ in range(n)])


ACTIVATIONS = {"swish": F.silu, "silu": F.silu, "relu": F.relu, "gelu": F.gelu}


class Marian(nn.Module):
    def __init__(self, config):
        super().__init__()
        c = config
        if c.get("normalize_before") or c.get("normalize_embedding"):
            raise ValueError("pre-norm MarianMT variants are not implemented here")
        d, self.vocab = c["d_model"], c["vocab_size"]
        self.pad_id, self.eos_id = c["pad_token_id"], c["eos_token_id"]
        self.start_id = c.get("decoder_start_token_id", self.pad_id)
        self.act = ACTIVATIONS[c.get("activation_function", "swish")]
        self.scale = math.sqrt(d) if c.get("scale_embedding", False) else 1.0
        self.embedding = nn.Embedding(self.vocab, d)  # model.shared
        self.encoder = Stack(c["encoder_layers"], d, c["encoder_attention_heads"],
                             c["encoder_ffn_dim"], 1e-5, False)
        self.decoder = Stack(c["decoder_layers"], d, c["decoder_attention_heads"],
                             c["decoder_ffn_dim"], 1e-5, True)
        self.tied = c.get("tie_word_embeddings", True)
        self.lm_head = None if self.tied else nn.Linear(d, self.vocab, bias=False)
        self.register_buffer("final_logits_bias", torch.zeros(self.vocab))
        self.register_buffer("pe", sinusoidal_halves(c["max_position_embeddings"], d),
                             persistent=False)

    @classmethod
    def load(cls, folder):
        with open(os.path.join(folder, "config.json"), encoding="utf-8") as f:
            config = json.load(f)
        if config.get("model_type") != "marian":
            raise ValueError("%s: model_type %s is not marian" % (folder, config.get("model_type")))
        if not config.get("share_encoder_decoder_embeddings", True):
            raise ValueError("separate source/target vocabularies are not implemented here")
        model = cls(config)
        path = os.path.join(folder, "model.safetensors")
        if os.path.exists(path):
            from glosa.data import safetensors as glosa_safetensors
            sd = {k: torch.from_numpy(v.copy()) for k, v in glosa_safetensors.load(path).items()}
        else:
            sd = torch.load(os.path.join(folder, "pytorch_model.bin"), map_location="cpu",
                            weights_only=True)
        ours = {"embedding.weight": sd["model.shared.weight"],
                "final_logits_bias": sd["final_logits_bias"].reshape(-1)}
        if not model.tied:
            ours["lm_head.weight"] = sd["lm_head.weight"]
        for key, value in sd.items():
            for stack in ("encoder", "decoder"):
                prefix = "model.%s.layers." % stack
                if key.startswith(prefix):
                    ours["%s.layers.%s" % (stack, key[len(prefix):])] = value
        model.load_state_dict(ours, strict=True)
        return model.float().eval()

    def embed(self, ids, offset=0):
        return self.embedding(ids) * self.scale + self.pe[offset:offset + ids.shape[1]]

    def ffn(self, layer, x):
        return layer.fc2(self.act(layer.fc1(x)))

    def encode(self, src, src_mask):
        """src [B, S], src_mask [B, S] (True = token) -> [B, S, d]."""
        pad = ~src_mask[:, None, None, :]
        x = self.embed(src)
        for layer in self.encoder.layers:
            a = layer.self_attn
            x = layer.self_attn_layer_norm(x + a.attend(a.split(a.q_proj(x)), a.split(a.k_proj(x)),
                                                        a.split(a.v_proj(x)), pad))
            x = layer.final_layer_norm(x + self.ffn(layer, x))
        return x

    def start_state(self, src, src_mask):
        """Encodes and precomputes every decoder layer's cross-attention keys and values."""
        memory = self.encode(src, src_mask)
        state = {"src_pad": ~src_mask[:, None, None, :]}  # [N, 1, 1, S]
        for i, layer in enumerate(self.decoder.layers):
            a = layer.encoder_attn
            state["cross_k%d" % i] = a.split(a.k_proj(memory))
            state["cross_v%d" % i] = a.split(a.v_proj(memory))
        return state

    def step_layers(self, x, past, cross, src_pad):
        """x [N, 1, d] embedded; past: per layer (keys, values) [N, h, t, dh] or None at t = 0;
        cross: per layer (keys, values) [N, h, S, dh]. Returns (hidden [N, d], new past, None)."""
        new_past = []
        for layer, kv, (cross_k, cross_v) in zip(self.decoder.layers, past, cross):
            a = layer.self_attn
            k, v = a.split(a.k_proj(x)), a.split(a.v_proj(x))
            if kv is not None:
                k, v = torch.cat([kv[0], k], 2), torch.cat([kv[1], v], 2)
            new_past.append((k, v))
            x = layer.self_attn_layer_norm(x + a.attend(a.split(a.q_proj(x)), k, v, None))
            a = layer.encoder_attn
            x = layer.encoder_attn_layer_norm(
                x + a.attend(a.split(a.q_proj(x)), cross_k, cross_v, src_pad))
            x = layer.final_layer_norm(x + self.ffn(layer, x))
        return x[:, 0], new_past, None

    def logits(self, h):
        weight = self.embedding.weight if self.tied else self.lm_head.weight
        return F.linear(h, weight) + self.final_logits_bias

    def step(self, state, last, t):
        """One step for every row: last [N] the previous tokens, t the position. Returns
        (log-probs [N, vocab] with <pad> at -inf, new state)."""
        L = len(self.decoder.layers)
        past = [(state["self_k%d" % i], state["self_v%d" % i]) if t > 0 else None
                for i in range(L)]
        cross = [(state["cross_k%d" % i], state["cross_v%d" % i]) for i in range(L)]
        h, past, _ = self.step_layers(self.embed(last[:, None], t), past, cross, state["src_pad"])
        new = dict(state)
        for i, (k, v) in enumerate(past):
            new["self_k%d" % i], new["self_v%d" % i] = k, v
        logp = torch.log_softmax(self.logits(h), -1)
        logp[:, self.pad_id] = float("-inf")  # bad_words_ids, after the softmax as HF
        return logp, new

    @torch.no_grad()
    def teacher_forced(self, src, src_mask, ys):
        """Log-probs [B, T, vocab] of the next token at each position of ys [B, T] (from the
        start token), stepped with the cache; <pad> not suppressed (export_onnx.py's check)."""
        state = self.start_state(src, src_mask)
        L = len(self.decoder.layers)
        cross = [(state["cross_k%d" % i], state["cross_v%d" % i]) for i in range(L)]
        past, out = [None] * L, []
        for t in range(ys.shape[1]):
            h, past, _ = self.step_layers(self.embed(ys[:, t:t + 1], t), past, cross,
                                          state["src_pad"])
            out.append(torch.log_softmax(self.logits(h), -1))
        return torch.stack(out, 1)

    @torch.no_grad()
    def greedy(self, src, src_mask, max_len):
        """Greedy ids per row (EOS excluded): from <pad>, a row stops at EOS, the batch when all
        rows have or after max_len steps (finished rows stay in the batch, as the engine's)."""
        state = self.start_state(src, src_mask)
        B = src.shape[0]
        last = torch.full((B,), self.start_id, dtype=torch.long)
        done = torch.zeros(B, dtype=torch.bool)
        out = [[] for _ in range(B)]
        for t in range(min(max_len, self.pe.shape[0])):
            logp, state = self.step(state, last, t)
            last = logp.argmax(-1)
            for b, (tok, d) in enumerate(zip(last.tolist(), done.tolist())):
                if not d and tok != self.eos_id:
                    out[b].append(tok)
            done |= last == self.eos_id
            if bool(done.all()):
                break
        return out


class MarianCodec:
    """vocab.json ids over two SentencePiece models, as engine/text/tokenizer.h does."""

    def __init__(self, folder):
        import sentencepiece as spm
        with open(os.path.join(folder, "vocab.json"), encoding="utf-8") as f:
            self.vocab = json.load(f)
        self.pieces = sorted(self.vocab, key=self.vocab.get)
        self.source = spm.SentencePieceProcessor(model_file=os.path.join(folder, "source.spm"))
        self.target = spm.SentencePieceProcessor(model_file=os.path.join(folder, "target.spm"))
        self.unk, self.eos, self.pad = self.vocab["<unk>"], self.vocab["</s>"], self.vocab["<pad>"]

    def __len__(self):
        return len(self.pieces)

    def encode(self, sentences):
        """Ids with </s> appended."""
        return [[self.vocab.get(p, self.unk) for p in self.source.encode(s, out_type=str)]
                + [self.eos] for s in sentences]

    def decode(self, ids):
        return self.target.decode_pieces([self.pieces[i] for i in ids
                                          if i not in (self.eos, self.pad)])


def pad_sources(id_lists, pad):
    S = max(len(s) for s in id_lists)
    src = torch.full((len(id_lists), S), pad, dtype=torch.long)
    for b, s in enumerate(id_lists):
        src[b, :len(s)] = torch.tensor(s)
    return src, src != pad


@torch.no_grad()
def check(fixture):
    """Compares this implementation with transformers' outputs in the fixture's reference.json,
    with both weight forms. Returns a list of failures (empty when everything matches)."""
    with open(os.path.join(fixture, "reference.json"), encoding="utf-8") as f:
        ref = json.load(f)
    failures = []
    for form in ("safetensors", "bin"):
        folder = os.path.join(fixture, form)
        model, codec = Marian.load(folder), MarianCodec(folder)
        enc_diff = top_diff = 0.0
        greedy_equal = ids_equal = top_equal = 0
        for case in ref["cases"]:
            ids = codec.encode([case["source"]])[0]
            ids_equal += ids == case["input_ids"]
            src, mask = pad_sources([case["input_ids"]], model.pad_id)
            enc = model.encode(src, mask)[0, 0, :len(case["encoder_out_first_row"])]
            enc_diff = max(enc_diff, float((enc - torch.tensor(case["encoder_out_first_row"]))
                                           .abs().max()))
            logp, _ = model.step(model.start_state(src, mask),
                                 torch.tensor([model.start_id]), 0)
            top = logp[0].topk(10)
            top_equal += top.indices.tolist() == case["first_step_top10"]["ids"]
            top_diff = max(top_diff, float((top.values - torch.tensor(
                case["first_step_top10"]["logprobs"])).abs().max()))
            # the reference's ids start with <pad> and end with </s>
            greedy_equal += model.greedy(src, mask, 60)[0] == case["greedy"]["ids"][1:-1]
        n = len(ref["cases"])
        print("%s: input ids %d/%d, greedy ids %d/%d, first-step top-10 ids %d/%d (max |diff "
              "log-prob| %.2g), encoder max |diff| %.2g" % (form, ids_equal, n, greedy_equal, n,
                                                             top_equal, n, top_diff, enc_diff))
        if ids_equal < n or greedy_equal < n or top_equal < n or top_diff > 1e-4 or enc_diff > 1e-4:
            failures.append(form)
    return failures


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--check", metavar="FIXTURE", required=True,
                   help="the marian-tiny-en-es fixture folder (safetensors/, bin/, reference.json)")
    a = p.parse_args(argv)
    torch.set_num_threads(1)
    failures = check(a.check)
    print("FAILED: " + ", ".join(failures) if failures else "OK: equal to transformers' outputs")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
