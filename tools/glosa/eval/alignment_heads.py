#!/usr/bin/python3
"""Which Transformer cross-attention (layer, head, or mean of a layer's heads) aligns best?

A proxy that needs no hand-made alignments: translate dev sources greedily, and for every output
piece that copies a piece occurring exactly once in the source (names, cognates; at least three
letters), check whether the attention that predicted it peaks on that source piece. Prints the
hit rate per layer and head and for each layer's mean. plugins/transformer uses the result to
pick its default alignment (see transformerdecoder.h).

  /usr/bin/python3 tools/alignment_heads.py resources/models/transformer-en-es --count 1731
"""

import argparse
import sys

import torch

from glosa.eval import evaluate  # noqa: E402
from glosa.data import pairs as glosa_data  # noqa: E402
from glosa.train import trainer as glosa_train  # noqa: E402


@torch.no_grad()
def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("model", help="Transformer package folder or checkpoint")
    p.add_argument("--split", default="dev")
    p.add_argument("--count", type=int, default=1731, help="first N distinct sources")
    p.add_argument("--threads", type=int, default=1)
    a = p.parse_args(argv)
    torch.set_num_threads(a.threads)
    model, codec, info = evaluate.load_model(a.model)
    if info["architecture"] != "transformer":
        p.error("%s is not a Transformer" % a.model)
    groups = glosa_data.group_references(
        glosa_data.load_pairs(info["pair"], a.split, info["src"], info["tgt"]))
    layers, heads = len(model.decoder.layers), model.h["heads"]
    hits = torch.zeros(layers, heads + 1)
    total = 0
    for source, _ in groups[:a.count]:
        ids = codec.encode([source])[0] + [glosa_train.EOS]
        src, mask = glosa_train.pad_sources([ids])
        out = model.greedy(src, mask, 2 * len(ids) + 10)[0]
        tgt = torch.tensor([[glosa_train.BOS] + out])
        memory = model.encode(src, mask)
        T = tgt.shape[1]
        causal = torch.ones(T, T, dtype=torch.bool).triu(1)[None, None]
        pad = ~mask[:, None, None, :]
        y = model.embed(tgt)
        attention = []
        for layer in model.decoder.layers:
            y, att = layer(y, memory, causal, pad, True)
            attention.append(att[0])  # [heads, T, S]; row i predicts out[i]
        pieces = [codec.sp.id_to_piece(i) for i in ids]
        for i, token in enumerate(out):
            piece = codec.sp.id_to_piece(token)
            word = piece.strip("\u2581")
            if len(word) < 3 or not word.isalpha():
                continue
            where = [j for j, q in enumerate(pieces) if q == piece]
            if len(where) != 1:
                continue
            total += 1
            for l in range(layers):
                for h in range(heads):
                    hits[l, h] += int(attention[l][h, i].argmax() == where[0])
                hits[l, heads] += int(attention[l][:, i].mean(0).argmax() == where[0])
    print("%d copied pieces in %d sources" % (total, min(a.count, len(groups))))
    for l in range(layers):
        print("layer %d: %s  mean of heads %.3f" % (
            l, " ".join("head %d %.3f" % (h, hits[l, h] / total) for h in range(heads)),
            hits[l, heads] / total))
    return 0


if __name__ == "__main__":
    sys.exit(main())
