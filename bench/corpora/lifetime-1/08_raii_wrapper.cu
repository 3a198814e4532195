// A move-only RAII owner for graph execs, as many CUDA codebases write one.
#include <cuda_runtime.h>
#include <cstdio>
#include <utility>

class GraphExec {
public:
  GraphExec() = default;
  explicit GraphExec(cudaGraphExec_t h) : h_(h) {}
  GraphExec(GraphExec &&o) noexcept : h_(std::exchange(o.h_, nullptr)) {}
  GraphExec &operator=(GraphExec &&o) noexcept {
    if (this != &o) {
      reset();
      h_ = std::exchange(o.h_, nullptr);
    }
    return *this;
  }
  GraphExec(const GraphExec &) = delete;
  GraphExec &operator=(const GraphExec &) = delete;
  ~GraphExec() { reset(); }

  void reset() {
    if (h_) {
      cudaGraphExecDestroy(h_);
      h_ = nullptr;
    }
  }
  cudaGraphExec_t get() const { return h_; }
  explicit operator bool() const { return h_ != nullptr; }

  // Correct: releases the old exec before re-instantiating.
  cudaError_t instantiate(cudaGraph_t g) {
    reset();
    return cudaGraphInstantiate(&h_, g, 0);
  }

  // Buggy: when h_ already holds an exec and the in-place update fails, the
  // fallback instantiates over it.
  cudaError_t refresh(cudaGraph_t g) {
    if (h_ != nullptr) {
      cudaGraphExecUpdateResultInfo info;
      if (cudaGraphExecUpdate(h_, g, &info) == cudaSuccess)
        return cudaSuccess;
    }
    return cudaGraphInstantiate(&h_, g, 0); // EXPECT: cudagraph-unpaired-instantiate
  }

  // Correct version of refresh.
  cudaError_t refresh_ok(cudaGraph_t g) {
    if (h_ != nullptr) {
      cudaGraphExecUpdateResultInfo info;
      if (cudaGraphExecUpdate(h_, g, &info) == cudaSuccess)
        return cudaSuccess;
      cudaGraphExecDestroy(h_);
      h_ = nullptr;
    }
    return cudaGraphInstantiate(&h_, g, 0);
  }

private:
  cudaGraphExec_t h_ = nullptr;
};

// Correct: the raw handle is immediately adopted by the owner.
GraphExec make_exec(cudaGraph_t g) {
  cudaGraphExec_t raw = nullptr;
  if (cudaGraphInstantiate(&raw, g, 0) != cudaSuccess)
    return GraphExec();
  return GraphExec(raw);
}

// Correct: adopted into a local owner, early returns are fine.
bool run_owned(cudaGraph_t g, cudaStream_t s, int steps) {
  cudaGraphExec_t raw;
  if (cudaGraphInstantiate(&raw, g, 0) != cudaSuccess)
    return false;
  GraphExec owner(raw);
  if (steps <= 0)
    return true;
  for (int i = 0; i < steps; ++i)
    if (cudaGraphLaunch(owner.get(), s) != cudaSuccess)
      return false;
  return true;
}

// Buggy: the owner is created too late; the upload failure leaks raw.
bool run_owned_late(cudaGraph_t g, cudaStream_t s) {
  cudaGraphExec_t raw;
  if (cudaGraphInstantiate(&raw, g, 0) != cudaSuccess) // EXPECT: cudagraph-unpaired-instantiate
    return false;
  if (cudaGraphUpload(raw, s) != cudaSuccess)
    return false;
  GraphExec owner(raw);
  return cudaGraphLaunch(owner.get(), s) == cudaSuccess;
}
