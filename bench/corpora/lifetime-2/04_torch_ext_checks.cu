// PyTorch-extension-style code: TORCH_CHECK-like macros throw, guards restore state.
#include <cuda_runtime.h>
#include <stdexcept>
#include <string>
#include <sstream>

namespace c10lite {
struct Error : std::runtime_error {
  using std::runtime_error::runtime_error;
};
[[noreturn]] inline void throw_error(const char* cond, const std::string& msg) {
  throw Error(std::string(cond) + ": " + msg);
}
class CUDAStreamGuard {
 public:
  explicit CUDAStreamGuard(cudaStream_t s) : prev_(cur()), cur_(s) { cur() = s; }
  ~CUDAStreamGuard() { cur() = prev_; }
  cudaStream_t stream() const { return cur_; }
 private:
  static cudaStream_t& cur() { static cudaStream_t s = nullptr; return s; }
  cudaStream_t prev_, cur_;
};
}  // namespace c10lite

#define TORCH_CHECK(cond, msg) \
  do { if (!(cond)) ::c10lite::throw_error(#cond, msg); } while (0)
#define C10_CUDA_CHECK(expr)                                               \
  do {                                                                     \
    cudaError_t __err = (expr);                                            \
    if (__err != cudaSuccess) ::c10lite::throw_error(#expr, cudaGetErrorString(__err)); \
  } while (0)

struct Tensor {
  float* data;
  long numel;
  bool is_cuda;
};

__global__ void fused_rmsnorm(float* x, long n) {}

// Correct: a throwing check after instantiation propagates out (no leak reported by spec).
void graph_rmsnorm_(Tensor& t, cudaStream_t s) {
  c10lite::CUDAStreamGuard guard(s);
  TORCH_CHECK(t.is_cuda, "expected CUDA tensor");
  cudaGraph_t g;
  C10_CUDA_CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal));
  fused_rmsnorm<<<(t.numel + 255) / 256, 256, 0, s>>>(t.data, t.numel);
  C10_CUDA_CHECK(cudaStreamEndCapture(s, &g));
  cudaGraphExec_t exec;
  C10_CUDA_CHECK(cudaGraphInstantiate(&exec, g, 0));
  cudaGraphDestroy(g);
  C10_CUDA_CHECK(cudaGraphLaunch(exec, s));
  C10_CUDA_CHECK(cudaGraphExecDestroy(exec));
}

// Buggy: returns the tensor without destroying the exec.
Tensor graph_rmsnorm(Tensor t, cudaStream_t s) {
  c10lite::CUDAStreamGuard guard(s);
  cudaGraph_t g;
  C10_CUDA_CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal));
  fused_rmsnorm<<<(t.numel + 255) / 256, 256, 0, s>>>(t.data, t.numel);
  C10_CUDA_CHECK(cudaStreamEndCapture(s, &g));
  cudaGraphExec_t exec;
  C10_CUDA_CHECK(cudaGraphInstantiate(&exec, g, 0));  // EXPECT: cudagraph-unpaired-instantiate
  cudaGraphDestroy(g);
  C10_CUDA_CHECK(cudaGraphLaunch(exec, s));
  return t;
}

// Buggy: the exception is caught inside the function and the exec is abandoned.
bool try_graph_rmsnorm(Tensor& t, cudaStream_t s) {
  cudaGraph_t g;
  cudaGraphExec_t exec;
  try {
    C10_CUDA_CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal));
    fused_rmsnorm<<<(t.numel + 255) / 256, 256, 0, s>>>(t.data, t.numel);
    C10_CUDA_CHECK(cudaStreamEndCapture(s, &g));
    C10_CUDA_CHECK(cudaGraphInstantiate(&exec, g, 0));  // EXPECT: cudagraph-unpaired-instantiate
    cudaGraphDestroy(g);
    C10_CUDA_CHECK(cudaGraphLaunch(exec, s));
    C10_CUDA_CHECK(cudaGraphExecDestroy(exec));
  } catch (const c10lite::Error&) {
    return false;
  }
  return true;
}

// Correct: the catch handler destroys what was instantiated.
bool try_graph_rmsnorm_fixed(Tensor& t, cudaStream_t s) {
  cudaGraph_t g;
  cudaGraphExec_t exec = nullptr;
  try {
    C10_CUDA_CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal));
    fused_rmsnorm<<<(t.numel + 255) / 256, 256, 0, s>>>(t.data, t.numel);
    C10_CUDA_CHECK(cudaStreamEndCapture(s, &g));
    C10_CUDA_CHECK(cudaGraphInstantiate(&exec, g, 0));
    cudaGraphDestroy(g);
    C10_CUDA_CHECK(cudaGraphLaunch(exec, s));
  } catch (const c10lite::Error&) {
    if (exec) cudaGraphExecDestroy(exec);
    return false;
  }
  cudaGraphExecDestroy(exec);
  return true;
}

// Correct: TORCH_CHECK on the shape throws out of the function after instantiation.
void replay_checked(Tensor& t, cudaGraph_t g, cudaStream_t s, long expected) {
  cudaGraphExec_t exec;
  C10_CUDA_CHECK(cudaGraphInstantiate(&exec, g, 0));
  TORCH_CHECK(t.numel == expected, "shape changed since capture");
  C10_CUDA_CHECK(cudaGraphLaunch(exec, s));
  cudaGraphExecDestroy(exec);
}
