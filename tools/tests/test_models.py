#!/usr/bin/python3
"""Self-test of the model code, the safetensors writer and the batching used for training.
Small random models, no data needed. Run: ctest -R py_test_models (or, from tools/:
/usr/bin/python3 -m unittest tests.test_models)"""

import os
import tempfile
import unittest

os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")

from tests import require  # noqa: E402

require("torch", "numpy")

import numpy as np  # noqa: E402
import torch  # noqa: E402
import torch.nn.functional as F  # noqa: E402

from glosa.train import average as average_checkpoints  # noqa: E402
from glosa.eval import evaluate  # noqa: E402
from glosa.data import safetensors as glosa_safetensors  # noqa: E402
from glosa.train import trainer as glosa_train  # noqa: E402
from glosa.train import rnn as train_rnn  # noqa: E402
from glosa.train import transformer as train_transformer  # noqa: E402

V = 50
TINY_TRANSFORMER = dict(train_transformer.DEFAULTS, d_model=16, heads=2, ffn_dim=32,
                        encoder_layers=2, decoder_layers=2, max_positions=64)


def tiny_rnn(kind):
    return dict(train_rnn.DEFAULTS, embedding_dim=8, encoder_hidden=8, decoder_hidden=16,
                attention=kind, attention_dim=12)


def models():
    torch.manual_seed(0)
    out = [("transformer", train_transformer.build(TINY_TRANSFORMER, V))]
    for kind in train_rnn.SCORES:
        out.append(("rnn-" + kind, train_rnn.build(tiny_rnn(kind), V)))
    for _, m in out:
        with torch.no_grad():  # non-zero biases and norms, so that a dropped term shows
            for p in m.parameters():
                p.add_(torch.randn_like(p) * 0.1)
        m.eval()
    return out


SRC = torch.tensor([[5, 6, 7, 8, 3], [9, 10, 3, 0, 0]])
TGT = torch.tensor([[2, 11, 12, 13], [2, 14, 15, 0]])


class Models(unittest.TestCase):
    def test_incremental_step_equals_teacher_forcing(self):
        mask = SRC != 0
        for name, m in models():
            with torch.no_grad():
                full = torch.log_softmax(m.loss_logits(SRC, mask, TGT), -1)
                state = m.start_state(SRC, mask)
                for t in range(TGT.shape[1]):
                    lp, attn, state = m.step(state, TGT[:, :t + 1])
                    self.assertTrue(torch.allclose(lp, full[:, t], atol=1e-5), (name, t))
                    if name == "rnn-none":
                        self.assertIsNone(attn)
                        continue
                    self.assertEqual(tuple(attn.shape), (2, SRC.shape[1]))
                    # attention ignores padding and sums to one
                    self.assertEqual(float(attn[1, 3:].abs().sum()), 0.0)
                    self.assertTrue(torch.allclose(attn.sum(-1), torch.ones(2), atol=1e-5))

    def test_padding_does_not_change_a_sentence(self):
        for name, m in models():
            with torch.no_grad():
                alone = m.greedy(SRC[1:, :3], SRC[1:, :3] != 0, 8)
                batched = m.greedy(SRC, SRC != 0, 8)
            self.assertEqual(alone[0], batched[1], name)

    def test_beam_one_equals_greedy(self):
        for name, m in models():
            g = m.greedy(SRC, SRC != 0, 8)
            b = evaluate.beam_search(m, SRC, SRC != 0, 8, beam=1, alpha=0.0)
            self.assertEqual(g, b, name)

    def test_beam_search_finds_a_better_or_equal_sequence(self):
        for name, m in models():
            mask = SRC != 0
            g = m.greedy(SRC, mask, 8)
            b = evaluate.beam_search(m, SRC, mask, 8, beam=4, alpha=0.0)
            for i in range(2):
                def logprob(tokens):
                    ys = torch.tensor([[glosa_train.BOS] + tokens + [glosa_train.EOS]])
                    with torch.no_grad():
                        lp = torch.log_softmax(m.loss_logits(SRC[i:i + 1], mask[i:i + 1],
                                                             ys[:, :-1]), -1)
                    return float(lp[0, torch.arange(ys.shape[1] - 1), ys[0, 1:]].sum())
                if len(g[i]) < 8 and len(b[i]) < 8:  # both finished with </s>
                    self.assertGreaterEqual(logprob(b[i]) + 1e-4, logprob(g[i]), name)

    def test_attention_kinds_have_their_tensors(self):
        expected = {"dot": [], "scaled-dot": [], "none": [],
                    "general": ["decoder.attention.key_proj.weight"],
                    "additive": ["decoder.attention.key_proj.weight",
                                 "decoder.attention.query_proj.weight",
                                 "decoder.attention.v.weight"]}
        for kind, names in expected.items():
            m = train_rnn.build(tiny_rnn(kind), V)
            got = sorted(k for k in m.state_dict() if "attention" in k)
            self.assertEqual(got, names, kind)
        with self.assertRaises(ValueError):
            train_rnn.build(dict(tiny_rnn("dot"), decoder_hidden=10), V)
        with self.assertRaises(ValueError):
            train_rnn.build(tiny_rnn("cosine"), V)

    def test_no_attention_sees_only_the_final_states(self):
        torch.manual_seed(5)
        m = train_rnn.build(tiny_rnn("none"), V).eval()
        src, mask = glosa_train.pad_sources([[5, 6, 7, 8, 3], [9, 10, 3]])
        with torch.no_grad():
            state = m.start_state(src, mask)
            blind = dict(state, enc=torch.zeros_like(state["enc"]),
                         keys=torch.zeros_like(state["keys"]))
            ys = torch.full((2, 1), glosa_train.BOS)
            lp, attention, _ = m.step(state, ys)
            lp_blind, _, _ = m.step(blind, ys)
            self.assertIsNone(attention)
            self.assertTrue(torch.equal(lp, lp_blind))  # no path from the per-token states
            other = dict(state, summary=torch.zeros_like(state["summary"]))
            self.assertFalse(torch.equal(lp, m.step(other, ys)[0]))  # the summary is the path


class SafeTensors(unittest.TestCase):
    def test_round_trip_and_layout(self):
        tensors = {"b": np.arange(3, dtype=np.float16), "a.weight": np.ones((2, 3), np.float32),
                   "z": np.array([1, -2], dtype=np.int64)}
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "t.safetensors")
            glosa_safetensors.save(tensors, path, {"k": "v"})
            header, start = glosa_safetensors.read_header(path)
            self.assertEqual(start % 8, 0)
            self.assertEqual(header["__metadata__"], {"k": "v"})
            self.assertEqual(header["a.weight"], {"dtype": "F32", "shape": [2, 3],
                                                  "data_offsets": [0, 24]})
            self.assertEqual(header["b"]["data_offsets"], [24, 30])
            self.assertEqual(os.path.getsize(path), start + 30 + 16)
            back = glosa_safetensors.load(path)
            for k, v in tensors.items():
                self.assertEqual(back[k].dtype, v.dtype)
                np.testing.assert_array_equal(back[k], v)


class Batching(unittest.TestCase):
    def test_token_budget_and_determinism(self):
        rng = np.random.RandomState(0)
        ex = [([4] * rng.randint(1, 30) + [3], [5] * rng.randint(1, 30)) for _ in range(500)]
        b1 = glosa_train.make_batches(ex, 200, seed=7)
        self.assertEqual(b1, glosa_train.make_batches(ex, 200, seed=7))
        self.assertNotEqual(b1, glosa_train.make_batches(ex, 200, seed=8))
        self.assertEqual(sorted(i for b in b1 for i in b), list(range(500)))
        for b in b1:
            m = max(max(len(ex[i][0]), len(ex[i][1]) + 1) for i in b)
            self.assertTrue(len(b) == 1 or len(b) * m <= 200)

    def test_collate(self):
        src, mask, tin, tout = glosa_train.collate([([7, 3], [8, 9]), ([6, 6, 3], [5])], [0, 1])
        self.assertEqual(src.tolist(), [[7, 3, 0], [6, 6, 3]])
        self.assertEqual(tin.tolist(), [[2, 8, 9], [2, 5, 0]])
        self.assertEqual(tout.tolist(), [[8, 9, 3], [5, 3, 0]])

    def test_dev_sample_spreads_over_the_set(self):
        groups = list(range(3003))
        picked = glosa_train.dev_sample(groups, 400)
        self.assertEqual(len(picked), 400)
        self.assertEqual(len(set(picked)), 400)
        self.assertEqual(picked[0], 0)
        self.assertGreater(picked[-1], 2990)
        self.assertEqual(glosa_train.dev_sample(groups, 0), groups)
        self.assertEqual(glosa_train.dev_sample(groups[:10], 400), groups[:10])

    def test_schedule(self):
        self.assertAlmostEqual(glosa_train.lr_at(100, 1e-3, 400), 2.5e-4)
        self.assertAlmostEqual(glosa_train.lr_at(400, 1e-3, 400), 1e-3)
        self.assertAlmostEqual(glosa_train.lr_at(1600, 1e-3, 400), 5e-4)


class TrainingOps(unittest.TestCase):
    def test_smoothed_cross_entropy_equals_torch(self):
        torch.manual_seed(3)
        logits = (torch.randn(37, V) * 4).requires_grad_(True)
        target = torch.randint(1, V, (37,))
        target[[2, 5, 30]] = glosa_train.PAD
        for eps in (0.0, 0.1):
            ours = glosa_train.smoothed_cross_entropy(logits, target, eps)
            (g_ours,) = torch.autograd.grad(ours, logits)
            ref = F.cross_entropy(logits, target, ignore_index=glosa_train.PAD, label_smoothing=eps)
            (g_ref,) = torch.autograd.grad(ref, logits)
            self.assertAlmostEqual(float(ours), float(ref), places=5)
            self.assertLess(float((g_ours - g_ref).abs().max()), 1e-6)
            self.assertEqual(float(g_ours[2].abs().max()), 0.0)  # padding gets no gradient
        # bf16 logits (autocast) give a bf16 gradient and the fp32 loss within bf16 rounding.
        lb = logits.detach().bfloat16().requires_grad_(True)
        loss = glosa_train.smoothed_cross_entropy(lb, target, 0.1)
        (gb,) = torch.autograd.grad(loss, lb)
        self.assertEqual(gb.dtype, torch.bfloat16)
        ref = F.cross_entropy(lb.float(), target, ignore_index=glosa_train.PAD, label_smoothing=0.1)
        self.assertAlmostEqual(float(loss), float(ref), places=4)

    def test_dropout_keeps_the_expectation(self):
        torch.manual_seed(4)
        drop = glosa_train.Dropout(0.1)
        x = torch.ones(400, 1000)
        y = drop(x)
        kept = float((y > 0).float().mean())
        self.assertAlmostEqual(kept, 0.9, delta=0.003)
        self.assertAlmostEqual(float(y.mean()), 1.0, delta=0.004)
        self.assertTrue(torch.equal(y[y > 0], torch.full_like(y[y > 0], 1 / 0.9)))
        self.assertFalse(torch.equal(drop(x), y))  # a new mask each call
        drop.eval()
        self.assertIs(drop(x), x)
        xg = torch.ones(3, 5, requires_grad=True)
        drop.train()
        out = drop(xg)
        out.sum().backward()
        self.assertTrue(torch.equal(xg.grad, out.detach()))  # gradient uses the same mask

    def test_average_checkpoints_is_the_mean_of_the_weights(self):
        with tempfile.TemporaryDirectory() as d:
            weights = []
            for i, step in enumerate((500, 1000, 1500)):
                torch.manual_seed(i)
                m = train_transformer.build(TINY_TRANSFORMER, V)
                weights.append(m.state_dict())
                torch.save({"config": {"architecture": "transformer", "hparams": TINY_TRANSFORMER},
                            "model": m.state_dict(), "step": step, "epoch": 0},
                           os.path.join(d, "snap-%07d.pt" % step))
            paths = average_checkpoints.snapshots(d, 2)
            self.assertEqual([os.path.basename(p) for p in paths],
                             ["snap-0001000.pt", "snap-0001500.pt"])
            ck, steps = average_checkpoints.average(paths)
            self.assertEqual((steps, ck["step"]), ([1000, 1500], 1500))
            for k, v in ck["model"].items():
                self.assertTrue(torch.allclose(v, (weights[1][k] + weights[2][k]) / 2, atol=1e-7), k)
            # The averaged checkpoint loads into the model it came from.
            train_transformer.build(TINY_TRANSFORMER, V).load_state_dict(ck["model"])

    def test_package_embedding_dequantizes_int8(self):
        # --init-embedding from an int8 package (the shipped general Transformers) must start the
        # RNN from the vectors, not from the codes, which are up to 127 times too large.
        torch.manual_seed(0)
        emb = torch.randn(V, 16) * 0.05
        with tempfile.TemporaryDirectory() as d:
            glosa_safetensors.save(
                {k: v.numpy() for k, v in glosa_train.quantize_int8(
                    {"embedding.weight": emb}).items()},
                os.path.join(d, "model.safetensors"))
            back = glosa_train.package_embedding(d)
        self.assertEqual(back.dtype, torch.float32)
        step = emb.abs().max(dim=1).values / 127  # one int8 step of each row
        self.assertTrue(bool(((back - emb).abs() <= step[:, None] / 2 + 1e-7).all()))


if __name__ == "__main__":
    torch.set_num_threads(1)
    unittest.main()
