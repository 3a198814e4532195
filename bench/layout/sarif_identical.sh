#!/usr/bin/env bash
# Checks that a move of the driver's or lib/'s files changed no behaviour
# (issue 39): runs two cudagraph-tidy binaries over the same compile databases
# of ggml and cuda-samples and compares their SARIF logs byte for byte.
#
#   bench/layout/sarif_identical.sh OLD_DRIVER NEW_DRIVER [OPTIONS]
#
#   --ggml DIR       ggml checkout (default /work/ggml; CUDA units in src/ggml-cuda)
#   --samples DIR    cuda-samples checkout (default /work/cuda-samples, else /tmp/cs)
#   --every K        keep every K-th unit of each project, in sorted order (default 1:
#                    all), for when a full run does not fit the time at hand
#   --only P         only one project: ggml or samples
#   --jobs J         --jobs of both runs (default 2: the machine is shared)
#   --work DIR       where databases, caches and logs go (default a fresh /tmp folder)
#
# Each run starts from its own empty cache folder, so neither driver replays
# what the other wrote; both run with the default options (cross-file
# summaries on) and --sarif-root at the project, so URIs do not depend on the
# working folder. The runs are one after the other, never side by side.
# A run may exit 2 (a unit that does not parse: cuda-samples' transpose.cu on
# the host side); the two drivers' exit codes must then agree too.
# Exits 0 when every pair of logs and exit codes is identical, 1 when one
# differs (the first differing lines are printed), 2 on a usage error or a
# run that wrote no log.
set -uo pipefail

usage() { sed -n "2,26p" "$0" >&2; exit 2; }
[ $# -ge 2 ] || usage
OLD="$(realpath "$1")"; NEW="$(realpath "$2")"; shift 2
GGML=/work/ggml; SAMPLES=""; EVERY=1; ONLY=""; JOBS=2; WORK=""
while [ $# -gt 0 ]; do
  case "$1" in
    --ggml) GGML="$2"; shift 2 ;;
    --samples) SAMPLES="$2"; shift 2 ;;
    --every) EVERY="$2"; shift 2 ;;
    --only) ONLY="$2"; shift 2 ;;
    --jobs) JOBS="$2"; shift 2 ;;
    --work) WORK="$2"; shift 2 ;;
    *) usage ;;
  esac
done
if [ -z "$SAMPLES" ]; then
  for d in /work/cuda-samples /tmp/cs; do [ -d "$d/Samples" ] && { SAMPLES="$d"; break; }; done
fi
[ -x "$OLD" ] && [ -x "$NEW" ] || { echo "not executable: $OLD or $NEW" >&2; exit 2; }
[ -d "$GGML/src/ggml-cuda" ] || { echo "no ggml at $GGML" >&2; exit 2; }
[ -d "$SAMPLES/Samples" ] || { echo "no cuda-samples (--samples DIR)" >&2; exit 2; }
WORK="${WORK:-$(mktemp -d /tmp/cgt-sarif-identical-XXXXXX)}"
mkdir -p "$WORK"
CUDA="${CUDA_PATH:-/usr/local/cuda}"

# write_db NAME DIR FLAGS FILE... : compile_commands.json with the host-side
# CUDA flags of bench/cache/run_cache.py, every K-th file kept.
write_db() {
  local name="$1" dir="$2" flags="$3"; shift 3
  python3 - "$WORK/$name" "$dir" "$flags" "$EVERY" "$CUDA" "$@" <<'EOF'
import json, os, sys
out, d, flags, every, cuda = sys.argv[1:6]
files = sys.argv[6:][::int(every)]
base = ["clang++", "-x", "cuda", "--cuda-host-only", "--cuda-path=" + cuda,
        "-Wno-unknown-cuda-version", "-std=c++17"]
os.makedirs(out, exist_ok=True)
with open(os.path.join(out, "compile_commands.json"), "w") as db:
    json.dump([{"directory": d, "file": f, "arguments": base + flags.split() + ["-c", f]}
               for f in files], db, indent=1)
print("%s: %d units" % (os.path.basename(out), len(files)))
EOF
}

G="$GGML/src/ggml-cuda"
write_db ggml "$G" "-DGGML_CUDA_USE_GRAPHS -I../../include -I.. -I." \
  $(ls "$G"/*.cu | sort) || exit 2
write_db samples "$SAMPLES" "-I$SAMPLES/Common" \
  $(find "$SAMPLES/Samples" -name '*.cu' | sort) || exit 2

# run TAG DRIVER PROJECT ROOT: one cold run, SARIF to $WORK/TAG-PROJECT.sarif.
run() {
  local tag="$1" driver="$2" project="$3" root="$4" t0 rc
  rm -rf "$WORK/cache-$tag-$project"
  t0=$(date +%s)
  (cd "$root" && "$driver" -p "$WORK/$project" --jobs "$JOBS" --no-progress \
      --cache-dir "$WORK/cache-$tag-$project" --sarif-root "$root" --format=sarif \
      -o "$WORK/$tag-$project.sarif" 2>"$WORK/$tag-$project.err")
  rc=$?
  echo "$rc" >"$WORK/$tag-$project.rc"
  echo "$tag $project: exit $rc, $(( $(date +%s) - t0 )) s, $(tail -1 "$WORK/$tag-$project.err")"
  [ "$rc" -le 2 ] && [ -s "$WORK/$tag-$project.sarif" ] ||
    { echo "run failed; see $WORK/$tag-$project.err" >&2; exit 2; }
}

status=0
for p in ggml samples; do
  [ -z "$ONLY" ] || [ "$ONLY" = "$p" ] || continue
  root="$G"; [ "$p" = samples ] && root="$SAMPLES"
  run old "$OLD" "$p" "$root"
  run new "$NEW" "$p" "$root"
  if cmp -s "$WORK/old-$p.sarif" "$WORK/new-$p.sarif" &&
     cmp -s "$WORK/old-$p.rc" "$WORK/new-$p.rc"; then
    echo "$p: SARIF identical ($(wc -c <"$WORK/new-$p.sarif") bytes)"
  else
    echo "$p: SARIF or exit code DIFFERS (exit $(cat "$WORK/old-$p.rc") / $(cat "$WORK/new-$p.rc"))"
    diff "$WORK/old-$p.sarif" "$WORK/new-$p.sarif" | head -20
    status=1
  fi
done
echo "logs in $WORK"
exit $status
