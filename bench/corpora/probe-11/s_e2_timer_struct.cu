// PLANTED: cudagraph-use-after-dealloc line 81
/*
 * bench_timer.cu -- tiny C timing helpers shared by the micro-benchmarks of an
 * HPC mini-app (stencil, SpMV, halo pack).
 */
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>

#define BENCH_CHECK(call)                                                      \
  do {                                                                         \
    cudaError_t e__ = (call);                                                  \
    if (e__ != cudaSuccess) {                                                  \
      fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e__)); \
      return -1;                                                               \
    }                                                                          \
  } while (0)

typedef struct {
  cudaEvent_t start;
  cudaEvent_t stop;
  cudaStream_t stream;
  float last_ms;
} bench_timer;

int bench_timer_create(bench_timer *t, cudaStream_t stream) {
  BENCH_CHECK(cudaEventCreate(&t->start));
  if (cudaEventCreate(&t->stop) != cudaSuccess) {
    cudaEventDestroy(t->start);
    return -1;
  }
  t->stream = stream;
  t->last_ms = 0.f;
  return 0;
}

void bench_timer_destroy(bench_timer *t) {
  cudaEventDestroy(t->start);
  cudaEventDestroy(t->stop);
}

int bench_timer_begin(bench_timer *t) {
  BENCH_CHECK(cudaEventRecord(t->start, t->stream));
  return 0;
}

int bench_timer_end(bench_timer *t) {
  BENCH_CHECK(cudaEventRecord(t->stop, t->stream));
  BENCH_CHECK(cudaEventSynchronize(t->stop));
  BENCH_CHECK(cudaEventElapsedTime(&t->last_ms, t->start, t->stop));
  return 0;
}

__global__ void stencil7(const double *in, double *out, int nx, int ny, int nz) {
  int i = blockIdx.x * blockDim.x + threadIdx.x + 1;
  int j = blockIdx.y + 1, k = blockIdx.z + 1;
  if (i >= nx - 1) return;
  size_t c = ((size_t)k * ny + j) * nx + i;
  out[c] = (in[c - 1] + in[c + 1] + in[c - nx] + in[c + nx] + in[c - (size_t)nx * ny] +
            in[c + (size_t)nx * ny] - 6.0 * in[c]);
}

int bench_stencil(const double *d_in, double *d_out, int nx, int ny, int nz,
                  int reps, double *gflops) {
  bench_timer t;
  cudaStream_t s;
  BENCH_CHECK(cudaStreamCreate(&s));
  if (bench_timer_create(&t, s) != 0) {
    cudaStreamDestroy(s);
    return -1;
  }
  dim3 block(128);
  dim3 grid((nx - 2 + 127) / 128, ny - 2, nz - 2);
  bench_timer_begin(&t);
  for (int r = 0; r < reps; ++r)
    stencil7<<<grid, block, 0, s>>>(d_in, d_out, nx, ny, nz);
  int rc = bench_timer_end(&t);
#ifdef BUGGY
  bench_timer_destroy(&t);
  float ms = 0.f;
  cudaEventElapsedTime(&ms, t.start, t.stop);  // PLANTED (buggy variant): cudagraph-use-after-dealloc
#else
  float ms = 0.f;
  cudaEventElapsedTime(&ms, t.start, t.stop);
  bench_timer_destroy(&t);
#endif
  cudaStreamDestroy(s);
  if (rc != 0 || ms <= 0.f) return -1;
  double pts = (double)(nx - 2) * (ny - 2) * (nz - 2) * reps;
  *gflops = pts * 8.0 / (ms * 1e6);
  return 0;
}
