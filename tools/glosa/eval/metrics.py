"""Corpus BLEU and chrF, computed the way sacrebleu 2.x computes them by default.

sacrebleu is not packaged for Debian 12 and there is no internet here, so this is a faithful
re-implementation of its defaults (checked by tools/tests/test_metrics.py against hand-computed cases):

BLEU (Papineni et al. 2002, sacrebleu `BLEU()`): tokenizer '13a', n-grams 1..4, case-sensitive,
  clipped n-gram counts against the maximum count over all references of a segment, brevity
  penalty with the reference length closest to the hypothesis length (ties -> the shorter one),
  corpus-level statistics, smoothing 'exp' (only used when some order has zero matches), and a
  score of 0 when nothing matches at all.
chrF2 (Popovic 2015, sacrebleu `CHRF()`): character n-grams 1..6 with whitespace removed,
  word order 0, beta 2; with several references each segment uses the statistics of the reference
  with the best sentence-level chrF; corpus score from the summed statistics, precision and recall
  averaged over the orders that exist in both hypothesis and reference.

Every segment may have a different number of references (lists of strings).
"""

import collections
import math
import re

# ---------------------------------------------------------------------------------------------
# Tokenizer 13a (mteval-v13a.pl), as sacrebleu.tokenizers.tokenizer_13a.Tokenizer13a.

_13A_RULES = [
    # tokenize punctuation (everything in these ASCII ranges becomes its own token)
    (re.compile(r"([\{-\~\[-\` -\&\(-\+\:-\@\/])"), r" \1 "),
    # tokenize period and comma unless preceded by a digit
    (re.compile(r"([^0-9])([\.,])"), r"\1 \2 "),
    # tokenize period and comma unless followed by a digit
    (re.compile(r"([\.,])([^0-9])"), r" \1 \2"),
    # tokenize dash when preceded by a digit
    (re.compile(r"([0-9])(-)"), r"\1 \2 "),
]


def tokenize_13a(line):
    line = line.replace("<skipped>", "")
    line = line.replace("-\n", "")
    line = line.replace("\n", " ")
    if "&" in line:
        line = line.replace("&quot;", '"')
        line = line.replace("&amp;", "&")
        line = line.replace("&lt;", "<")
        line = line.replace("&gt;", ">")
    line = " %s " % line
    for rx, repl in _13A_RULES:
        line = rx.sub(repl, line)
    return " ".join(line.split())


# ---------------------------------------------------------------------------------------------
# BLEU


def _ngrams(words, max_order):
    counts = collections.Counter()
    for n in range(1, max_order + 1):
        for i in range(len(words) - n + 1):
            counts[tuple(words[i:i + n])] += 1
    return counts


class BleuScore:
    def __init__(self, score, counts, totals, precisions, bp, sys_len, ref_len):
        self.score = score
        self.counts = counts
        self.totals = totals
        self.precisions = precisions
        self.bp = bp
        self.sys_len = sys_len
        self.ref_len = ref_len

    def __str__(self):
        return "BLEU = %.2f %s (BP = %.3f ratio = %.3f hyp_len = %d ref_len = %d)" % (
            self.score, "/".join("%.1f" % p for p in self.precisions), self.bp,
            self.sys_len / max(self.ref_len, 1), self.sys_len, self.ref_len)


def bleu_statistics(hyp, refs, max_order=4, tokenize=tokenize_13a):
    """[sys_len, ref_len, correct_1..n, total_1..n] for one segment."""
    hyp_words = tokenize(hyp).split()
    hyp_len = len(hyp_words)
    max_ref_counts = collections.Counter()
    closest_len, closest_diff = None, None
    for ref in refs:
        ref_words = tokenize(ref).split()
        rl = len(ref_words)
        diff = abs(rl - hyp_len)
        if (closest_diff is None or diff < closest_diff
                or (diff == closest_diff and rl < closest_len)):
            closest_len, closest_diff = rl, diff
        for ng, c in _ngrams(ref_words, max_order).items():
            if c > max_ref_counts[ng]:
                max_ref_counts[ng] = c
    correct = [0] * max_order
    total = [0] * max_order
    for ng, c in _ngrams(hyp_words, max_order).items():
        n = len(ng)
        total[n - 1] += c
        correct[n - 1] += min(c, max_ref_counts.get(ng, 0))
    return [hyp_len, closest_len or 0] + correct + total


def bleu_from_statistics(stats, max_order=4):
    sys_len, ref_len = stats[0], stats[1]
    correct = list(stats[2:2 + max_order])
    total = list(stats[2 + max_order:2 + 2 * max_order])
    precisions = [0.0] * max_order
    if sys_len < ref_len:
        bp = math.exp(1 - ref_len / sys_len) if sys_len > 0 else 0.0
    else:
        bp = 1.0
    if not any(correct):
        return BleuScore(0.0, correct, total, precisions, bp, sys_len, ref_len)
    smooth_mteval = 1.0
    eff_order = max_order
    for n in range(1, max_order + 1):
        if total[n - 1] == 0:
            break
        if correct[n - 1] == 0:
            smooth_mteval *= 2
            precisions[n - 1] = 100.0 / (smooth_mteval * total[n - 1])
        else:
            precisions[n - 1] = 100.0 * correct[n - 1] / total[n - 1]

    def my_log(x):
        return -9999999999 if x == 0 else math.log(x)

    score = bp * math.exp(sum(my_log(p) for p in precisions[:eff_order]) / eff_order)
    return BleuScore(score, correct, total, precisions, bp, sys_len, ref_len)


def corpus_bleu(hyps, refs, max_order=4):
    """hyps: [str]; refs: [[str, ...]] (one list of references per hypothesis)."""
    if len(hyps) != len(refs):
        raise ValueError("%d hypotheses but %d reference lists" % (len(hyps), len(refs)))
    acc = [0] * (2 + 2 * max_order)
    for h, rs in zip(hyps, refs):
        rs = [r for r in rs if r]
        if not rs:
            raise ValueError("segment without reference: %r" % h)
        for i, v in enumerate(bleu_statistics(h, rs, max_order)):
            acc[i] += v
    return bleu_from_statistics(acc, max_order)


# ---------------------------------------------------------------------------------------------
# chrF


def _char_ngrams(sentence, order):
    """[Counter of n-grams for n = 1..order] over the sentence with whitespace removed."""
    s = "".join(sentence.split())
    return [collections.Counter(s[i:i + n] for i in range(len(s) - n + 1))
            for n in range(1, order + 1)]


def _chrf_stats(hyp_ngrams, ref_ngrams):
    stats = []
    for h, r in zip(hyp_ngrams, ref_ngrams):
        match = sum(min(c, r[g]) for g, c in h.items() if g in r)
        stats += [sum(h.values()), sum(r.values()), match]
    return stats


def chrf_from_statistics(stats, order=6, beta=2.0):
    factor = beta ** 2
    avg_prec, avg_rec, eff = 0.0, 0.0, 0
    for i in range(order):
        n_hyp, n_ref, n_match = stats[3 * i:3 * i + 3]
        if n_hyp > 0 and n_ref > 0:
            avg_prec += n_match / n_hyp
            avg_rec += n_match / n_ref
            eff += 1
    if eff == 0:
        return 0.0
    avg_prec /= eff
    avg_rec /= eff
    if avg_prec + avg_rec == 0:
        return 0.0
    return 100.0 * (1 + factor) * avg_prec * avg_rec / (factor * avg_prec + avg_rec)


def corpus_chrf(hyps, refs, order=6, beta=2.0):
    if len(hyps) != len(refs):
        raise ValueError("%d hypotheses but %d reference lists" % (len(hyps), len(refs)))
    acc = [0] * (3 * order)
    for h, rs in zip(hyps, refs):
        hn = _char_ngrams(h, order)
        best, best_f = None, -1.0
        for r in rs:
            if not r:
                continue
            st = _chrf_stats(hn, _char_ngrams(r, order))
            f = chrf_from_statistics(st, order, beta)
            if f > best_f:
                best, best_f = st, f
        if best is None:
            raise ValueError("segment without reference: %r" % h)
        for i, v in enumerate(best):
            acc[i] += v
    return chrf_from_statistics(acc, order, beta)
