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
# The driver: $CUDAGRAPH_TIDY, else `cudagraph-tidy` on PATH (the .deb puts
# it there), else build*/bin/cudagraph-tidy next to this script's repository.
# Without any, on first use the hook builds one into build-pre-commit/ of its
# own repository (pre-commit's clone of it, which holds the sources): once,
# under a lock so that concurrent first runs build it once, through ccache
# when there is one (CCACHE_BASEDIR is the clone and the locale is not
# hashed, so the clone of a later `rev`, or of another user's build of the
# same sources, reuses the objects), saying so on stderr (and on the terminal, where
# pre-commit would hide it while the build runs) with the time it took.
# Without the build dependencies it says which Debian packages to install
# and fails (exit 2).
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
# entries for runs of up to 8 files, on the second run that misses one), so
# from the third commit touching a file on, cuda_runtime.h is not re-parsed. `args: [--diff=HEAD]` in the hook's
# configuration reports only findings on the lines the commit changes.
set -u

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"

die() {
  echo "cudagraph-tidy hook: $*" >&2
  exit 2
}

hook_repo="$(cd "$here/.." && pwd)"
first_use_build="$hook_repo/build-pre-commit"

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
  for candidate in "$hook_repo"/build/bin/cudagraph-tidy "$hook_repo"/build*/bin/cudagraph-tidy; do
    # The first-use build is only trusted once finished (below).
    [ "$candidate" = "$first_use_build/bin/cudagraph-tidy" ] && continue
    if [ -x "$candidate" ]; then
      echo "$candidate"
      return
    fi
  done
  [ -f "$hook_repo/CMakeLists.txt" ] ||
    die "cannot find the cudagraph-tidy driver: install it (the cudagraph-tidy .deb, or cmake --install), put it on PATH or set CUDAGRAPH_TIDY=/path/to/cudagraph-tidy"
  build_driver_once || exit 2
  echo "$first_use_build/bin/cudagraph-tidy"
}

# What building the driver needs, as Debian packages, for those missing.
missing_build_deps() {
  local missing=()
  command -v cmake >/dev/null 2>&1 || missing+=(cmake)
  command -v flock >/dev/null 2>&1 || missing+=(util-linux)
  command -v ninja >/dev/null 2>&1 || command -v make >/dev/null 2>&1 || missing+=(ninja-build)
  command -v c++ >/dev/null 2>&1 || command -v g++ >/dev/null 2>&1 ||
    command -v clang++ >/dev/null 2>&1 || missing+=(g++)
  [ -f /usr/lib/llvm-22/lib/cmake/clang/ClangConfig.cmake ] || missing+=(clang-22)
  [ -f /usr/lib/llvm-22/lib/libclangTidy.a ] || missing+=(libclang-22-dev)
  [ -f /usr/lib/llvm-22/lib/cmake/llvm/LLVMConfig.cmake ] || missing+=(llvm-22-dev)
  local json
  for json in /usr/share/cmake/nlohmann_json /usr/lib/cmake/nlohmann_json /usr/lib/*/cmake/nlohmann_json \
              /usr/local/share/cmake/nlohmann_json /usr/local/lib/cmake/nlohmann_json; do
    [ -f "$json/nlohmann_jsonConfig.cmake" ] && break
    json=""
  done
  [ -n "$json" ] || missing+=(nlohmann-json3-dev)
  # libcurl: the driver's remote result cache (--cache-url).
  compgen -G "/usr/include/curl/curl.h" >/dev/null || compgen -G "/usr/include/*/curl/curl.h" >/dev/null ||
    compgen -G "/usr/local/include/curl/curl.h" >/dev/null || missing+=(libcurl4-openssl-dev)
  echo "${missing[*]}"
}

# On the terminal too: pre-commit shows a hook's output only once it ends,
# and a build of minutes would otherwise look like a hang.
tell() {
  echo "cudagraph-tidy hook: $*" >&2
  { [ -t 2 ] || echo "cudagraph-tidy hook: $*" >/dev/tty; } 2>/dev/null || true
}

# Builds $first_use_build/bin/cudagraph-tidy unless there is one. A lock
# serialises concurrent first runs; a finished build leaves a stamp, so a
# half-linked binary of a build in progress or killed is never used.
build_driver_once() {
  local stamp="$first_use_build/.built" lock="$hook_repo/.cudagraph-tidy-build.lock"
  [ -f "$stamp" ] && [ -x "$first_use_build/bin/cudagraph-tidy" ] && return 0
  local missing
  missing="$(missing_build_deps)"
  if [ -n "$missing" ]; then
    echo "cudagraph-tidy hook: cannot find the cudagraph-tidy driver, and cannot build it: missing $missing." >&2
    echo "  Install them (Debian/Ubuntu with LLVM 22: sudo apt-get install $missing) and commit again;" >&2
    echo "  or install the driver (the cudagraph-tidy .deb), put it on PATH or set CUDAGRAPH_TIDY." >&2
    return 2
  fi
  exec 9>"$lock"
  if ! flock -n 9; then
    tell "waiting for another run of the hook that is building the driver..."
    flock 9
  fi
  if [ -f "$stamp" ] && [ -x "$first_use_build/bin/cudagraph-tidy" ]; then
    exec 9>&-
    return 0
  fi
  local jobs generator=() launcher=() how start log="$first_use_build/build.log"
  jobs="$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2)"
  command -v ninja >/dev/null 2>&1 && generator=(-G Ninja)
  how="$jobs jobs, no ccache: several minutes"
  if command -v ccache >/dev/null 2>&1; then
    launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
    export CCACHE_BASEDIR="$hook_repo"
    # Objects do not depend on the locale, but ccache hashes LANG/LC_* unless
    # told not to: a commit from an IDE or a CI job would miss the objects a
    # shell built. scripts/setup.sh builds the same way.
    export CCACHE_SLOPPINESS="${CCACHE_SLOPPINESS:+$CCACHE_SLOPPINESS,}locale"
    how="$jobs jobs, with ccache: several minutes unless it has the objects"
  fi
  tell "no cudagraph-tidy driver found (CUDAGRAPH_TIDY, PATH); building one into $first_use_build, once ($how)..."
  start="$(date +%s)"
  rm -rf "$first_use_build"
  mkdir -p "$first_use_build"
  if ! { cmake -S "$hook_repo" -B "$first_use_build" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release \
           -DBUILD_TESTING=OFF "${launcher[@]}" &&
         cmake --build "$first_use_build" --target cudagraph-tidy -j "$jobs"; } >"$log" 2>&1; then
    tail -n 25 "$log" | sed 's/^/  /' >&2
    echo "cudagraph-tidy hook: building the driver failed after $(($(date +%s) - start)) s (log: $log)" >&2
    exec 9>&-
    return 2
  fi
  touch "$stamp"
  exec 9>&-
  tell "built $first_use_build/bin/cudagraph-tidy in $(($(date +%s) - start)) s; later runs use it"
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
