// Templated capture utilities (instantiated below).
#include <cuda_runtime.h>
#include <utility>

template <typename T>
__global__ void scale_kernel(T* x, T a, int n) {}

template <typename Fn>
cudaGraph_t capture_with(cudaStream_t s, Fn&& body) {
  cudaGraph_t g = nullptr;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal);
  body(s);
  cudaStreamEndCapture(s, &g);
  return g;
}

// Correct: generic run-once helper.
template <typename Fn>
cudaError_t run_captured(cudaStream_t s, Fn&& body) {
  cudaGraph_t g = capture_with(s, std::forward<Fn>(body));
  cudaGraphExec_t e;
  cudaError_t err = cudaGraphInstantiate(&e, g, 0);
  cudaGraphDestroy(g);
  if (err != cudaSuccess) return err;
  err = cudaGraphLaunch(e, s);
  cudaGraphExecDestroy(e);
  return err;
}

// Buggy: returns the launch error before destroying.
template <typename Fn>
cudaError_t run_captured_n(cudaStream_t s, int n, Fn&& body) {
  cudaGraph_t g = capture_with(s, std::forward<Fn>(body));
  cudaGraphExec_t e;
  cudaError_t err = cudaGraphInstantiate(&e, g, 0);  // EXPECT: cudagraph-unpaired-instantiate
  cudaGraphDestroy(g);
  if (err != cudaSuccess) return err;
  for (int i = 0; i < n; ++i) {
    err = cudaGraphLaunch(e, s);
    if (err != cudaSuccess) return err;
  }
  cudaGraphExecDestroy(e);
  return cudaSuccess;
}

// Correct: templated owner with a destructor.
template <typename T>
class TypedGraph {
 public:
  TypedGraph(cudaStream_t s, T* x, T a, int n) : s_(s) {
    cudaGraph_t g = capture_with(s, [&](cudaStream_t st) { scale_kernel<T><<<(n + 255) / 256, 256, 0, st>>>(x, a, n); });
    cudaGraphInstantiate(&exec_, g, 0);
    cudaGraphDestroy(g);
  }
  ~TypedGraph() { cudaGraphExecDestroy(exec_); }
  void operator()() { cudaGraphLaunch(exec_, s_); }
 private:
  cudaStream_t s_;
  cudaGraphExec_t exec_ = nullptr;
};

// Buggy: the template exec is leaked for every T.
template <typename T>
void scale_once(cudaStream_t s, T* x, T a, int n) {
  cudaGraph_t g = capture_with(s, [&](cudaStream_t st) { scale_kernel<T><<<(n + 255) / 256, 256, 0, st>>>(x, a, n); });
  cudaGraphExec_t e;
  cudaGraphInstantiate(&e, g, 0);  // EXPECT: cudagraph-unpaired-instantiate
  cudaGraphDestroy(g);
  cudaGraphLaunch(e, s);
}

void instantiate_all(cudaStream_t s, float* xf, double* xd, int n) {
  run_captured(s, [&](cudaStream_t st) { scale_kernel<float><<<1, 1, 0, st>>>(xf, 2.f, n); });
  run_captured_n(s, 4, [&](cudaStream_t st) { scale_kernel<double><<<1, 1, 0, st>>>(xd, 2.0, n); });
  TypedGraph<float> tg(s, xf, 0.5f, n);
  tg();
  scale_once<float>(s, xf, 3.f, n);
  scale_once<double>(s, xd, 3.0, n);
}
