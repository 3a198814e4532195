/* C library style: init with goto cleanup, flags that record what was
 * created, and a cleanup label that releases in reverse order. */
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdbool.h>

__global__ void saxpy(int n, float a, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}

static int run_saxpy(int n, float a, float *out_checksum) {
  int rc = -1;
  bool have_stream = false, have_start = false, have_stop = false;
  cudaStream_t stream;
  cudaEvent_t start, stop;
  float *dx = NULL, *dy = NULL;
  float *hx = NULL, *hy = NULL;
  size_t bytes = (size_t)n * sizeof(float);
  float ms = 0.f, sum = 0.f;

  hx = (float *)malloc(bytes);
  hy = (float *)malloc(bytes);
  if (!hx || !hy) goto cleanup;
  for (int i = 0; i < n; ++i) { hx[i] = 1.f; hy[i] = 2.f; }

  if (cudaStreamCreate(&stream) != cudaSuccess) goto cleanup;
  have_stream = true;
  if (cudaEventCreate(&start) != cudaSuccess) goto cleanup;
  have_start = true;
  if (cudaEventCreate(&stop) != cudaSuccess) goto cleanup;
  have_stop = true;

  if (cudaMalloc((void **)&dx, bytes) != cudaSuccess) goto cleanup;
  if (cudaMalloc((void **)&dy, bytes) != cudaSuccess) goto cleanup;

  if (cudaMemcpyAsync(dx, hx, bytes, cudaMemcpyHostToDevice, stream) != cudaSuccess) goto cleanup;
  if (cudaMemcpyAsync(dy, hy, bytes, cudaMemcpyHostToDevice, stream) != cudaSuccess) goto cleanup;
  cudaEventRecord(start, stream);
  saxpy<<<(n + 255) / 256, 256, 0, stream>>>(n, a, dx, dy);
  cudaEventRecord(stop, stream);
  if (cudaMemcpyAsync(hy, dy, bytes, cudaMemcpyDeviceToHost, stream) != cudaSuccess) goto cleanup;
  if (cudaStreamSynchronize(stream) != cudaSuccess) goto cleanup;
  cudaEventElapsedTime(&ms, start, stop);
  for (int i = 0; i < n; ++i) sum += hy[i];
  *out_checksum = sum;
  printf("saxpy %d elems in %.3f ms\n", n, ms);
  rc = 0;

cleanup:
  if (dy) cudaFree(dy);
  if (dx) cudaFree(dx);
  if (have_stop) cudaEventDestroy(stop);
  if (have_start) cudaEventDestroy(start);
  if (have_stream) cudaStreamDestroy(stream);
  free(hy);
  free(hx);
  return rc;
}

int main(void) {
  float c = 0.f;
  if (run_saxpy(1 << 20, 3.f, &c) != 0) {
    fprintf(stderr, "failed\n");
    return EXIT_FAILURE;
  }
  printf("checksum %f\n", c);
  return 0;
}
