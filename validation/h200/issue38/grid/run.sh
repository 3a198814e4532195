#!/bin/bash
# One device call: every kernel of the grid-barrier lit test in its own
# process (or the kernels named as arguments), plainly (20 s timeout: a hang is rc 124) and under synccheck.
cd "$(dirname "$0")"
{ nvidia-smi --query-gpu=name,driver_version,compute_cap --format=csv; nvcc --version | tail -2;
  compute-sanitizer --version | head -3; } > $OUT/env.txt 2>&1
nvcc -O3 -arch=sm_90 -lineinfo -std=c++17 -o grid grid_main.cu > $OUT/build.txt 2>&1 || { cat $OUT/build.txt; exit 1; }
ALL="firstBlockGridSync everyBlockGridSync firstWarpGridSync laterWarpsGridSync firstWarpThenBlockBarrier firstWarpAfterGridSync \
         evenBlocksGridSync oddBlocksGridSync evenThenOddGridSync evenBlocksBothArms firstBlockLeaves firstBlockIdles \
         uniformGridConditions unlaunchedFirstBlock problemSizeGuards problemSizeGuardsFew"
for k in ${@:-$ALL}; do
  out=$(timeout 20 ./grid $k 2>&1); rc=$?
  [ $rc = 124 ] && out="$k: hangs (killed after 20 s)"
  sc=$(timeout 60 compute-sanitizer --tool synccheck ./grid $k 2>&1 | grep -E "ERROR SUMMARY|Barrier error|Divergent" | sort | uniq -c | tr '\n' ' '); src=$?
  echo "$out | rc=$rc | synccheck: ${sc:-timeout/none}"
done | tee $OUT/summary.txt
