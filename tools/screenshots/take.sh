#!/bin/sh
# Screenshot of the main window under Xvfb with the toy test model (needs xvfb, imagemagick).
# Usage: tools/screenshots/take.sh [BUILD_DIR]   → docs/screenshots/translate.png
set -eu
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${1:-$ROOT/build}
export GLOSA_PLUGIN_PATH="$BUILD/tests/plugins" GLOSA_MODEL_PATH="$ROOT/tests/data/toy-en-es"
export XDG_CONFIG_HOME=$(mktemp -d)
mkdir -p "$ROOT/docs/screenshots"
xvfb-run -a -s "-screen 0 1400x900x24" sh -c "
  '$BUILD/bin/glosa' & P=\$!; sleep 5
  import -window root '$ROOT/docs/screenshots/translate.png'; kill \$P"
rm -rf "$XDG_CONFIG_HOME"
