#!/usr/bin/env bash
# The adversarial-input table of docs/robustness.md: each hostile input through the built
# glosa-cli (build/bin) under /usr/bin/time -v; prints one Markdown row per input with the exit
# code, the first line of stderr, the wall time and the peak resident memory.
#   tools/robustness_table.sh [BUILD_DIR]        (default build/)
# The inputs are written by tests/data/hostile/make_hostile.py --large into a temporary folder.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${1:-$ROOT/build}
CLI=$BUILD/bin/glosa-cli
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
/usr/bin/python3 "$ROOT/tests/data/hostile/make_hostile.py" --large "$WORK/in"
export OMP_WAIT_POLICY=passive HOME=$WORK/home XDG_DATA_HOME=$WORK/home/data XDG_CONFIG_HOME=$WORK/home/config
export GLOSA_PLUGIN_PATH=$BUILD/tests/plugins/translators:$BUILD/plugins
export GLOSA_MODEL_PATH=$ROOT/tests/data/toy-en-es

# A copy of the parity Transformer with model.json changed by the jq-like Python expression $2,
# or with $3 as its weights.
package() {
  local dir=$WORK/$1
  mkdir -p "$dir"
  cp "$ROOT/tests/data/parity/transformer-tiny/"{model.json,model.safetensors,spm.model} "$dir/"
  [ -n "${3:-}" ] && cp "$3" "$dir/model.safetensors"
  /usr/bin/python3 - "$dir/model.json" "$2" <<'PY'
import json, sys
path, change = sys.argv[1], sys.argv[2]
m = json.load(open(path))
exec(change)
json.dump(m, open(path, "w"))
PY
  echo "$dir"
}

row() { # row LABEL STDIN_FILE ARGS...
  local label=$1 input=$2
  shift 2
  local start end rc
  start=$(date +%s.%N)
  set +e
  /usr/bin/time -v -o "$WORK/time" timeout 60 "$CLI" "$@" < "$input" > /dev/null 2> "$WORK/err"
  rc=$?
  set -e
  end=$(date +%s.%N)
  local peak message
  peak=$(grep 'Maximum resident' "$WORK/time" | grep -o '[0-9]*$')
  message=$(head -1 "$WORK/err" | sed "s|$WORK/in/||g; s|$WORK/||g; s/|/\\\\|/g" | cut -c1-160)
  printf '| %s | %s | `%s` | %.2f s | %d MB |\n' "$label" "$rc" "$message" \
    "$(echo "$end - $start" | bc)" $((peak / 1024))
}

echo '| input | exit | message (first line of stderr) | wall | peak RSS |'
echo '|---|---|---|---|---|'
IN=$WORK/in
row ".docx inflating to 1 GiB (1.0 MB file)" /dev/null translate-doc --model toy-en-es "$IN/bomb-1gib.docx" -o "$WORK/o.docx"
row "HTML nested 100,000 deep (700 KB)" /dev/null translate-doc --model toy-en-es "$IN/nested-100000.html" -o "$WORK/o.html"
row "safetensors shape 100,000 dimensions deep" "$IN/nul.txt" translate --model "$(package deep 'pass' "$IN/shape-100000-deep.safetensors")"
row "safetensors data_offsets past the end" "$IN/nul.txt" translate --model "$(package offsets 'pass' "$IN/offsets-past-end.safetensors")"
row "model.json d_model 1e9" "$IN/nul.txt" translate --model "$(package dmodel 'm["hyperparameters"]["d_model"] = 10**9')"
row "model.json negative ffn_dim" "$IN/nul.txt" translate --model "$(package negative 'm["hyperparameters"]["ffn_dim"] = -64')"
row "model.json max_positions 2^56" "$IN/nul.txt" translate --model "$(package positions 'm["hyperparameters"]["max_positions"] = 2**56')"
row "model.json encoder_layers 2e9" "$IN/nul.txt" translate --model "$(package layers 'm["hyperparameters"]["encoder_layers"] = 2*10**9')"
row "model.json decoding.beam_size 1e6" "$IN/nul.txt" translate --model "$(package beam 'm["decoding"]["beam_size"] = 10**6')"
row "PNG header 20,000 x 20,000" /dev/null caption --model captioner-en "$IN/20000x20000.png"
row "1 MiB line without spaces (translate)" "$IN/line-1mib.txt" translate --model toy-en-es
row "NUL bytes in text (translate, stdin)" "$IN/nul.txt" translate --model toy-en-es
row "NUL bytes in text (translate-doc .txt)" /dev/null translate-doc --model toy-en-es "$IN/nul.txt" -o "$WORK/o.txt"
