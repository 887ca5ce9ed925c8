#!/usr/bin/python3
"""Scores translations of the Tatoeba dev/test splits with BLEU and chrF2 (sacrebleu defaults,
see glosa_metrics.py), multi-reference: the split is grouped by source sentence and every
translation of a source is a reference. Hypotheses are one line per grouped source, in the order
in which the sources first appear in the split.

  # a file of hypotheses (--pair en-de alone: en->de; --pair en-de --src de: de->en)
  evaluate.py hyps --pair en-es --src en --tgt es --split test hyps.txt
  # a PyTorch checkpoint (best.pt / last.pt) or an exported package folder
  evaluate.py model --split dev --beam 4 --alpha 0.6 /work/runs/transformer-en-es/best.pt
  evaluate.py model --split test resources/models/transformer-en-es
  # the rule-based Apertium baseline (apertium eng-spa / spa-eng; any mode `apertium -l` lists)
  evaluate.py apertium --src en --tgt es --split test
  # the product itself: build/bin/glosa-cli translate with the package's default decoding,
  # optionally recording the scores in the package's model.json
  evaluate.py cli --split test --record resources/models/transformer-es-en
  evaluate.py cli --split newstest2013 --model transformer-es-en

  # the whole table of the README: every model given, and Apertium, on every report set
  evaluate.py report --models transformer-en-es,rnn-attention-en-es --markdown table.md

The pair (English first, en-es) names the data folders; a model's languages give it, or --pair,
--src and --tgt. Splits: dev, test (Tatoeba, multi-reference) and the out-of-domain sets of
../shared/data/newstest/<pair> (en-es: newstest2013, newstest2012, ..., tico19-test; one
reference a sentence, read from <set>.<src>.gz and <set>.<tgt>.gz, or the one regional variant
<set>.<lang>-<region>.gz). `report` adds the dev sets of the pair's broad corpus
(glosa_corpus.py: dev-news = newstest2012, dev-docs, dev-prose) and two small sets of ours with
our own references (tools/eval/<set>.<lang>: the sentences that first showed the problem, and a 12-sentence
news paragraph, en and es), leaving out with a note what a pair does not have (sets, an Apertium
mode), and for output in a language with a word list (WORD_LISTS: es, en) the share of invented
words. For Spanish: words (letters only) that are neither in Debian's Spanish word list
(wspanish, /usr/share/dict/spanish) nor in the reference. That list holds lemmas only (no
plurals, no conjugated verbs: Apertium's Tatoeba output scores 13.5% "invented" against it), so
the inflected forms of the Spanish Hunspell dictionary (hunspell-es, expanded by hunspell-tools'
unmunch) count as words too. The JSON rows also give
the share of invented words that are words of the source sentence (invented_copied_percent: left
untranslated, or a name whose reference spelling differs) apart from those made up from pieces.
"""

import argparse
import collections
import glob
import gzip
import json
import os
import re
import shutil
import subprocess
import sys
import time

# Idle OpenMP threads must sleep, not spin: on this shared 2-core machine a spinning thread
# steals the core its partner needs (measured 5.7 s/step passive vs 30 s/step spinning while
# a compiler ran). Must be set before torch loads libgomp.
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
os.environ.pop("OPENBLAS_CORETYPE", None)  # NOTES.md: its auto-detection is 20-60% faster

import torch

from glosa import REPO_ROOT, TOOLS_DIR  # noqa: E402
from glosa.data import pairs as glosa_data  # noqa: E402
from glosa.eval import metrics as glosa_metrics  # noqa: E402
from glosa.train import trainer as glosa_train  # noqa: E402

PAD, BOS, EOS = glosa_train.PAD, glosa_train.BOS, glosa_train.EOS


def builders():
    """architecture name -> build(hparams, vocab_size)."""
    from glosa.train import transformer as train_transformer
    out = {train_transformer.ARCH.name: train_transformer.build}
    try:
        from glosa.train import rnn as train_rnn
        out[train_rnn.ARCH.name] = train_rnn.build
    except ImportError:
        pass
    return out


def load_model(path):
    """(model, codec, info) from a checkpoint file or a package folder. info has 'architecture',
    'hparams', 'src', 'tgt', 'pair' and, for checkpoints, the whole 'config'."""
    if os.path.isdir(path):
        with open(os.path.join(path, "model.json"), encoding="utf-8") as f:
            manifest = json.load(f)
        build = builders()[manifest["architecture"]]
        codec = glosa_train.SpmCodec(os.path.join(path, manifest["tokenizer"]["source"]))
        model = build(manifest["hyperparameters"], len(codec))
        glosa_train.load_package_weights(model, path)
        model.eval()
        src, tgt = manifest["languages"]["source"], manifest["languages"]["target"]
        info = {"architecture": manifest["architecture"], "hparams": manifest["hyperparameters"],
                "src": src, "tgt": tgt, "pair": manifest.get("training", {}).get(
                    "pair", glosa_data.pair_of(src, tgt)), "manifest": manifest}
        return model, codec, info
    model, cfg, ck = glosa_train.build_from_checkpoint(builders(), path)
    codec = glosa_train.SpmCodec(os.path.join(os.path.dirname(path), "spm.model"))
    info = {"architecture": cfg["architecture"], "hparams": cfg["hparams"], "src": cfg["src"],
            "tgt": cfg["tgt"], "pair": cfg["pair"], "config": cfg, "checkpoint": ck}
    return model, codec, info


@torch.no_grad()
def beam_search(model, src, src_mask, max_len, beam=4, alpha=0.6):
    """Batched beam search. Scores are sums of log-probabilities; a finished hypothesis (one that
    emitted </s>) is ranked by score / lp with the GNMT length penalty
    lp = ((5 + n) / 6) ** alpha (Wu et al. 2016), n = number of output tokens including </s>
    (alpha 0 turns it off). A sentence stops when it has `beam` finished hypotheses; at max_len the
    live ones are finished as they are. PAD and BOS are never produced.
    src [B, S], src_mask [B, S] -> [[token ids]] (best hypothesis per sentence, no BOS/EOS)."""
    B = src.shape[0]
    k = beam
    state = model.start_state(src, src_mask)
    state = model.reorder_state(state, torch.arange(B).repeat_interleave(k))
    ys = torch.full((B * k, 1), BOS, dtype=torch.long)
    scores = torch.full((B, k), float("-inf"))
    scores[:, 0] = 0.0
    finished = [[] for _ in range(B)]
    done = [False] * B

    def lp(n):
        return ((5.0 + n) / 6.0) ** alpha

    for t in range(max_len):
        logp, _, state = model.step(state, ys)  # [B*k, V]
        logp[:, PAD] = float("-inf")
        logp[:, BOS] = float("-inf")
        V = logp.shape[1]
        cand = (scores.view(B * k, 1) + logp).view(B, k * V)
        top_s, top_i = cand.topk(2 * k, dim=1)  # [B, 2k]
        top_s, top_i = top_s.tolist(), top_i.tolist()
        next_rows, next_tok, next_scores = [], [], []
        for b in range(B):
            rows, toks, scs = [], [], []
            if not done[b]:
                for s, i in zip(top_s[b], top_i[b]):
                    if s == float("-inf"):
                        break
                    r, tok = b * k + i // V, i % V
                    if tok == EOS:
                        finished[b].append((s / lp(t + 1), ys[r, 1:].tolist()))
                    else:
                        rows.append(r)
                        toks.append(tok)
                        scs.append(s)
                    if len(rows) == k:
                        break
                if len(finished[b]) >= k:
                    done[b] = True
            # keep the shapes fixed: pad dead/done sentences with -inf beams
            while len(rows) < k:
                rows.append(b * k)
                toks.append(PAD)
                scs.append(float("-inf"))
            if done[b]:
                scs = [float("-inf")] * k
            next_rows += rows
            next_tok += toks
            next_scores += scs
        if all(done):
            break
        index = torch.tensor(next_rows)
        ys = torch.cat([ys.index_select(0, index), torch.tensor(next_tok)[:, None]], 1)
        state = model.reorder_state(state, index)
        scores = torch.tensor(next_scores).view(B, k)
    out = []
    for b in range(B):
        if not done[b]:
            for j in range(k):
                s = float(scores[b, j])
                if s > float("-inf"):
                    finished[b].append((s / lp(ys.shape[1]), ys[b * k + j, 1:].tolist()))
        best = max(finished[b], key=lambda x: x[0])[1] if finished[b] else []
        out.append(best)
    return out


def translate_model(model, codec, sources, beam=1, alpha=0.6, batch_size=64):
    if beam <= 1:
        return glosa_train.translate(model, codec, sources, batch_size=batch_size)
    return glosa_train.translate(
        model, codec, sources, batch_size=max(1, batch_size // beam),
        decode=lambda m, s, sm, ml: beam_search(m, s, sm, ml, beam, alpha))


TATOEBA_SPLITS = ("dev", "test", "train")
# The out-of-domain sets the report scores (newstest/<pair>/); never trained or tuned on.
REPORT_ONLY_SETS = ("newstest2013", "tico19-test")


def default_corpus(pair):
    """Where tools/train_general.sh builds the broad corpus of a pair."""
    return os.path.join(os.environ.get("GLOSA_RUNS", "/work/runs"), "broad-" + pair)


def out_of_domain_sets(pair, data=None):
    """The names of the out-of-domain sets of a pair (newstest/<pair>/<set>.<lang>.gz)."""
    folder = os.path.join(glosa_data.data_dir(data), "newstest", pair)
    if not os.path.isdir(folder):
        return []
    return sorted({n.split(".")[0] for n in os.listdir(folder) if n.endswith(".gz")})


def side_path(folder, split, lang):
    """<split>.<lang>.gz, else the one regional variant <split>.<lang>-<region>.gz (tico19-test's
    Spanish is es-LA), else None."""
    path = os.path.join(folder, "%s.%s.gz" % (split, lang))
    if os.path.exists(path):
        return path
    variants = sorted(glob.glob(os.path.join(folder, "%s.%s-*.gz" % (split, glob.escape(lang)))))
    return variants[0] if len(variants) == 1 else None


def groups_for(pair, src, tgt, split, data=None):
    if split in TATOEBA_SPLITS:
        return glosa_data.group_references(glosa_data.load_pairs(pair, split, src, tgt, data))
    # An out-of-domain set: line-aligned gzip files, one reference per sentence.
    folder = os.path.join(glosa_data.data_dir(data), "newstest", pair)
    sides = []
    for lang in (src, tgt):
        path = side_path(folder, split, lang)
        if path is None and not os.path.isdir(folder):
            raise glosa_data.MissingData(
                "no out-of-domain sets for %s: %s does not exist (Tatoeba splits: %s)"
                % (pair, folder, ", ".join(TATOEBA_SPLITS)))
        if path is None:
            raise glosa_data.MissingData("no %s side of the set %r in %s (its sets: %s)" % (
                lang, split, folder, ", ".join(out_of_domain_sets(pair, data))))
        with gzip.open(path, "rt", encoding="utf-8") as f:
            sides.append([line.rstrip("\n") for line in f])
    if len(sides[0]) != len(sides[1]):
        raise SystemExit("%s: %d source and %d reference lines" % (split, len(sides[0]),
                                                                   len(sides[1])))
    return [(s, [r]) for s, r in zip(*sides)]


def split_name(pair, split):
    return ("tatoeba-%s/%s" if split in TATOEBA_SPLITS else "%s/%s") % (pair, split)


def glosa_cli(sources, model, executable, extra=()):
    """Translates with `glosa-cli translate --model MODEL` (the package's default decoding, and
    the options in `extra`), one sentence a line. Returns the translations."""
    text = "\n".join(s.replace("\n", " ") for s in sources) + "\n"
    res = subprocess.run([executable, "translate", "--model", model, *extra], input=text,
                         capture_output=True, text=True)
    out = res.stdout.split("\n")[:len(sources)]
    if res.returncode not in (0,) or len(out) != len(sources):
        raise RuntimeError("glosa-cli exited with %d and %d lines for %d sentences: %s"
                           % (res.returncode, len(out), len(sources), res.stderr[-2000:]))
    return out


def record_score(package_dir, key, result):
    """Writes {bleu, chrf, decoding} under scores[key] of the package's model.json."""
    path = os.path.join(package_dir, "model.json")
    with open(path, encoding="utf-8") as f:
        manifest = json.load(f)
    manifest.setdefault("scores", {})[key] = {
        "bleu": result["bleu"], "chrf": result["chrf"], "decoding": result["decoding"]}
    with open(path, "w", encoding="utf-8") as f:
        json.dump(manifest, f, indent=2, ensure_ascii=False)
        f.write("\n")


def score(hyps, groups):
    refs = [r for _, r in groups]
    if len(hyps) != len(refs):
        raise SystemExit("%d hypotheses for %d grouped sources" % (len(hyps), len(refs)))
    return glosa_metrics.corpus_bleu(hyps, refs), glosa_metrics.corpus_chrf(hyps, refs)


# Apertium names its modes by ISO 639-3 codes (eng-spa); the models by ISO 639-1 (en, es).
APERTIUM_CODES = {"en": "eng", "es": "spa", "de": "deu", "fr": "fra", "ca": "cat", "pt": "por",
                  "it": "ita", "gl": "glg", "eu": "eus", "oc": "oci", "ro": "ron", "nl": "nld"}


def apertium_modes():
    """The installed Apertium modes (`apertium -l`), or [] without Apertium."""
    if not shutil.which("apertium"):
        return []
    res = subprocess.run(["apertium", "-l"], capture_output=True, text=True)
    return res.stdout.split()


def apertium_mode(src, tgt, modes=None):
    """The Apertium mode of src->tgt ('eng-spa'), or MissingData naming the installed ones."""
    mode = APERTIUM_CODES.get(src, src) + "-" + APERTIUM_CODES.get(tgt, tgt)
    modes = apertium_modes() if modes is None else modes
    if mode not in modes:
        raise glosa_data.MissingData(
            "Apertium has no %s mode for %s->%s here (installed: %s); install apertium-%s or "
            "leave Apertium out (report --no-apertium)" % (mode, src, tgt, ", ".join(modes) or
                                                          "none, or no apertium command", mode))
    return mode


def apertium(sources, src, tgt):
    """Translates with the Apertium command line, one sentence a paragraph (-u: no unknown-word
    marks, so the output is plain text). Sentences are separated by a blank line, not a line
    break: Apertium treats a single line break as a blank inside a sentence, so its transfer
    rules join words of neighbouring lines ("sect" / "ferritin" -> "de ferritina de secta"),
    which mangled one-word inputs of the short-input sets."""
    mode = apertium_mode(src, tgt)
    text = "\n\n".join(" ".join(s.split()) or "." for s in sources) + "\n"
    res = subprocess.run(["apertium", "-u", mode], input=text, capture_output=True,
                         text=True, check=True)
    out = re.split(r"\n[ \t]*\n", res.stdout.strip("\n"))
    if len(out) != len(sources):
        raise RuntimeError("apertium returned %d paragraphs for %d sentences"
                           % (len(out), len(sources)))
    return [o.strip() if s.split() else "" for o, s in zip(out, sources)]


SPANISH_WORDS = "/usr/share/dict/spanish"
_LETTERS = re.compile(r"[^\W\d_]+")

# Word lists (Debian: wspanish / wamerican) and Hunspell dictionaries (hunspell-es /
# hunspell-en-us) per target language.
WORD_LISTS = {"es": (SPANISH_WORDS, ("/usr/share/hunspell/es_ES.dic",
                                     "/usr/share/hunspell/es_ES.aff")),
              "en": ("/usr/share/dict/american-english", ("/usr/share/hunspell/en_US.dic",
                                                          "/usr/share/hunspell/en_US.aff"))}


def known_words(lang="es"):
    """The word list plus Hunspell's inflected forms (when the Hunspell dictionary and unmunch
    are here) of `lang`, lower-cased."""
    if lang not in WORD_LISTS or not os.path.exists(WORD_LISTS[lang][0]):
        raise glosa_data.MissingData(
            "no word list of %r to count invented words (evaluate.WORD_LISTS: %s)" % (
                lang, ", ".join("%s %s" % (k, "here" if os.path.exists(v[0]) else "not installed")
                               for k, v in sorted(WORD_LISTS.items()))))
    words, hunspell = WORD_LISTS[lang]
    with open(words, encoding="utf-8") as f:
        known = {w.strip().lower() for w in f}
    if all(os.path.exists(p) for p in hunspell) and shutil.which("unmunch"):
        forms = subprocess.run(["unmunch", *hunspell], capture_output=True, check=True).stdout
        known |= {w.strip().lower() for w in forms.decode("utf-8", "replace").split("\n")}
    else:
        print("report: the %s Hunspell dictionary or unmunch (hunspell-tools) is not installed: "
              "inflected forms will count as invented" % lang, file=sys.stderr)
    return known


def short_failures(hyps, groups, known):
    """(outputs with an invented word, empty outputs): the short-input measure, where
    one invented word is a failed translation ("Done" -> "¡Netras!")."""
    invented = empty = 0
    for h, g in zip(hyps, groups):
        if not _LETTERS.findall(h):
            empty += not h.strip()
        invented += invented_words([h], [g], known)[0] > 0
    return invented, empty


def invented_words(hyps, groups, known):
    """(invented, copied, words, examples): words of `hyps` (runs of letters, lower-cased) found
    neither in `known` (known_words()) nor in the sentence's references; `copied` counts those
    that are words of the source sentence too. The split tells the two failures apart: a copied
    word ("valley", an unaccented "Lopez") is one the model did not translate, the rest
    ("gasducto") it made up from pieces."""
    invented, copied, total, examples = 0, 0, 0, []
    for h, (src, refs) in zip(hyps, groups):
        ref_words = {w.lower() for r in refs for w in _LETTERS.findall(r)}
        src_words = {w.lower() for w in _LETTERS.findall(src)}
        for w in _LETTERS.findall(h):
            total += 1
            w = w.lower()
            if w not in known and w not in ref_words:
                invented += 1
                copied += w in src_words
                if len(examples) < 12:
                    examples.append(w)
    return invented, copied, total, examples


def report_sets(src, tgt, data, corpus, dev_only=False):
    """[(name, groups)] of the report: Tatoeba test, the report-only news and health sets, the
    corpus dev sets when the corpus folder exists, and tools/eval. With dev_only, the corpus's
    four dev sets alone (Tatoeba dev, newstest2012, docs, prose): what decisions are made on."""
    if dev_only:
        from glosa.corpus import broad as glosa_corpus
        return [("dev-" + name, groups)
                for name, groups in glosa_corpus.read_dev(corpus, src, tgt).items()]
    pair = glosa_data.pair_of(src, tgt)
    sets = [("tatoeba-test", groups_for(pair, src, tgt, "test", data))]
    have = out_of_domain_sets(pair, data)
    for name in REPORT_ONLY_SETS:
        if name in have:
            sets.append((name, groups_for(pair, src, tgt, name, data)))
        else:
            print("report: %s has no %s set in %s: left out" % (
                pair, name, os.path.join(glosa_data.data_dir(data), "newstest", pair)),
                file=sys.stderr)
    if corpus and os.path.isdir(os.path.join(corpus, "dev")):
        from glosa.corpus import broad as glosa_corpus
        for name, groups in glosa_corpus.read_dev(corpus, src, tgt).items():
            if name != "tatoeba":
                sets.append(("dev-" + name, groups))
        sets += short_sets(corpus, src, tgt)
    else:
        print("report: no corpus folder %s: dev-news/docs/prose left out" % corpus,
              file=sys.stderr)
    here = os.path.join(TOOLS_DIR, "eval")
    for name in ("quoted", "paragraph"):
        paths = [os.path.join(here, "%s.%s" % (name, lang)) for lang in (src, tgt)]
        if not all(os.path.exists(p) for p in paths):
            print("report: tools/eval has no %s set in %s and %s: left out" % (name, src, tgt),
                  file=sys.stderr)
            continue
        with open(paths[0], encoding="utf-8") as f:
            s = [x.rstrip("\n") for x in f]
        with open(paths[1], encoding="utf-8") as f:
            t = [x.rstrip("\n") for x in f]
        sets.append((name, [(a, [b]) for a, b in zip(s, t)]))
    return sets


def short_sets(corpus, src, tgt):
    """The short-input dev and test sets of glosa_corpus.py build (1-4 words: held-out word-list
    entries, UI strings and Tatoeba's short sentences), grouped by source."""
    out = []
    for split in ("dev", "test"):
        paths = [os.path.join(corpus, split, "short." + lang) for lang in (src, tgt)]
        if not all(os.path.exists(p) for p in paths):
            continue
        sides = []
        for path in paths:
            with open(path, encoding="utf-8") as f:
                sides.append([x.rstrip("\n") for x in f])
        out.append(("%s-short" % split, glosa_data.group_references(list(zip(*sides)))))
    return out


_NOT_WORD = re.compile(r"[^\w\s]+", re.UNICODE)


def _normalised(text):
    return " ".join(_NOT_WORD.sub(" ", text.lower()).split())


def short_parts(data, pair):
    """{text: part} for the sources of the short-input sets of `pair`, either language: 'tatoeba'
    (Tatoeba's dev and test short sentences), 'lexicon' (the word lists' entries); any other
    source of those sets is a gettext UI string ('ui')."""
    from glosa.corpus import broad as glosa_corpus
    parts = {}
    folder = os.path.join(data, "parallel-%s-general" % pair)
    for name in glosa_corpus.LEXICON:
        for lang in pair.split("-"):
            path = os.path.join(folder, "%s.%s.xz" % (name, lang))
            if os.path.exists(path):
                parts.update((glosa_data.clean(x), "lexicon")
                             for x in glosa_corpus._read_lines(path))
    for split in ("dev", "test"):
        for a, b in glosa_data.read_tsv(glosa_data.split_path(pair, split, data)):
            parts[a] = parts[b] = "tatoeba"
    return parts


def short_by_part(hyps, groups, known, parts):
    """{part: {sources, accuracy_percent, outputs_with_invented_word_percent}}: accuracy is the
    share of outputs equal to one of the references (case and punctuation aside), which for the
    word-list part is dictionary accuracy (the top-1 output is a listed translation)."""
    rows = collections.defaultdict(list)
    for h, g in zip(hyps, groups):
        rows[parts.get(g[0], "ui")].append((h, g))
    return {part: short_measure([h for h, _ in items], [g for _, g in items], known)
            for part, items in sorted(rows.items())}


def short_measure(hyps, groups, known):
    """{sources, accuracy_percent, outputs_with_invented_word_percent} of short outputs."""
    right = sum(_normalised(h) in {_normalised(r) for r in g[1]} for h, g in zip(hyps, groups))
    bad, _ = short_failures(hyps, groups, known)
    n = max(len(groups), 1)
    return {"sources": len(groups), "accuracy_percent": round(100.0 * right / n, 2),
            "outputs_with_invented_word_percent": round(100.0 * bad / n, 2)}


def report(models, data, corpus, executable, markdown=None, out_dir=None, dev_only=False,
           with_apertium=True, only_sets=None):
    """Scores every model (glosa-cli, package defaults) and Apertium on every report set of each
    direction the models cover. Returns the rows."""
    listing = [json.loads(line) for line in subprocess.run(
        [executable, "models", "--json"], capture_output=True, text=True,
        check=True).stdout.splitlines() if line.strip()]
    by_direction = {}
    for m in models:
        entry = next((e for e in listing if e.get("id") == m), None)
        if entry is None:
            raise SystemExit("report: glosa-cli knows no model %s" % m)
        by_direction.setdefault((entry["source_language"], entry["target_language"]),
                                []).append(m)
    rows = []
    known = {lang: known_words(lang) for lang, (words, _) in WORD_LISTS.items()
             if os.path.exists(words)}
    modes = apertium_modes() if with_apertium else []
    for (src, tgt), ids in sorted(by_direction.items()):
        pair_corpus = corpus or default_corpus(glosa_data.pair_of(src, tgt))
        sets = report_sets(src, tgt, data, pair_corpus, dev_only)
        if dev_only:
            sets += [s for s in short_sets(pair_corpus, src, tgt) if s[0] == "dev-short"]
        systems = list(ids)
        if with_apertium:
            try:
                apertium_mode(src, tgt, modes)
                systems.append("apertium")
            except glosa_data.MissingData as e:
                print("report: %s" % e, file=sys.stderr)
        for name, groups in sets:
            if only_sets and name not in only_sets:
                continue
            sources = [s for s, _ in groups]
            for system in systems:
                t0 = time.time()
                hyps = (apertium(sources, src, tgt) if system == "apertium"
                        else glosa_cli(sources, system, executable))
                bleu, chrf = score(hyps, groups)
                row = {"direction": src + "-" + tgt, "set": name, "system": system,
                       "bleu": round(bleu.score, 2), "chrf": round(chrf, 2),
                       "segments": len(hyps), "seconds": round(time.time() - t0, 1)}
                if tgt in known:
                    inv, copied, total, examples = invented_words(hyps, groups, known[tgt])
                    row["invented_percent"] = round(100.0 * inv / max(total, 1), 2)
                    row["invented_copied_percent"] = round(100.0 * copied / max(total, 1), 2)
                    row["invented_examples"] = examples
                if name.endswith("-short") and tgt in known:
                    bad, empty = short_failures(hyps, groups, known[tgt])
                    row["outputs_with_invented_word_percent"] = round(100.0 * bad / len(hyps), 2)
                    row["empty_outputs"] = empty
                rows.append(row)
                print(json.dumps(row, ensure_ascii=False), flush=True)
                if out_dir:
                    os.makedirs(out_dir, exist_ok=True)
                    with open(os.path.join(out_dir, "%s.%s.%s" % (name, system, tgt)), "w",
                              encoding="utf-8") as f:
                        f.write("\n".join(hyps) + "\n")
    if markdown:
        with open(markdown, "w", encoding="utf-8") as f:
            f.write("| direction | set | system | BLEU | chrF2 | invented words |\n")
            f.write("|---|---|---|---|---|---|\n")
            for r in rows:
                inv = "%.2f%%" % r["invented_percent"] if "invented_percent" in r else ""
                f.write("| %s | %s | %s | %.2f | %.2f | %s |\n" % (
                    r["direction"], r["set"], r["system"], r["bleu"], r["chrf"], inv))
    return rows


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    sub = p.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("report", help="every model and Apertium on every report set")
    r.add_argument("--models", required=True, help="comma-separated installed model ids")
    r.add_argument("--data")
    r.add_argument("--corpus", help="corpus folder of glosa_corpus.py, for the dev sets "
                   "(default: $GLOSA_RUNS/broad-<pair> of each direction, as train_general.sh "
                   "builds it)")
    r.add_argument("--markdown", help="write the table here")
    r.add_argument("--out-dir", help="write every system's output here")
    r.add_argument("--dev", action="store_true", help="the dev sets only (Tatoeba dev, "
                   "newstest2012, docs, prose): for choosing checkpoints and mixtures")
    r.add_argument("--no-apertium", action="store_true", help="leave Apertium out")
    r.add_argument("--sets", help="comma-separated set names to score (default: all), e.g. "
                   "tatoeba-test,newstest2013,tico19-test,test-short")
    r.add_argument("--glosa-cli", default=os.path.join(REPO_ROOT, "build", "bin", "glosa-cli"))
    for name in ("hyps", "model", "apertium", "cli"):
        s = sub.add_parser(name)
        s.add_argument("--data")
        s.add_argument("--split", default="test",
                       help="dev, test, train (Tatoeba) or an out-of-domain set (newstest2013)")
        s.add_argument("--pair", help="data folders tatoeba-<pair>, newstest/<pair> (default: "
                       "from --src/--tgt, English first)")
        with_model = name in ("model", "cli")
        s.add_argument("--src", help="source language (default: %s)" % (
            "the model's" if with_model else "--pair's first language, else en"))
        s.add_argument("--tgt", help="target language (default: %s)" % (
            "the model's" if with_model else "--pair's other language, else es"))
        s.add_argument("--out", help="write the hypotheses here")
        s.add_argument("--json", action="store_true", help="print the scores as JSON")
        if name == "hyps":
            s.add_argument("file")
        if name == "model":
            s.add_argument("path", help="checkpoint .pt or package folder")
            s.add_argument("--beam", type=int, default=1, help="1 = greedy")
            s.add_argument("--alpha", type=float, default=0.6, help="GNMT length penalty")
            s.add_argument("--threads", type=int, default=2)
            s.add_argument("--limit", type=int, default=0, help="first N sources only")
        if name == "cli":
            s.add_argument("--model", help="installed model id or package folder "
                           "(default: the --record folder)")
            s.add_argument("--record", metavar="PACKAGE_DIR",
                           help="also write the scores into this package's model.json")
            s.add_argument("--glosa-cli", default=os.path.join(REPO_ROOT, "build", "bin", "glosa-cli"))
    a = p.parse_args(argv)
    os.environ.pop("OPENBLAS_CORETYPE", None)
    if a.cmd == "report":
        report(a.models.split(","), a.data, a.corpus, a.glosa_cli, a.markdown, a.out_dir,
               a.dev, not a.no_apertium, a.sets.split(",") if a.sets else None)
        return 0
    t0 = time.time()
    decoding = None
    if a.cmd == "model":
        torch.set_num_threads(a.threads)
        model, codec, info = load_model(a.path)
        src, tgt = a.src or info["src"], a.tgt or info["tgt"]
        pair = glosa_data.data_pair(a.pair or info["pair"], src, tgt)
        groups = groups_for(pair, src, tgt, a.split, a.data)
        if a.limit:
            groups = groups[:a.limit]
        hyps = translate_model(model, codec, [s for s, _ in groups], a.beam, a.alpha)
        decoding = "greedy" if a.beam <= 1 else "beam %d, alpha %.1f" % (a.beam, a.alpha)
    elif a.cmd == "cli":
        model = a.model or a.record
        if not model:
            raise SystemExit("cli: give --model or --record")
        # `glosa-cli models --json`: one object a line (id, folder, source/target_language).
        listing = [json.loads(line) for line in subprocess.run(
            [a.glosa_cli, "models", "--json"], capture_output=True, text=True,
            check=True).stdout.splitlines() if line.strip()]
        entry = next((m for m in listing if m.get("id") == model or
                      os.path.realpath(m.get("folder", "")) == os.path.realpath(model)), None)
        if entry is None:
            raise SystemExit("cli: glosa-cli knows no model %s" % model)
        src = a.src or entry["source_language"]
        tgt = a.tgt or entry["target_language"]
        with open(os.path.join(entry["folder"], "model.json"), encoding="utf-8") as f:
            defaults = json.load(f).get("decoding", {})
        pair = glosa_data.data_pair(a.pair, src, tgt)
        groups = groups_for(pair, src, tgt, a.split, a.data)
        hyps = glosa_cli([s for s, _ in groups], model, a.glosa_cli)
        decoding = ("beam %d, alpha %.1f" % (defaults.get("beam_size", 1),
                                             defaults.get("length_penalty", 0.0))
                    if defaults.get("strategy") == "beam" else defaults.get("strategy", "greedy"))
        decoding += " (package defaults, glosa-cli translate)"
    else:
        src, tgt = glosa_data.direction_of(a.pair, a.src, a.tgt)
        pair = glosa_data.data_pair(a.pair, src, tgt)
        groups = groups_for(pair, src, tgt, a.split, a.data)
        if a.cmd == "hyps":
            with open(a.file, encoding="utf-8") as f:
                hyps = [line.rstrip("\n") for line in f]
        else:
            hyps = apertium([s for s, _ in groups], src, tgt)
            decoding = "apertium"
    bleu, chrf = score(hyps, groups)
    if a.out:
        with open(a.out, "w", encoding="utf-8") as f:
            f.write("\n".join(hyps) + "\n")
    result = {"split": split_name(pair, a.split), "direction": src + "-" + tgt,
              "bleu": round(bleu.score, 2), "chrf": round(chrf, 2), "decoding": decoding,
              "segments": len(hyps), "seconds": round(time.time() - t0, 1)}
    if a.cmd == "cli" and a.record:
        record_score(a.record, result["split"], result)
    if a.json:
        print(json.dumps(result))
    else:
        print("%s %s->%s (%d sources, %s): %s | chrF2 = %.2f [%.0fs]" % (
            result["split"], src, tgt, len(hyps), decoding or a.cmd, bleu, chrf,
            result["seconds"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
