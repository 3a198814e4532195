#!/usr/bin/env bash
# Writes the fuzzer's seed corpus into DIR: every CUDA file of the lit tests
# and examples, with #include lines blanked (the fuzz target supplies a
# small CUDA declarations header; see FuzzChecks.cpp) and lit's RUN/CHECK
# lines dropped, which are comments the checks never look at.
# Usage: tools/fuzz/make-seed-corpus.sh DIR
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
OUT="${1:?usage: make-seed-corpus.sh DIR}"
mkdir -p "$OUT"
n=0
for f in "$ROOT"/test/checkers/*.cu "$ROOT"/test/driver/*.cu "$ROOT"/test/driver/Inputs/*.cu \
         "$ROOT"/test/driver/Inputs/robustness/*.cu "$ROOT"/test/sarif/Inputs/*.cu \
         "$ROOT"/test/sarif/*.cu "$ROOT"/examples/*.cu "$ROOT"/bench/sharedmem/kernels.cu; do
  [ -f "$f" ] || continue
  sed -E -e 's/^[[:space:]]*#[[:space:]]*include.*$//' -e '/^\/\/ *(RUN|CHECK[-A-Z]*):/d' "$f" \
      > "$OUT/$(echo "${f#$ROOT/}" | tr '/' '_')"
  n=$((n + 1))
done
echo "make-seed-corpus: $n files in $OUT"
