#!/bin/bash
# Ground truth on the GPU: build every file (clean and BUGGY variants), then run
# compute-sanitizer racecheck (hazard report, info level) and synccheck on each.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
OUT=${OUT:-/tmp/probe40-out}
B=/tmp/probe40-bin
mkdir -p "$B" "$OUT/logs"
cd "$HERE"
nvidia-smi -L > "$OUT/device.txt" 2>&1
nvcc --version | tail -2 >> "$OUT/device.txt"
jobs=()
for f in k*.cu; do
  b=${f%.cu}
  echo "$f $b"
  if grep -q '^// EXPECT: cudagraph' "$f"; then echo "$f ${b}_BUGGY -DBUGGY"; fi
done > "$B/list"
xargs -P 16 -L 1 sh -c 'nvcc -arch=sm_90 -lineinfo -o '"$B"'/$1 $0 $2 > '"$OUT"'/logs/$1.build.txt 2>&1' < "$B/list"
awk '{print $2}' "$B/list" > "$B/bins"
run_one() {
  b=$1; tool=$2
  if [ "$tool" = racecheck ]; then
    args="--tool racecheck --racecheck-report hazard --racecheck-detect-level info"
  else
    args="--tool synccheck"
  fi
  timeout 120 compute-sanitizer $args "$B/$b" > "/tmp/$b.$tool.full" 2>&1
  rc=$?
  { head -n 150 "/tmp/$b.$tool.full"; echo "... [$(wc -l < /tmp/$b.$tool.full) lines in full log]";
    grep -E 'SUMMARY' "/tmp/$b.$tool.full" | tail -3; echo "rc=$rc"; } > "$OUT/logs/$b.$tool.txt"
  nerr=$(grep -cE '^========= +(Error|Warning|Barrier|Invalid|Race)' "/tmp/$b.$tool.full")
  printf '%s\t%s\t%s\t%s\t%s\n' "$b" "$tool" "$rc" "$nerr" "$(grep -E 'SUMMARY' /tmp/$b.$tool.full | tail -1 | tr -s ' ')" > "$OUT/logs/$b.$tool.sum"
}
export -f run_one
export B OUT
(for b in $(cat "$B/bins"); do echo "$b racecheck"; echo "$b synccheck"; done) | xargs -P 8 -L 1 bash -c 'run_one $0 $1'
cat "$OUT"/logs/*.sum | sort > "$OUT/summary.tsv"
cat "$OUT/summary.tsv"
