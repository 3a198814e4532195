// PLANTED: none
// Long-lived singleton state in globals; released in an atexit handler in the same file.
#include <cuda_runtime.h>
#include <stdlib.h>
#include <stdio.h>

static cudaStream_t g_stream;
static cudaEvent_t g_start, g_stop;
static void *g_pinned;
static int g_ready;

static void runtime_teardown(void) {
  if (!g_ready) return;
  cudaStreamSynchronize(g_stream);
  cudaFreeHost(g_pinned);
  cudaEventDestroy(g_stop);
  cudaEventDestroy(g_start);
  cudaStreamDestroy(g_stream);
  g_ready = 0;
}

static int runtime_get(void) {
  if (g_ready) return 0;
  if (cudaStreamCreateWithFlags(&g_stream, cudaStreamNonBlocking) != cudaSuccess) return -1;
  if (cudaEventCreate(&g_start) != cudaSuccess) goto e1;
  if (cudaEventCreate(&g_stop) != cudaSuccess) goto e2;
  if (cudaMallocHost(&g_pinned, 1 << 20) != cudaSuccess) goto e3;
  g_ready = 1;
  atexit(runtime_teardown);
  return 0;
e3: cudaEventDestroy(g_stop);
e2: cudaEventDestroy(g_start);
e1: cudaStreamDestroy(g_stream);
  return -1;
}

float timed_copy(const void *dsrc, size_t n) {
  if (runtime_get() != 0 || n > (1u << 20)) return -1.0f;
  float ms = 0.0f;
  cudaEventRecord(g_start, g_stream);
  cudaMemcpyAsync(g_pinned, dsrc, n, cudaMemcpyDeviceToHost, g_stream);
  cudaEventRecord(g_stop, g_stream);
  cudaEventSynchronize(g_stop);
  cudaEventElapsedTime(&ms, g_start, g_stop);
  return ms;
}

int main(void) {
  void *d;
  if (cudaMalloc(&d, 4096) != cudaSuccess) return 1;
  printf("%f\n", timed_copy(d, 4096));
  printf("%f\n", timed_copy(d, 4096));
  cudaFree(d);
  return 0;
}
