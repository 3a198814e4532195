#!/usr/bin/env bash
# Builds cudagraph-tidy with AddressSanitizer and UndefinedBehaviorSanitizer
# into build-asan/ (clang-22, -DCGT_SANITIZE=address,undefined) and runs the
# whole test suite (unit tests, every lit test through the plugin and the
# driver) and the driver on examples/ that way. Any sanitizer report fails
# the test that triggered it. Needs what scripts/setup.sh installs; reuses
# the SARIF Multitool of build/ when present.
#
# Usage: scripts/sanitize.sh [-j N]        (BUILD_DIR=... to build elsewhere)
# docs/reliability.md has the figures (a full build takes minutes).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${BUILD_DIR:-$ROOT/build-asan}"
CUDA_PATH="${CUDA_PATH:-/usr/local/cuda}"
JOBS="$(nproc)"
[ "${1:-}" = "-j" ] && JOBS="$2"

MULTITOOL_REL=tools/sarif-multitool/node_modules/@microsoft/sarif-multitool-linux/Sarif.Multitool
if [ ! -x "$BUILD_DIR/$MULTITOOL_REL" ]; then
  if [ -x "$ROOT/build/$MULTITOOL_REL" ]; then
    mkdir -p "$BUILD_DIR/tools"
    cp -r "$ROOT/build/tools/sarif-multitool" "$BUILD_DIR/tools/"
  else
    # setup.sh installs packages and the Multitool, then builds; here it
    # builds the sanitized tree (its cmake call keeps our cache entries).
    BUILD_DIR="$BUILD_DIR" source "$ROOT/scripts/setup.sh" >/dev/null
  fi
fi

LAUNCHER=()
command -v ccache >/dev/null && LAUNCHER=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
cmake -S "$ROOT" -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=Release \
      -DCMAKE_CXX_COMPILER=clang++-22 "${LAUNCHER[@]}" \
      -DCGT_SANITIZE=address,undefined -DCGT_CUDA_PATH="$CUDA_PATH" \
      -DCGT_SARIF_MULTITOOL="$BUILD_DIR/$MULTITOOL_REL" >/dev/null
ninja -C "$BUILD_DIR" -j"$JOBS" > "$BUILD_DIR/ninja.log" 2>&1 || {
  grep -v "^\[" "$BUILD_DIR/ninja.log" >&2; exit 2; }

# A report ends the process with an exit code of its own (ASan 86, UBSan
# 87, LSan 23), never 1 or 2, which the driver uses for findings and
# errors. Each report is also written to a file under $REPORTS: a test that
# expects a failure (`not cmd`) or discards stderr would otherwise pass over
# it, so any file there fails the run. Leak detection stays on everywhere,
# clang-tidy-22 with the plugin included (test/lit.cfg.py preloads the
# runtime into it).
REPORTS="$BUILD_DIR/sanitizer-reports"
rm -rf "$REPORTS" && mkdir -p "$REPORTS"
export ASAN_OPTIONS="halt_on_error=1:exitcode=86:detect_stack_use_after_return=0:log_path=$REPORTS/asan:${ASAN_OPTIONS:-}"
export LSAN_OPTIONS="exitcode=23:${LSAN_OPTIONS:-}"
export UBSAN_OPTIONS="halt_on_error=1:exitcode=87:print_stacktrace=1:log_path=$REPORTS/ubsan:${UBSAN_OPTIONS:-}"

status=0
( cd "$BUILD_DIR" && ctest --output-on-failure -j"$JOBS" ) || status=1

# The bundled examples, through the driver, in both formats.
for f in "$ROOT"/examples/*.cu; do
  for fmt in text sarif; do
    rc=0
    "$BUILD_DIR/bin/cudagraph-tidy" --quiet --format=$fmt "$f" -- -std=c++17 \
        --cuda-path="$CUDA_PATH" > "$BUILD_DIR/example.out" 2>&1 || rc=$?
    if [ $rc -gt 1 ]; then
      echo "sanitize: examples/$(basename "$f") --format=$fmt: exit $rc" >&2
      cat "$BUILD_DIR/example.out" >&2
      status=1
    fi
  done
done
if compgen -G "$REPORTS/*" >/dev/null; then
  echo "sanitize: sanitizer reports in $REPORTS:" >&2
  head -n 40 "$REPORTS"/* >&2
  status=1
fi
[ $status = 0 ] && echo "sanitize: the whole suite and the examples ran clean under address,undefined"
exit $status
