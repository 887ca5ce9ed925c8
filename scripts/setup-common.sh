# Sourced by scripts/run and scripts/test: installs what is missing, then configures and builds.
# (Also by scripts/setup-sanitize.sh, for the packages only.)
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD_DIR=${GLOSA_BUILD_DIR:-$ROOT/build}

# Debian packages the build and the tests need (see ../shared/NOTES.md). qt6-translations-l10n:
# Qt's own strings (Close, Cancel, file dialogs) in Korean and Spanish; fonts-nanum: Hangul
# glyphs for the Korean UI (10 MB; fonts-noto-cjk would be 56 MB), checked by tst_gui.
# libssl-dev: SHA-256 of hub downloads; python3: the loopback hub the hub tests download from.
PACKAGES=(
  cmake ninja-build g++ pkg-config ccache
  qt6-base-dev qt6-base-dev-tools libqt6sql6-sqlite qt6-tools-dev qt6-tools-dev-tools qt6-l10n-tools
  libdnnl-dev ocl-icd-opencl-dev libicu-dev libsqlite3-dev libsentencepiece-dev
  nlohmann-json3-dev libbenchmark-dev xvfb xauth
  libquazip1-qt6-dev qt6-pdf-dev qt6-image-formats-plugins libssl-dev python3
  qt6-translations-l10n fonts-nanum
  libhunspell-dev hunspell-es hunspell-en-us hunspell-de-de hunspell-fr
)

missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "Installing missing Debian packages: ${missing[*]}"
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO=sudo
  $SUDO apt-get update -q
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

# GLOSA_SETUP_ONLY=1: packages only (scripts/setup-sanitize.sh builds elsewhere, with clang).
if [ -z "${GLOSA_SETUP_ONLY:-}" ]; then
  # ccache: a second clone or a rebuilt tree (CI builds a fresh clone each time) compiles only what
  # changed, which on two cores is most of the set-up time. Paths relative to the clone, so that
  # clones in different folders share the cache.
  export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$ROOT}
  cmake -S "$ROOT" -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache
  cmake --build "$BUILD_DIR"
fi
