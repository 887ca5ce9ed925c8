#!/usr/bin/python3
"""RNN encoder-decoder with attention for translation: a bidirectional GRU encoder and a GRU
decoder with Luong-style global attention and input feeding (Luong et al. 2015, "Effective
Approaches to Attention-based Neural Machine Translation"), with the attention score chosen at
training time:
  dot         score(h_t, h_s) = h_t . h_s                                  (Luong)
  general     score(h_t, h_s) = h_t . (W_a h_s)                            (Luong)
  additive    score(h_t, h_s) = v . tanh(W_q h_t + W_k h_s)                (Bahdanau et al. 2015;
                                                                            Luong's "concat")
  scaled-dot  score(h_t, h_s) = h_t . h_s / sqrt(dim)                      (Vaswani et al. 2017)
  none        no attention: c_t = [fwd_last; bwd_first] at every step, the summary the bridge
              reads (the fixed-context encoder-decoder of Cho et al. 2014, the "RNNencdec"
              baseline of Bahdanau et al. 2015: the bottleneck the other scores remove)

Exact computation (docs/training.md lists every tensor; Linear(x) = x W^T (+ b)):
  GRU cell (PyTorch / oneDNN "linear-before-reset" GRU, gate order r, z, n in the stacked weights):
      r = sigmoid(W_ir x + b_ir + W_hr h + b_hr)      z = sigmoid(W_iz x + b_iz + W_hz h + b_hz)
      n = tanh(W_in x + b_in + r * (W_hn h + b_hn))   h' = (1 - z) * n + z * h
  encoder: e = E[src]; forward GRU over the real tokens (left to right), backward GRU over the
      real tokens (right to left, starting at the last real token); h_s = [fwd_s; bwd_s] (2H)
  bridge:  h_0 = tanh(bridge([fwd_last; bwd_first]))            (final states of both directions)
  decoder step t (h~_0 = 0, y_0 = <s>):
      x_t  = [E[y_{t-1}]; h~_{t-1}]                                     (input feeding)
      h_t  = GRU(x_t, h_{t-1})
      a_t  = softmax_s(score(h_t, h_s))    (source padding masked)
      c_t  = sum_s a_t[s] h_s
      h~_t = tanh(combine([c_t; h_t]))     (no bias)                    (attentional hidden state)
      logits_t = h~_t E^T + output_bias    (output layer tied with the shared embedding, so
                                            h~ has the embedding size)

Usage (see docs/training.md):
  /usr/bin/python3 tools/train_rnn.py --run rnn-attention-en-es --attention general
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

SCORES = ("dot", "general", "additive", "scaled-dot", "none")

DEFAULTS = {
    "embedding_dim": 256,
    "encoder_hidden": 256,     # per direction; encoder states are 2 * encoder_hidden wide
    "encoder_layers": 1,
    "decoder_hidden": 512,
    "attention": "general",    # one of SCORES
    "attention_dim": 512,      # only for "additive"
    "dropout": 0.2,
}


class Attention(nn.Module):
    def __init__(self, kind, query_dim, key_dim, attention_dim):
        super().__init__()
        if kind not in SCORES:
            raise ValueError("attention %r is not one of %s" % (kind, ", ".join(SCORES)))
        self.kind = kind
        if kind in ("dot", "scaled-dot") and query_dim != key_dim:
            raise ValueError("%s attention needs decoder_hidden (%d) == 2 * encoder_hidden (%d)"
                             % (kind, query_dim, key_dim))
        if kind == "general":
            self.key_proj = nn.Linear(key_dim, query_dim, bias=False)
        elif kind == "additive":
            self.query_proj = nn.Linear(query_dim, attention_dim, bias=False)
            self.key_proj = nn.Linear(key_dim, attention_dim, bias=False)
            self.v = nn.Linear(attention_dim, 1, bias=False)
        self.scale = 1.0 / math.sqrt(key_dim) if kind == "scaled-dot" else 1.0

    def keys(self, enc):
        """Per-source precomputation: enc [B, S, K] -> keys [B, S, *]."""
        if self.kind == "none":
            return enc[:, :0]  # nothing to score against; kept so every state has the same keys
        if self.kind in ("general", "additive"):
            return self.key_proj(enc)
        return enc

    def forward(self, h, keys, enc, pad):
        """h [B, Hd], keys [B, S, *], enc [B, S, K], pad [B, S] (True = padding)
        -> context [B, K], weights [B, S]."""
        if self.kind == "additive":
            scores = self.v(torch.tanh(self.query_proj(h)[:, None, :] + keys)).squeeze(-1)
        else:
            scores = torch.bmm(keys, h[:, :, None]).squeeze(-1) * self.scale
        scores = scores.masked_fill(pad, float("-inf"))
        a = torch.softmax(scores, dim=-1)
        return torch.bmm(a[:, None, :], enc).squeeze(1), a


class Encoder(nn.Module):
    def __init__(self, h):
        super().__init__()
        self.rnn = nn.GRU(h["embedding_dim"], h["encoder_hidden"], num_layers=h["encoder_layers"],
                          batch_first=True, bidirectional=True,
                          dropout=h["dropout"] if h["encoder_layers"] > 1 else 0.0)
        self.bridge = nn.Linear(2 * h["encoder_hidden"], h["decoder_hidden"])


class Decoder(nn.Module):
    def __init__(self, h, vocab_size):
        super().__init__()
        E, Hd, K = h["embedding_dim"], h["decoder_hidden"], 2 * h["encoder_hidden"]
        self.rnn = nn.GRUCell(E + E, Hd)
        self.attention = Attention(h["attention"], Hd, K, h["attention_dim"])
        self.combine = nn.Linear(K + Hd, E, bias=False)
        self.output_bias = nn.Parameter(torch.zeros(vocab_size))


class RnnAttention(nn.Module):
    def __init__(self, h, vocab_size):
        super().__init__()
        self.h = dict(h)
        E = h["embedding_dim"]
        self.embedding = nn.Embedding(vocab_size, E)
        nn.init.normal_(self.embedding.weight, mean=0.0, std=E ** -0.5)
        self.encoder = Encoder(h)
        self.decoder = Decoder(h, vocab_size)
        self.dropout = nn.Dropout(h["dropout"])

    def encode(self, src, src_mask):
        """src [B, S] -> enc [B, S, 2H] (zeros at padding), h0 [B, Hd], summary [B, 2H] (the
        final states [fwd_last; bwd_first] the bridge reads)."""
        lengths = src_mask.sum(1)
        x = self.dropout(self.embedding(src))
        packed = nn.utils.rnn.pack_padded_sequence(x, lengths.cpu(), batch_first=True,
                                                   enforce_sorted=False)
        out, hn = self.encoder.rnn(packed)
        enc, _ = nn.utils.rnn.pad_packed_sequence(out, batch_first=True,
                                                  total_length=src.shape[1])
        # hn [layers * 2, B, H]: the last layer's forward final state and backward final state
        last = torch.cat([hn[-2], hn[-1]], dim=-1)
        h0 = torch.tanh(self.encoder.bridge(last))
        return self.dropout(enc), h0, last

    def start_state(self, src, src_mask):
        enc, h0, summary = self.encode(src, src_mask)
        B = src.shape[0]
        return {"enc": enc, "keys": self.decoder.attention.keys(enc), "pad": ~src_mask,
                "h": h0, "feed": enc.new_zeros(B, self.h["embedding_dim"]),
                "summary": summary}

    def _step(self, state, y):
        """y [B] previous tokens -> (h~ [B, E], attention [B, S] (None without attention), new
        state)."""
        x = torch.cat([self.dropout(self.embedding(y)), state["feed"]], dim=-1)
        h = self.decoder.rnn(x, state["h"])
        if self.h["attention"] == "none":
            c, a = state["summary"], None
        else:
            c, a = self.decoder.attention(h, state["keys"], state["enc"], state["pad"])
        ht = torch.tanh(self.decoder.combine(torch.cat([c, h], dim=-1)))
        new = dict(state)
        new["h"], new["feed"] = h, ht
        return ht, a, new

    def logits(self, ht):
        return F.linear(self.dropout(ht), self.embedding.weight, self.decoder.output_bias)

    def loss_logits(self, src, src_mask, tgt_in):
        state = self.start_state(src, src_mask)
        outs = []
        for t in range(tgt_in.shape[1]):
            ht, _, state = self._step(state, tgt_in[:, t])
            outs.append(ht)
        return self.logits(torch.stack(outs, 1))

    def step(self, state, ys):
        """Beam-search interface (tools/evaluate.py): ys [N, t] -> (log-probs [N, vocab],
        attention [N, S], state). Only the last token is needed: the state is recurrent."""
        ht, a, state = self._step(state, ys[:, -1])
        return torch.log_softmax(self.logits(ht).float(), -1), a, state

    def reorder_state(self, state, index):
        return {k: v.index_select(0, index) for k, v in state.items()}

    @torch.no_grad()
    def greedy(self, src, src_mask, max_len):
        state = self.start_state(src, src_mask)
        B = src.shape[0]
        y = torch.full((B,), glosa_train.BOS, dtype=torch.long, device=src.device)
        done = torch.zeros(B, dtype=torch.bool, device=src.device)
        out = [[] for _ in range(B)]
        for _ in range(max_len):
            ht, _, state = self._step(state, y)
            logits = self.logits(ht)
            logits[:, glosa_train.PAD] = float("-inf")
            logits[:, glosa_train.BOS] = float("-inf")
            y = logits.argmax(-1)
            for b, (tok, d) in enumerate(zip(y.tolist(), done.tolist())):
                if not d and tok != glosa_train.EOS:
                    out[b].append(tok)
            done |= y == glosa_train.EOS
            if bool(done.all()):
                break
        return out


def build(hparams, vocab_size):
    return RnnAttention(hparams, vocab_size)


ARCH = glosa_train.Architecture("rnn-attention", "rnnattention", "tools/train_rnn.py",
                                DEFAULTS, build)

def main(argv=None):
    return glosa_train.main(ARCH, argv)


if __name__ == "__main__":
    sys.exit(main())
