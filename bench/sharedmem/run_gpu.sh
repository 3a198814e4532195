#!/bin/sh
# Ground truth for the shared-memory checks on a GPU (results go to $OUT).
# Not part of CI.  usage: run_gpu.sh [kernels.cu | realcode.cu]
#   env.txt       GPU, driver, toolkit, ncu and sanitizer versions
#   sass.txt      LDS/STS instructions per kernel (access widths)
#   ncu.csv       wavefronts and bank conflicts per launch, ld and st
#   memcheck.txt  compute-sanitizer memcheck errors per overflow kernel
set -u
SRC=${1:-kernels.cu}
OUT=${OUT:-/tmp/sharedmem-out}
mkdir -p "$OUT"
cd "$(dirname "$0")"
{
  nvidia-smi --query-gpu=name,driver_version,compute_cap --format=csv
  nvcc --version | tail -2
  ncu --version | tail -1
  compute-sanitizer --version | tail -1
  date -u
} > "$OUT/env.txt" 2>&1
nvcc -O3 -arch=sm_90 -lineinfo -o /tmp/kernels "$SRC" || exit 1
cuobjdump -sass /tmp/kernels > /tmp/sass.txt
python3 sass_summary.py /tmp/sass.txt > "$OUT/sass.txt"
M=$(echo l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum \
         l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum \
         l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum \
         l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum \
         smsp__inst_executed_op_shared_ld.sum smsp__inst_executed_op_shared_st.sum | tr ' ' ,)
ncu --clock-control none --csv --metrics "$M" /tmp/kernels bank > "$OUT/ncu.csv" 2> "$OUT/ncu.err"
: > "$OUT/memcheck.txt"
[ "$SRC" = kernels.cu ] || exit 0
for k in o_stride_two o_stride_two_sized o_halo_short o_reduce_off_by_one \
         o_tile_rows o_dyn_neighbour o_dyn_neighbour_ok o_bytes_as_floats \
         o_left_neighbour o_left_neighbour_guarded; do
  compute-sanitizer --tool memcheck --print-limit 100000 /tmp/kernels oob $k > /tmp/mc.txt 2>&1
  n=$(grep -c "Invalid __shared__" /tmp/mc.txt)
  plain=$(/tmp/kernels oob $k 2>&1 | tail -1)
  echo "$k errors=$n plain=[$plain] $(grep 'ERROR SUMMARY' /tmp/mc.txt)" >> "$OUT/memcheck.txt"
  grep -m2 "Invalid __shared__\|is out of bounds" /tmp/mc.txt >> "$OUT/memcheck.txt"
done
cat "$OUT/env.txt" "$OUT/memcheck.txt"
head -c 3000 "$OUT/ncu.err"
