// A header both units include, under two spellings (-Iinclude and
// -Isrc/../include): its finding must be one finding in one file.
#pragma once
#include <cuda_runtime.h>

inline cudaStream_t make_side_stream(bool high_priority) {
  cudaStream_t s;
  int lo, hi;
  cudaDeviceGetStreamPriorityRange(&lo, &hi);
  cudaStreamCreateWithPriority(&s, cudaStreamNonBlocking, high_priority ? hi : lo);
  cudaStream_t spare;
  cudaStreamCreate(&spare);
  return s;
}
