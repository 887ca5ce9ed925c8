#!/usr/bin/python3
"""Builds the PyTorch-vs-engine parity fixtures in tests/data/parity/ (tst_parity_transformer,
tst_parity_rnn).

For each tiny architecture variant it
  1. builds the model with the training code's own builder (train_transformer.build /
     train_rnn.build) and fills every parameter with seeded random values (biases and layer-norm
     parameters included, so that a plugin that forgets one of them fails);
  2. writes a checkpoint in the training loop's format and exports it with
     export_package.export(), i.e. the very code that exports the shipped models (fp32 weights,
     so that parity is exact; one variant is also exported as fp16);
  3. loads the exported package back with evaluate.load_model() and records, with that model:
       golden.safetensors  per-step log-probabilities on fixed target prefixes (teacher forcing)
                           "logprobs" [B, T, V], and the cross-attention
                           transformer: "attention" [B, T, layers, heads, S] (every layer, head)
                           rnn:         "attention" [B, T, S]
                           and the Transformer's self-attention, every layer and head:
                           "encoder_self_attention" [B, layers, heads, S, S] and
                           "decoder_self_attention" [B, layers, heads, T, T] (masked: zero above
                           the diagonal)
       golden.json         sources, target prefixes, greedy outputs (model.greedy), and beam-4
                           n-best lists (tokens, log-prob, score) from a port of the engine's
                           BeamSearch (engine/decoding/search.cpp) driven by model.step().
Every golden search decision is checked to win by a margin (MIN_MARGIN) far above fp32 noise, so
that an engine within 1e-4 must reproduce it; a seed that gives a near-tie is rejected.

Tokenizer: tests/data/spm/spm-identity.model (300 pieces, 4 KB), copied into each package.

One more package, transformer-placeholders, has no golden files: a random-weight Transformer
over the general-domain 16k SentencePiece model (tests/data/protected-spans/spm.model), with the
"placeholders" hyperparameter that model's pieces allow. tst_protectedspans runs the Translator
on it: where spans become placeholders, where their pieces point and how they come back do not
depend on what the weights say.

  /usr/bin/python3 tools/make_parity_fixtures.py          # rewrites tests/data/parity/
  /usr/bin/python3 tools/make_parity_fixtures.py transformer-placeholders   # only that one
  /usr/bin/python3 tools/make_parity_fixtures.py transformer-tiny-i8   # int8 copy of the tiny one

A shipped package is checked the same way on real sentences: `shipped ID` loads
resources/models/ID with evaluate.load_model() (an int8 package's codes × scales, the float32
weights the engine computes with under ComputeType::Float32) and writes
tests/data/parity/shipped/ID.json: the sentences, their SentencePiece ids, greedy and beam-4
outputs as above. Sentences with a near-tie decision are left out (the file says how many).

  /usr/bin/python3 tools/make_parity_fixtures.py shipped transformer-en-de
"""

import contextlib
import json
import math
import os
import shutil
import sys
import tempfile

import torch

from glosa.eval import evaluate  # noqa: E402
from glosa.export import package as export_package  # noqa: E402
from glosa.data import safetensors as glosa_safetensors  # noqa: E402
from glosa.train import trainer as glosa_train  # noqa: E402
from glosa.train import rnn as train_rnn  # noqa: E402
from glosa.train import transformer as train_transformer  # noqa: E402

from glosa import REPO_ROOT as REPO  # noqa: E402
OUT = os.path.join(REPO, "tests", "data", "parity")
SPM = os.path.join(REPO, "tests", "data", "spm", "spm-identity.model")
PAD, BOS, EOS = glosa_train.PAD, glosa_train.BOS, glosa_train.EOS

# Search settings shared with the C++ tests (written into golden.json).
MAX_LENGTH = 24
BEAM = 4
ALPHA = 0.6
MIN_MARGIN = 1e-3

TRANSFORMER = dict(train_transformer.DEFAULTS, d_model=32, heads=4, ffn_dim=64, encoder_layers=2,
                   decoder_layers=2, max_positions=64)
RNN_BASE = dict(train_rnn.DEFAULTS, embedding_dim=16, encoder_hidden=16, encoder_layers=1,
                decoder_hidden=32, attention_dim=24)

# name -> (architecture, hparams, seed, EOS logit boost, dtypes)
VARIANTS = {
    "transformer-tiny": ("transformer", TRANSFORMER, 16, 14.0, ("f32", "f16")),
    "rnn-dot": ("rnn-attention", dict(RNN_BASE, attention="dot"), 21, 6.0, ("f32",)),
    "rnn-general": ("rnn-attention", dict(RNN_BASE, attention="general", encoder_layers=2), 26,
                    4.0, ("f32", "f16")),
    "rnn-additive": ("rnn-attention", dict(RNN_BASE, attention="additive"), 28, 3.0, ("f32",)),
    "rnn-scaled-dot": ("rnn-attention", dict(RNN_BASE, attention="scaled-dot"), 25, 3.0,
                       ("f32",)),
    "rnn-none": ("rnn-attention", dict(RNN_BASE, attention="none"), 39, 3.0, ("f32",)),
}


def randomize(model, seed, eos_boost):
    """Seeded random values for every parameter. Embeddings get a large scale so that the output
    distributions are peaked (decisions then win by clear margins), and the EOS logit gets a
    constant boost (through the output bias, or for the Transformer's bias-free tied output
    through the final layer norm's shift along E[EOS]) so that some hypotheses end with EOS after
    a few tokens while others run to the maximum length."""
    g = torch.Generator().manual_seed(seed)
    with torch.no_grad():
        for name, p in model.named_parameters():
            if name == "embedding.weight":
                p.copy_(torch.randn(p.shape, generator=g) * 1.0)
            elif p.dim() == 1 and ("norm" in name) and name.endswith("weight"):
                p.copy_(1.0 + 0.2 * torch.randn(p.shape, generator=g))
            elif p.dim() == 1:
                p.copy_(0.2 * torch.randn(p.shape, generator=g))
            else:
                fan_in = p.shape[-1]
                p.copy_(torch.randn(p.shape, generator=g) * (1.5 / math.sqrt(fan_in)))
        # Logit shifts: EOS up by eos_boost; PAD and BOS, which every search suppresses, far down
        # (otherwise a random model may give them most of the mass, and renormalising what is
        # left after suppressing them amplifies fp32 rounding beyond any fixed tolerance).
        special = [EOS, PAD, BOS]
        shift = torch.tensor([eos_boost, -30.0, -30.0])
        if hasattr(model.decoder, "output_bias"):
            model.decoder.output_bias[special] += shift
        else:
            # Bias-free tied output: move the final layer norm's shift so that
            # E[special] . delta = shift (minimum-norm solution).
            e = model.embedding.weight[special].double()  # [3, d]
            delta = e.T @ torch.linalg.solve(e @ e.T, shift.double())
            model.decoder.final_norm.bias += delta.float()
    model.eval()


def fake_checkpoint(arch, hparams, model, vocab, directory, spm=SPM):
    """A checkpoint in glosa_train.main's format, so that export_package.export() takes it."""
    script = {"transformer": train_transformer.ARCH, "rnn-attention": train_rnn.ARCH}[arch]
    cfg = {"architecture": arch, "plugin": script.plugin, "script": script.script,
           "hparams": dict(hparams), "pair": "en-es", "src": "en", "tgt": "es",
           "vocab_size": vocab, "train": {"note": "random weights for parity tests"},
           "init_from": None, "init_step": 0}
    ck = {"config": cfg, "model": model.state_dict(), "step": 0, "epoch": 0,
          "batch_in_epoch": 0, "best_bleu": -1.0, "evals_since_best": 0, "history": [],
          "train_seconds": 0.0}
    path = os.path.join(directory, "last.pt")
    torch.save(ck, path)
    shutil.copyfile(spm, os.path.join(directory, "spm.model"))
    return path


PLACEHOLDER_SPM = os.path.join(REPO, "tests", "data", "protected-spans", "spm.model")
PLACEHOLDER_HPARAMS = dict(train_transformer.DEFAULTS, d_model=16, heads=2, ffn_dim=32,
                           encoder_layers=1, decoder_layers=1, max_positions=1024)


def build_placeholder_package(seed=41):
    vocab = len(glosa_train.SpmCodec(PLACEHOLDER_SPM))
    torch.manual_seed(seed)
    model = train_transformer.build(PLACEHOLDER_HPARAMS, vocab)
    randomize(model, seed, 3.0)
    out = os.path.join(OUT, "transformer-placeholders")
    if os.path.isdir(out):
        shutil.rmtree(out)
    with tempfile.TemporaryDirectory() as tmp:
        ckpt = fake_checkpoint("transformer", PLACEHOLDER_HPARAMS, model, vocab, tmp,
                               PLACEHOLDER_SPM)
        _, _, _, manifest = export_package.export(ckpt, out, "parity-transformer-placeholders",
                                                  dtype="f16")
    manifest["name"] = "Placeholder fixture (random weights, not a translator)"
    if manifest["hyperparameters"].get("placeholders") != 16:
        raise SystemExit("%s: the tokenizer should give 16 placeholders" % PLACEHOLDER_SPM)
    with open(os.path.join(out, "model.json"), "w", encoding="utf-8") as f:
        json.dump(manifest, f, indent=2, ensure_ascii=False)
        f.write("\n")
    size = sum(os.path.getsize(os.path.join(out, x)) for x in os.listdir(out))
    print("%-22s %7d bytes" % ("transformer-placeholders", size))


def make_inputs(vocab, seed):
    g = torch.Generator().manual_seed(seed + 1000)
    lengths = [5, 9, 3, 7]  # source pieces; EOS is appended
    sources = [torch.randint(4, vocab, (n,), generator=g).tolist() + [EOS] for n in lengths]
    prefixes = [[BOS] + torch.randint(4, vocab, (6,), generator=g).tolist() for _ in lengths]
    return sources, prefixes


# ---------------------------------------------------------------------------------------------
# Teacher forcing


@contextlib.contextmanager
def recording_weights(attentions, sink):
    """Appends to `sink` the softmax weights [B, heads, Tq, Tk] each of the given
    MultiHeadAttention modules computes, in call order, by wrapping their own attend(): the
    training code's numbers, not a re-implementation of them."""
    for module in attentions:
        def attend(Q, K, V, mask, original=module.attend):
            out, attn = original(Q, K, V, mask)
            sink.append(attn)
            return out, attn
        module.attend = attend
    try:
        yield
    finally:
        for module in attentions:
            del module.attend  # back to the class's method


@torch.no_grad()
def teacher_forced(model, arch, sources, prefixes):
    """-> (logprobs, cross-attention, {name: more golden tensors})"""
    src, mask = glosa_train.pad_sources(sources)
    tgt = torch.tensor(prefixes)
    if arch == "transformer":
        encoder_self, decoder_self = [], []
        with recording_weights([layer.self_attn for layer in model.encoder.layers],
                               encoder_self), \
                recording_weights([layer.self_attn for layer in model.decoder.layers],
                                  decoder_self):
            memory = model.encode(src, mask)
            T = tgt.shape[1]
            causal = torch.ones(T, T, dtype=torch.bool).triu(1)[None, None]
            pad = ~mask[:, None, None, :]
            y = model.embed(tgt)
            attns = []
            for layer in model.decoder.layers:
                y, attn = layer(y, memory, causal, pad, True)  # attn [B, heads, T, S]
                attns.append(attn)
        logits = torch.nn.functional.linear(model.decoder.final_norm(y), model.embedding.weight)
        logprobs = torch.log_softmax(logits, -1)  # [B, T, V]
        attention = torch.stack(attns, 0).permute(1, 3, 0, 2, 4)  # [B, T, layers, heads, S]
        return logprobs, attention, {
            "encoder_self_attention": torch.stack(encoder_self, 1),  # [B, layers, heads, S, S]
            "decoder_self_attention": torch.stack(decoder_self, 1),  # [B, layers, heads, T, T]
        }
    state = model.start_state(src, mask)
    lps, atts = [], []
    for t in range(tgt.shape[1]):
        lp, a, state = model.step(state, tgt[:, :t + 1])
        lps.append(lp)
        atts.append(a)
    # [B, T, V], [B, T, S] (none without attention)
    return torch.stack(lps, 1), None if atts[0] is None else torch.stack(atts, 1), {}


# ---------------------------------------------------------------------------------------------
# Searches


def suppress_and_renormalize(logp):
    """The engine's SuppressTokens({PAD, BOS}) followed by ScoreRow::renormalize()."""
    logp = logp.clone()
    logp[:, PAD] = float("-inf")
    logp[:, BOS] = float("-inf")
    return torch.log_softmax(logp, -1)


@torch.no_grad()
def greedy(model, sources, margins):
    """model.greedy() (the training code's own greedy search), plus the margin of every decision
    taken along the way (recomputed through model.step)."""
    src, mask = glosa_train.pad_sources(sources)
    out = model.greedy(src, mask, MAX_LENGTH)
    for b, tokens in enumerate(out):
        s, m = glosa_train.pad_sources([sources[b]])
        state = model.start_state(s, m)
        ys = [BOS]
        for t in range(min(len(tokens) + 1, MAX_LENGTH)):
            lp, _, state = model.step(state, torch.tensor([ys]))
            lp = suppress_and_renormalize(lp)[0]
            top = lp.topk(2).values
            margins.append(float(top[0] - top[1]))
            ys.append(tokens[t] if t < len(tokens) else EOS)
    return out


def lp_gnmt(length):
    return ((5.0 + length) / 6.0) ** ALPHA


@torch.no_grad()
def beam_search(model, source, margins):
    """Port of engine/decoding/search.cpp BeamSearch for one sentence, with the options the C++
    tests use: beamSize BEAM, nBest BEAM, GNMT length penalty ALPHA, EarlyStopping::Heuristic,
    maxLength MAX_LENGTH, suppressTokens {PAD, BOS}. Returns the n-best list, best first:
    [{"tokens", "log_prob", "score", "ended_with_eos"}]."""
    src, mask = glosa_train.pad_sources([source])
    state = model.start_state(src, mask)
    alive = [([], 0.0)]  # (tokens, cumulative log-prob), best first
    finished = []
    for step in range(MAX_LENGTH):
        ys = torch.tensor([[BOS] + toks for toks, _ in alive])
        lp, _, state = model.step(state, ys)
        lp = suppress_and_renormalize(lp)
        V = lp.shape[1]
        total = torch.tensor([c for _, c in alive])[:, None] + lp  # [alive, V]
        flat = total.reshape(-1)
        k = min(2 * BEAM, int(torch.isfinite(flat).sum()))
        order = sorted(range(flat.numel()), key=lambda i: (-float(flat[i]), i // V, i % V))
        order = order[:k + 1]
        vals = [float(flat[i]) for i in order]
        # Decisions that change the result: the 2×beam cut, the beam-rank cut for EOS, and the
        # cut between the last kept and the first pruned non-EOS candidate.
        for cut in (2 * BEAM, BEAM):
            if cut < len(vals):
                margins.append(vals[cut - 1] - vals[cut])
        non_eos = [v for i, v in zip(order[:k], vals) if i % V != EOS]
        if len(non_eos) > BEAM:
            margins.append(non_eos[BEAM - 1] - non_eos[BEAM])
        order = order[:k]
        nxt, origins, kept = [], [], 0
        for rank, i in enumerate(order):
            h, tok = i // V, i % V
            toks, cum = alive[h]
            score = float(flat[i])
            if tok == EOS:
                if rank < BEAM:
                    n = len(toks) + 1
                    finished.append({"tokens": toks, "log_prob": score,
                                     "score": score / lp_gnmt(n), "ended_with_eos": True})
                continue
            if kept >= BEAM:
                continue
            kept += 1  # a hypothesis finished at the maximum length counts against the beam
            child = (toks + [tok], score)
            if len(child[0]) >= MAX_LENGTH:
                finished.append({"tokens": child[0], "log_prob": score,
                                 "score": score / lp_gnmt(len(child[0])),
                                 "ended_with_eos": False})
                continue
            nxt.append(child)
            origins.append(h)
        alive = nxt
        done = not alive
        if not done and len(finished) >= BEAM:
            worst = sorted((f["score"] for f in finished), reverse=True)[BEAM - 1]
            best_toks, best_cum = alive[0]
            bound = best_cum / lp_gnmt(len(best_toks) + 1)
            margins.append(abs(bound - worst))
            done = bound <= worst
        if done:
            break
        state = model.reorder_state(state, torch.tensor(origins))
    finished.sort(key=lambda f: -f["score"])  # stable, as the engine's stable_sort
    scores = [f["score"] for f in finished]
    for a, b in zip(scores, scores[1:BEAM + 1]):
        margins.append(a - b)
    return finished[:BEAM]


# ---------------------------------------------------------------------------------------------


def build_variant(name, arch, hparams, seed, eos_boost, dtypes, check=True):
    vocab = 300
    builder = {"transformer": train_transformer.build, "rnn-attention": train_rnn.build}[arch]
    torch.manual_seed(seed)
    model = builder(hparams, vocab)
    randomize(model, seed, eos_boost)
    sources, prefixes = make_inputs(vocab, seed)
    written = []
    with tempfile.TemporaryDirectory() as tmp:
        ckpt = fake_checkpoint(arch, hparams, model, vocab, tmp)
        for dtype in dtypes:
            pkg = name if dtype == "f32" else name + "-f16"
            out = os.path.join(OUT, pkg)
            if os.path.isdir(out):
                shutil.rmtree(out)
            export_package.export(ckpt, out, "parity-" + pkg, dtype=dtype)
            # The export names the model after its language pair and data; these are not
            # translators, so say so where a model list would show them.
            with open(os.path.join(out, "model.json"), encoding="utf-8") as f:
                manifest = json.load(f)
            manifest["name"] = "Parity fixture %s (random weights, not a translator)" % pkg
            with open(os.path.join(out, "model.json"), "w", encoding="utf-8") as f:
                json.dump(manifest, f, indent=2, ensure_ascii=False)
                f.write("\n")
            pkg_model, _, _ = evaluate.load_model(out)  # the weights exactly as exported
            logprobs, attention, more = teacher_forced(pkg_model, arch, sources, prefixes)
            margins = []
            greedy_out = greedy(pkg_model, sources, margins)
            beams = [beam_search(pkg_model, s, margins) for s in sources]
            tensors = dict(more, logprobs=logprobs)
            if attention is not None:
                tensors["attention"] = attention
            glosa_safetensors.save({k: v.float().contiguous() for k, v in tensors.items()},
                                   os.path.join(out, "golden.safetensors"))
            golden = {
                "generated_by": "tools/make_parity_fixtures.py",
                "architecture": arch, "seed": seed, "dtype": dtype,
                "sources": sources, "target_prefixes": prefixes,
                "search": {"max_length": MAX_LENGTH, "beam_size": BEAM, "n_best": BEAM,
                           "length_penalty": ALPHA, "early_stopping": "heuristic",
                           "suppress_tokens": [PAD, BOS]},
                "greedy": greedy_out,
                "beam": beams,
                "min_decision_margin": min(margins),
            }
            with open(os.path.join(out, "golden.json"), "w", encoding="utf-8") as f:
                json.dump(golden, f, indent=1)
                f.write("\n")
            size = sum(os.path.getsize(os.path.join(out, x)) for x in os.listdir(out))
            ends = sum(1 for b in beams for h in b if h["ended_with_eos"])
            print("%-22s %7d bytes  greedy lengths %s  beam hyps ending with EOS %d/%d  "
                  "min margin %.4f" % (pkg, size, [len(g) for g in greedy_out], ends,
                                       sum(len(b) for b in beams), min(margins)))
            if check and min(margins) < MIN_MARGIN:
                raise SystemExit("%s: a search decision is a near-tie (margin %.2g < %.2g): pick "
                                 "another seed" % (pkg, min(margins), MIN_MARGIN))
            if size > 1_000_000:
                raise SystemExit("%s: %d bytes, over the 1 MB budget" % (pkg, size))
            written.append(pkg)
    return written


# Everyday sentences in each source language for the shipped packages' goldens (tokenizer, greedy
# and beam parity).
SHIPPED_SENTENCES = {"en": [
    "Where is the station?", "The girl is very tired.", "I don't know where my keys are.",
    "We are going to the station tomorrow.", "My brother lives in a small house.",
    "Tom doesn't like cold coffee.", "Can you help me, please?", "It is raining again today.",
    "She has read this book three times.", "Why are you laughing?",
    "I'll call you after dinner.", "The children are playing in the garden.",
], "es": [
    "¿Dónde está la estación?", "La niña está muy cansada.", "No sé dónde están mis llaves.",
    "Mañana vamos a la estación.", "Mi hermano vive en una casa pequeña.",
    "A Tom no le gusta el café frío.", "¿Me puedes ayudar, por favor?", "Hoy vuelve a llover.",
    "Ella ha leído este libro tres veces.", "¿Por qué te ríes?",
    "Te llamo después de cenar.", "Los niños están jugando en el jardín.",
]}


def build_shipped(pkg_id):
    pkg = os.path.join(REPO, "resources", "models", pkg_id)
    model, codec, _ = evaluate.load_model(pkg)
    with open(os.path.join(pkg, "model.json"), encoding="utf-8") as f:
        sentences = SHIPPED_SENTENCES[json.load(f)["languages"]["source"]]
    texts, sources, greedy_out, beams, margins_all = [], [], [], [], []
    for text in sentences:
        ids = codec.encode([text])[0] + [EOS]
        margins = []
        g = greedy(model, [ids], margins)[0]
        b = beam_search(model, ids, margins)
        if min(margins) < MIN_MARGIN:
            print("%s: %r left out (a decision wins by %.2g)" % (pkg_id, text, min(margins)))
            continue
        texts.append(text)
        sources.append(ids)
        greedy_out.append(g)
        beams.append(b)
        margins_all += margins
    golden = {
        "generated_by": "tools/make_parity_fixtures.py shipped %s" % pkg_id,
        "package": pkg_id, "texts": texts, "sources": sources,
        "left_out": len(sentences) - len(texts),
        "search": {"max_length": MAX_LENGTH, "beam_size": BEAM, "n_best": BEAM,
                   "length_penalty": ALPHA, "early_stopping": "heuristic",
                   "suppress_tokens": [PAD, BOS]},
        "greedy": greedy_out, "beam": beams, "min_decision_margin": min(margins_all),
    }
    os.makedirs(os.path.join(OUT, "shipped"), exist_ok=True)
    path = os.path.join(OUT, "shipped", pkg_id + ".json")
    with open(path, "w", encoding="utf-8") as f:
        json.dump(golden, f, indent=1, ensure_ascii=False)
        f.write("\n")
    print("%s: %d sentences, min margin %.4f -> %s" % (pkg_id, len(texts), min(margins_all), path))


def main():
    torch.set_num_threads(1)
    os.makedirs(OUT, exist_ok=True)
    only = sys.argv[1:]
    if only[:1] == ["shipped"]:
        for pkg_id in only[1:]:
            build_shipped(pkg_id)
        return 0
    for name, variant in VARIANTS.items():
        if not only or name in only:
            build_variant(name, *variant)
    if not only or "transformer-placeholders" in only:
        build_placeholder_package()
    if not only or "transformer-tiny-i8" in only:
        # The fp32 tiny package with its weight matrices in int8 (export_package --quantize):
        # tst_parity_transformer checks the engine reads codes × scales back and refuses broken
        # scales.
        out = os.path.join(OUT, "transformer-tiny-i8")
        if os.path.isdir(out):
            shutil.rmtree(out)
        manifest = export_package.quantize_package(os.path.join(OUT, "transformer-tiny"), out)
        for name in ("golden.json", "golden.safetensors"):
            os.remove(os.path.join(out, name))
        manifest["name"] = "Parity fixture transformer-tiny-i8 (random weights, int8)"
        with open(os.path.join(out, "model.json"), "w", encoding="utf-8") as f:
            json.dump(manifest, f, indent=2, ensure_ascii=False)
            f.write("\n")
        print("%-22s %7d bytes" % ("transformer-tiny-i8", sum(
            os.path.getsize(os.path.join(out, x)) for x in os.listdir(out))))
    return 0


if __name__ == "__main__":
    sys.exit(main())
