#!/usr/bin/env bash
# Builds issue22_more.cu and runs each case plainly and under
# compute-sanitizer --track-stream-ordered-races all. Output: $OUT/issue22_more.txt
set -u
HERE="$(cd "$(dirname "$0")" && pwd)"
OUT="${OUT:-$PWD/out}"
mkdir -p "$OUT"
nvcc -std=c++17 -O1 -arch=sm_90 -lineinfo -o "$OUT/issue22_more" "$HERE/issue22_more.cu" || exit 1
{
  date -u
  for c in $("$OUT/issue22_more" list); do
    echo "== $c (plain)"
    timeout 60 "$OUT/issue22_more" "$c"
    echo "== $c (compute-sanitizer --track-stream-ordered-races all)"
    timeout 120 compute-sanitizer --print-limit 3 --track-stream-ordered-races all "$OUT/issue22_more" "$c" 2>&1 |
      grep -E "\||ERROR SUMMARY|before it is allocated|after it is free|Program hit" | head -8
  done
} > "$OUT/issue22_more.txt" 2>&1
