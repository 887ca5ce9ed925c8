"""Evaluation: sacrebleu's BLEU and chrF2 (metrics), the test sets and their scoring (evaluate),
and the measurements built on them (coverage, truecase, dev_scores, alignment_heads,
span_survival)."""
