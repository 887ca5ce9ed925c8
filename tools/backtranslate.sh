#!/bin/bash
# Back-translate one side of the monolingual corpus in the background and keep it
# running: tools/backtranslate.py is started again if it is killed before it has finished (it
# skips the pairs already in the output, so nothing is lost but the chunk in flight).
#
#   setsid nohup tools/backtranslate.sh es > /dev/null 2>&1 < /dev/null &   # es mono -> bt-es.tsv
#   setsid nohup tools/backtranslate.sh en > /dev/null 2>&1 < /dev/null &   # en mono -> bt-en.tsv
#   tools/backtranslate.sh de en-de                                         # de mono -> bt-de.tsv
#
# SIDE is the language of the real text, PAIR (default en-es, English first) the corpus pair it
# is for: the model is transformer-general-SIDE-OTHER, and the TSV's columns are English first,
# as glosa_corpus.py build --bt reads them. MONO (default /work/runs/mono) holds SIDE.txt from
# tools/glosa_mono.py; BT (default /work/runs/bt) gets bt-SIDE.tsv, bt-SIDE.log, bt-SIDE.pid (the
# Python process) and bt-SIDE.keepalive.pid (this script). Stop: kill the keepalive PID, then the
# Python one.
set -u
usage="usage: $0 SIDE [PAIR], e.g. es, en, or de en-de"
side=${1:?$usage}
pair=${2:-en-es}
root=$(cd "$(dirname "$0")/.." && pwd)
mono=${MONO:-/work/runs/mono}
bt=${BT:-/work/runs/bt}
cli=${GLOSA_CLI:-/work/main/build/bin/glosa-cli}
models=${MODELS:-/work/main/resources/models}
case $pair in
  en-*) other=${pair#en-} ;;
  *) echo "backtranslate.sh: pair '$pair' is not en-XX (English first, as the data folders)" >&2; exit 2 ;;
esac
case $side in
  en) other_side=$other ;;
  "$other") other_side=en ;;
  *) echo "backtranslate.sh: side '$side' is not a language of $pair" >&2; echo "$usage" >&2; exit 2 ;;
esac
model=transformer-general-$side-$other_side
# English first in the TSV: real English is the first column, a real other side the second.
if [ "$side" = en ]; then order=real-first; else order=synthetic-first; fi
if [ ! -f "$models/$model/model.json" ]; then
  echo "backtranslate.sh: no $models/$model (MODELS): back-translating $side needs it" >&2
  exit 1
fi
mkdir -p "$bt"
log=$bt/bt-$side.log
echo $$ > "$bt/bt-$side.keepalive.pid"
while true; do
  OMP_WAIT_POLICY=PASSIVE OMP_NUM_THREADS=1 nice -n 10 /usr/bin/python3 "$root/tools/backtranslate.py" \
    --cli "$cli" --model "$models/$model" --input "$mono/$side.txt" --output "$bt/bt-$side.tsv" \
    --order $order --chunk 2000 >> "$log" 2>&1 &
  echo $! > "$bt/bt-$side.pid"
  wait $!
  echo "$(date -u +%H:%M:%S) backtranslate.py exited with $?" >> "$log"
  if tail -n 2 "$log" | grep -q '^done$'; then break; fi
  sleep 10
done
