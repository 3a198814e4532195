#!/usr/bin/env bash
# Runs the shared-memory checks over fetched copies of cuda-samples and ggml
# (never committed) and writes one output file per translation unit, for
# docs/triage-sharedmem.md. One process at a time (the machine is shared).
#
#   bench/sharedmem/run_corpus.sh OUTDIR SAMPLES_DIR GGML_DIR [CHECKS]
#
# OUTDIR/samples/*.txt: cuda-samples, host side (175 .cu under Samples/)
# OUTDIR/ggml-host/*.txt, OUTDIR/ggml-device/*.txt: ggml src/ggml-cuda (66 .cu
#   and the template instances), host side and device side (sm_90).
# OUTDIR/summary.txt: warnings per check and per corpus.
set -uo pipefail
OUT="$1"; SAMPLES="$2"; GGML="$3"
CHECKS="${4:--*,cudagraph-shared-*,cudagraph-barrier-divergence}"
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
PLUGIN="${PLUGIN:-$ROOT/build/lib/CudaGraphTidy.so}"
TIDY="${TIDY:-clang-tidy-22}"
CUDA="${CUDA_PATH:-/usr/local/cuda}"
BASE=(-x cuda --cuda-path="$CUDA" -Wno-unknown-cuda-version -std=c++17 -I"$CUDA/include/cccl")
mkdir -p "$OUT/samples" "$OUT/ggml-host" "$OUT/ggml-device"

one() { # out file, cwd, file, flags...
  local o="$1" d="$2" f="$3"; shift 3
  (cd "$d" && "$TIDY" -load="$PLUGIN" -checks="$CHECKS" "$f" -- "$@" >"$o" 2>&1)
}

find "$SAMPLES/Samples" -name '*.cu' | sort | while read -r f; do
  one "$OUT/samples/$(echo "${f#$SAMPLES/}" | tr / _).txt" "$(dirname "$f")" "$(basename "$f")" \
      "${BASE[@]}" --cuda-host-only -I"$SAMPLES/Common"
done
G="$GGML/src/ggml-cuda"
for f in $(cd "$G" && ls *.cu template-instances/*.cu); do
  n="$(echo "$f" | tr / _)"
  one "$OUT/ggml-host/$n.txt" "$G" "$f" "${BASE[@]}" --cuda-host-only \
      -DGGML_CUDA_USE_GRAPHS -I../../include -I.. -I.
  one "$OUT/ggml-device/$n.txt" "$G" "$f" "${BASE[@]}" --cuda-device-only --offload-arch=sm_90 \
      -DGGML_CUDA_USE_GRAPHS -I../../include -I.. -I.
done
{
  for c in samples ggml-host ggml-device; do
    echo "== $c: $(ls "$OUT/$c" | wc -l) units"
    cat "$OUT/$c"/*.txt | grep -o 'warning: .*\[cudagraph-[a-z-]*\]' | sed 's/.*\[//; s/\]//' | sort | uniq -c
  done
} >"$OUT/summary.txt"
cat "$OUT/summary.txt"
