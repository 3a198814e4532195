#!/usr/bin/env bash
# Sets up and builds cudagraph-tidy, then runs it on the bundled examples,
# once through the clang-tidy-22 plugin and once through the standalone driver.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
source "$ROOT/scripts/setup.sh"

CUDA_ARGS=(-x cuda --cuda-host-only "--cuda-path=$CUDA_PATH" -Wno-unknown-cuda-version
           -std=c++17 "-I$CUDA_PATH/include/cccl")
cd "$ROOT"
echo
echo "=== clang-tidy-22 -load build/lib/CudaGraphTidy.so -checks='-*,cudagraph-*' examples/*.cu"
for f in examples/*.cu; do
  /usr/lib/llvm-22/bin/clang-tidy -load="$BUILD_DIR/lib/CudaGraphTidy.so" \
    -checks='-*,cudagraph-*' --quiet "$f" -- "${CUDA_ARGS[@]}" 2>/dev/null || true
done
echo
echo "=== build/bin/cudagraph-tidy examples/*.cu"
set +e
"$BUILD_DIR/bin/cudagraph-tidy" examples/*.cu -- "${CUDA_ARGS[@]}"
rc=$?
set -e
echo "cudagraph-tidy exit code: $rc (0 clean, 1 findings, 2 could not analyse)"
[ "$rc" -le 1 ]
