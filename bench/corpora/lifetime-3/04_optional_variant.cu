// Holders built on std::optional and std::variant.
// CORRECT: execs stored into optional/variant members and destroyed on reset.
#include <cuda_runtime.h>
#include <optional>
#include <variant>
#include <cstdio>

class LazyGraph {
public:
  explicit LazyGraph(cudaGraph_t g) : g_(g) {}
  ~LazyGraph() { reset(); }

  void reset() {
    if (exec_) {
      cudaGraphExecDestroy(*exec_);
      exec_.reset();
    }
  }

  cudaError_t launch(cudaStream_t s) {
    if (!exec_) {
      cudaGraphExec_t e = nullptr;
      cudaError_t st = cudaGraphInstantiate(&e, g_, 0);
      if (st != cudaSuccess) return st;
      exec_ = e;
    }
    return cudaGraphLaunch(*exec_, s);
  }

private:
  cudaGraph_t g_;
  std::optional<cudaGraphExec_t> exec_;
};

struct Eager {};
struct Failed { cudaError_t why; };
using Mode = std::variant<Eager, cudaGraphExec_t, Failed>;

class Runner {
public:
  Runner(cudaGraph_t g) {
    cudaGraphExec_t e;
    cudaError_t st = cudaGraphInstantiate(&e, g, 0);
    if (st == cudaSuccess)
      mode_ = e;
    else
      mode_ = Failed{st};
  }
  ~Runner() {
    if (auto *e = std::get_if<cudaGraphExec_t>(&mode_))
      cudaGraphExecDestroy(*e);
  }
  void step(cudaStream_t s) {
    if (auto *e = std::get_if<cudaGraphExec_t>(&mode_))
      cudaGraphLaunch(*e, s);
    else if (auto *f = std::get_if<Failed>(&mode_))
      std::fprintf(stderr, "graph unavailable: %s\n", cudaGetErrorString(f->why));
  }

private:
  Mode mode_ = Eager{};
};

std::optional<cudaGraphExec_t> try_instantiate(cudaGraph_t g) {
  cudaGraphExec_t e = nullptr;
  if (cudaGraphInstantiate(&e, g, cudaGraphInstantiateFlagAutoFreeOnLaunch) != cudaSuccess)
    return std::nullopt;
  return e;
}

int use_optional(cudaGraph_t g, cudaStream_t s) {
  std::optional<cudaGraphExec_t> e = try_instantiate(g);
  if (!e) return 1;
  cudaGraphLaunch(*e, s);
  cudaStreamSynchronize(s);
  cudaGraphExecDestroy(*e);
  return 0;
}
