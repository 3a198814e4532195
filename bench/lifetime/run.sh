#!/usr/bin/env bash
# Measures what the lifetime engine costs per function: runs clang-tidy-22
# with the plugin and --enable-check-profile on generated files of several
# shapes, and divides the check's own time by the number of functions.
# Usage: bench/lifetime/run.sh [build-dir]
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
BUILD="${1:-$HERE/../../build}"
CUDA_PATH="${CUDA_PATH:-/usr/local/cuda}"
TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT
printf "%-24s %10s %14s %16s %12s\n" "file" "functions" "parse+all (s)" "check time (s)" "ms/function"
for shape in "300 3" "300 12" "1000 6"; do
  set -- $shape
  f="$TMP/synthetic_${1}x${2}.cu"
  python3 "$HERE/gen_functions.py" "$1" "$2" > "$f"
  start=$(date +%s.%N)
  /usr/lib/llvm-22/bin/clang-tidy -load="$BUILD/lib/CudaGraphTidy.so" \
      -checks='-*,cudagraph-unpaired-instantiate' --enable-check-profile --quiet "$f" -- \
      -x cuda --cuda-host-only --cuda-path="$CUDA_PATH" -Wno-unknown-cuda-version -std=c++17 \
      > "$TMP/out.txt" 2>&1 || true
  end=$(date +%s.%N)
  # The profile line reads: " <user> (..)  <sys> (..)  <user+sys> (..)  <wall> (..)  cudagraph-..."
  wall=$(grep -E "cudagraph-unpaired-instantiate$" "$TMP/out.txt" | awk '{print $(NF-2)}' | head -1)
  findings=$(grep -c "warning: graph exec" "$TMP/out.txt" || true)
  per=$(python3 -c "print('%.3f' % (1000*float('${wall:-0}')/$1))")
  printf "%-24s %10s %14.2f %16s %12s   (%s findings, expected %s)\n" "$(basename "$f")" "$1" \
      "$(python3 -c "print($end-$start)")" "${wall:-?}" "$per" "$findings" "$(( ($1 + 3) / 4 ))"
done
