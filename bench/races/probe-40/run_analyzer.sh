#!/bin/bash
# Runs the frozen analyzer on every file and variant, one at a time.
cd "$(dirname "$0")"
mkdir -p analyzer-out
for f in ${@:-k*.cu red_*.cu}; do
  [ -f "$f" ] || continue
  b=${f%.cu}
  vars="clean"
  grep -q '^// EXPECT: cudagraph' "$f" && vars="clean BUGGY"
  grep -q '#ifdef BUGGY' "$f" || vars="clean"
  for v in $vars; do
    d=""; [ $v = BUGGY ] && d="-DBUGGY"
    ${TIDY:-../../../build/bin/cudagraph-tidy} "$f" --checks='-*,cudagraph-shared-race,cudagraph-barrier-divergence' \
      --format=text-plain --result-cache=off --no-progress -- -x cuda --cuda-host-only \
      --cuda-path=/usr/local/cuda -Wno-unknown-cuda-version -std=c++17 -I/usr/local/cuda/include/cccl $d \
      > analyzer-out/$b.$v.txt 2>&1
    echo "rc=$?" >> analyzer-out/$b.$v.txt
  done
done
