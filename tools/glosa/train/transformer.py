#!/usr/bin/python3
"""Transformer encoder-decoder for translation (Vaswani et al. 2017, "Attention Is All You Need"),
written so that the C++ engine (plugins/transformer) can reproduce it operation by operation.

Exact computation (docs/training.md lists every tensor):
  embed(ids)     = E[ids] * sqrt(d_model) + PE[pos]                       E: [vocab, d_model]
                   PE[pos, 2i] = sin(pos / 10000^(2i/d)), PE[pos, 2i+1] = cos(same); pos from 0
  Linear(x)      = x W^T + b                                              W: [out, in], b: [out]
  LayerNorm(x)   = (x - mean) / sqrt(var + eps) * gamma + beta,  biased var, eps = 1e-6
  MHA(q, kv)     = out_proj(concat_h softmax(Q_h K_h^T / sqrt(d_head) + mask) V_h),
                   Q = q_proj(q), K = k_proj(kv), V = v_proj(kv), heads split along the feature
                   axis (head h = features [h*d_head, (h+1)*d_head)); masked scores are -inf
  FFN(x)         = fc2(relu(fc1(x)))
  encoder layer  (pre-norm): x = x + MHA(LN1(x), LN1(x)) [source padding masked]
                             x = x + FFN(LN2(x))
  encoder output = final_norm(x)
  decoder layer  (pre-norm): y = y + MHA(LN1(y), LN1(y)) [causal: position t sees <= t]
                             y = y + MHA(LN2(y), memory) [source padding masked]
                             y = y + FFN(LN3(y))
  logits         = final_norm(y) E^T                       (tied with both embeddings, no bias)
Dropout (training only) is applied to the embedding sum, attention weights, the ReLU output and
each sub-layer output before the residual addition.

Usage (see docs/training.md):
  /usr/bin/python3 tools/train_transformer.py --run transformer-en-es --src en --tgt es
"""

import math
import os
import sys

# Idle OpenMP threads must sleep, not spin: on this shared 2-core machine a spinning thread
# steals the core its partner needs (measured 5.7 s/step passive vs 30 s/step spinning while
# a compiler ran). Must be set before torch loads libgomp.
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
os.environ.pop("OPENBLAS_CORETYPE", None)  # NOTES.md: its auto-detection is 20-60% faster

import torch
import torch.nn as nn
import torch.nn.functional as F

from glosa.train import trainer as glosa_train  # noqa: E402

DEFAULTS = {
    "d_model": 256,
    "heads": 4,
    "ffn_dim": 1024,
    "encoder_layers": 3,
    "decoder_layers": 3,
    "dropout": 0.1,
    "attention_dropout": 0.1,
    "layer_norm_eps": 1e-6,
    "max_positions": 256,
}


def sinusoidal_positions(n, d):
    """[n, d]: PE[pos, 2i] = sin(pos / 10000^(2i/d)), PE[pos, 2i+1] = cos(pos / 10000^(2i/d))."""
    pos = torch.arange(n, dtype=torch.float64).unsqueeze(1)
    div = torch.pow(10000.0, torch.arange(0, d, 2, dtype=torch.float64) / d)
    pe = torch.zeros(n, d, dtype=torch.float64)
    pe[:, 0::2] = torch.sin(pos / div)
    pe[:, 1::2] = torch.cos(pos / div)
    return pe.float()


class MultiHeadAttention(nn.Module):
    def __init__(self, d, heads, dropout):
        super().__init__()
        if d % heads:
            raise ValueError("d_model %d is not divisible by heads %d" % (d, heads))
        self.heads, self.d_head = heads, d // heads
        self.q_proj = nn.Linear(d, d)
        self.k_proj = nn.Linear(d, d)
        self.v_proj = nn.Linear(d, d)
        self.out_proj = nn.Linear(d, d)
        self.dropout = glosa_train.Dropout(dropout)
        for lin in (self.q_proj, self.k_proj, self.v_proj, self.out_proj):
            nn.init.xavier_uniform_(lin.weight)
            nn.init.zeros_(lin.bias)

    def split(self, x):
        B, T, _ = x.shape
        return x.view(B, T, self.heads, self.d_head).transpose(1, 2)  # [B, h, T, d_head]

    def forward(self, q, kv, mask, return_attention=False):
        """q [B, Tq, d], kv [B, Tk, d], mask broadcastable to [B, h, Tq, Tk] (True = blocked)."""
        Q = self.split(self.q_proj(q))
        K = self.split(self.k_proj(kv))
        V = self.split(self.v_proj(kv))
        out, attn = self.attend(Q, K, V, mask)
        return (out, attn) if return_attention else out

    def attend(self, Q, K, V, mask):
        """Q [B, h, Tq, d_head], K/V [B, h, Tk, d_head] -> (out [B, Tq, d], weights
        [B, h, Tq, Tk])."""
        scores = torch.matmul(Q, K.transpose(-1, -2)) / math.sqrt(self.d_head)
        if mask is not None:
            scores = scores.masked_fill(mask, float("-inf"))
        # fp32 softmax: under bf16 autocast the scores come out of the matmul in bf16.
        attn = torch.softmax(scores.float(), dim=-1).to(V.dtype)
        out = torch.matmul(self.dropout(attn), V)  # [B, h, Tq, d_head]
        B, _, Tq, _ = out.shape
        return self.out_proj(out.transpose(1, 2).reshape(B, Tq, self.heads * self.d_head)), attn


class FeedForward(nn.Module):
    def __init__(self, d, ffn, dropout):
        super().__init__()
        self.fc1 = nn.Linear(d, ffn)
        self.fc2 = nn.Linear(ffn, d)
        self.dropout = glosa_train.Dropout(dropout)
        for lin in (self.fc1, self.fc2):
            nn.init.xavier_uniform_(lin.weight)
            nn.init.zeros_(lin.bias)

    def forward(self, x):
        return self.fc2(self.dropout(F.relu(self.fc1(x))))


class EncoderLayer(nn.Module):
    def __init__(self, h):
        super().__init__()
        d = h["d_model"]
        self.self_attn_norm = nn.LayerNorm(d, eps=h["layer_norm_eps"])
        self.self_attn = MultiHeadAttention(d, h["heads"], h["attention_dropout"])
        self.ffn_norm = nn.LayerNorm(d, eps=h["layer_norm_eps"])
        self.ffn = FeedForward(d, h["ffn_dim"], h["dropout"])
        self.dropout = glosa_train.Dropout(h["dropout"])

    def forward(self, x, pad_mask):
        y = self.self_attn_norm(x)
        x = x + self.dropout(self.self_attn(y, y, pad_mask))
        return x + self.dropout(self.ffn(self.ffn_norm(x)))


class DecoderLayer(nn.Module):
    def __init__(self, h):
        super().__init__()
        d = h["d_model"]
        self.self_attn_norm = nn.LayerNorm(d, eps=h["layer_norm_eps"])
        self.self_attn = MultiHeadAttention(d, h["heads"], h["attention_dropout"])
        self.cross_attn_norm = nn.LayerNorm(d, eps=h["layer_norm_eps"])
        self.cross_attn = MultiHeadAttention(d, h["heads"], h["attention_dropout"])
        self.ffn_norm = nn.LayerNorm(d, eps=h["layer_norm_eps"])
        self.ffn = FeedForward(d, h["ffn_dim"], h["dropout"])
        self.dropout = glosa_train.Dropout(h["dropout"])

    def forward(self, y, memory, causal_mask, src_pad_mask, return_attention=False):
        z = self.self_attn_norm(y)
        y = y + self.dropout(self.self_attn(z, z, causal_mask))
        c, attn = self.cross_attn(self.cross_attn_norm(y), memory, src_pad_mask, True)
        y = y + self.dropout(c)
        y = y + self.dropout(self.ffn(self.ffn_norm(y)))
        return (y, attn) if return_attention else y


class Stack(nn.Module):
    def __init__(self, layer, n, h):
        super().__init__()
        self.layers = nn.ModuleList([layer(h) for _ in range(n)])
        self.final_norm = nn.LayerNorm(h["d_model"], eps=h["layer_norm_eps"])


class Transformer(nn.Module):
    def __init__(self, h, vocab_size):
        super().__init__()
        self.h = dict(h)
        d = h["d_model"]
        self.embedding = nn.Embedding(vocab_size, d)
        nn.init.normal_(self.embedding.weight, mean=0.0, std=d ** -0.5)
        self.encoder = Stack(EncoderLayer, h["encoder_layers"], h)
        self.decoder = Stack(DecoderLayer, h["decoder_layers"], h)
        self.dropout = glosa_train.Dropout(h["dropout"])
        # Not a parameter: recomputed from the formula (the C++ side does the same).
        self.register_buffer("pe", sinusoidal_positions(h["max_positions"], d), persistent=False)
        self.scale = math.sqrt(d)

    def embed(self, ids, offset=0):
        if ids.shape[1] + offset > self.pe.shape[0]:
            raise ValueError("sequence of %d tokens exceeds max_positions %d"
                             % (ids.shape[1] + offset, self.pe.shape[0]))
        x = self.embedding(ids) * self.scale + self.pe[offset:offset + ids.shape[1]]
        return self.dropout(x)

    def encode(self, src, src_mask):
        """src [B, S], src_mask [B, S] (True = token) -> memory [B, S, d]."""
        pad = ~src_mask[:, None, None, :]  # [B, 1, 1, S]
        x = self.embed(src)
        for layer in self.encoder.layers:
            x = layer(x, pad)
        return self.encoder.final_norm(x)

    def decode(self, tgt_in, memory, src_mask, return_attention=False):
        """tgt_in [B, T] -> logits [B, T, vocab] (and the last layer's cross attention
        [B, heads, T, S] when asked)."""
        T = tgt_in.shape[1]
        causal = torch.ones(T, T, dtype=torch.bool, device=tgt_in.device).triu(1)[None, None]  # [1, 1, T, T]
        pad = ~src_mask[:, None, None, :]
        y = self.embed(tgt_in)
        attn = None
        for layer in self.decoder.layers:
            y, attn = layer(y, memory, causal, pad, True)
        logits = F.linear(self.decoder.final_norm(y), self.embedding.weight)
        return (logits, attn) if return_attention else logits

    def loss_logits(self, src, src_mask, tgt_in):
        return self.decode(tgt_in, self.encode(src, src_mask), src_mask)

    # -- incremental decoding (key/value cache), used by greedy and beam search --------------
    def start_state(self, src, src_mask):
        """Encodes the source and precomputes every layer's cross-attention keys and values.
        State tensors all have the batch (hypothesis) dimension first."""
        memory = self.encode(src, src_mask)
        state = {"src_pad": ~src_mask[:, None, None, :]}  # [N, 1, 1, S]
        for i, layer in enumerate(self.decoder.layers):
            state["cross_k%d" % i] = layer.cross_attn.split(layer.cross_attn.k_proj(memory))
            state["cross_v%d" % i] = layer.cross_attn.split(layer.cross_attn.v_proj(memory))
        return state

    def step(self, state, ys):
        """One decoder step for every hypothesis. ys [N, t]: the tokens so far, starting with
        BOS; only the last one is read, the earlier ones are in the state's key/value cache
        (so calls must follow each other: t = 1, 2, ...). Returns (log-probs [N, vocab], last
        layer's cross attention averaged over heads [N, S], new state); `state` is not modified.
        Equal to the full recomputation in decode() (checked by tools/tests/test_models.py)."""
        t = ys.shape[1] - 1
        x = self.embed(ys[:, -1:], offset=t)  # [N, 1, d]
        past = [(state["self_k%d" % i], state["self_v%d" % i]) if t > 0 else None
                for i in range(len(self.decoder.layers))]
        cross = [(state["cross_k%d" % i], state["cross_v%d" % i])
                 for i in range(len(self.decoder.layers))]
        h, past, attn = self.step_layers(x, past, cross, state["src_pad"])
        new = dict(state)
        for i, (k, v) in enumerate(past):
            new["self_k%d" % i], new["self_v%d" % i] = k, v
        logits = F.linear(h, self.embedding.weight)
        return torch.log_softmax(logits.float(), -1), attn[:, :, 0].mean(1), new

    def step_layers(self, x, past, cross, src_pad):
        """The decoder layers and final norm for one new position, on tensors only (no dict, no
        Python branch on the step number) so that tools/export_onnx.py can trace the same code
        into the ONNX decoder-step graph. x [N, 1, d] embedded; past: per layer (keys, values)
        [N, h, t, d_head] of the earlier positions, or None at t = 0; cross: per layer the
        cross-attention (keys, values) [N, h, S, d_head]; src_pad [N, 1, 1, S] (True = padding).
        Returns (hidden [N, d], new past with t + 1 positions, last layer's cross attention
        [N, h, 1, S])."""
        new_past = []
        attn = None
        for layer, kv, (cross_k, cross_v) in zip(self.decoder.layers, past, cross):
            sa = layer.self_attn
            z = layer.self_attn_norm(x)
            k, v = sa.split(sa.k_proj(z)), sa.split(sa.v_proj(z))
            if kv is not None:
                k, v = torch.cat([kv[0], k], 2), torch.cat([kv[1], v], 2)
            new_past.append((k, v))
            out, _ = sa.attend(sa.split(sa.q_proj(z)), k, v, None)
            x = x + layer.dropout(out)
            ca = layer.cross_attn
            q = ca.split(ca.q_proj(layer.cross_attn_norm(x)))
            out, attn = ca.attend(q, cross_k, cross_v, src_pad)
            x = x + layer.dropout(out)
            x = x + layer.dropout(layer.ffn(layer.ffn_norm(x)))
        return self.decoder.final_norm(x[:, 0]), new_past, attn

    def reorder_state(self, state, index):
        return {k: v.index_select(0, index) for k, v in state.items()}

    @torch.no_grad()
    def greedy(self, src, src_mask, max_len):
        state = self.start_state(src, src_mask)
        B = src.shape[0]
        ys = torch.full((B, 1), glosa_train.BOS, dtype=torch.long, device=src.device)
        done = torch.zeros(B, dtype=torch.bool, device=src.device)
        max_len = min(max_len, self.pe.shape[0] - 1)
        for _ in range(max_len):
            logp, _, state = self.step(state, ys)
            logp[:, glosa_train.PAD] = float("-inf")
            logp[:, glosa_train.BOS] = float("-inf")
            nxt = logp.argmax(-1)
            nxt = torch.where(done, torch.full_like(nxt, glosa_train.PAD), nxt)
            ys = torch.cat([ys, nxt[:, None]], 1)
            done |= nxt == glosa_train.EOS
            if bool(done.all()):
                break
        out = []
        for row in ys[:, 1:].tolist():
            toks = []
            for t in row:
                if t in (glosa_train.EOS, glosa_train.PAD):
                    break
                toks.append(t)
            out.append(toks)
        return out


def build(hparams, vocab_size):
    return Transformer(hparams, vocab_size)


ARCH = glosa_train.Architecture("transformer", "transformer", "tools/train_transformer.py",
                                DEFAULTS, build)

def main(argv=None):
    return glosa_train.main(ARCH, argv)


if __name__ == "__main__":
    sys.exit(main())
