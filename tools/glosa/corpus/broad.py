#!/usr/bin/python3
"""The broad corpus of one language pair for the general-domain models (docs/training.md,
"Broad data"). --pair (default en-es; English first, as the data folders are named) picks it.

`build --pair P` reads every source of P that the data folder has (tatoeba-P, parallel-P,
parallel-P-general, the 2008–2011 sets of newstest/P; Tatoeba is required, a missing folder of
the others is reported and left out), cleans and filters it, holds out the dev sets, and writes
to --out:
  train.tsv        origin<TAB>english<TAB>other language, in file order (consecutive lines of a
                   file stay consecutive, which the concatenation augmentation relies on)
  dev/<set>.<lang> the dev sets: news (newstest2012), docs (Microsoft Learn + LibreOffice help
                   held-out blocks), prose (Europarl held-out block), tatoeba (Tatoeba dev)
  stats.json       the pair, the sources left out, and what every filter removed, per source
`spm` trains the joint SentencePiece model on a sample of train.tsv.

The mixture (how often each origin is seen per epoch, which origins are tagged as machine
translated) and the training-time augmentations (placeholders for protected spans, copied names,
concatenated consecutive pairs) are applied per epoch by `epoch_pairs()`, seeded by the epoch
number so that a resumed run sees the same data.

newstest2013 and TICO-19 are report-only: this module never reads them.
"""

import argparse
import collections
import glob
import gzip
import json
import lzma
import os
import random
import re
import sys
import tempfile

from glosa.data import pairs as glosa_data  # noqa: E402
from glosa.corpus import phrases as glosa_phrases  # noqa: E402
from glosa.data import spans as glosa_spans  # noqa: E402

PARALLEL = ["msdocs-human", "msdocs-machine", "gettext-ui", "libreoffice-help", "gimp-help",
            "debian-docs", "europarl-sample", "globalvoices", "bible"]
NEWS_TRAIN = ["news-test2008", "newssyscomb2009", "newstest2009", "newstest2010", "newstest2011"]
NEWS_DEV = "newstest2012"
# parallel-en-es-general (its ABOUT.md): human-translated general prose, news, literature and
# questions (origin "general"), and two bilingual word lists (origin "lexicon").
GENERAL = ["oldi_seed", "pawsx", "mt_geneval", "xquad", "globalvoices_aym_pivot", "ud_pud",
           "wmt24_general", "mlqa_questions"]
LEXICON = ["apertium_lexicon", "omw_wiktionary_lexicon"]
MACHINE_TRANSLATED = {"msdocs-machine"}
# Back-translated pairs (`build --bt DIR`) are named by their real side: bt-<lang> holds real text
# of <lang> with a machine-made translation, so it is trained only into <lang> (bt-es: en->es,
# bt-en: es->en). Their synthetic source carries glosa_spans.BT_TAG.
BT_PREFIX = "bt-"
_BT_ORIGIN = re.compile(r"^bt-[a-z]{2,3}$")
# "everyday" and "cldr": everyday phrases and CLDR names (glosa_phrases.py).
ORIGINS = {"tatoeba", "news", "general", "lexicon", "everyday", "cldr", *PARALLEL}
# Short entries trained in both casings (glosa_phrases.recase_pair); never joined to other lines,
# never given placeholders or name swaps.
SHORT_ORIGINS = {"lexicon", "everyday", "cldr"}

# Held-out blocks (the last N lines of a file, i.e. whole documents, not random lines that would
# have near-copies from the same page in train).
HOLDOUT = {"msdocs-human": ("docs", 500), "libreoffice-help": ("docs", 250),
           "europarl-sample": ("prose", 500), "oldi_seed": ("general", 500)}
# Short inputs (1-4 words: UI strings, headings, single words) are held out as every Nth entry of
# these files; alternate entries go to the dev set (dev/short.*) and the test set (test/short.*).
SHORT_HOLDOUT = {"apertium_lexicon": 25, "omw_wiktionary_lexicon": 25, "gettext-ui": 60}
SHORT_MAX_WORDS = 4

# Times each origin is seen per epoch, for a direction out of English and one into English.
# Fractions are sampled (0.5 = a random half each epoch). Decided on en-es / es-en dev
# (docs/training.md); another pair starts from the same weights. direction_mixture() adds the
# back-translations: those whose real side is the target are trained, the others not.
MIXTURE = {
    "from-en": {"tatoeba": 2.0, "msdocs-human": 1.0, "msdocs-machine": 0.35, "gettext-ui": 1.0,
                "libreoffice-help": 1.0, "gimp-help": 1.0, "debian-docs": 1.0,
                "europarl-sample": 3.0, "globalvoices": 3.0, "news": 4.0, "bible": 0.0,
                "general": 4.0, "lexicon": 1.0, "everyday": 3.0, "cldr": 2.0},
    "into-en": {"tatoeba": 2.0, "msdocs-human": 1.0, "msdocs-machine": 0.35, "gettext-ui": 1.0,
                "libreoffice-help": 1.0, "gimp-help": 1.0, "debian-docs": 1.0,
                "europarl-sample": 3.0, "globalvoices": 3.0, "news": 4.0, "bible": 0.5,
                "general": 4.0, "lexicon": 1.0, "everyday": 3.0, "cldr": 2.0},
}

# Frequent function words per language, for the language filter (filter_reason): a side with
# more of the other language's words than of its own is in the wrong language.
STOPWORDS = {
    "en": set("the and of to is in that for with you this are be on it was from by not have "
              "your can will which or as an at".split()),
    "es": set("el la de que y en los las del se por un una para con es al lo como más su "
              "sus le o este esta".split()),
    "de": set("der die das und ist nicht ein eine zu den von mit sich des auf für im dem auch "
              "als wird sind ich wir sie er nach bei oder aus du mich dich mir dir uns euch "
              "noch nur schon".split()),
    "fr": set("le la les de des et est un une du que qui dans pour pas sur ne se au avec ce il "
              "elle nous vous je sont aux".split()),
}
# Words spelt the same in English and a language's everyday text ("Lass mich in Ruhe", "I won't
# die"): counted for neither side of that pair, or correct pairs are dropped as "language".
HOMOGRAPHS = {"de": {"in", "an", "was", "will", "die"}, "fr": {"on", "as", "an", "pour"}}
_WORD = re.compile(r"\w+", re.UNICODE)
_MOJIBAKE = re.compile("[ÃÂ][\u0080-\u00bf]")
# Spelling a back-translated pair's non-English side must not have, per language. Spanish before
# the 1952 reform ("á la casa", "fué", "dió"): the public-domain novels of the monolingual corpus
# are full of it, and a back-translated pair's Spanish is what the en->es model learns to write.
ARCHAIC = {"es": re.compile(r"(?<!\w)(?:á|é|ó|ú|fué|fuí|dió|vió|dí|fuá)(?!\w)", re.IGNORECASE)}


def _read_lines(path):
    opener = lzma.open if path.endswith(".xz") else gzip.open
    with opener(path, "rt", encoding="utf-8") as f:
        return [line.rstrip("\n") for line in f]


def _fix_mojibake(text):
    """UTF-8 read as Latin-1 ('MensajerÃ­a'): undo it when that gives valid UTF-8."""
    if not _MOJIBAKE.search(text):
        return text
    try:
        return text.encode("cp1252").decode("utf-8")
    except (UnicodeEncodeError, UnicodeDecodeError):
        try:
            return text.encode("latin-1").decode("utf-8")
        except (UnicodeEncodeError, UnicodeDecodeError):
            return None


def is_back_translated(origin):
    return bool(_BT_ORIGIN.match(origin))


def direction_mixture(direction):
    """{origin: times seen per epoch} of a direction 'src-tgt' (one side English)."""
    src, tgt = direction.split("-")
    if "en" not in (src, tgt):
        raise glosa_data.MissingData("direction %s: the corpus pairs English with one other "
                                     "language" % direction)
    weights = dict(MIXTURE["from-en" if src == "en" else "into-en"])
    weights.update({BT_PREFIX + tgt: 1.0, BT_PREFIX + src: 0.0})
    return weights


def stopwords(pair):
    """(English list, other language's list) of a pair, or MissingData naming the languages the
    filter knows."""
    missing = [lang for lang in pair.split("-") if lang not in STOPWORDS]
    if missing:
        raise glosa_data.MissingData(
            "the corpus language filter has no stop words for %s (it knows %s): add them to "
            "glosa_corpus.STOPWORDS" % (", ".join(missing), ", ".join(sorted(STOPWORDS))))
    shared = set().union(*(HOMOGRAPHS.get(lang, set()) for lang in pair.split("-")))
    return tuple(STOPWORDS[lang] - shared for lang in pair.split("-"))


def _stop_counts(words, stop):
    return sum(w in stop[0] for w in words), sum(w in stop[1] for w in words)


def filter_reason(en, other, stop):
    """None if the pair is kept, else the name of the filter that drops it. `en` is the English
    side, `other` the other language's; `stop` is stopwords(pair)."""
    if not en or not other:
        return "empty"
    if en == other:
        return "copy"
    if en.lower() == other.lower() or _WORD.findall(en.lower()) == _WORD.findall(other.lower()):
        return "copy"
    we, wo = _WORD.findall(en.lower()), _WORD.findall(other.lower())
    if not we or not wo:
        return "no-words"
    if len(we) > 150 or len(wo) > 150:
        return "too-long"
    le, lo = len(en), len(other)
    if max(le, lo) > 40 and max(le, lo) / max(1, min(le, lo)) > 2.2:
        return "length-ratio"
    if max(len(we), len(wo)) >= 6 and max(len(we), len(wo)) / min(len(we), len(wo)) > 2.5:
        return "length-ratio"
    letters = sum(c.isalpha() for c in en)
    if letters < 0.4 * le:
        return "not-prose"
    en_en, en_other = _stop_counts(we, stop)
    other_en, other_other = _stop_counts(wo, stop)
    if len(wo) >= 4 and other_en > other_other:
        return "language"
    if len(we) >= 4 and en_other > en_en:
        return "language"
    return None


def _clean_pair(en, es):
    en, es = glosa_data.clean(en), glosa_data.clean(es)
    en, es = _fix_mojibake(en), _fix_mojibake(es)
    return en, es


def _short(text):
    return 0 < len(text.split()) <= SHORT_MAX_WORDS


def _read_bt(path):
    """[(english, other)] from a back-translation TSV (tools/glosa_mono.py): english<TAB>other."""
    pairs = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            parts = line.rstrip("\n").split("\t")
            if len(parts) == 2:
                pairs.append((parts[0], parts[1]))
    return pairs


def sources_of(data, pair):
    """([(folder, file name, origin)], [left out]) of the parallel files of `pair` (English
    first): the files of the names PARALLEL, GENERAL and LEXICON list that parallel-<pair> and
    parallel-<pair>-general hold; left out, the folders and files of those names that the data
    folder lacks, and the files of other names (which the corpus does not know how to weigh)."""
    langs = pair.split("-")
    files, left_out = [], []
    for folder, names in ((os.path.join(data, "parallel-" + pair), [(n, n) for n in PARALLEL]),
                          (os.path.join(data, "parallel-%s-general" % pair),
                           [(n, "general") for n in GENERAL] + [(n, "lexicon") for n in LEXICON])):
        if not os.path.isdir(folder):
            left_out.append(folder)
            continue
        for name, origin in names:
            sides = [os.path.join(folder, "%s.%s.xz" % (name, lang)) for lang in langs]
            present = [os.path.exists(p) for p in sides]
            if all(present):
                files.append((folder, name, origin))
            elif any(present):
                raise glosa_data.MissingData("%s is missing: the folder %s is incomplete"
                                             % (sides[present.index(False)], folder))
            else:
                left_out.append(os.path.join(folder, name))
        known = {n for n, _ in names}
        left_out += sorted({os.path.join(folder, f.split(".")[0]) for f in os.listdir(folder)
                            if f.endswith(".xz") and f.split(".")[0] not in known})
    return files, left_out


def _side_files(folder, name, langs, ext):
    """The two line-aligned files <name>.<lang><ext> of a set, or MissingData naming the one that
    is not there (a data folder copied in part)."""
    paths = [os.path.join(folder, "%s.%s%s" % (name, lang, ext)) for lang in langs]
    for path in paths:
        if not os.path.exists(path):
            raise glosa_data.MissingData("%s is missing: the folder %s is incomplete"
                                         % (path, folder))
    return paths


def build(data, out, bt=None, pair="en-es"):
    """Writes the corpus of `pair` (English first, e.g. 'en-de') to `out`; see the module doc."""
    pair, langs = glosa_data.parse_pair(pair)
    # Tatoeba is the one source every pair has; check it before anything is written.
    tatoeba = {split: glosa_data.split_path(pair, split, data)
               for split in ("train", "dev", "test")}
    stop = stopwords(pair)
    os.makedirs(os.path.join(out, "dev"), exist_ok=True)
    os.makedirs(os.path.join(out, "test"), exist_ok=True)
    stats = collections.OrderedDict(pair=pair)
    dev = collections.defaultdict(list)
    short = {"dev": [], "test": []}
    sources = []  # (origin, file name, [(english, other)])

    files, left_out = sources_of(data, pair)
    news_dir = os.path.join(data, "newstest", pair)
    if not os.path.isdir(news_dir):
        left_out.append(news_dir)
    for path in left_out:
        print("%s: %s, left out of the %s corpus" % (
            path, "not a source glosa_corpus knows (PARALLEL, GENERAL, LEXICON)"
            if glob.glob(path + ".*") else "not in the data folder", pair), flush=True)
    stats["left_out"] = left_out
    for folder, name, origin in files:
        en, es = (_read_lines(p) for p in _side_files(folder, name, langs, ".xz"))
        if len(en) != len(es):
            raise SystemExit("%s: %d %s lines, %d %s" % (name, len(en), langs[0], len(es),
                                                         langs[1]))
        pairs = list(zip(en, es))
        if name in HOLDOUT:
            set_name, n = HOLDOUT[name]
            held, pairs = pairs[-n:], pairs[:-n]
            for a, b in held:
                a, b = _clean_pair(a, b)
                if a and b and filter_reason(a, b, stop) is None:
                    dev[set_name].append((a, b))
        if name in SHORT_HOLDOUT:
            every, kept = SHORT_HOLDOUT[name], []
            for i, (a, b) in enumerate(pairs):
                if i % every == every - 1 and _short(a) and _short(b):
                    a, b = _clean_pair(a, b)
                    if a and b and filter_reason(a, b, stop) is None:
                        short["dev" if len(short["dev"]) <= len(short["test"]) else "test"].append(
                            (a, b))
                    continue
                kept.append((a, b))
            pairs = kept
        sources.append((origin, name, pairs))
    if os.path.isdir(news_dir):
        news = []
        for name in NEWS_TRAIN:
            news += list(zip(*(_read_lines(p) for p in _side_files(news_dir, name, langs, ".gz"))))
        sources.append(("news", "news", news))
        for a, b in zip(*(_read_lines(p) for p in _side_files(news_dir, NEWS_DEV, langs, ".gz"))):
            a, b = glosa_data.clean(a), glosa_data.clean(b)
            if a and b:
                dev["news"].append((a, b))
    sources.insert(0, ("tatoeba", "tatoeba", glosa_data.read_tsv(tatoeba["train"])))
    for a, b in glosa_data.read_tsv(tatoeba["dev"]):
        dev["tatoeba"].append((a, b))
    # Tatoeba's short sentences ("Very good.", "I'm home."): dev from its dev split, test from its
    # test split, so that neither is trained on.
    for split in ("dev", "test"):
        for a, b in glosa_data.read_tsv(tatoeba[split]):
            if _short(a) and _short(b):
                short[split].append((a, b))
    cldr = glosa_phrases.cldr_pairs(pair)
    if cldr is None:
        print("cldr: python3-icu is not installed, left out of the %s corpus" % pair, flush=True)
        left_out.append("cldr")
    else:
        sources.append(("cldr", "cldr", cldr))
    for origin in sorted(BT_PREFIX + lang for lang in langs):
        path = os.path.join(bt, origin + ".tsv") if bt else None
        if path and os.path.exists(path):
            sources.append((origin, origin, _read_bt(path)))

    # Nothing whose English side is in a dev set or the short-input sets may be trained on, nor
    # anything with either side in Tatoeba's test split (a short everyday phrase of another source,
    # a CLDR name, can be one of its sentences).
    dev_en = {a.lower() for rows in list(dev.values()) + list(short.values()) for a, _ in rows}
    test_en, test_other = held_out_sides(glosa_data.read_tsv(tatoeba["test"]) + short["test"])
    seen_pairs = set()
    source_count = collections.Counter()
    with open(os.path.join(out, "train.tsv.tmp"), "w", encoding="utf-8") as f:
        for origin, name, pairs in sources:
            st = collections.Counter(raw=len(pairs))
            for a, b in pairs:
                a, b = _clean_pair(a, b)
                if a is None or b is None:
                    st["mojibake"] += 1
                    continue
                reason = filter_reason(a, b, stop)
                if (reason is None and is_back_translated(origin) and langs[1] in ARCHAIC
                        and ARCHAIC[langs[1]].search(b)):
                    reason = "archaic"
                if reason is None and a.lower() in dev_en:
                    reason = "in-dev"
                if reason is None and (a.lower() in test_en or b.lower() in test_other):
                    reason = "in-test"
                key = (a.lower(), b.lower())
                if reason is None and key in seen_pairs:
                    reason = "duplicate"
                # Boilerplate: the same English line with many translations (menu labels, "Note",
                # "Yes") is capped at 3 distinct pairs across all files.
                # Tatoeba's several translations of one sentence are real and kept.
                if reason is None and origin != "tatoeba" and source_count[a.lower()] >= 3:
                    reason = "repeated-source"
                if reason:
                    st[reason] += 1
                    continue
                seen_pairs.add(key)
                source_count[a.lower()] += 1
                st["kept"] += 1
                f.write("%s\t%s\t%s\n" % (glosa_phrases.everyday_origin(origin, a, b), a, b))
            stats[name] = dict(st)
            print("%-22s %s" % (name, dict(st)), flush=True)
    os.replace(os.path.join(out, "train.tsv.tmp"), os.path.join(out, "train.tsv"))
    sets = [("dev", name, rows) for name, rows in dev.items()]
    sets += [(split, "short", rows) for split, rows in short.items()]
    for split, set_name, rows in sets:
        with open(os.path.join(out, split, set_name + "." + langs[0]), "w",
                  encoding="utf-8") as fe, \
             open(os.path.join(out, split, set_name + "." + langs[1]), "w",
                  encoding="utf-8") as fs:
            for a, b in rows:
                fe.write(a + "\n")
                fs.write(b + "\n")
        stats["%s-%s" % (split, set_name)] = len(rows)
    with open(os.path.join(out, "stats.json"), "w") as f:
        json.dump(stats, f, indent=1)


def held_out_sides(rows):
    """({english sides}, {other sides}) of held-out pairs, case-folded: a training pair with
    either side in them is dropped."""
    return {a.lower() for a, _ in rows}, {b.lower() for _, b in rows}


def corpus_pair(corpus):
    """The pair a corpus folder was built for ('en-es'), from its stats.json; a corpus built before
    stats.json named it is told by its dev files' language suffixes."""
    try:
        with open(os.path.join(corpus, "stats.json"), encoding="utf-8") as f:
            pair = json.load(f).get("pair")
    except (OSError, ValueError):
        pair = None
    if pair:
        return pair
    langs = {n.rsplit(".", 1)[1] for n in os.listdir(os.path.join(corpus, "dev")) if "." in n} \
        if os.path.isdir(os.path.join(corpus, "dev")) else set()
    if len(langs) != 2:
        raise glosa_data.MissingData("%s is not a corpus folder of glosa_corpus.py build (no "
                                     "stats.json naming its pair, no dev/ sets)" % corpus)
    return glosa_data.pair_of(*sorted(langs))


def check_direction(corpus, src, tgt):
    """MissingData unless src->tgt is a direction of the corpus's pair."""
    pair = corpus_pair(corpus)
    if sorted(pair.split("-")) != sorted([src, tgt]):
        raise glosa_data.MissingData(
            "%s holds the %s corpus, not %s-%s: build one with glosa_corpus.py build --pair %s"
            % (corpus, pair, src, tgt, glosa_data.pair_of(src, tgt)))
    return pair


def read_train(corpus):
    """[(origin, english, other language)] in file order."""
    rows = []
    with open(os.path.join(corpus, "train.tsv"), encoding="utf-8") as f:
        for line in f:
            o, a, b = line.rstrip("\n").split("\t")
            rows.append((o, a, b))
    return rows


def read_dev(corpus, src, tgt):
    """{set name: [(source, [references])]} for the direction src->tgt."""
    check_direction(corpus, src, tgt)
    out = collections.OrderedDict()
    d = os.path.join(corpus, "dev")
    for name in ("news", "docs", "prose", "tatoeba", "general"):
        if not os.path.exists(os.path.join(d, name + "." + src)):
            continue  # a corpus built before that set existed
        with open(os.path.join(d, name + "." + src), encoding="utf-8") as f:
            s = [x.rstrip("\n") for x in f]
        with open(os.path.join(d, name + "." + tgt), encoding="utf-8") as f:
            t = [x.rstrip("\n") for x in f]
        out[name] = glosa_data.group_references(list(zip(s, t)))
    return out


def train_spm(corpus, vocab_size, sample=1500000, seed=1):
    """Joint unigram model over both languages, with byte fallback (emoji and rare scripts are
    spelt in bytes instead of becoming <unk>) and the placeholder/tag symbols as single pieces.
    The machine-translated side (the non-English one) is left out of the sample."""
    import sentencepiece as spm
    rows = read_train(corpus)
    rng = random.Random(seed)
    lines = []
    for o, a, b in rows:
        lines.append(a)
        if o not in MACHINE_TRANSLATED:
            lines.append(b)
    rng.shuffle(lines)
    lines = lines[:sample]
    fd, tmp = tempfile.mkstemp(prefix="glosa-spm-", suffix=".txt")
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        for s in lines:
            f.write(s + "\n")
    try:
        spm.SentencePieceTrainer.train(
            input=tmp, model_prefix=os.path.join(corpus, "spm"), vocab_size=vocab_size,
            model_type="unigram", character_coverage=0.9999, byte_fallback=True,
            input_sentence_size=0, shuffle_input_sentence=False,
            user_defined_symbols=glosa_spans.USER_SYMBOLS,
            pad_id=glosa_data.PAD_ID, unk_id=glosa_data.UNK_ID, bos_id=glosa_data.BOS_ID,
            eos_id=glosa_data.EOS_ID, pad_piece="<pad>", unk_piece="<unk>", bos_piece="<s>",
            eos_piece="</s>", num_threads=2, minloglevel=1)
    finally:
        os.unlink(tmp)
    return os.path.join(corpus, "spm.model")


# ---------------------------------------------------------------------------------------------
# Per-epoch sampling and augmentation

_NAME = re.compile(r"(?<=\w[ ,;:])([A-ZÁÉÍÓÚÑ][a-záéíóúñü]{2,})(?=[ ,.;:!?])")
_SYLLABLES = ("ka", "ve", "lin", "to", "mar", "su", "ra", "ni", "ko", "bel", "dra", "an",
              "ste", "ja", "ol", "wen", "ri", "po", "zu", "gar", "mi", "el", "ta", "dor")


def _pseudo_name(rng):
    n = "".join(rng.choice(_SYLLABLES) for _ in range(rng.randint(2, 3)))
    return n[0].upper() + n[1:]


def swap_names(src, tgt, rng):
    """Capitalised words (not sentence-initial) that occur in both sides are names the model must
    copy; replacing them by new ones teaches copying of names it never saw."""
    for name in set(_NAME.findall(src)):
        if re.search(r"(?<!\w)" + name + r"(?!\w)", tgt):
            new = _pseudo_name(rng)
            src = re.sub(r"(?<!\w)" + name + r"(?!\w)", new, src)
            tgt = re.sub(r"(?<!\w)" + name + r"(?!\w)", new, tgt)
    return src, tgt


def parse_mixture(text):
    """'news=8,bible=0' -> {'news': 8.0, 'bible': 0.0}: weights that replace MIXTURE's for the
    origins named (a fine-tuning run's mixture, train_*.py --mixture)."""
    out = {}
    for item in filter(None, (t.strip() for t in text.split(","))):
        origin, _, w = item.partition("=")
        if (origin not in ORIGINS and not is_back_translated(origin)) or not w:
            raise ValueError("mixture item %r: expected origin=weight with origin one of %s, or "
                             "%s<lang>" % (item, ", ".join(sorted(ORIGINS)), BT_PREFIX))
        if float(w) < 0:
            raise ValueError("mixture item %r: negative weight" % item)
        out[origin] = float(w)
    return out


def epoch_pairs(rows, direction, epoch, seed, p_protect=0.5, p_names=0.1, p_concat=0.08,
                max_concat=4, mixture=None):
    """[(source text, target text)] for one epoch: the mixture sampled, machine-translated pairs
    tagged, spans replaced by placeholders in a share of the pairs that have them, names swapped,
    and runs of 2..max_concat consecutive pairs of one file joined into long examples.
    `mixture` ({origin: weight}) replaces direction_mixture(direction)'s weights for the origins
    it names.
    The rows' English side is the source when `direction` starts with en."""
    src_lang, tgt_lang = direction.split("-")
    weights = dict(direction_mixture(direction), **(mixture or {}))
    rng = random.Random(seed * 1000003 + epoch)
    out = []
    i = 0
    n = len(rows)
    while i < n:
        origin = rows[i][0]
        w = weights.get(origin, 1.0)
        lexicon = origin in SHORT_ORIGINS
        # The run of consecutive rows joined into this example (usually 1). Word-list entries are
        # never joined: a list of unrelated words is not a sentence the model should learn.
        k = 1
        if not lexicon and rng.random() < p_concat:
            k = rng.randint(2, max_concat)
            while i + k > n or rows[i + k - 1][0] != origin:
                k -= 1
        reps = int(w) + (1 if rng.random() < w - int(w) else 0)
        for _ in range(reps):
            parts = []
            for o, en, es in rows[i:i + k]:
                s, t = (en, es) if src_lang == "en" else (es, en)
                parts.append((s, t))
            s = " ".join(p[0] for p in parts)
            t = " ".join(p[1] for p in parts)
            if lexicon:
                # Dictionary lemmas are lower-case, users type "Teacher" and "Done" as headings
                # and labels, and "very good" as quickly as "Very good": both casings are seen.
                s, t = glosa_phrases.recase_pair(s, t, origin, rng)
            else:
                if rng.random() < p_names:
                    s, t = swap_names(s, t, rng)
                if rng.random() < p_protect:
                    s, t, _ = glosa_spans.protect_pair(s, t)
            if origin in MACHINE_TRANSLATED:
                s = glosa_spans.MT_TAG + s
            elif is_back_translated(origin):
                s = glosa_spans.BT_TAG + s
            out.append((s, t))
        i += k
    rng.shuffle(out)
    return out


# Epoch data in a process pool. The rows are cut into EPOCH_SHARDS fixed, contiguous shards, each
# sampled with its own seed, so an epoch's examples are the same whatever the number of worker
# processes (2 here, 16 on a GPU machine) and a resumed run sees the same data. On a GPU one core
# preparing an epoch (1.2M examples: sampling, augmentation, SentencePiece) took 70 s, 20-40% of
# the GPU's time; the pool prepares the next epoch while the current one trains.
EPOCH_SHARDS = 32
_WORKER = {}


def _worker_init(corpus, spm_path):
    import sentencepiece as spm
    _WORKER["rows"] = read_train(corpus)
    _WORKER["sp"] = spm.SentencePieceProcessor(model_file=spm_path)


def _encode_shard(job):
    """Sampled, augmented and encoded examples of one shard of one epoch, as two lists of id
    lists (sources end with </s>; sides longer than max_len pieces are dropped)."""
    direction, epoch, seed, shard, mixture, max_len = job
    rows = _WORKER["rows"]
    lo, hi = shard * len(rows) // EPOCH_SHARDS, (shard + 1) * len(rows) // EPOCH_SHARDS
    pairs = epoch_pairs(rows[lo:hi], direction, epoch, seed * EPOCH_SHARDS + shard,
                        mixture=mixture)
    sp = _WORKER["sp"]
    return (examples(sp.encode([p[0] for p in pairs]), sp.encode([p[1] for p in pairs]),
                     sp.eos_id(), max_len), len(pairs))


def examples(src, tgt, eos, max_len):
    """[(source ids + </s>, target ids)] of the encoded pairs whose sides are 1..max_len pieces."""
    return [(a + [eos], b) for a, b in zip(src, tgt)
            if 0 < len(a) <= max_len and 0 < len(b) <= max_len]


class EpochPool:
    """Prepares epochs of encoded examples in worker processes (spawned, so that a CUDA context in
    the parent is never forked), one epoch ahead of the one being trained."""

    def __init__(self, corpus, spm_path, direction, seed, mixture, max_len, workers):
        import multiprocessing
        self.job = (direction, seed, mixture, max_len)
        ctx = multiprocessing.get_context("spawn")
        self.pool = ctx.Pool(workers, initializer=_worker_init, initargs=(corpus, spm_path))
        self.pending = {}

    def _submit(self, epoch):
        if epoch not in self.pending:
            direction, seed, mixture, max_len = self.job
            self.pending[epoch] = [self.pool.apply_async(
                _encode_shard, ((direction, epoch, seed, k, mixture, max_len),))
                for k in range(EPOCH_SHARDS)]

    def examples(self, epoch):
        """(examples, sampled pairs) of `epoch`; starts preparing epoch + 1."""
        self._submit(epoch)
        parts = [r.get() for r in self.pending.pop(epoch)]
        self._submit(epoch + 1)
        return [e for part, _ in parts for e in part], sum(n for _, n in parts)

    def close(self):
        self.pool.terminate()


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    sub = p.add_subparsers(dest="cmd", required=True)
    b = sub.add_parser("build", help="clean, filter and split the corpus of one language pair")
    b.add_argument("--pair", default="en-es", help="the language pair, English first as the "
                   "data folders are named (en-es, en-de, ...); default en-es")
    b.add_argument("--data", help="default $GLOSA_DATA or <repo>/../shared/data")
    b.add_argument("--out", required=True)
    b.add_argument("--bt", help="folder with back-translations bt-<lang>.tsv, one per side of the "
                   "pair (tools/glosa_mono.py)")
    s = sub.add_parser("spm", help="train the joint SentencePiece model into the corpus folder")
    s.add_argument("--corpus", required=True)
    s.add_argument("--vocab-size", type=int, default=16000)
    e = sub.add_parser("sample", help="print a few augmented training pairs of an epoch")
    e.add_argument("--corpus", required=True)
    e.add_argument("--src", help="source language (default: the corpus pair's first, English)")
    e.add_argument("--tgt", help="target language (default: the other one)")
    e.add_argument("--n", type=int, default=20)
    a = p.parse_args(argv)
    if a.cmd == "build":
        build(glosa_data.data_dir(a.data), a.out, a.bt, a.pair)
    elif a.cmd == "spm":
        print(train_spm(a.corpus, a.vocab_size))
    elif a.cmd == "sample":
        src, tgt = glosa_data.direction_of(corpus_pair(a.corpus), a.src, a.tgt)
        pairs = epoch_pairs(read_train(a.corpus), src + "-" + tgt, 0, 1)
        print("%d pairs" % len(pairs))
        for s, t in pairs[:a.n]:
            print(repr(s), "=>", repr(t))
    return 0

if __name__ == "__main__":
    sys.exit(main())
