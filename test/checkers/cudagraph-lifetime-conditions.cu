// RUN: %check_cudagraph_tidy %s cudagraph-handle-leak %t
// RUN: %check_cudagraph_tidy %s cudagraph-unpaired-instantiate %t
// RUN: %check_cudagraph_tidy %s cudagraph-handle-leak %t -check-suffixes=LEAK -- -DBUGGY
// RUN: %check_cudagraph_tidy %s cudagraph-unpaired-instantiate %t -check-suffixes=EXEC -- -DBUGGY
//
// What a condition means is kept past the joins that split it into leaves
// (lib/Lifetime/Paths/Conditions.cpp): a resource acquired under `a || b` and
// released under the same test, a bool bound to a test of the handle it
// guards, a counted loop an earlier guard makes run at least once. Each clean
// function is silent; each -DBUGGY twin has the bug the test no longer hides.
#include <cuda_runtime.h>
#include <cstdio>

struct Settings {
  bool verbose;
  bool checksum;
  int copies;
};

// `||` in both tests, on members of a const reference.
int inspect(const Settings &cfg, const float *d_out, int n) {
  float *h = nullptr;
  if (cfg.verbose || cfg.checksum)
    if (cudaMallocHost(&h, n * sizeof(float)) != cudaSuccess)
      return -1;
#ifdef BUGGY
  // CHECK-MESSAGES-LEAK: :[[@LINE-3]]:9: warning: pinned host memory 'h' created by 'cudaMallocHost' is not released on every path; {{.*}} [cudagraph-handle-leak]
#endif
  if (cfg.verbose || cfg.checksum)
    cudaMemcpy(h, d_out, n * sizeof(float), cudaMemcpyDeviceToHost);
  if (cfg.checksum) {
    double s = 0;
    for (int i = 0; i < n; ++i)
      s += h[i];
    printf("checksum %f\n", s);
  }
  if (cfg.verbose)
    printf("first %f\n", h[0]);
#ifndef BUGGY
  if (cfg.checksum || cfg.verbose)
    cudaFreeHost(h);
#else
  if (cfg.checksum)
    cudaFreeHost(h);
#endif
  return 0;
}

// `&&` of a parameter and a comparison, and its negation on the way out.
void timed(cudaStream_t s, bool profile, int iters) {
  cudaEvent_t start, stop;
  if (profile && iters > 0) {
    cudaEventCreate(&start);
    cudaEventCreate(&stop);
    cudaEventRecord(start, s);
  }
  for (int i = 0; i < iters; ++i)
    cudaStreamSynchronize(s);
  if (!(profile && iters > 0))
    return;
  cudaEventRecord(stop, s);
  cudaEventSynchronize(stop);
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
}

__global__ void step(float *u, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    u[i] *= 0.5f;
}

// A bool bound to a test of the exec: once built, `rebuild` is false.
int relax(cudaStream_t s, float *d_u, int n, int sweeps, bool graphs) {
  cudaGraphExec_t exec = nullptr;
  for (int k = 0; k < sweeps; ++k) {
#ifndef BUGGY
    const bool rebuild = graphs && exec == nullptr;
#else
    const bool rebuild = graphs;
#endif
    if (rebuild) {
      cudaGraph_t g;
      if (cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal) != cudaSuccess)
        break;
      step<<<(n + 127) / 128, 128, 0, s>>>(d_u, n);
      if (cudaStreamEndCapture(s, &g) != cudaSuccess)
        break;
      cudaError_t st = cudaGraphInstantiate(&exec, g, 0);
      // CHECK-MESSAGES-EXEC: :[[@LINE-1]]:24: warning: {{.*}}'exec'{{.*}} [cudagraph-unpaired-instantiate]
      cudaGraphDestroy(g);
      if (st != cudaSuccess)
        break;
    }
    if (graphs)
      cudaGraphLaunch(exec, s);
    else
      step<<<(n + 127) / 128, 128, 0, s>>>(d_u, n);
  }
  if (exec != nullptr)
    cudaGraphExecDestroy(exec);
  return 0;
}

// A bool bound to a disjunction, then tested alone.
void stage(const float *h_in, int n, bool upload_a, bool upload_b, cudaStream_t s) {
  const bool any = upload_a || upload_b;
  float *d = nullptr;
  if (any && cudaMalloc(&d, n * sizeof(float)) != cudaSuccess)
    return;
  if (upload_a)
    cudaMemcpyAsync(d, h_in, n * sizeof(float), cudaMemcpyHostToDevice, s);
  if (upload_b)
    cudaMemsetAsync(d, 0, n * sizeof(float), s);
  cudaStreamSynchronize(s);
  if (any)
    cudaFree(d);
}

// A counted loop that the guard makes run at least once releases the
// buffer in its first pass.
void accumulate(float *d_acc, const float *h_src, int n, int rounds, cudaStream_t s) {
#ifndef BUGGY
  if (rounds < 1)
    return;
#endif
  float *d_src = nullptr;
  if (cudaMalloc(&d_src, n * sizeof(float)) != cudaSuccess)
    return;
  // CHECK-MESSAGES-LEAK: :[[@LINE-2]]:7: warning: device memory 'd_src' created by 'cudaMalloc' is not released on every path; {{.*}} [cudagraph-handle-leak]
  cudaMemcpyAsync(d_src, h_src, n * sizeof(float), cudaMemcpyHostToDevice, s);
  bool first = true;
  for (int r = 0; r < rounds; ++r) {
    if (first) {
      cudaMemcpyAsync(d_acc, d_src, n * sizeof(float), cudaMemcpyDeviceToDevice, s);
      cudaFreeAsync(d_src, s);
      first = false;
    }
    step<<<(n + 127) / 128, 128, 0, s>>>(d_acc, n);
  }
}

// An error macro that resets the device before returning: the reset
// destroys everything the device owns, so nothing leaks on that path.
#define CHECK_OR_RESET(call)                                                   \
  do {                                                                         \
    if ((call) != cudaSuccess) {                                               \
      cudaDeviceReset();                                                       \
      return -1;                                                               \
    }                                                                          \
  } while (0)

int pipeline(const float *h, int n) {
  cudaStream_t s;
  float *d = nullptr;
  CHECK_OR_RESET(cudaStreamCreate(&s));
  CHECK_OR_RESET(cudaMalloc(&d, n * sizeof(float)));
  CHECK_OR_RESET(cudaMemcpyAsync(d, h, n * sizeof(float), cudaMemcpyHostToDevice, s));
  CHECK_OR_RESET(cudaStreamSynchronize(s));
  cudaFree(d);
  cudaStreamDestroy(s);
  return 0;
}

// TVM's CUDA_CALL: `ICHECK(e == cudaSuccess || e == cudaErrorCudartUnloading)`
// tests the negation of a disjunction. The CFG branches on each leaf to
// compute the disjunction, then on its negation: where `e == cudaSuccess`
// held, the throw cannot be taken, and where it is taken the stream was
// never created. The buggy twin throws after a second call fails, with the
// stream live.
#define TVM_CUDA_CALL(x)                                                       \
  do {                                                                         \
    cudaError_t e_ = (x);                                                      \
    if (!(e_ == cudaSuccess || e_ == cudaErrorCudartUnloading))                \
      throw e_;                                                                \
  } while (0)

struct CopyEngine {
  cudaStream_t stream;
  float *staging;
};

void make_copy_engine(CopyEngine *ce, size_t bytes) {
  cudaStream_t s;
  cudaError_t e = cudaStreamCreate(&s);
  if (!(e == cudaSuccess || e == cudaErrorCudartUnloading))
    throw e;
  ce->stream = s;
  TVM_CUDA_CALL(cudaMalloc(&ce->staging, bytes));
}

void make_copy_engine_checked(CopyEngine *ce, size_t bytes) {
  cudaStream_t s;
  TVM_CUDA_CALL(cudaStreamCreate(&s));
#ifdef BUGGY
  // CHECK-MESSAGES-LEAK: :[[@LINE-2]]:17: warning: stream 's' created by 'cudaStreamCreate' is not released on every path; {{.*}} [cudagraph-handle-leak]
  TVM_CUDA_CALL(cudaMalloc(&ce->staging, bytes));
#else
  cudaError_t e = cudaMalloc(&ce->staging, bytes);
  if (!(e == cudaSuccess || e == cudaErrorCudartUnloading)) {
    cudaStreamDestroy(s);
    throw e;
  }
#endif
  ce->stream = s;
}
