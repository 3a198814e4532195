// Templated runners instantiated for several element types / batch sizes.
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <cstdio>

template <typename T>
__global__ void axpy_kernel(T *y, const T *x, T a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = y[i] + a * x[i];
}

// Correct: class template owning its exec.
template <typename T>
class AxpyGraph {
public:
  ~AxpyGraph() {
    if (exec_)
      cudaGraphExecDestroy(exec_);
  }
  cudaError_t build(T *y, const T *x, T a, int n, cudaStream_t s) {
    cudaGraph_t g;
    cudaError_t st = cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal);
    if (st != cudaSuccess)
      return st;
    axpy_kernel<T><<<(n + 255) / 256, 256, 0, s>>>(y, x, a, n);
    st = cudaStreamEndCapture(s, &g);
    if (st != cudaSuccess)
      return st;
    st = cudaGraphInstantiate(&exec_, g, 0);
    cudaGraphDestroy(g);
    return st;
  }
  cudaError_t run(cudaStream_t s) { return cudaGraphLaunch(exec_, s); }

private:
  cudaGraphExec_t exec_ = nullptr;
};

template class AxpyGraph<float>;
template class AxpyGraph<double>;

// Buggy: function template, the timing path returns early.
template <int kBatch>
float time_fixed_batch(cudaGraph_t g, cudaStream_t s, int iters) {
  cudaGraphExec_t e;
  if (cudaGraphInstantiate(&e, g, 0) != cudaSuccess) // EXPECT: cudagraph-unpaired-instantiate
    return -1.f;
  cudaEvent_t a, b;
  if (cudaEventCreate(&a) != cudaSuccess)
    return -1.f;
  cudaEventCreate(&b);
  cudaEventRecord(a, s);
  for (int i = 0; i < iters; ++i)
    cudaGraphLaunch(e, s);
  cudaEventRecord(b, s);
  cudaEventSynchronize(b);
  float ms = 0;
  cudaEventElapsedTime(&ms, a, b);
  cudaEventDestroy(a);
  cudaEventDestroy(b);
  cudaGraphExecDestroy(e);
  return ms / (iters * kBatch);
}

// Correct: function template.
template <typename Launch>
bool run_templated(cudaGraph_t g, cudaStream_t s, Launch &&after) {
  cudaGraphExec_t e;
  if (cudaGraphInstantiate(&e, g, 0) != cudaSuccess)
    return false;
  cudaGraphLaunch(e, s);
  after(s);
  cudaGraphExecDestroy(e);
  return true;
}

float bench_all(cudaGraph_t g, cudaStream_t s) {
  float t = time_fixed_batch<8>(g, s, 10) + time_fixed_batch<16>(g, s, 10);
  run_templated(g, s, [](cudaStream_t st) { cudaStreamSynchronize(st); });
  AxpyGraph<float> ag;
  return t;
}
