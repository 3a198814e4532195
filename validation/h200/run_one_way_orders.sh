#!/usr/bin/env bash
# Builds one_way_orders.cu and runs each case plainly and under
# compute-sanitizer --track-stream-ordered-races all. Output: $OUT/one_way_orders.txt
set -u
HERE="$(cd "$(dirname "$0")" && pwd)"
OUT="${OUT:-$PWD/out}"
mkdir -p "$OUT"
nvcc -std=c++17 -O1 -arch=sm_90 -lineinfo -o "$OUT/one_way_orders" "$HERE/one_way_orders.cu" || exit 1
{
  date -u
  for c in $("$OUT/one_way_orders" list); do
    echo "== $c (plain)"
    timeout 60 "$OUT/one_way_orders" "$c"
    echo "== $c (compute-sanitizer --track-stream-ordered-races all)"
    timeout 120 compute-sanitizer --print-limit 3 --track-stream-ordered-races all "$OUT/one_way_orders" "$c" 2>&1 |
      grep -E "\||ERROR SUMMARY|before it is allocated|after it is free|Program hit" | head -8
  done
} > "$OUT/one_way_orders.txt" 2>&1
