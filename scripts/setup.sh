#!/usr/bin/env bash
# Installs what cudagraph-tidy needs on Debian 12 (apt-get, only what is
# missing) and builds it into ./build, with the SARIF Multitool that the
# tests validate SARIF with (npm, pinned). Sourced by demo.sh and test.sh.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${BUILD_DIR:-$ROOT/build}"
CUDA_PATH="${CUDA_PATH:-/usr/local/cuda}"

PACKAGES=(cmake ninja-build g++ git python3 python3-jsonschema pre-commit
          clang-22 clang-tidy-22 libclang-22-dev llvm-22-dev llvm-22-tools
          nlohmann-json3-dev libgtest-dev npm libicu72 dpkg-dev ccache neovim
          libcurl4-openssl-dev nginx)
# libcurl4-openssl-dev: the remote result cache's HTTP client (--cache-url).
# nginx: test/driver/remote-cache.test serves that cache with nginx's
# WebDAV PUT, a real server (skipped where nginx is absent).
# neovim: test/driver/lsp-nvim.test runs docs/editors.md's configuration in
# Debian's Neovim (skipped where nvim is absent).
# dpkg-dev: dpkg-shlibdeps for `cpack -G DEB` (test/integration/deb-package.test).
# ccache: the build below and the pre-commit hook's first-use build share it
# (test/integration/pre-commit-first-use.test).
# Microsoft's SARIF validator for the tests (npm): a self-contained .NET
# program that needs ICU (libicu72).
SARIF_MULTITOOL_VERSION=5.7.0

missing=()
for p in "${PACKAGES[@]}"; do
  # Node.js from elsewhere (e.g. NodeSource) bundles npm and conflicts with Debian's.
  [ "$p" = npm ] && command -v npm >/dev/null && continue
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "cudagraph-tidy setup: installing ${missing[*]}"
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
fi

if [ ! -f "$CUDA_PATH/include/cuda_runtime.h" ]; then
  echo "cudagraph-tidy setup: error: CUDA Toolkit headers not found under $CUDA_PATH" >&2
  echo "  The analyzer parses CUDA host code against the real headers; install the" >&2
  echo "  CUDA Toolkit (it is not in Debian's archive) or set CUDA_PATH." >&2
  exit 2
fi

# The tests run the Multitool's Linux binary directly (the npm wrapper passes
# arguments through a shell); both packages are pinned to the same version.
MULTITOOL_DIR="$BUILD_DIR/tools/sarif-multitool"
MULTITOOL="$MULTITOOL_DIR/node_modules/@microsoft/sarif-multitool-linux/Sarif.Multitool"
installed="$("$MULTITOOL" --version 2>&1 || true)"  # it prints to stderr
if [[ "$installed" != "SARIF Multitool $SARIF_MULTITOOL_VERSION+"* ]]; then
  echo "cudagraph-tidy setup: installing the SARIF Multitool $SARIF_MULTITOOL_VERSION (npm)"
  mkdir -p "$MULTITOOL_DIR"
  if ! npm install --prefix "$MULTITOOL_DIR" --no-save --no-audit --no-fund --loglevel=error \
       "@microsoft/sarif-multitool@$SARIF_MULTITOOL_VERSION" \
       "@microsoft/sarif-multitool-linux@$SARIF_MULTITOOL_VERSION" >/dev/null; then
    echo "cudagraph-tidy setup: error: npm could not install the SARIF Multitool" >&2
    exit 2
  fi
fi

# Through ccache, keyed as the pre-commit hook's first-use build keys its
# objects (paths relative to the source tree, locale not hashed), so that
# test/integration/pre-commit-first-use.test reuses them.
export CCACHE_BASEDIR="$ROOT"
export CCACHE_SLOPPINESS="${CCACHE_SLOPPINESS:+$CCACHE_SLOPPINESS,}locale"
cmake -S "$ROOT" -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=Release \
      -DCMAKE_CXX_COMPILER_LAUNCHER=ccache \
      -DCGT_CUDA_PATH="$CUDA_PATH" -DCGT_SARIF_MULTITOOL="$MULTITOOL" >/dev/null
# Progress lines are noise here; errors are not, and a failed build stops.
if ! ninja -C "$BUILD_DIR" -j"$(nproc)" > "$BUILD_DIR/ninja.log" 2>&1; then
  grep -v "^\[" "$BUILD_DIR/ninja.log" >&2
  echo "cudagraph-tidy setup: error: the build failed (log: $BUILD_DIR/ninja.log)" >&2
  exit 2
fi
test -x "$BUILD_DIR/bin/cudagraph-tidy" && test -f "$BUILD_DIR/lib/CudaGraphTidy.so"
