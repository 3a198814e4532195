// Host code as nvcc accepts it: min/max of mixed types and assert without
// an include of its own (nvcc's CUDA headers bring both). The events of the
// timing path leak.
#include <cuda_runtime.h>

int clamp_k(int k, unsigned int rows) { return static_cast<int>(min(k, rows)); }

float pick_scale(float requested, double limit) { return static_cast<float>(max(requested, limit)); }

float time_topk(const float *d, int k, unsigned int rows) {
  assert(d != nullptr);
  int kk = clamp_k(k, rows);
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  cudaEventRecord(start, 0);
  cudaEventRecord(stop, 0);
  cudaEventSynchronize(stop);
  float ms = 0.f;
  cudaEventElapsedTime(&ms, start, stop);
  return ms * pick_scale(static_cast<float>(kk), 1.0);
}

// NCCL 2.28's device headers test `#if __CUDACC__`, which nvcc defines as 1
// and clang as nothing.
#if __CUDACC__
static const int topk_compiled_as_cuda = 1;
#endif
