#!/bin/bash
# One device call: every kernel of the two lit tests in its own process,
# under racecheck (hazard report) and synccheck; summarised by summarize.py.
# $1: an optional regex; only kernels whose name matches it run.
# $RACECHECK_ARGS: more racecheck options (`--racecheck-detect-level info`).
cd "$(dirname "$0")"
python3 gen.py
mkdir -p $OUT/raw
{ nvidia-smi --query-gpu=name,driver_version,compute_cap --format=csv; nvcc --version | tail -2;
  compute-sanitizer --version | head -3; } > $OUT/env.txt 2>&1
for t in race div aligned; do
  nvcc -O3 -arch=sm_90 -lineinfo -std=c++17 -o $t ${t}_main.cu > $OUT/raw/$t-build.txt 2>&1 || continue
  while read -r k; do
    [ -z "$k" ] && continue
    [ -n "$1" ] && ! [[ "$k" =~ $1 ]] && continue
    timeout 60 ./$t "$k" > $OUT/raw/$t.$k.plain 2>&1
    timeout 120 compute-sanitizer --tool racecheck --racecheck-report hazard $RACECHECK_ARGS --print-limit 100000 ./$t "$k" > $OUT/raw/$t.$k.racecheck 2>&1
    timeout 120 compute-sanitizer --tool synccheck --print-limit 100000 ./$t "$k" > $OUT/raw/$t.$k.synccheck 2>&1
  done < ${t}_main.cu.names
done
python3 summarize.py $OUT > $OUT/summary.txt 2>&1
cd $OUT && tar czf raw.tgz raw && rm -rf raw
cat $OUT/summary.txt | cut -c1-400
