// A GEMM benchmark driver with many options. Every optional resource is acquired
// and released under the same flag (or a flag derived once from the options).
// Correct.
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>

struct Options {
  bool timed = true;
  bool verify = false;
  bool pinned_io = false;
  bool use_graph = false;
  bool side_stream = false;
  bool use_pool = false;
  int iters = 10;
  int n = 1 << 20;
};

__global__ void axpby(float *y, const float *x, float a, float b, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + b * y[i];
}

int run_benchmark(const Options &o) {
  const size_t bytes = (size_t)o.n * sizeof(float);
  float *dx = nullptr, *dy = nullptr;
  if (cudaMalloc(&dx, bytes) != cudaSuccess) return 1;
  if (cudaMalloc(&dy, bytes) != cudaSuccess) { cudaFree(dx); return 1; }

  // Capture needs a stream of our own (the legacy stream cannot be captured).
  const bool own_stream = o.side_stream || o.use_graph;
  cudaStream_t s = 0;
  if (own_stream) cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);

  cudaEvent_t t0 = nullptr, t1 = nullptr;
  if (o.timed) {
    cudaEventCreate(&t0);
    cudaEventCreate(&t1);
  }

  float *host = nullptr;
  if (o.pinned_io)
    cudaMallocHost(&host, bytes);
  else
    host = (float *)malloc(bytes);

  cudaMemPool_t pool = nullptr;
  float *scratch = nullptr;
  if (o.use_pool) {
    cudaMemPoolProps props = {};
    props.allocType = cudaMemAllocationTypePinned;
    props.location.type = cudaMemLocationTypeDevice;
    props.location.id = 0;
    cudaMemPoolCreate(&pool, &props);
    cudaMallocFromPoolAsync(&scratch, bytes, pool, s);
  }

  cudaGraphExec_t exec = nullptr;
  if (o.use_graph) {
    cudaGraph_t g;
    cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal);
    axpby<<<(o.n + 255) / 256, 256, 0, s>>>(dy, dx, 1.f, 0.5f, o.n);
    cudaStreamEndCapture(s, &g);
    cudaGraphInstantiate(&exec, g, 0);
    cudaGraphDestroy(g);
  }

  if (o.timed) cudaEventRecord(t0, s);
  for (int i = 0; i < o.iters; ++i) {
    if (o.use_graph)
      cudaGraphLaunch(exec, s);
    else
      axpby<<<(o.n + 255) / 256, 256, 0, s>>>(dy, dx, 1.f, 0.5f, o.n);
  }
  if (o.timed) cudaEventRecord(t1, s);
  cudaStreamSynchronize(s);

  if (o.timed) {
    float ms = 0;
    cudaEventElapsedTime(&ms, t0, t1);
    std::printf("%.3f ms/iter\n", ms / o.iters);
  }
  if (o.verify) {
    cudaMemcpy(host, dy, bytes, cudaMemcpyDeviceToHost);
    std::printf("y[0] = %f\n", host[0]);
  }

  if (o.use_graph) cudaGraphExecDestroy(exec);
  if (o.use_pool) {
    cudaFreeAsync(scratch, s);
    cudaStreamSynchronize(s);
    cudaMemPoolDestroy(pool);
  }
  if (o.pinned_io)
    cudaFreeHost(host);
  else
    free(host);
  if (o.timed) {
    cudaEventDestroy(t0);
    cudaEventDestroy(t1);
  }
  if (own_stream) cudaStreamDestroy(s);
  cudaFree(dy);
  cudaFree(dx);
  return 0;
}

// Same idea with a flag computed once from the options.
int copy_bench(const Options &o) {
  const bool need_events = o.timed && o.iters > 0;
  cudaEvent_t a, b;
  if (need_events) {
    cudaEventCreate(&a);
    cudaEventCreate(&b);
  }
  float *d = nullptr;
  if (cudaMalloc(&d, 1 << 20) != cudaSuccess) {
    if (need_events) { cudaEventDestroy(a); cudaEventDestroy(b); }
    return 1;
  }
  if (need_events) cudaEventRecord(a, 0);
  for (int i = 0; i < o.iters; ++i) cudaMemsetAsync(d, i, 1 << 20, 0);
  if (need_events) {
    cudaEventRecord(b, 0);
    cudaEventSynchronize(b);
    cudaEventDestroy(a);
    cudaEventDestroy(b);
  }
  cudaFree(d);
  return 0;
}
