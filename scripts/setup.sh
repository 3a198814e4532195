#!/usr/bin/env bash
# Installs what cudagraph-tidy needs on Debian 12 (apt-get, only what is
# missing) and builds it into ./build. Sourced by demo.sh and test.sh.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${BUILD_DIR:-$ROOT/build}"
CUDA_PATH="${CUDA_PATH:-/usr/local/cuda}"

PACKAGES=(cmake ninja-build g++ git python3 python3-jsonschema pre-commit
          clang-22 clang-tidy-22 libclang-22-dev llvm-22-dev llvm-22-tools
          nlohmann-json3-dev libgtest-dev)

missing=()
for p in "${PACKAGES[@]}"; do
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

cmake -S "$ROOT" -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=Release \
      -DCGT_CUDA_PATH="$CUDA_PATH" >/dev/null
# Progress lines are noise here; errors are not, and a failed build stops.
if ! ninja -C "$BUILD_DIR" -j"$(nproc)" > "$BUILD_DIR/ninja.log" 2>&1; then
  grep -v "^\[" "$BUILD_DIR/ninja.log" >&2
  echo "cudagraph-tidy setup: error: the build failed (log: $BUILD_DIR/ninja.log)" >&2
  exit 2
fi
test -x "$BUILD_DIR/bin/cudagraph-tidy" && test -f "$BUILD_DIR/lib/CudaGraphTidy.so"
