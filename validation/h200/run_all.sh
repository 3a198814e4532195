#!/usr/bin/env bash
# Builds the probes with nvcc and runs them on the GPU machine. Results go to
# $OUT (default ./out): setup.txt, capture_modes.txt, interop.txt,
# issue22.txt, and sanitizer_findings.txt: the full log of each sanitizer run
# that reported something.
# Usage: OUT=dir bash validation/h200/run_all.sh   (needs nvcc, compute-sanitizer, a GPU)
set -u
HERE="$(cd "$(dirname "$0")" && pwd)"
OUT="${OUT:-$PWD/out}"
BIN="$OUT/bin"
JOBS="${JOBS:-8}"
mkdir -p "$BIN" "$OUT/sanitizer" "$OUT/parts"
{
  date -u
  nvidia-smi --query-gpu=name,driver_version,compute_cap --format=csv,noheader
  nvcc --version | tail -1
  compute-sanitizer --version | tail -1
} > "$OUT/setup.txt"

for p in capture_modes interop issue22; do
  nvcc -std=c++17 -O1 -arch=sm_90 -lineinfo -o "$BIN/$p" "$HERE/$p.cu" -lcuda &
done
wait

# run KEY CMD...: runs CMD with a time limit into parts/KEY, at most $JOBS at once.
run() {
  local key="$1"; shift
  while (($(jobs -rp | wc -l) >= JOBS)); do wait -n; done
  ( timeout 120 "$@" > "$OUT/parts/$key" 2>&1; rc=$?; ((rc)) && echo "EXIT $rc" >> "$OUT/parts/$key" ) &
}
SAN="compute-sanitizer --print-limit 20"
ISOLATE="cudaDeviceReset"  # calls that need a fresh process per configuration
n=0
while read -r name; do
  n=$((n + 1)); k=$(printf %03d $n)
  if [[ " $ISOLATE " == *" $name "* ]]; then
    for c in 0 1 2 3 4 5; do run "cm.$k.$c" "$BIN/capture_modes" "$name" $c; done
  else
    run "cm.$k" "$BIN/capture_modes" "$name"
  fi
done < <("$BIN/capture_modes" list)
n=0
while read -r name; do
  n=$((n + 1)); k=$(printf %03d $n)
  run "io.$k.plain" "$BIN/interop" "$name"
  run "io.$k.memcheck" $SAN "$BIN/interop" "$name"
done < <("$BIN/interop" list)
n=0
while read -r name; do
  n=$((n + 1)); k=$(printf %03d $n)
  run "i22.$k.plain" "$BIN/issue22" "$name"
  run "i22.$k.memcheck" $SAN "$BIN/issue22" "$name"
  run "i22.$k.races" $SAN --tool memcheck --track-stream-ordered-races all "$BIN/issue22" "$name"
done < <("$BIN/issue22" list)
wait

cat "$OUT"/parts/cm.* > "$OUT/capture_modes.txt"
for f in "$OUT"/parts/io.*.plain "$OUT"/parts/i22.*.plain; do
  base="${f%.plain}"
  for tool in memcheck races; do
    [ -f "$base.$tool" ] || continue
    cp "$base.$tool" "$OUT/sanitizer/$(basename "$base").$tool.log"
  done
  summarize() {  # the program's own line, then the sanitizer's error lines and summary
    echo "plain:    $(grep '|' "$f" | head -1) $(grep EXIT "$f")"
    for tool in memcheck races; do
      [ -f "$base.$tool" ] || continue
      echo "$tool: $(grep '|' "$base.$tool" | head -1)"
      # distinct headline lines, with how often each occurred
      grep -E '^========= [^ ]' "$base.$tool" | grep -v COMPUTE-SANITIZER | sed 's/ at 0x[0-9a-f]*//' |
        sort | uniq -c | sort -rn | sed 's/^/    /' | head -15
    done
  }
  case "$f" in
    */io.*) summarize >> "$OUT/interop.txt" ;;
    *) summarize >> "$OUT/issue22.txt" ;;
  esac
done
# The whole log of each sanitizer run that found something, in one file.
for f in "$OUT"/sanitizer/*.log; do
  grep -q 'ERROR SUMMARY: 0 errors' "$f" && continue
  echo "##### $(basename "$f"): $(grep -h '|' "$f" | head -1 | cut -d'|' -f1)"; cat "$f"
done > "$OUT/sanitizer_findings.txt"
rm -rf "$OUT/parts" "$OUT/sanitizer"
cat "$OUT/setup.txt"
echo "== capture modes"; cat "$OUT/capture_modes.txt"
echo "== interop"; cat "$OUT/interop.txt"
echo "== issue 22"; cat "$OUT/issue22.txt"
rm -rf "$OUT/bin"
