// Modern-ish C++: auto everywhere, references and pointers to the handle.
#include <cuda_runtime.h>
#include <memory>
#include <cstdio>

namespace {

auto capture(cudaStream_t s, void* p, size_t n) {
  auto g = cudaGraph_t{};
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  cudaMemsetAsync(p, 0, n, s);
  cudaStreamEndCapture(s, &g);
  return g;
}

struct ExecDeleter {
  void operator()(CUgraphExec_st* e) const { cudaGraphExecDestroy(e); }
};
using ExecPtr = std::unique_ptr<CUgraphExec_st, ExecDeleter>;

}  // namespace

// Correct: destroyed through a pointer alias of the handle.
auto run_alias(cudaStream_t s, void* p, size_t n) -> int {
  auto g = capture(s, p, n);
  auto exec = cudaGraphExec_t{};
  auto err = cudaGraphInstantiate(&exec, g, 0);
  cudaGraphDestroy(g);
  if (err != cudaSuccess) return -1;
  auto* handle = &exec;
  cudaGraphLaunch(*handle, s);
  cudaGraphExecDestroy(*handle);
  return 0;
}

// Correct: destroyed through a reference.
auto run_ref(cudaStream_t s, void* p, size_t n) {
  auto g = capture(s, p, n);
  cudaGraphExec_t exec{};
  auto& ref = exec;
  if (auto err = cudaGraphInstantiate(&ref, g, 0); err != cudaSuccess) {
    cudaGraphDestroy(g);
    return err;
  }
  cudaGraphDestroy(g);
  const auto launched = cudaGraphLaunch(exec, s);
  cudaGraphExecDestroy(ref);
  return launched;
}

// Correct: RAII owner takes the exec right away.
auto run_owned(cudaStream_t s, void* p, size_t n) {
  auto g = capture(s, p, n);
  auto raw = cudaGraphExec_t{};
  auto ok = cudaGraphInstantiate(&raw, g, 0) == cudaSuccess;
  cudaGraphDestroy(g);
  if (!ok) return false;
  auto owner = ExecPtr{raw};
  for (auto i = 0; i < 3; ++i)
    if (cudaGraphLaunch(owner.get(), s) != cudaSuccess) return false;
  return true;
}

// Correct: copy of the handle via auto is what gets destroyed.
auto run_copy(cudaStream_t s, void* p, size_t n) {
  auto g = capture(s, p, n);
  cudaGraphExec_t exec;
  if (cudaGraphInstantiate(&exec, g, 0) != cudaSuccess) {
    cudaGraphDestroy(g);
    return 1;
  }
  cudaGraphDestroy(g);
  auto copy = exec;
  auto again = copy;
  cudaGraphLaunch(exec, s);
  cudaGraphExecDestroy(again);
  return 0;
}

int main() {
  auto s = cudaStream_t{};
  cudaStreamCreate(&s);
  void* p = nullptr;
  cudaMalloc(&p, 256);
  std::printf("%d %d %d %d\n", run_alias(s, p, 256), (int)run_ref(s, p, 256),
              (int)run_owned(s, p, 256), run_copy(s, p, 256));
  cudaFree(p);
  cudaStreamDestroy(s);
  return 0;
}
