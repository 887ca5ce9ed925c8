#!/usr/bin/python3
"""Build the monolingual corpora of a language pair's two sides for back-translation.

--pair (default en-es) picks the languages; SOURCES, STOP and ABBREV hold Spanish and English
only, so another pair needs its sources and word lists added first (the script says so).

Reads public-domain / openly licensed text from local mirrors of public GitHub repositories
(made by the `fetch` tool under /work/.mirror/OWNER+NAME/repo, bare git directories read with
`git show`) and from Debian package files, cleans it, and writes

    OUT/<lang>.txt              one sentence a line, UTF-8 NFC (es.txt, en.txt)
    OUT/MANIFEST.tsv            source, language, sentences kept, licence, origin

The text goes to OUT (default /work/runs/mono) only, never into git.

Cleaning: NFC; paragraphs split into sentences (rule-based splitter with abbreviation list);
4-60 words; lines that are mostly non-letters, markup, list items, headings in capitals or of the
wrong language (stop-word test) dropped; duplicates removed (key: lower-cased letters and digits);
every sentence whose key equals a line of a dev/test set or of our parallel training data of the
pair removed: /work/shared/data/newstest/<pair>/* (all WMT years and TICO-19), Tatoeba <pair>
(all splits), /work/shared/data/parallel-<pair>*/* (both sides).

Order of each output file: non-fiction sources first (news, encyclopedic, web), then fiction,
each block shuffled with a fixed seed, so that a back-translation run reading the file from the
top covers the scarce non-fiction first and a partial run is a sample of the rest.
A per-document cap keeps any one novel from dominating.

Usage: /usr/bin/python3 tools/glosa_mono.py [--pair en-es] [--out /work/runs/mono]
           [--mirror /work/.mirror] [--max-per-doc 4000] [--only es|en]

Rebuild from scratch (about 15 minutes on 2 busy cores; the result is deterministic for the same
snapshots, whose commits MANIFEST.tsv records):
    fetch (the session tool) each repository named in SOURCES: github:cligs/textbox,
        github:cligs/conha19, github:COST-ELTeC/ELTeC-spa, github:COST-ELTeC/ELTeC-eng,
        github:UniversalDependencies/UD_Spanish-GSD, github:UniversalDependencies/UD_Spanish-AnCora,
        github:UniversalDependencies/UD_English-EWT, github:UniversalDependencies/UD_English-GUM,
        github:openstax/osbooks-fisica-universitaria-bundle, github:openstax/osbooks-quimica-bundle,
        github:openstax/osbooks-introduccion-estadistica-bundle,
        github:google-research-datasets/wiki-split
    apt-get install fortunes-es fortunes wordnet-base
    nice -n 10 /usr/bin/python3 tools/glosa_mono.py
Files too large for the mirror snapshot (UD AnCora, UD GSD train) are reported and skipped.
Then back-translate with tools/backtranslate.py (see its docstring).
"""
import argparse
import glob
import gzip
import html
import lzma
import os
import random
import re
import subprocess
import sys
import unicodedata

from glosa.data import pairs as glosa_data  # noqa: E402

MIRROR = "/work/.mirror"
SHARED = "/work/shared/data"

# ---------------------------------------------------------------------------------------------
# Sources. kind: 'txt' (plain text, paragraphs by line), 'tei' (TEI XML: <p> in <body>),
# 'conllu' ("# text = " lines), 'fortune' (Debian fortune file: entries separated by "%").
# genre: 'nonfiction' or 'fiction' (output order).
SOURCES = [
    # --- Spanish
    dict(name="ud_spanish_gsd", lang="es", repo="UniversalDependencies/UD_Spanish-GSD",
         glob=r".*\.conllu$", kind="conllu", genre="nonfiction",
         licence="CC BY-SA 4.0 (UD Spanish GSD; news, blogs, Wikipedia)"),
    dict(name="ud_spanish_ancora", lang="es", repo="UniversalDependencies/UD_Spanish-AnCora",
         glob=r".*\.conllu$", kind="conllu", genre="nonfiction",
         licence="CC BY 4.0 (UD Spanish AnCora; newswire)"),
    dict(name="fortunes_es", lang="es", deb="fortunes-es", path="/usr/share/games/fortunes/es/*.fortunes",
         kind="fortune", genre="nonfiction",
         licence="GPL-2+ (Debian package fortunes-es; quotations)"),
    dict(name="openstax_fisica", lang="es", repo="openstax/osbooks-fisica-universitaria-bundle",
         glob=r"modules/.*\.cnxml$", kind="cnxml", genre="nonfiction",
         licence="CC BY 4.0 (OpenStax, Física universitaria vols. 1-3, Spanish edition); "
                 "paragraphs with math or cross-references dropped sentence by sentence"),
    dict(name="openstax_quimica", lang="es", repo="openstax/osbooks-quimica-bundle",
         glob=r"modules/.*\.cnxml$", kind="cnxml", genre="nonfiction",
         licence="CC BY 4.0 (OpenStax, Química 2ed, Spanish edition)"),
    dict(name="openstax_estadistica", lang="es",
         repo="openstax/osbooks-introduccion-estadistica-bundle",
         glob=r"modules/.*\.cnxml$", kind="cnxml", genre="nonfiction",
         licence="CC BY 4.0 (OpenStax, Introducción a la estadística [empresarial], "
                 "Spanish edition)"),
    dict(name="cligs_textbox_es", lang="es", repo="cligs/textbox",
         glob=r"spanish/[^/]+/txt_id/.*\.txt$", kind="txt", genre="fiction",
         licence="texts public domain; CLiGS markup CC BY 4.0 (CLiGS textbox: Spanish and "
                 "Spanish-American novels and short stories 1880-1940)"),
    dict(name="conha19", lang="es", repo="cligs/conha19", glob=r"txt/nh\d+\.txt$", kind="txt",
         genre="fiction",
         licence="public domain (Creative Commons Public Domain Mark 1.0; conha19: "
                 "Spanish-American novels 1830-1910)"),
    dict(name="eltec_spa", lang="es", repo="COST-ELTeC/ELTeC-spa", glob=r"level1/.*\.xml$",
         kind="tei", genre="fiction",
         licence="texts public domain; ELTeC markup CC BY 4.0 (Spanish novels 1840-1920)"),
    # --- English
    dict(name="ud_english_ewt", lang="en", repo="UniversalDependencies/UD_English-EWT",
         glob=r".*\.conllu$", kind="conllu", genre="nonfiction",
         licence="CC BY-SA 4.0 (UD English EWT; weblogs, newsgroups, e-mail, reviews, answers)"),
    dict(name="ud_english_gum", lang="en", repo="UniversalDependencies/UD_English-GUM",
         glob=r".*\.conllu$", kind="conllu", genre="nonfiction",
         licence="GUM: CC BY (annotations) / source texts under their own open licences "
                 "(Wikinews CC BY 2.5, Wikivoyage/Wikipedia CC BY-SA, wikiHow CC BY-NC-SA 3.0, "
                 "academic CC BY, fiction CC BY / public domain; see UD_English-GUM README)"),
    dict(name="wikisplit", lang="en", repo="google-research-datasets/wiki-split",
         glob=r"(test|tune|validation)\.tsv$", kind="wikisplit", genre="nonfiction", cap=0,
         licence="CC BY-SA 4.0 (WikiSplit: English Wikipedia sentences; first column, "
                 "detokenized)"),
    dict(name="wordnet_examples", lang="en", deb="wordnet-base",
         path="/usr/share/wordnet/data.{noun,verb,adj,adv}", kind="wordnet", genre="nonfiction",
         cap=0,
         licence="WordNet 3.0 licence (Princeton University; permissive, attribution); usage "
                 "examples from the glosses, first letter capitalized and a full stop added"),
    dict(name="fortunes_en", lang="en", deb="fortunes",
         path="/usr/share/games/fortunes/{education,food,humorists,kids,law,love,men-women,"
              "miscellaneous,news,people,pets,platitudes,politics,science,sports,wisdom,work}",
         kind="fortune", genre="nonfiction",
         licence="BSD (Debian package fortunes / fortune-mod; quotations of various authorship)"),
    dict(name="eltec_eng", lang="en", repo="COST-ELTeC/ELTeC-eng", glob=r"level1/.*\.xml$",
         kind="tei", genre="fiction",
         licence="texts public domain; ELTeC markup CC BY 4.0 (English novels 1840-1920)"),
]

# ---------------------------------------------------------------------------------------------
STOP = {
    "es": set("""de la que el en y a los se del las un por con no una su para es al lo como más
        pero sus le ya o este sí porque esta entre cuando muy sin sobre también me hasta hay donde
        quien desde todo nos durante todos uno les ni contra otros ese eso ante ellos e esto mí
        antes algunos qué unos yo otro otras otra él tanto esa estos mucho quienes nada muchos
        cual poco ella estar estas algunas algo nosotros mi mis tú te ti tu tus ellas nosotras
        vosotros os mío mía era había fue ha han son está están estaba dijo tan así bien""".split()),
    "en": set("""the of and to in a is that for it as was with be by on not he i this are or his
        from at which but have an they you were her she there been one all we their has would
        when if so no will my him what who them me its said could do had into than then more
        out up about some your can only other these time very our any over also after""".split()),
}
# words that are stop words in both lists or ambiguous are harmless: the test compares counts

ABBREV = {
    "es": set("""sr sra srta sres dr dra d dª dña ud uds vd vds etc pág págs núm art cap vol
        ee uu ee.uu av avda gral cía s.a lic ing prof excmo ilmo mr mrs""".split()),
    "en": set("""mr mrs ms dr st jr sr prof gen col capt lt rev hon messrs mme mlle vol
        etc e.g i.e vs fig inc ltd co dept esq""".split()),
}

WORD_RE = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)?", re.UNICODE)
KEY_RE = re.compile(r"[\W_]+", re.UNICODE)


def key(s):
    return KEY_RE.sub("", s.lower())


def nfc(s):
    return unicodedata.normalize("NFC", s)


# ---------------------------------------------------------------------------------------------
# Sentence splitting

SPLIT_RE = re.compile(
    r"""(?<=[.!?…])        # end punctuation
        ([»"”’')\]]*)      # closing quotes / brackets stay with the sentence
        \s+
        (?=[«"“‘'(\[¿¡—–-]*\s*[A-ZÁÉÍÓÚÑÜ0-9])  # next sentence starts with capital / digit
    """, re.VERBOSE)


def split_sentences(par, lang):
    par = par.strip()
    if not par:
        return []
    pieces = []
    last = 0
    for m in SPLIT_RE.finditer(par):
        end = m.end(1)
        cand = par[last:end]
        # abbreviation or initial before the full stop: do not split
        tail = re.search(r"(\S+)\.$", par[last:m.start(1)])
        if tail:
            w = tail.group(1).lower().lstrip("(«\"“'¿¡—")
            if w in ABBREV[lang] or (len(w) == 1 and w.isalpha()):
                continue
        pieces.append(cand.strip())
        last = m.end()
    pieces.append(par[last:].strip())
    return [p for p in pieces if p]


# ---------------------------------------------------------------------------------------------
# Filters

MARKUP_RE = re.compile(r"(https?:|www\.|<[a-zA-Z/]|&[a-z]+;|\{|\}|\||==|\\[a-z]|@\w|\.(com|org|net)\b|#\w)")
LIST_RE = re.compile(r"^\s*([-*•·]|\d+[.)]\s|[a-z][.)]\s|[IVXLC]+\.\s)")


def lang_ok(words, lang, other_lang):
    lw = [w.lower() for w in words]
    own = sum(w in STOP[lang] for w in lw)
    other = sum(w in STOP[other_lang] for w in lw)
    if own == 0 or own <= other:
        return False
    if len(lw) >= 8 and own < 2:
        return False
    return True


# Letters of a language that, several in one English sentence, show that language leaking in.
LEAKING_LETTERS = {"es": "áéíóúñ¿¡"}


def other_language(lang, pair):
    first, second = pair.split("-")
    return second if lang == first else first


def clean_sentence(s, lang, pair="en-es"):
    """Return the cleaned sentence or None. `pair` names the other language, whose stop words
    show a sentence in the wrong language."""
    other = other_language(lang, pair)
    s = nfc(s)
    s = s.replace("\u00ad", "")  # soft hyphen
    s = re.sub(r"[\u200b\u200c\u200d\ufeff]", "", s)
    s = re.sub(r"\s+", " ", s).strip()
    if not s:
        return None
    # strip a leading dialogue dash only if nothing else; keep text as in the source otherwise
    n_words = len(s.split())
    if n_words < 4 or n_words > 60:
        return None
    if MARKUP_RE.search(s) or LIST_RE.match(s):
        return None
    letters = sum(ch.isalpha() for ch in s)
    nonspace = sum(not ch.isspace() for ch in s)
    if nonspace == 0 or letters / nonspace < 0.75:
        return None
    words = WORD_RE.findall(s)
    if len(words) < 4:
        return None
    upper = sum(ch.isupper() for ch in s)
    if upper > 0.5 * letters:  # headings in capitals
        return None
    if not re.search(r"[.!?…»\"”’')]$", s):  # fragments, headings, titles
        return None
    if not lang_ok(words, lang, other):
        return None
    leaking = LEAKING_LETTERS.get(other, "") if lang == "en" else ""
    if leaking and sum(ch in leaking for ch in s) > 2:  # the other language in English (rough)
        return None
    return s


# ---------------------------------------------------------------------------------------------
# Readers

def git_files(repo_dir, pattern):
    out = subprocess.run(["git", "-C", repo_dir, "ls-tree", "-r", "--name-only", "HEAD"],
                         capture_output=True, text=True, check=True).stdout.split("\n")
    rx = re.compile(pattern)
    return sorted(p for p in out if p and rx.match(p))


def git_read(repo_dir, path):
    r = subprocess.run(["git", "-C", repo_dir, "show", "HEAD:" + path], capture_output=True)
    if r.returncode != 0:
        return None  # blob absent from the snapshot
    return r.stdout.decode("utf-8", errors="replace")


def paragraphs_txt(text):
    # one paragraph a line (CLiGS, conha19); also join hard-wrapped lines separated by blank lines
    blocks = re.split(r"\n\s*\n", text)
    for b in blocks:
        lines = [l.strip() for l in b.split("\n") if l.strip()]
        if not lines:
            continue
        # if lines are short (hard-wrapped), join them; else each line is a paragraph
        if sum(len(l) for l in lines) / len(lines) < 90 and len(lines) > 1:
            yield " ".join(lines)
        else:
            yield from lines


TEI_NOTE_RE = re.compile(r"<note\b.*?</note>", re.S)
TEI_P_RE = re.compile(r"<(p|l)\b[^>]*>(.*?)</\1>", re.S)
TAG_RE = re.compile(r"<[^>]+>")


def paragraphs_tei(text):
    m = re.search(r"<body\b.*?</body>", text, re.S)
    body = m.group(0) if m else text
    body = TEI_NOTE_RE.sub(" ", body)
    for pm in TEI_P_RE.finditer(body):
        if pm.group(1) == "l":
            continue  # verse lines
        t = TAG_RE.sub("", pm.group(2))
        t = html.unescape(t)
        yield re.sub(r"\s+", " ", t).strip()


def sentences_conllu(text):
    for line in text.split("\n"):
        if line.startswith("# text = "):
            yield line[9:].strip()


def paragraphs_fortune(text):
    for entry in text.split("\n%\n"):
        lines = [l.strip() for l in entry.split("\n") if l.strip()]
        # drop attribution lines ("-- Author")
        lines = [l for l in lines if not re.match(r"^(--|—|-)\s*\w", l)]
        if lines:
            yield " ".join(lines)


def detok_ptb(s):
    """Undo WikiSplit's tokenization (spaces around punctuation, '' and `` quotes)."""
    s = s.replace(" <::::> ", " ")
    s = s.replace("``", '"').replace("''", '"')
    s = re.sub(r"\s+([.,;:!?%)\]}])", r"\1", s)
    s = re.sub(r"([(\[{$])\s+", r"\1", s)
    s = re.sub(r"\s+(n't|'s|'re|'ve|'ll|'d|'m)\b", r"\1", s)
    s = re.sub(r"\s+-\s+", " - ", s)
    # quotes: pair them up and attach to the enclosed text
    parts = s.split('"')
    if len(parts) % 2 == 1:
        s = parts[0]
        for i, p in enumerate(parts[1:]):
            s += '"' + (p.strip() if i % 2 == 0 else p)
    s = re.sub(r"\s+'\s+", "' ", s)
    return re.sub(r"\s+", " ", s).strip()


CNX_MATH_RE = re.compile(r"<m:math\b.*?</m:math>", re.S)
CNX_SELF_RE = re.compile(r"<(link|xref|footnote|media|image)\b[^>]*/>")


def sentences_cnxml(text, lang):
    m = re.search(r"<content>(.*)</content>", text, re.S)
    body = m.group(1) if m else ""
    body = CNX_MATH_RE.sub(" \u00a7 ", body)
    body = CNX_SELF_RE.sub(" \u00a7 ", body)
    body = re.sub(r"<newline\s*/>", " ", body)
    for pm in re.finditer(r"<para\b[^>]*>(.*?)</para>", body, re.S):
        t = html.unescape(TAG_RE.sub("", pm.group(1)))
        t = re.sub(r"\s+", " ", t).strip()
        for sent in split_sentences(t, lang):
            if "\u00a7" not in sent:
                yield sent


def sentences_wikisplit(text):
    for line in text.split("\n"):
        if "\t" in line:
            yield detok_ptb(line.split("\t")[0])


def sentences_wordnet(text):
    for line in text.split("\n"):
        if line.startswith("  ") or "|" not in line:
            continue  # licence header
        gloss = line.split("|", 1)[1]
        for ex in re.findall(r'"([^"]+)"', gloss):
            ex = ex.strip()
            if not ex:
                continue
            ex = ex[0].upper() + ex[1:]
            if not re.search(r"[.!?]$", ex):
                ex += "."
            yield ex


def iter_documents(src, mirror):
    """Yield (doc_id, list of raw sentences) for a source."""
    if "repo" in src:
        repo_dir = os.path.join(mirror, src["repo"].replace("/", "+"), "repo")
        if not os.path.isdir(repo_dir):
            print(f"  {src['name']}: mirror {repo_dir} missing (fetch github:{src['repo']})",
                  file=sys.stderr)
            return
        files = git_files(repo_dir, src["glob"])
        absent = 0
        for path in files:
            text = git_read(repo_dir, path)
            if text is None:
                absent += 1
                continue
            yield path, list(raw_sentences(text, src))
        if absent:
            print(f"  {src['name']}: {absent} of {len(files)} files absent from the snapshot",
                  file=sys.stderr)
    else:
        pat = src["path"]
        if "{" in pat:
            head, rest = pat.split("{", 1)
            alts, tail = rest.split("}", 1)
            pats = [head + a + tail for a in alts.split(",")]
        else:
            pats = [pat]
        paths = []
        for p in pats:
            paths += sorted(glob.glob(p)) if "*" in p else [p]
        for path in paths:
            if not os.path.exists(path):
                print(f"  {src['name']}: {path} missing (apt-get install {src['deb']})",
                      file=sys.stderr)
                continue
            with open(path, encoding="utf-8", errors="replace") as f:
                text = f.read()
            yield path, list(raw_sentences(text, src))


def raw_sentences(text, src):
    kind, lang = src["kind"], src["lang"]
    text = text.replace("\r\n", "\n")
    if kind == "conllu":
        yield from sentences_conllu(text)
        return
    if kind == "cnxml":
        yield from sentences_cnxml(text, lang)
        return
    if kind == "wikisplit":
        yield from sentences_wikisplit(text)
        return
    if kind == "wordnet":
        yield from sentences_wordnet(text)
        return
    pars = {"txt": paragraphs_txt, "tei": paragraphs_tei, "fortune": paragraphs_fortune}[kind](text)
    for p in pars:
        yield from split_sentences(p, lang)


# ---------------------------------------------------------------------------------------------
# Held-out / training text to exclude

def read_lines(path):
    if path.endswith(".xz"):
        f = lzma.open(path, "rt", encoding="utf-8", errors="replace")
    elif path.endswith(".gz"):
        f = gzip.open(path, "rt", encoding="utf-8", errors="replace")
    else:
        f = open(path, encoding="utf-8", errors="replace")
    with f:
        for line in f:
            yield line.rstrip("\n")


def exclusion_keys(shared, pair="en-es"):
    keys = set()
    files = (glob.glob(os.path.join(shared, "newstest", pair, "*"))
             + glob.glob(os.path.join(shared, "tatoeba-" + pair, "*.tsv"))
             + glob.glob(os.path.join(shared, "parallel-" + pair, "*.xz"))
             + glob.glob(os.path.join(shared, "parallel-%s-general" % pair, "*.xz")))
    for path in sorted(files):
        for line in read_lines(path):
            for part in line.split("\t"):
                k = key(nfc(part))
                if k:
                    keys.add(k)
    return keys, files


# ---------------------------------------------------------------------------------------------

def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", default="/work/runs/mono")
    ap.add_argument("--mirror", default=MIRROR)
    ap.add_argument("--shared", default=SHARED)
    ap.add_argument("--max-per-doc", type=int, default=4000,
                    help="at most this many sentences from one document (novel)")
    ap.add_argument("--pair", default="en-es", help="the two languages (English first); "
                    "default en-es")
    ap.add_argument("--only", help="one language of the pair")
    ap.add_argument("--seed", type=int, default=30)
    args = ap.parse_args()
    pair, (_, other) = glosa_data.parse_pair(args.pair)
    # The other language first: MANIFEST.tsv lists it before English.
    langs = (other, "en")
    if args.only and args.only not in langs:
        raise glosa_data.MissingData("--only %s: not a language of %s" % (args.only, pair))
    for lang in langs:
        if lang not in STOP or lang not in ABBREV or not any(s["lang"] == lang for s in SOURCES):
            raise glosa_data.MissingData(
                "glosa_mono.py has no sources, stop words or abbreviations of %r (it has %s): "
                "add them to SOURCES, STOP and ABBREV" % (lang, ", ".join(sorted(STOP))))

    os.makedirs(args.out, exist_ok=True)
    excl, excl_files = exclusion_keys(args.shared, pair)
    print(f"exclusion set: {len(excl)} keys from {len(excl_files)} files", file=sys.stderr)

    manifest = []
    for lang in langs:
        if args.only and lang != args.only:
            continue
        seen = set()
        blocks = {"nonfiction": [], "fiction": []}
        for src in SOURCES:
            if src["lang"] != lang:
                continue
            stats = dict(raw=0, filtered=0, heldout=0, dup=0, cap=0, kept=0, docs=0)
            # the per-document cap is for novels; list-like sources (one file = many texts) have none
            doc_cap = src.get("cap", args.max_per_doc) or float("inf")
            for doc_id, sents in iter_documents(src, args.mirror):
                stats["docs"] += 1
                kept_doc = 0
                rng = random.Random(f"{args.seed}:{src['name']}:{doc_id}")
                # a sample of each long document, not its first N sentences
                order = list(range(len(sents)))
                rng.shuffle(order)
                chosen = []
                for i in order:
                    stats["raw"] += 1
                    s = clean_sentence(sents[i], lang, pair)
                    if s is None:
                        stats["filtered"] += 1
                        continue
                    k = key(s)
                    if k in excl:
                        stats["heldout"] += 1
                        continue
                    if k in seen:
                        stats["dup"] += 1
                        continue
                    if kept_doc >= doc_cap:
                        stats["cap"] += 1
                        continue
                    seen.add(k)
                    kept_doc += 1
                    chosen.append((i, s))
                chosen.sort()
                blocks[src["genre"]].extend(s for _, s in chosen)
                stats["kept"] += kept_doc
            origin = (f"github:{src['repo']} {src['glob']}" if "repo" in src
                      else f"Debian package {src['deb']}: {src['path']}")
            if "repo" in src:
                repo_dir = os.path.join(args.mirror, src["repo"].replace("/", "+"), "repo")
                if os.path.isdir(repo_dir):
                    commit = subprocess.run(["git", "-C", repo_dir, "rev-parse", "HEAD"],
                                            capture_output=True, text=True).stdout.strip()
                    origin += f" @ {commit[:12]}"
            print(f"  {src['name']} ({lang}): {stats}", file=sys.stderr)
            manifest.append((src["name"], lang, stats["kept"], src["licence"], origin,
                             src["genre"], stats["docs"], stats["raw"], stats["filtered"],
                             stats["heldout"], stats["dup"], stats["cap"]))
        rng = random.Random(args.seed)
        out_path = os.path.join(args.out, f"{lang}.txt")
        n = 0
        with open(out_path + ".tmp", "w", encoding="utf-8") as f:
            for genre in ("nonfiction", "fiction"):
                b = blocks[genre]
                rng.shuffle(b)
                for s in b:
                    f.write(s + "\n")
                    n += 1
        os.replace(out_path + ".tmp", out_path)
        print(f"{out_path}: {n} sentences", file=sys.stderr)

    # MANIFEST.tsv: with --only, the other language's rows are kept from the previous run
    mpath = os.path.join(args.out, "MANIFEST.tsv")
    header = ("source\tlanguage\tsentences_kept\tlicence\twhere_from\tgenre\tdocuments"
              "\traw_segments\tfiltered\theldout_removed\tduplicates\tover_doc_cap\n")
    rows = ["\t".join(str(x) for x in row) + "\n" for row in manifest]
    if args.only and os.path.exists(mpath):
        with open(mpath, encoding="utf-8") as f:
            old = [l for l in f.readlines()[1:] if l.split("\t")[1] != args.only]
        rows = old + rows if args.only == "en" else rows + old
    with open(mpath + ".tmp", "w", encoding="utf-8") as f:
        f.write(header)
        f.writelines(rows)
    os.replace(mpath + ".tmp", mpath)
    print(f"{mpath} written", file=sys.stderr)


if __name__ == "__main__":
    main()
