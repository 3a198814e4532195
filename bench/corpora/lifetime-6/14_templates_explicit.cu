// Templated kernels-by-graph with explicit instantiations.
#include <cuda_runtime.h>
#include <cstddef>
#include <cstdint>

template <typename T>
struct GraphRunner {
  cudaGraphExec_t exec = nullptr;
  cudaStream_t stream = nullptr;

  cudaError_t init(T* buf, size_t n);
  cudaError_t step() { return cudaGraphLaunch(exec, stream); }
  ~GraphRunner() {
    if (exec) cudaGraphExecDestroy(exec);
  }
};

// Correct: instantiates into a member of the runner.
template <typename T>
cudaError_t GraphRunner<T>::init(T* buf, size_t n) {
  cudaGraph_t g = nullptr;
  cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal);
  cudaMemsetAsync(buf, 0, n * sizeof(T), stream);
  auto err = cudaStreamEndCapture(stream, &g);
  if (err != cudaSuccess) return err;
  err = cudaGraphInstantiate(&exec, g, 0);
  cudaGraphDestroy(g);
  return err;
}

template struct GraphRunner<float>;
template struct GraphRunner<int32_t>;

// Correct: free function template, destroys before every return.
template <typename T, int kReps>
cudaError_t run_n(T* buf, size_t n, cudaStream_t s) {
  cudaGraph_t g = nullptr;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  cudaMemsetAsync(buf, 1, n * sizeof(T), s);
  cudaStreamEndCapture(s, &g);
  cudaGraphExec_t e;
  auto err = cudaGraphInstantiate(&e, g, 0);
  cudaGraphDestroy(g);
  if (err != cudaSuccess) return err;
  for (int i = 0; i < kReps; ++i) {
    err = cudaGraphLaunch(e, s);
    if (err != cudaSuccess) break;
  }
  cudaGraphExecDestroy(e);
  return err;
}

template cudaError_t run_n<float, 4>(float*, size_t, cudaStream_t);
template cudaError_t run_n<double, 1>(double*, size_t, cudaStream_t);

// Correct: template that returns the exec by value (escape by return).
template <typename Capture>
cudaGraphExec_t instantiate_from(Capture&& cap) {
  cudaGraph_t g = cap();
  cudaGraphExec_t e = nullptr;
  if (cudaGraphInstantiate(&e, g, 0) != cudaSuccess) e = nullptr;
  cudaGraphDestroy(g);
  return e;
}

int main() {
  cudaStream_t s;
  cudaStreamCreate(&s);
  float* f;
  cudaMalloc(&f, 1024 * sizeof(float));
  {
    GraphRunner<float> r;
    r.stream = s;
    if (r.init(f, 1024) == cudaSuccess) r.step();
  }
  run_n<float, 4>(f, 1024, s);
  auto e = instantiate_from([] {
    cudaGraph_t g;
    cudaGraphCreate(&g, 0);
    return g;
  });
  if (e) cudaGraphExecDestroy(e);
  cudaFree(f);
  cudaStreamDestroy(s);
  return 0;
}
