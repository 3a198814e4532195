// Macros that declare variables and nest inside each other.
#include <cuda_runtime.h>
#include <cstdio>

#define CUDA_OK(x) ((x) == cudaSuccess)
#define DECL_GRAPH(name) cudaGraph_t name = nullptr
#define DECL_EXEC(name) cudaGraphExec_t name##_exec = nullptr
#define INST(name) CUDA_OK(cudaGraphInstantiate(&name##_exec, name, 0))
#define LAUNCH(name, s) CUDA_OK(cudaGraphLaunch(name##_exec, s))
#define KILL(name)                                   \
  do {                                               \
    if (name##_exec) cudaGraphExecDestroy(name##_exec); \
    name##_exec = nullptr;                           \
  } while (0)
#define CAPTURE_BEGIN(s) cudaStreamBeginCapture(s, cudaStreamCaptureModeRelaxed)
#define CAPTURE_END(s, g) cudaStreamEndCapture(s, &g)
#define GRAPH_BLOCK(name, s, body) \
  DECL_GRAPH(name);                \
  CAPTURE_BEGIN(s);                \
  body;                            \
  CAPTURE_END(s, name)

struct Bufs {
  float* x;
  float* y;
  size_t n;
};

// Correct: two macro-declared execs, both KILLed on every path.
bool forward_backward(Bufs& b, cudaStream_t s, int iters) {
  GRAPH_BLOCK(fwd, s, cudaMemsetAsync(b.x, 0, b.n * sizeof(float), s));
  GRAPH_BLOCK(bwd, s, cudaMemcpyAsync(b.y, b.x, b.n * sizeof(float),
                                      cudaMemcpyDeviceToDevice, s));
  DECL_EXEC(fwd);
  DECL_EXEC(bwd);
  bool ok = false;
  if (!INST(fwd)) goto done;
  if (!INST(bwd)) goto done;
  for (int i = 0; i < iters; ++i) {
    if (!LAUNCH(fwd, s) || !LAUNCH(bwd, s)) goto done;
  }
  ok = CUDA_OK(cudaStreamSynchronize(s));
done:
  KILL(bwd);
  KILL(fwd);
  cudaGraphDestroy(fwd);
  cudaGraphDestroy(bwd);
  return ok;
}

// Correct: single exec, early return only when instantiate itself failed.
int warmup(Bufs& b, cudaStream_t s) {
  GRAPH_BLOCK(w, s, cudaMemsetAsync(b.y, 0, b.n * sizeof(float), s));
  DECL_EXEC(w);
  if (!INST(w)) {
    cudaGraphDestroy(w);
    std::puts("warmup: instantiate failed");
    return -1;
  }
  cudaGraphDestroy(w);
  int rc = LAUNCH(w, s) ? 0 : -2;
  KILL(w);
  return rc;
}

// Correct: macro-declared exec published through an out pointer.
bool prepare(Bufs& b, cudaStream_t s, cudaGraphExec_t* out) {
  GRAPH_BLOCK(p, s, cudaMemsetAsync(b.x, 1, b.n * sizeof(float), s));
  DECL_EXEC(p);
  bool ok = INST(p);
  cudaGraphDestroy(p);
  if (!ok) return false;
  *out = p_exec;
  return true;
}

int main() {
  Bufs b{};
  b.n = 4096;
  cudaMalloc(&b.x, b.n * sizeof(float));
  cudaMalloc(&b.y, b.n * sizeof(float));
  cudaStream_t s;
  cudaStreamCreate(&s);
  forward_backward(b, s, 8);
  warmup(b, s);
  cudaGraphExec_t e = nullptr;
  if (prepare(b, s, &e)) {
    cudaGraphLaunch(e, s);
    cudaGraphExecDestroy(e);
  }
  cudaStreamDestroy(s);
  cudaFree(b.x);
  cudaFree(b.y);
  return 0;
}
