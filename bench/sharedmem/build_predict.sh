#!/bin/sh
# Builds bench/sharedmem/predict against the analysis library of a build dir
# (default: build-shared). Not part of CI.
set -e
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${1:-$ROOT/build-shared}
LLVM=/usr/lib/llvm-22
g++ -std=c++17 -O1 -fno-rtti -I"$ROOT/lib" -isystem "$LLVM/include" \
  "$ROOT/bench/sharedmem/predict.cpp" "$BUILD/lib/libcudagraph_analysis.a" \
  -Wl,-rpath,"$LLVM/lib" "$LLVM/lib/libclang-cpp.so.22.1" "$LLVM/lib/libLLVM.so.1" \
  -o "$BUILD/bin/sharedmem-predict"
echo "$BUILD/bin/sharedmem-predict"
