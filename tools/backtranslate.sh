#!/bin/bash
# Back-translate one side of the monolingual corpus (issue #30) in the background and keep it
# running: tools/backtranslate.py is started again if it is killed before it has finished (it
# skips the pairs already in the output, so nothing is lost but the chunk in flight).
#
#   setsid nohup tools/backtranslate.sh es > /dev/null 2>&1 < /dev/null &   # es mono -> bt-es.tsv
#   setsid nohup tools/backtranslate.sh en > /dev/null 2>&1 < /dev/null &   # en mono -> bt-en.tsv
#
# MONO (default /work/runs/mono) holds es.txt / en.txt from tools/glosa_mono.py; BT (default
# /work/runs/bt) gets bt-SIDE.tsv, bt-SIDE.log, bt-SIDE.pid (the Python process) and
# bt-SIDE.keepalive.pid (this script). Stop: kill the keepalive PID, then the Python one.
set -u
side=$1
root=$(cd "$(dirname "$0")/.." && pwd)
mono=${MONO:-/work/runs/mono}
bt=${BT:-/work/runs/bt}
cli=${GLOSA_CLI:-/work/main/build/bin/glosa-cli}
models=${MODELS:-/work/main/resources/models}
case $side in
  es) model=transformer-general-es-en; order=synthetic-first ;;  # synthetic_en <TAB> real_es
  en) model=transformer-general-en-es; order=real-first ;;       # real_en <TAB> synthetic_es
  *) echo "usage: $0 es|en" >&2; exit 2 ;;
esac
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
