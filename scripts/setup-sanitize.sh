# Sourced by scripts/test-sanitize and scripts/fuzz: installs clang and libFuzzer when missing,
# then configures and builds everything with clang, -fsanitize=address,undefined and libFuzzer's
# coverage into build-sanitize/ (one build for both: the suite and the harnesses share it).
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
SANITIZE_DIR=${GLOSA_SANITIZE_BUILD_DIR:-$ROOT/build-sanitize}

# The normal build's packages (scripts/setup-common.sh installs them without building).
GLOSA_SETUP_ONLY=1 source "$ROOT/scripts/setup-common.sh"
for p in clang-14 libclang-rt-14-dev; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
    SUDO=""
    [ "$(id -u)" -eq 0 ] || SUDO=sudo
    $SUDO apt-get update -q
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q --no-install-recommends clang-14 libclang-rt-14-dev
    break
  fi
done

LAUNCHER=()
if command -v ccache > /dev/null; then
  LAUNCHER=(-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
fi
# -O1: sanitizer reports stay readable and the build stays within CI's time (docs/robustness.md).
cmake -S "$ROOT" -B "$SANITIZE_DIR" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_C_COMPILER=clang-14 -DCMAKE_CXX_COMPILER=clang++-14 \
  -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O1 -g1 -DNDEBUG" \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1 -DNDEBUG" \
  -DGLOSA_SANITIZE=ON -DGLOSA_FUZZ=ON "${LAUNCHER[@]}"
cmake --build "$SANITIZE_DIR" ${GLOSA_BUILD_JOBS:+-j "$GLOSA_BUILD_JOBS"}

# Sanitizer settings for everything run from this build (tests, glosa-cli children, fuzzers).
# Leaks are errors except the ones tests/sanitizers/lsan.supp names, each with its reason.
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:detect_odr_violation=0:strict_string_checks=1:check_initialization_order=1
export LSAN_OPTIONS=suppressions=$ROOT/tests/sanitizers/lsan.supp:print_suppressions=0
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
export OMP_WAIT_POLICY=passive
