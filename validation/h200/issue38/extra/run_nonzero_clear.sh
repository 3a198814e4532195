#!/bin/bash
# racecheck (hazard report) and synccheck on the two kernels gen_nonzero_clear.py
# copies from the lit test into nonzero_clear.cu.
cd "$(dirname "$0")"
python3 gen_nonzero_clear.py
nvcc -O3 -arch=sm_90 -lineinfo -std=c++17 -o nonzero_clear nonzero_clear.cu || exit 1
for k in clearWhileStoring clearThenStore; do
  echo "== $k"
  ./nonzero_clear $k
  compute-sanitizer --tool racecheck --racecheck-report hazard --print-limit 8 ./nonzero_clear $k 2>&1 | grep -E "hazard|Race reported|RACECHECK SUMMARY|at .*nonzero_clear.cu" | head -8
  compute-sanitizer --tool synccheck ./nonzero_clear $k 2>&1 | grep -E "ERROR SUMMARY"
done
