#!/usr/bin/env bash
# pre-commit entry for the `cudagraph-tidy` hook (.pre-commit-hooks.yaml).
#
#   pre-commit-cudagraph-tidy.sh [driver options...] FILE...
#
# Runs the cudagraph-* checks on the files pre-commit passes (the staged
# ones; pre-commit hides unstaged changes while hooks run) and fails the
# commit when there are findings (exit 1) or when the files cannot be
# analysed (exit 2), with a readable report.
#
# The driver: $CUDAGRAPH_TIDY, else `cudagraph-tidy` on PATH, else
# build*/bin/cudagraph-tidy next to this script's repository.
#
# Compile flags: $CUDAGRAPH_TIDY_BUILD_DIR if set, else the first
# compile_commands.json found walking up from the current directory to the
# top of its git repository, looking in each directory itself and in its
# build/, build*/, cmake-build-*/ and out/build/*/ subdirectories. Without one it uses CUDA
# defaults: -std=c++17, -I. -Iinclude, the CUDA toolkit of $CUDA_HOME /
# $CUDA_PATH / nvcc on PATH / /usr/local/cuda, host-side analysis.
#
# Speed: the driver keeps each file's precompiled #include block in
# $XDG_CACHE_HOME/cudagraph-tidy (its default --preamble-cache=auto builds
# entries for runs of up to 8 files), so a second commit touching a file
# skips re-parsing cuda_runtime.h. `args: [--diff=HEAD]` in the hook's
# configuration reports only findings on the lines the commit changes.
set -u

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"

die() {
  echo "cudagraph-tidy hook: $*" >&2
  exit 2
}

find_driver() {
  if [ -n "${CUDAGRAPH_TIDY:-}" ]; then
    [ -x "$CUDAGRAPH_TIDY" ] || die "CUDAGRAPH_TIDY=$CUDAGRAPH_TIDY is not an executable"
    echo "$CUDAGRAPH_TIDY"
    return
  fi
  if command -v cudagraph-tidy >/dev/null 2>&1; then
    command -v cudagraph-tidy
    return
  fi
  local candidate
  for candidate in "$here"/../build/bin/cudagraph-tidy "$here"/../build*/bin/cudagraph-tidy; do
    if [ -x "$candidate" ]; then
      echo "$candidate"
      return
    fi
  done
  die "cannot find the cudagraph-tidy driver: build it (cmake --build build) and set CUDAGRAPH_TIDY=/path/to/cudagraph-tidy or put it on PATH"
}

find_build_dir() {
  if [ -n "${CUDAGRAPH_TIDY_BUILD_DIR:-}" ]; then
    [ -f "$CUDAGRAPH_TIDY_BUILD_DIR/compile_commands.json" ] ||
      die "CUDAGRAPH_TIDY_BUILD_DIR=$CUDAGRAPH_TIDY_BUILD_DIR has no compile_commands.json"
    echo "$CUDAGRAPH_TIDY_BUILD_DIR"
    return
  fi
  # Stop at the top of the repository being committed to: a database in
  # some enclosing directory belongs to another project.
  local dir="$PWD" candidate top
  top="$(git rev-parse --show-toplevel 2>/dev/null || echo /)"
  while :; do
    for candidate in "$dir" "$dir"/build "$dir"/build*/ "$dir"/cmake-build-*/ "$dir"/out/build/*/; do
      if [ -f "$candidate/compile_commands.json" ]; then
        (cd "$candidate" && pwd)
        return
      fi
    done
    [ "$dir" = / ] || [ "$dir" = "$top" ] && break
    dir="$(dirname "$dir")"
  done
}

cuda_home() {
  local nvcc
  for candidate in "${CUDA_HOME:-}" "${CUDA_PATH:-}"; do
    if [ -n "$candidate" ] && [ -d "$candidate/include" ]; then
      echo "$candidate"
      return
    fi
  done
  if nvcc="$(command -v nvcc 2>/dev/null)"; then
    dirname "$(dirname "$(readlink -f "$nvcc")")"
    return
  fi
  echo /usr/local/cuda
}

options=()
files=()
while [ $# -gt 0 ]; do
  case "$1" in
    -p|--config|--config-file|--checks|--baseline|-j|--jobs)
      options+=("$1" "$2")
      shift 2 ;;
    -*) options+=("$1"); shift ;;
    *) files+=("$1"); shift ;;
  esac
done
[ ${#files[@]} -gt 0 ] || exit 0

driver="$(find_driver)" || exit 2
build_dir="$(find_build_dir)"
jobs="$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)"

report="$(mktemp)"
trap 'rm -f "$report"' EXIT
if [ -n "$build_dir" ]; then
  "$driver" --quiet -j "$jobs" -p "$build_dir" "${options[@]}" "${files[@]}" >"$report" 2>&1
  status=$?
  flags="flags from $build_dir/compile_commands.json"
else
  cuda="$(cuda_home)"
  "$driver" --quiet -j "$jobs" "${options[@]}" "${files[@]}" -- \
    -std=c++17 -I. -Iinclude --cuda-path="$cuda" -isystem "$cuda/include" \
    -Wno-unknown-cuda-version >"$report" 2>&1
  status=$?
  flags="default CUDA flags (no compile_commands.json found)"
fi

case $status in
  0) exit 0 ;;
  1)
    count="$(grep -cE ': (warning|error): .*\[[a-z0-9-]+\]$' "$report")"
    echo "cudagraph-tidy found $count problem(s) in the files being committed ($flags):"
    echo
    sed 's/^/  /' "$report"
    echo
    echo "Fix them, or see docs/code-review.md for baselines and NOLINT."
    exit 1 ;;
  *)
    echo "cudagraph-tidy could not analyse the files being committed ($flags):"
    echo
    sed 's/^/  /' "$report"
    exit 2 ;;
esac
