// A benchmark harness as real code writes it: nine option flags, optional
// streams, events, pool and pinned memory, a capture, a timed loop, logging
// branches everywhere and one goto cleanup that releases what each flag
// acquired. Correct as written; -DLEAK_EXEC plants one leak.
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CUDA_CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { fprintf(stderr, "%s\n", cudaGetErrorString(e_)); goto cleanup; } } while (0)

struct BenchOptions {
  bool use_graph = true, warmup = true, timing = false, verbose = false, validate = false;
  bool use_pool = false, pinned = false, trace = false, two_streams = false;
  int iters = 10, reps = 3;
};

__global__ void k(float *x, int n);

int run_benchmark(const BenchOptions &opt, int n) {
  int rc = 1;
  cudaStream_t s = nullptr, s2 = nullptr;
  cudaGraph_t graph = nullptr;
  cudaGraphExec_t exec = nullptr;
  cudaEvent_t start = nullptr, stop = nullptr;
  float *d = nullptr, *h = nullptr;
  cudaMemPool_t pool = nullptr;
  bool capturing = false;
  float ms = 0.f;

  CUDA_CHECK(cudaStreamCreate(&s));
  if (opt.two_streams)
    CUDA_CHECK(cudaStreamCreate(&s2));
  if (opt.verbose)
    printf("streams ready\n");
  CUDA_CHECK(cudaMalloc(&d, n * sizeof(float)));
  if (opt.pinned)
    CUDA_CHECK(cudaMallocHost(&h, n * sizeof(float)));
  else
    h = (float *)malloc(n * sizeof(float));
  if (opt.use_pool) {
    cudaMemPoolProps props = {};
    props.allocType = cudaMemAllocationTypePinned;
    props.location.type = cudaMemLocationTypeDevice;
    CUDA_CHECK(cudaMemPoolCreate(&pool, &props));
  }
  if (opt.timing) {
    CUDA_CHECK(cudaEventCreate(&start));
    CUDA_CHECK(cudaEventCreate(&stop));
  }
  if (opt.trace)
    printf("trace on\n");
  if (opt.warmup) {
    for (int i = 0; i < 3; ++i)
      k<<<(n + 255) / 256, 256, 0, s>>>(d, n);
    CUDA_CHECK(cudaStreamSynchronize(s));
  }
  if (opt.use_graph) {
    CUDA_CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    capturing = true;
    for (int i = 0; i < opt.reps; ++i)
      k<<<(n + 255) / 256, 256, 0, s>>>(d, n);
    CUDA_CHECK(cudaStreamEndCapture(s, &graph));
    capturing = false;
    CUDA_CHECK(cudaGraphInstantiate(&exec, graph, 0));
    if (opt.verbose)
      printf("graph ready\n");
  }
  if (opt.timing)
    CUDA_CHECK(cudaEventRecord(start, s));
  for (int it = 0; it < opt.iters; ++it) {
    if (opt.use_graph)
      CUDA_CHECK(cudaGraphLaunch(exec, s));
    else
      for (int i = 0; i < opt.reps; ++i)
        k<<<(n + 255) / 256, 256, 0, s>>>(d, n);
    if (opt.trace && it % 10 == 0)
      printf("iter %d\n", it);
    if (opt.two_streams)
      CUDA_CHECK(cudaStreamSynchronize(s2));
  }
  if (opt.timing) {
    CUDA_CHECK(cudaEventRecord(stop, s));
    CUDA_CHECK(cudaEventSynchronize(stop));
    CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
    if (opt.verbose)
      printf("%.3f ms\n", ms);
  }
  if (opt.validate) {
    CUDA_CHECK(cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; ++i)
      if (h[i] != h[0]) {
        fprintf(stderr, "mismatch at %d\n", i);
        goto cleanup;
      }
  }
  rc = 0;
cleanup:
  if (capturing) {
    cudaGraph_t broken = nullptr;
    cudaStreamEndCapture(s, &broken);
    if (broken)
      cudaGraphDestroy(broken);
  }
#ifdef LEAK_EXEC
  if (exec && opt.trace) // the planted bug: released only when tracing
#else
  if (exec)
#endif
    cudaGraphExecDestroy(exec);
  if (graph)
    cudaGraphDestroy(graph);
  if (start)
    cudaEventDestroy(start);
  if (stop)
    cudaEventDestroy(stop);
  if (pool)
    cudaMemPoolDestroy(pool);
  if (opt.pinned) {
    if (h)
      cudaFreeHost(h);
  } else {
    free(h);
  }
  cudaFree(d);
  if (s2)
    cudaStreamDestroy(s2);
  if (s)
    cudaStreamDestroy(s);
  return rc;
}
