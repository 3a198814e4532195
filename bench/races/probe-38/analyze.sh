#!/bin/bash
# usage: analyze.sh FILE [BUGGY]
f=$1; v=${2:-fixed}
extra=""; [ "$v" = buggy ] && extra="-DBUGGY"
${TIDY:-build/bin/cudagraph-tidy} "$f" --checks='-*,cudagraph-shared-race,cudagraph-barrier-divergence' --format=text-plain --result-cache=off --no-progress -- -x cuda --cuda-host-only --cuda-path=/usr/local/cuda -Wno-unknown-cuda-version -std=c++17 -I/usr/local/cuda/include/cccl $extra > ${ANA:-ana}/$(basename ${f%.cu}).$v.txt 2>&1
echo "rc=$?" >> ${ANA:-ana}/$(basename ${f%.cu}).$v.txt
