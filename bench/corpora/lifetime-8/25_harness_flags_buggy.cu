// A bandwidth test harness with many switches. Two bugs hide among the flags:
// the timing events are destroyed only when a report is printed, and the pinned
// result buffer is released with cudaFree on the pinned path.
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>

struct BwArgs {
  bool timed;
  bool report;
  bool pinned;
  bool verify;
  bool h2d;
  int reps;
  size_t bytes;
};

int bandwidth_test(const BwArgs &a) {
  void *dbuf = nullptr;
  if (cudaMalloc(&dbuf, a.bytes) != cudaSuccess) return 1;
  void *hbuf = nullptr;
  if (a.pinned) {
    if (cudaMallocHost(&hbuf, a.bytes) != cudaSuccess) { cudaFree(dbuf); return 1; }
  } else {
    hbuf = malloc(a.bytes);
  }
  cudaStream_t s;
  cudaStreamCreate(&s);
  cudaEvent_t t0, t1;
  if (a.timed) {
    cudaEventCreate(&t0); // EXPECT: cudagraph-handle-leak
    cudaEventCreate(&t1); // EXPECT: cudagraph-handle-leak
    cudaEventRecord(t0, s);
  }
  for (int r = 0; r < a.reps; ++r) {
    if (a.h2d)
      cudaMemcpyAsync(dbuf, hbuf, a.bytes, cudaMemcpyHostToDevice, s);
    else
      cudaMemcpyAsync(hbuf, dbuf, a.bytes, cudaMemcpyDeviceToHost, s);
  }
  if (a.timed) cudaEventRecord(t1, s);
  cudaStreamSynchronize(s);
  if (a.timed && a.report) {
    float ms = 0;
    cudaEventElapsedTime(&ms, t0, t1);
    std::printf("%.2f GB/s\n", a.reps * a.bytes / (ms * 1e6));
    cudaEventDestroy(t0);
    cudaEventDestroy(t1);
  }
  if (a.verify) {
    void *check = malloc(a.bytes);
    cudaMemcpy(check, dbuf, a.bytes, cudaMemcpyDeviceToHost);
    free(check);
  }
  cudaStreamDestroy(s);
  if (a.pinned)
    cudaFree(hbuf); // EXPECT: cudagraph-mismatched-dealloc
  else
    free(hbuf);
  cudaFree(dbuf);
  return 0;
}
