#!/usr/bin/env bash
# Builds the probe NAME.cu (issue22_more, one_way_orders) and runs each of
# its cases (`NAME list` names them) plainly and under compute-sanitizer
# --track-stream-ordered-races all. Output: $OUT/NAME.txt
#   usage: OUT=DIR bash validation/h200/run_probe.sh NAME
set -u
NAME=$1
HERE="$(cd "$(dirname "$0")" && pwd)"
OUT="${OUT:-$PWD/out}"
mkdir -p "$OUT"
nvcc -std=c++17 -O1 -arch=sm_90 -lineinfo -o "$OUT/$NAME" "$HERE/$NAME.cu" || exit 1
{
  date -u
  for c in $("$OUT/$NAME" list); do
    echo "== $c (plain)"
    timeout 60 "$OUT/$NAME" "$c"
    echo "== $c (compute-sanitizer --track-stream-ordered-races all)"
    timeout 120 compute-sanitizer --print-limit 3 --track-stream-ordered-races all "$OUT/$NAME" "$c" 2>&1 |
      grep -E "\||ERROR SUMMARY|before it is allocated|after it is free|Program hit" | head -8
  done
} > "$OUT/$NAME.txt" 2>&1
