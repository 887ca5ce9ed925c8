#!/usr/bin/python3
"""Everyday phrases for the general-domain models (docs/training.md, "Everyday phrases").

Two origins of glosa_corpus's mixture come from here:
  everyday  rows of the corpus's own sources that are everyday phrases, relabelled at build time
            (everyday_origin): Tatoeba's short sentences, the word lists' multi-word entries, and
            the short UI strings of the gettext catalogues (a UI glossary: "Save as", "Open file")
  cldr      names from the Unicode CLDR data that ICU carries on this machine (cldr_pairs): day
            and month names, unit names, territory and language names, in both languages.
            Licence: Unicode License v3 (CLDR_SOURCE). Needs python3-icu (apt install
            python3-icu); without it the origin is left out and the build says so.

Both go through glosa_corpus's filters like every source, held-out sets included. Short entries
are trained in both casings (recase_pair): a capitalised copy of lower-case entries, and a
lower-cased copy of capitalised ones whose first word is not a name, so that "Hello!" and
"hello!" are both learned.

  /usr/bin/python3 tools/glosa_phrases.py cldr --pair en-es      # print the pairs
"""
import argparse
import re
import sys

CLDR_SOURCE = {
    "name": "cldr (ICU display names: days, months, units, territories, languages)",
    "licence": "Unicode License v3 (Unicode-3.0)",
    "attribution": "Unicode, Inc., the Unicode CLDR project, via ICU (python3-icu)",
    "translation": "human",
}
# Everyday rows: Tatoeba sentences of at most this many words a side, UI strings of at most
# UI_MAX_WORDS (longer UI strings are messages, not glossary entries), word-list entries of 2+
# words ("good morning", "fire engine": the compounds a word-by-word model invents).
SHORT_MAX_WORDS = 4
UI_MAX_WORDS = 3
# Unit types whose names are everyday words (currency names are many and rarely typed).
UNIT_TYPES = ("length", "mass", "volume", "duration", "temperature", "speed", "area", "digital")
P_UPPER = 0.5   # a lower-case entry is seen capitalised ("Good morning" as a heading)
P_LOWER = 0.3   # a capitalised entry is seen lower-cased ("very good" typed quickly)
_FIRST_WORD = re.compile(r"\w+", re.UNICODE)
# A UI glossary entry is words ("Save as", "Open file…", "Waves:"), not a message with format
# codes, options or identifiers ("%s: supported emulations:", "use -mcpu=arm710t").
_GLOSSARY = re.compile(r"[^\W\d_]+(?:['’ -][^\W\d_]+)*[.:!?…]?", re.UNICODE)


def everyday_origin(origin, en, other):
    """The origin a built row is written with: 'everyday' for the everyday phrases among the
    corpus's sources, else `origin` unchanged."""
    ne, no = len(en.split()), len(other.split())
    if origin == "tatoeba" and 0 < ne <= SHORT_MAX_WORDS and 0 < no <= SHORT_MAX_WORDS:
        return "everyday"
    if origin == "lexicon" and ne >= 2:
        return "everyday"
    if (origin == "gettext-ui" and 0 < ne <= UI_MAX_WORDS and 0 < no <= UI_MAX_WORDS
            and _GLOSSARY.fullmatch(en) and _GLOSSARY.fullmatch(other)):
        return "everyday"
    return origin


def _recase(text, upper):
    """`text` with its first letter upper- or lower-cased (after any '¿', '¡', quote)."""
    for i, c in enumerate(text):
        if c.isalpha():
            return text[:i] + (c.upper() if upper else c.lower()) + text[i + 1:]
    return text


def _first_letter(text):
    return next((c for c in text if c.isalpha()), "")


def _name_like(s, t):
    """True when the first word of either side is a name (it occurs capitalised in the other
    side: "Tom left." / "Tom se fue.") or English "I", which must stay capitalised."""
    for a, b in ((s, t), (t, s)):
        m = _FIRST_WORD.search(a)
        if m and (m.group() == "I" or re.search(r"(?<!\w)%s(?!\w)" % re.escape(m.group()), b)):
            return True
    return False


def recase_pair(s, t, origin, rng):
    """The casing augmentation of a short entry: (s, t), possibly re-cased on both sides.
    Word-list and CLDR entries are only ever capitalised (a lower-cased territory or language
    name would be wrong); everyday phrases are capitalised or lower-cased."""
    if not _first_letter(s):
        return s, t
    if _first_letter(s).islower():
        if rng.random() < P_UPPER:
            return _recase(s, True), _recase(t, True)
    elif origin == "everyday" and rng.random() < P_LOWER and not _name_like(s, t):
        return _recase(s, False), _recase(t, False)
    return s, t


def _display_names(icu, locales):
    """[(name in each locale)] of the ISO territories and languages that CLDR names in all of
    `locales` (ICU echoes the code back for a name it does not have)."""
    rows = []
    for cc in icu.Locale.getISOCountries():
        names = [icu.Locale("", cc).getDisplayCountry(loc) for loc in locales]
        if all(n and n != cc for n in names):
            rows.append(names)
    for lang in icu.Locale.getISOLanguages():
        names = [icu.Locale(lang).getDisplayLanguage(loc) for loc in locales]
        if all(n and n != lang for n in names):
            rows.append(names)
    return rows


def _calendar_names(icu, locales):
    symbols = [icu.DateFormatSymbols(loc) for loc in locales]
    rows = [list(r) for r in zip(*(s.getWeekdays() for s in symbols))]
    rows += [list(r) for r in zip(*(s.getMonths() for s in symbols))]
    return [r for r in rows if all(r)]


def _unit_names(icu, locales):
    """Full unit names, singular and plural, with the number ("5 kilometers") and without it
    ("kilometers"): a number is a protected span at inference, the bare name is a heading."""
    rows = []
    for kind in UNIT_TYPES:
        for unit in icu.MeasureUnit.getAvailable(kind):
            fmts = [icu.NumberFormatter.withLocale(loc).unit(unit).unitWidth(
                icu.UNumberUnitWidth.FULL_NAME) for loc in locales]
            for n in (1, 5):
                full = [f.formatInt(n) for f in fmts]
                rows.append(full)
                bare = [re.sub(r"^\s*%d\s*|\s*%d\s*$" % (n, n), "", x) for x in full]
                if all(b and not b[0].isdigit() for b in bare):
                    rows.append(bare)
    return rows


def cldr_pairs(pair="en-es"):
    """[(english, other)] of CLDR's names in the two languages of `pair`, or None when
    python3-icu is not installed. Duplicates removed, order kept."""
    try:
        import icu
    except ImportError:
        return None
    locales = [icu.Locale(lang) for lang in pair.split("-")]
    rows = (_calendar_names(icu, locales) + _display_names(icu, locales)
            + _unit_names(icu, locales))
    seen, out = set(), []
    for a, b in rows:
        a, b = " ".join(a.split()), " ".join(b.split())
        if (a, b) not in seen:
            seen.add((a, b))
            out.append((a, b))
    return out


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    sub = p.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("cldr", help="print the CLDR name pairs of a language pair")
    c.add_argument("--pair", default="en-es")
    a = p.parse_args(argv)
    rows = cldr_pairs(a.pair)
    if rows is None:
        print("python3-icu is not installed (apt install python3-icu)", file=sys.stderr)
        return 1
    for en, other in rows:
        print("%s\t%s" % (en, other))
    return 0


if __name__ == "__main__":
    sys.exit(main())
