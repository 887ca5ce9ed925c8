#!/bin/sh
# Screenshots of each view of the real app under Xvfb with the bundled models
# (needs xvfb, imagemagick and xdotool), the last one in Korean. Usage: tools/screenshots/take.sh [BUILD_DIR]
# → docs/screenshots/
set -eu
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${1:-$ROOT/build}
OUT="$ROOT/docs/screenshots"
export XDG_CONFIG_HOME=$(mktemp -d) XDG_DATA_HOME=$(mktemp -d)
mkdir -p "$OUT"

shot() { # shot NAME SECONDS ARGS... (CLICK="X Y": click there, as a reader would, before the shot;
         # WINDOW=TITLE: only the top-level window of that title, e.g. a dialog)
  name=$1; wait=$2; shift 2
  # No window manager: the screen is the main window's default size, so the shot is the window.
  xvfb-run -a -s "-screen 0 1280x800x24" sh -c '
    "$0" "$@" & P=$!; sleep '"$wait"'
    if [ -n "'"${CLICK:-}"'" ]; then xdotool mousemove '"${CLICK:-}"' click 1 mousemove 0 0; sleep 1; fi
    W=root; if [ -n "'"${WINDOW:-}"'" ]; then W=$(xdotool search --name "'"${WINDOW:-}"'" | head -n 1); fi
    import -window "$W" "'"$OUT/$name.png"'"; kill $P' "$BUILD/bin/glosa" "$@"
  echo "$OUT/$name.png"
}

# "Hello!" comes out as the made-up "¡Holalo!" (issue #41): the click on it shows the candidates
# of its least probable piece under the red dots and their legend.
CLICK="590 141" shot translate 12 --model transformer-general-en-es --view translate \
  "Hello! I would like to book a table for two people tomorrow evening. The restaurant near the station is very popular."
# The model picker open: each direction under its name, its default first.
CLICK="250 40" shot models 8 --model transformer-general-en-es --view translate
# A sentence where greedy search takes "se crecen" and beam search "están creciendo"; the click
# selects greedy's "se", where the columns part, so the chart shows that step's candidates.
CLICK="122 328" shot compare 8 --model transformer-general-en-es --view compare \
  "Earnings of both Italian and Spanish bonds are growing towards critical limits."
shot caption 8 --model transformer-general-en-es --view caption "$ROOT/tests/data/images/astronaut.jpg" \
  "$ROOT/tests/data/images/chelsea.jpg"
shot documents 12 --model transformer-general-en-es --view documents "$ROOT/tests/data/documents/report.docx"
# Translate ▸ Evaluate models… on the bundled Tatoeba sample: every en→es model, BLEU by source
# length (the no-attention RNN falls fastest: the bottleneck).
WINDOW="Evaluate models" shot evaluate 60 --view evaluate
# The runs above were recorded in this XDG_DATA_HOME's history.
shot history 5 --view history table
# An imported MarianMT model: the OPUS-MT-shaped fixture of ../shared, imported with
# `glosa-cli models import` into this XDG_DATA_HOME's models folder as a user would, translating
# in the Translate view with its attention.
FIXTURE=$ROOT/../shared/fixtures/marian-tiny-en-es/safetensors
if [ -d "$FIXTURE" ]; then
  "$BUILD/bin/glosa-cli" models import "$FIXTURE"
  shot imported 12 --model marian-en-es --view translate \
    "Where is the train station? Can you help me, please?"
else
  echo "imported.png not taken: $FIXTURE is absent" >&2
fi
# Get models… mid-download: the same fixture served as Helsinki-NLP/opus-mt-en-es by the loopback
# hub of the tests (tests/support/loopback_hub.py), throttled so that the shot finds the progress
# bar part-way, with its bytes, rate and time left.
if [ -d "$FIXTURE" ]; then
  HUB=$(mktemp -d)
  /usr/bin/python3 "$ROOT/tests/support/loopback_hub.py" --port-file "$HUB/port" \
    --repo "Helsinki-NLP/opus-mt-en-es=$FIXTURE" --throttle 500000 & HUB_PID=$!
  while [ ! -s "$HUB/port" ]; do sleep 0.2; done
  # (an empty Hugging Face cache of its own, so that no model "on this computer" is listed)
  export HF_ENDPOINT="http://127.0.0.1:$(cat "$HUB/port")" XDG_CACHE_HOME="$HUB" \
    HF_HUB_CACHE="$HUB/hf"
  WINDOW="Get models" shot get-models 7 --view get-models Helsinki-NLP/opus-mt-en-es
  kill $HUB_PID; rm -rf "$HUB"; unset HF_ENDPOINT XDG_CACHE_HOME HF_HUB_CACHE
else
  echo "get-models.png not taken: $FIXTURE is absent" >&2
fi
# The Korean UI (Settings ▸ Language), Hangul from the font scripts/setup-common.sh installs.
mkdir -p "$XDG_CONFIG_HOME/Glosa"
printf '[ui]\nlanguage=ko\n' > "$XDG_CONFIG_HOME/Glosa/Glosa.conf"
shot translate-ko 12 --model transformer-general-en-es --view translate \
  "Where is the train station? I would like a cup of coffee."
rm -rf "$XDG_CONFIG_HOME" "$XDG_DATA_HOME"
