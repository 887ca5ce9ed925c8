#!/usr/bin/env bash
# One lent GPU, every minute on training (docs/training.md, "Everyday phrases: the prepared GPU
# run"). Wraps tools/gpu_train.sh, whose RUNS table holds this round's runs: the shipped general
# Transformers (en->es, es->en) and then the RNN continue side by side on the corpus with the
# everyday-phrase origins.
#
#   here:    tools/gpu_lease.sh prepare            # one command: corpus (if missing or older than
#                                                  # the corpus code), .device/ staged, size checked
#   device:  run(command="bash tools/gpu_lease.sh device 7.5", carry=[".device"], timeout_s=600)
#            and, at once on the warm machine if budget_left_s >= 270:
#            run(command="bash tools/gpu_lease.sh device 2.5", carry=[".device"], timeout_s=330)
#   here:    tools/gpu_lease.sh back FILES_AT      # tree restored, checkpoints unpacked, the export
#                                                  # bar checked per run on the whole dev sets
#
# Nothing is committed by this script: .device/ and $GLOSA_RUNS are outside git. Exporting is by
# hand, once per lease, for a run that `back` marks EXPORT.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
RUNS_DIR=${GLOSA_RUNS:-/work/runs}
PY=${GLOSA_PYTHON:-/usr/bin/python3}
PAIR=en-es
CORPUS=$RUNS_DIR/broad-$PAIR
# The device tool copies the tree and `carry` together, 64 MiB at most.
TREE_LIMIT_MB=64
export GLOSA_RUNS=$RUNS_DIR
# The shipped packages carry the surgered tokenizer the runs continue with.
export GLOSA_TOKENIZER=${GLOSA_TOKENIZER:-$RUNS_DIR/spm-surgery}
[ -f "$GLOSA_TOKENIZER/spm.model" ] || GLOSA_TOKENIZER=$ROOT/resources/models/transformer-general-en-es
cmd=${1:?usage: gpu_lease.sh prepare|device MINUTES|back FILES_AT}
shift

# The tree the device tool sends: tracked files, untracked files git does not ignore, and .device.
tree_mb() {
  local bytes
  bytes=$( (cd "$ROOT" && { git ls-files -z; git ls-files -z --others --exclude-standard; } |
            xargs -0 -r stat -c %s 2>/dev/null; find .device -type f -printf '%s\n') |
           awk '{s += $1} END {print s + 0}')
  echo $(( (bytes + 1048575) / 1048576 ))
}

case "$cmd" in
prepare)
  if [ ! -f "$CORPUS/train.tsv" ] || [ "$ROOT/tools/glosa/corpus/broad.py" -nt "$CORPUS/train.tsv" ] ||
     [ "$ROOT/tools/glosa/corpus/phrases.py" -nt "$CORPUS/train.tsv" ]; then
    OMP_WAIT_POLICY=PASSIVE nice -n 10 "$PY" "$ROOT/tools/glosa_corpus.py" build --pair "$PAIR" --out "$CORPUS"
  fi
  grep -q '"cldr"' "$CORPUS/stats.json" || echo "note: no CLDR names in $CORPUS (apt install python3-icu, then rebuild)" >&2
  # The tokenizer must be the one the packages were trained with, or their weights mean nothing.
  cmp -s "$GLOSA_TOKENIZER/spm.model" "$ROOT/resources/models/transformer-general-en-es/spm.model" ||
    { echo "gpu_lease.sh: $GLOSA_TOKENIZER/spm.model is not the shipped packages' tokenizer" >&2; exit 1; }
  bash "$ROOT/tools/gpu_train.sh" stage
  mb=$(tree_mb)
  echo "the device call sends ${mb} MiB (limit ${TREE_LIMIT_MB})"
  if [ "$mb" -gt "$TREE_LIMIT_MB" ]; then
    echo "gpu_lease.sh: the tree to send is ${mb} MiB, over the device tool's ${TREE_LIMIT_MB} MiB: lower a weight-0 origin out of the stage or move more out of the tree" >&2
    exit 1
  fi
  ;;
device)
  bash "$ROOT/tools/gpu_train.sh" device "${1:-7.5}"
  ;;
back)
  from=${1:?folder with the files the device call brought back}
  bash "$ROOT/tools/gpu_train.sh" restore
  bash "$ROOT/tools/gpu_train.sh" unpack "$from"
  for ckpt in "$RUNS_DIR"/gpu-*/best.pt; do
    run=$(basename "$(dirname "$ckpt")")
    case "$run" in
      gpu-es-en) pkg=transformer-general-es-en ;;
      gpu-en-es) pkg=transformer-general-en-es ;;
      gpu-rnn-en-es) pkg=rnn-general-en-es ;;
      *) continue ;;
    esac
    "$PY" "$ROOT/tools/dev_scores.py" --corpus "$CORPUS" --dev-size 0 "$ROOT/resources/models/$pkg" >"$RUNS_DIR/$run-before.json"
    "$PY" "$ROOT/tools/dev_scores.py" --corpus "$CORPUS" --dev-size 0 "$ckpt" >"$RUNS_DIR/$run-after.json"
    "$PY" "$ROOT/tools/dev_scores.py" --export-bar "$RUNS_DIR/$run-before.json" "$RUNS_DIR/$run-after.json" || true
  done
  ;;
*)
  echo "unknown step $cmd" >&2
  exit 2
  ;;
esac
