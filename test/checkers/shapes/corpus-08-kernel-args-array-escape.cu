// RUN: %cudagraph_tidy --format=text-plain --result-cache=off --quiet %s -- %cuda_args 2>&1 | FileCheck %s --check-prefix=CLEAN --allow-empty
// RUN: not %cudagraph_tidy --format=text-plain --result-cache=off --quiet %s -- %cuda_args -DBUGGY 2>&1 | FileCheck %s --check-prefix=BUGGY
// CLEAN-NOT: warning:
// BUGGY: warning: {{.*}} [cudagraph-handle-leak]
// Reduction corpus/08-kernel-args-array-escape.cu of ../shared/shapes/2026-12-04 (issues 35, 36).
// Class: the kernel-parameter array of cudaLaunchKernel / cuLaunchKernel,
// `void* args[] = {&d_buf, &n};`, stores the handle's address in a local array; the analyzer
// treats `&d_buf` in an initializer as an escape, so the buffer is never followed again.
// (CUDA copies each parameter out of *args[i] at the launch; nothing keeps the address.)
// Clean: freed on every path; silent.
// Buggy twin (-DBUGGY): the unsupported-mode return leaks d_part; must report, silent (FN).
#include <cuda_runtime.h>

__global__ void partial_sums(const float* in, int n, float* part) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(&part[blockIdx.x % 64], in[i]);
}

cudaError_t reduce(const float* d_in, int n, int mode, float* h_out, cudaStream_t s) {
  float* d_part = nullptr;
  cudaError_t err = cudaMalloc(&d_part, 64 * sizeof(float));
  if (err != cudaSuccess) return err;
  void* args[] = {&d_in, &n, &d_part};
  if (mode != 0) {
#ifndef BUGGY
    cudaFree(d_part);
#endif
    return cudaErrorNotSupported;
  }
  err = cudaLaunchKernel((const void*)partial_sums, dim3((n + 255) / 256), dim3(256), args, 0, s);
  if (err == cudaSuccess) err = cudaMemcpyAsync(h_out, d_part, 64 * sizeof(float), cudaMemcpyDeviceToHost, s);
  if (err == cudaSuccess) err = cudaStreamSynchronize(s);
  cudaFree(d_part);
  return err;
}
