#!/usr/bin/env bash
# Fine-tunes the general-domain Transformers on a lent GPU machine (the device tool) in ONE call:
# every run of RUNS below trains side by side on the one GPU for the same minutes, and each comes
# back as a compact int8 checkpoint with its log and dev history. Nothing here is needed without a
# GPU: tools/train_general.sh trains on the CPU with the same scripts.
#
# The device gets the working tree (64 MiB at most with what `carry` names; ../shared and
# /work/runs stay behind) and gives back at most 8 files of 16 MiB (64 MiB together) from $OUT.
#
#   here:    tools/gpu_train.sh stage              # .device/ (ignored by git): corpus, tokenizer,
#                                                  # the packages the runs start from; the tracked
#                                                  # models and test data moved to ../device-aside
#   device:  run(command="bash tools/gpu_train.sh device 7.5", carry=[".device"], timeout_s=600)
#   here:    tools/gpu_train.sh restore            # models and test data back, .device removed
#            tools/gpu_train.sh unpack FILES_AT    # compact checkpoints -> /work/runs/gpu-<run>/best.pt
#
# Measured on an H200 (docs/training.md, "Compute log"): see the closing table there.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
STAGE=$ROOT/.device
ASIDE=$ROOT/../device-aside
RUNS_DIR=${GLOSA_RUNS:-/work/runs}
cmd=${1:?usage: gpu_train.sh stage|device|restore|unpack ...}
shift

# name  direction  script (train_<script>.py)  package it starts from  peak lr  mixture
# (glosa_corpus.MIXTURE overrides). Every run of one call shares the GPU for the same minutes.
# The runs of one call are of one language pair: `stage` sends that pair's corpus,
# $GLOSA_RUNS/broad-<pair> (glosa_corpus.py build --pair <pair>), and TOKENIZER below.
#
# Session 34 (three Transformer runs, 2026-11-27 09:25): the en-es pair measured back-translation
# (no gain at 46k pairs, docs/training.md) and es-en shipped; both general Transformers are final.
# Several epochs at GPU speed: the small sets' weights are lower than the last CPU phase's
# (Tatoeba x10, news x8 over a fraction of an epoch), or they would be seen dozens of times.
MIX="tatoeba=2,msdocs-machine=0,bible=0,news=4,europarl-sample=2,globalvoices=3,general=3,lexicon=1"
# Session 36: the RNN (rnn-general-en-es, 0.59 epoch on the CPU, news dev 16.6 against Apertium's
# 19.7) continues on the new data and the surgered tokenizer. The CPU runs' peak 1e-3 at 3.5k-token
# batches scales to about 3e-3 at 25k (as for the Transformers); the half of it hedges the one
# call, and a third run weighs news more, the set it has to win.
# Round 3 (everyday phrases, docs/training.md "Everyday phrases"): the shipped Transformers
# continue first, then the RNN, all three side by side, with the new origins (everyday: short
# Tatoeba sentences, multi-word word-list entries, short UI strings; cldr: CLDR names) weighted
# as in glosa_corpus.MIXTURE. No back-translations are staged this round (none built here).
# The runs of sessions 34 and 36 are in git history and in the compute log.
MIX="$MIX,everyday=3,cldr=2"
RUNS=(
  "en-es en-es transformer transformer-general-en-es 3e-3 $MIX,bt-es=0"
  "es-en es-en transformer transformer-general-es-en 3e-3 $MIX,bt-en=0"
  "rnn-en-es rnn-en-es rnn rnn-general-en-es 3e-3 $MIX,bt-es=0"
)
# The runs' tokenizer (spm.model, and spm-surgery.json when tools/spm_surgery.py made it): the
# surgered joint en-es one of session 36, which the shipped general packages carry
# (GLOSA_TOKENIZER=resources/models/transformer-general-en-es where $RUNS_DIR lacks it).
TOKENIZER=${GLOSA_TOKENIZER:-$RUNS_DIR/spm-surgery}

# The one language pair of RUNS (English first, as the corpus folders are named).
runs_pair() {
  local pair="" spec name direction src tgt p
  for spec in "${RUNS[@]}"; do
    read -r name direction _ <<<"$spec"
    direction=${direction#rnn-}
    src=${direction%-*} tgt=${direction#*-}
    if [ "$tgt" = en ]; then p=$tgt-$src; else p=$src-$tgt; fi
    if [ -n "$pair" ] && [ "$p" != "$pair" ]; then
      echo "gpu_train.sh: run $name is $p, the runs before it $pair: one call stages one pair's corpus" >&2
      return 1
    fi
    pair=$p
  done
  echo "$pair"
}

case "$cmd" in
stage)
  pair=$(runs_pair)
  corpus=$RUNS_DIR/broad-$pair
  spm_dir=$TOKENIZER
  [ -f "$corpus/train.tsv" ] || { echo "no corpus: tools/glosa_corpus.py build --pair $pair --out $corpus [--bt DIR]" >&2; exit 1; }
  [ -f "$spm_dir/spm.model" ] || { echo "no tokenizer $spm_dir/spm.model (TOKENIZER in tools/gpu_train.sh; tools/spm_surgery.py plan --out $spm_dir)" >&2; exit 1; }
  grep -qx '/.device/' "$ROOT/.git/info/exclude" 2>/dev/null || echo '/.device/' >>"$ROOT/.git/info/exclude"
  rm -rf "$STAGE" && mkdir -p "$STAGE/corpus" "$STAGE/spm" "$STAGE/init"
  cp -r "$corpus/dev" "$STAGE/corpus/"
  # stats.json names the corpus's pair, which training checks the runs' directions against.
  [ ! -f "$corpus/stats.json" ] || cp "$corpus/stats.json" "$STAGE/corpus/"
  cp "$spm_dir/spm.model" "$STAGE/spm/"
  [ ! -f "$spm_dir/spm-surgery.json" ] || cp "$spm_dir/spm-surgery.json" "$STAGE/spm/"
  cp "$spm_dir/spm.model" "$STAGE/corpus/spm.model"
  # Origins every run weighs 0 stay behind (the tree must fit in 64 MiB). Two xz streams, the
  # human pairs and the back-translations: the first (24 MB, 8 minutes of xz on two busy cores)
  # is kept in $RUNS_DIR and made again only when the corpus is newer.
  base=$RUNS_DIR/stage-base-$pair.tsv.xz
  if [ ! -f "$base" ] || [ "$corpus/train.tsv" -nt "$base" ]; then
    awk -F'\t' '$1 != "msdocs-machine" && $1 != "bible" && $1 !~ /^bt-/' "$corpus/train.tsv" | xz -T2 -6 >"$base.tmp"
    mv "$base.tmp" "$base"
  fi
  cp "$base" "$STAGE/corpus/train-base.tsv.xz"
  awk -F'\t' '$1 ~ /^bt-/' "$corpus/train.tsv" | xz -T2 -6 >"$STAGE/corpus/train-bt.tsv.xz"
  for spec in "${RUNS[@]}"; do
    read -r _ _ _ pkg _ <<<"$spec"
    [ -d "$STAGE/init/$pkg" ] || cp -r "$ROOT/resources/models/$pkg" "$STAGE/init/"
  done
  mkdir -p "$ASIDE"
  for d in resources/models tests/data; do
    [ -e "$ASIDE/$(basename $d)" ] || mv "$ROOT/$d" "$ASIDE/$(basename $d)"
  done
  du -sh "$STAGE" "$ROOT" --exclude=.git --exclude=build
  echo "staged; after the device call: tools/gpu_train.sh restore"
  ;;
device)
  minutes=${1:-7.5}
  export PYTHONUNBUFFERED=1 OMP_WAIT_POLICY=PASSIVE
  nvidia-smi --query-gpu=name,memory.total --format=csv,noheader || true
  xz -dc -T0 "$STAGE/corpus/train-base.tsv.xz" "$STAGE/corpus/train-bt.tsv.xz" >"$STAGE/corpus/train.tsv"
  cut -f1 "$STAGE/corpus/train.tsv" | sort | uniq -c
  mkdir -p /tmp/runs
  pids=()
  for spec in "${RUNS[@]}"; do
    read -r name direction script pkg lr mixture <<<"$spec"
    direction=${direction#rnn-}
    # GLOSA_ONLY=name: that run alone (a dry run of this step on the CPU: GLOSA_DEVICE=cpu).
    [ -n "${GLOSA_ONLY:-}" ] && [ "$name" != "$GLOSA_ONLY" ] && continue
    GLOSA_RUNS=/tmp/runs python3 "$ROOT/tools/train_$script.py" --run "gpu-$name" \
      --corpus "$STAGE/corpus" --src "${direction%-*}" --tgt "${direction#*-}" \
      --init-from "$STAGE/init/$pkg" --spm "$STAGE/spm/spm.model" --mixture "$mixture" \
      --device "${GLOSA_DEVICE:-cuda}" --threads 2 --data-workers 4 --max-len 256 --max-tokens 25000 \
      --lr "$lr" --warmup 600 --rewarm 150 --eval-minutes 2.5 --checkpoint-minutes 100 \
      --dev-size 400 --patience 100 --max-minutes "$minutes" \
      >"/tmp/runs/$name.log" 2>&1 &
    pids+=($!)
  done
  sleep "${GLOSA_PEEK:-90}"
  tail -n 3 /tmp/runs/*.log
  for p in "${pids[@]}"; do wait "$p" || echo "run $p failed"; done
  for spec in "${RUNS[@]}"; do
    read -r name _ <<<"$spec"
    [ -n "${GLOSA_ONLY:-}" ] && [ "$name" != "$GLOSA_ONLY" ] && continue
    d=/tmp/runs/gpu-$name
    [ -f "$d/best.pt" ] && PYTHONPATH="$ROOT/tools" python3 -c "from glosa.train import trainer; trainer.compact_checkpoint('$d/best.pt', '$OUT/$name.pt')"
    grep -a "DEV\|epoch .* data\|finished\|Error\|error" "/tmp/runs/$name.log" | tail -20
  done
  tar -C /tmp/runs -czf "$OUT/logs.tgz" $(cd /tmp/runs && ls -d *.log gpu-*/history.json gpu-*/best-dev-hyps.txt 2>/dev/null)
  ls -la "$OUT"
  ;;
restore)
  for d in resources/models tests/data; do
    [ -e "$ASIDE/$(basename $d)" ] && [ ! -e "$ROOT/$d" ] && mv "$ASIDE/$(basename $d)" "$ROOT/$d"
  done
  rmdir "$ASIDE" 2>/dev/null || true
  rm -rf "$STAGE"
  git -C "$ROOT" status --short | head
  ;;
unpack)
  from=${1:?folder with the files the device call brought back}
  for f in "$from"/*.pt; do
    name=$(basename "$f" .pt)
    mkdir -p "$RUNS_DIR/gpu-$name"
    PYTHONPATH="$ROOT/tools" /usr/bin/python3 -c "from glosa.train import trainer; trainer.expand_checkpoint('$f', '$RUNS_DIR/gpu-$name/best.pt')"
    cp "$TOKENIZER/spm.model" "$RUNS_DIR/gpu-$name/spm.model"
  done
  tar -C "$RUNS_DIR" -xzf "$from/logs.tgz"
  ls -la "$RUNS_DIR"/gpu-*
  ;;
*)
  echo "unknown step $cmd" >&2
  exit 2
  ;;
esac
