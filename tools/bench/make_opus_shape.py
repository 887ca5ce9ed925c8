"""A random-weight MarianMT folder of opus-mt-en-es's exact shape (d_model 512, 6 + 6 layers,
8 heads, FFN 2,048, swish, vocabulary 65,001, tied embeddings, final_logits_bias), in Hugging
Face's layout (config.json, generation_config.json, pytorch_model.bin or model.safetensors,
source.spm, target.spm, vocab.json), for the import and speed benchmarks of docs/benchmarks.md.
The tokenizer models are the MarianMT fixture's (../shared/fixtures/marian-tiny-en-es); vocab.json
holds their pieces and then filler pieces up to 65,001. Needs torch (not transformers).

    /usr/bin/python3 tools/bench/make_opus_shape.py OUT_DIR [--format bin|safetensors] [--vocab 65001]

--vocab N makes the same model with an N-entry vocabulary (the fixture's first pieces, then
fillers): its output layer is as wide as a vocabulary shortlist of N pieces would make it, so
decoding it measures what a shortlist could gain (docs/benchmarks.md) before one is built."""
import argparse, json, os, shutil

import torch

p = argparse.ArgumentParser()
p.add_argument("out")
p.add_argument("--format", choices=["bin", "safetensors"], default="bin")
p.add_argument("--vocab", type=int, default=65001, help="vocabulary size (opus-mt-en-es: 65,001)")
p.add_argument("--fixture", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "shared",
                                                 "fixtures", "marian-tiny-en-es", "bin"))
a = p.parse_args()
D, LAYERS, HEADS, FFN, V, POSITIONS = 512, 6, 8, 2048, a.vocab, 512
PAD = V - 1
os.makedirs(a.out, exist_ok=True)
for f in ("source.spm", "target.spm", "tokenizer_config.json"):
    shutil.copyfile(os.path.join(a.fixture, f), os.path.join(a.out, f))
vocab = json.load(open(os.path.join(a.fixture, "vocab.json"), encoding="utf-8"))
pieces = sorted(vocab, key=vocab.get)[:-1][:V - 1]  # without <pad>, which goes last
pieces += ["▁filler%d" % i for i in range(V - 1 - len(pieces))] + ["<pad>"]
json.dump({piece: i for i, piece in enumerate(pieces)}, open(os.path.join(a.out, "vocab.json"), "w"),
          ensure_ascii=False)
config = {"model_type": "marian", "architectures": ["MarianMTModel"], "d_model": D,
          "encoder_layers": LAYERS, "decoder_layers": LAYERS, "encoder_attention_heads": HEADS,
          "decoder_attention_heads": HEADS, "encoder_ffn_dim": FFN, "decoder_ffn_dim": FFN,
          "activation_function": "swish", "vocab_size": V, "decoder_vocab_size": V,
          "max_position_embeddings": POSITIONS, "scale_embedding": True, "pad_token_id": PAD,
          "eos_token_id": 0, "decoder_start_token_id": PAD, "share_encoder_decoder_embeddings": True,
          "tie_word_embeddings": True}
json.dump(config, open(os.path.join(a.out, "config.json"), "w"), indent=1)
json.dump({"bad_words_ids": [[PAD]], "decoder_start_token_id": PAD, "eos_token_id": 0,
           "forced_eos_token_id": 0, "max_length": 512, "num_beams": 4, "pad_token_id": PAD},
          open(os.path.join(a.out, "generation_config.json"), "w"), indent=1)
g = torch.Generator().manual_seed(1)
sd = {}
r = lambda *shape: (torch.randn(*shape, generator=g) * 0.02)
sd["model.shared.weight"] = r(V, D)
sd["model.encoder.embed_tokens.weight"] = sd["model.shared.weight"]
sd["model.decoder.embed_tokens.weight"] = sd["model.shared.weight"]
sd["lm_head.weight"] = sd["model.shared.weight"]
sd["final_logits_bias"] = r(1, V)
for stack in ("encoder", "decoder"):
    for l in range(LAYERS):
        pre = "model.%s.layers.%d." % (stack, l)
        for att in ("self_attn",) + (("encoder_attn",) if stack == "decoder" else ()):
            for proj in ("q_proj", "k_proj", "v_proj", "out_proj"):
                sd[pre + att + "." + proj + ".weight"] = r(D, D)
                sd[pre + att + "." + proj + ".bias"] = r(D)
            sd[pre + att + "_layer_norm.weight"] = torch.ones(D)
            sd[pre + att + "_layer_norm.bias"] = torch.zeros(D)
        sd[pre + "fc1.weight"], sd[pre + "fc1.bias"] = r(FFN, D), r(FFN)
        sd[pre + "fc2.weight"], sd[pre + "fc2.bias"] = r(D, FFN), r(D)
        sd[pre + "final_layer_norm.weight"], sd[pre + "final_layer_norm.bias"] = torch.ones(D), torch.zeros(D)
if a.format == "bin":
    torch.save(sd, os.path.join(a.out, "pytorch_model.bin"))
else:
    from safetensors.torch import save_file
    unique = {k: v for k, v in sd.items() if k not in ("model.encoder.embed_tokens.weight",
                                                       "model.decoder.embed_tokens.weight", "lm_head.weight")}
    save_file(unique, os.path.join(a.out, "model.safetensors"), metadata={"format": "pt"})
print(a.out, sum(v.numel() for k, v in sd.items() if k not in ("lm_head.weight",
      "model.encoder.embed_tokens.weight", "model.decoder.embed_tokens.weight")), "parameters")
