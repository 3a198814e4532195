// Kernel micro-benchmark: three timing loops. The first creates its events once
// per iteration into the same variables (the previous pair is lost); the other
// two are the correct ways to write it.
#include <cuda_runtime.h>
#include <cstdio>
#include <vector>

__global__ void saxpy(int n, float a, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}

float bench_saxpy_buggy(const float *dx, float *dy, int n, int iters, cudaStream_t s) {
  cudaEvent_t start = nullptr, stop = nullptr;
  float total = 0.f;
  for (int it = 0; it < iters; ++it) {
    cudaEventCreate(&start); // EXPECT: cudagraph-handle-leak
    cudaEventCreate(&stop);  // EXPECT: cudagraph-handle-leak
    cudaEventRecord(start, s);
    saxpy<<<(n + 255) / 256, 256, 0, s>>>(n, 2.f, dx, dy);
    cudaEventRecord(stop, s);
    cudaEventSynchronize(stop);
    float ms = 0.f;
    cudaEventElapsedTime(&ms, start, stop);
    total += ms;
  }
  if (start) cudaEventDestroy(start);
  if (stop) cudaEventDestroy(stop);
  return iters ? total / iters : 0.f;
}

float bench_saxpy_hoisted(const float *dx, float *dy, int n, int iters, cudaStream_t s) {
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  std::vector<float> samples;
  for (int it = 0; it < iters; ++it) {
    cudaEventRecord(start, s);
    saxpy<<<(n + 255) / 256, 256, 0, s>>>(n, 2.f, dx, dy);
    cudaEventRecord(stop, s);
    cudaEventSynchronize(stop);
    float ms = 0.f;
    cudaEventElapsedTime(&ms, start, stop);
    samples.push_back(ms);
  }
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  float best = 1e30f;
  for (float v : samples) best = v < best ? v : best;
  return best;
}

float bench_saxpy_per_iter(const float *dx, float *dy, int n, int iters, cudaStream_t s) {
  float total = 0.f;
  for (int it = 0; it < iters; ++it) {
    cudaEvent_t a, b;
    cudaEventCreate(&a);
    cudaEventCreate(&b);
    cudaEventRecord(a, s);
    saxpy<<<(n + 255) / 256, 256, 0, s>>>(n, 0.5f, dx, dy);
    cudaEventRecord(b, s);
    cudaEventSynchronize(b);
    float ms = 0.f;
    cudaEventElapsedTime(&ms, a, b);
    total += ms;
    cudaEventDestroy(a);
    cudaEventDestroy(b);
  }
  return total;
}
