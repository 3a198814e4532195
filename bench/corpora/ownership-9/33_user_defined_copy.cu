// Copyable owners done right. ClonedGraph's copy constructor clones the graph
// and instantiates its own exec; copy assignment is copy-and-swap.
// ScratchBuffer deep-copies its device memory. StreamView is a non-owning
// handle (no destructor) copied freely. All correct.
#include <cuda_runtime.h>
#include <cstddef>
#include <utility>
#include <vector>

class ClonedGraph {
 public:
  explicit ClonedGraph(cudaGraph_t src) {
    if (cudaGraphClone(&graph_, src) != cudaSuccess) return;
    if (cudaGraphInstantiate(&exec_, graph_, 0) != cudaSuccess) exec_ = nullptr;
  }
  ClonedGraph(const ClonedGraph &o) {
    if (!o.graph_) return;
    if (cudaGraphClone(&graph_, o.graph_) != cudaSuccess) return;
    if (cudaGraphInstantiate(&exec_, graph_, 0) != cudaSuccess) exec_ = nullptr;
  }
  ClonedGraph &operator=(ClonedGraph o) {
    std::swap(graph_, o.graph_);
    std::swap(exec_, o.exec_);
    return *this;
  }
  ~ClonedGraph() {
    if (exec_) cudaGraphExecDestroy(exec_);
    if (graph_) cudaGraphDestroy(graph_);
  }
  cudaError_t launch(cudaStream_t s) const { return exec_ ? cudaGraphLaunch(exec_, s) : cudaErrorInvalidValue; }

 private:
  cudaGraph_t graph_ = nullptr;
  cudaGraphExec_t exec_ = nullptr;
};

class ScratchBuffer {
 public:
  explicit ScratchBuffer(size_t n) : n_(n) {
    if (cudaMalloc(&p_, n) != cudaSuccess) {
      p_ = nullptr;
      n_ = 0;
    }
  }
  ScratchBuffer(const ScratchBuffer &o) : n_(o.n_) {
    if (cudaMalloc(&p_, n_) != cudaSuccess) {
      p_ = nullptr;
      n_ = 0;
      return;
    }
    cudaMemcpy(p_, o.p_, n_, cudaMemcpyDeviceToDevice);
  }
  ScratchBuffer &operator=(const ScratchBuffer &o) {
    if (this == &o) return *this;
    ScratchBuffer tmp(o);
    std::swap(p_, tmp.p_);
    std::swap(n_, tmp.n_);
    return *this;
  }
  ~ScratchBuffer() { cudaFree(p_); }
  void *data() const { return p_; }

 private:
  void *p_ = nullptr;
  size_t n_ = 0;
};

struct StreamView {
  cudaStream_t s;
  int priority;
};

static void launch_on(ClonedGraph g, StreamView v) { g.launch(v.s); }

int replicate(cudaGraph_t proto, cudaStream_t s, int replicas, size_t scratch) {
  ClonedGraph base(proto);
  std::vector<ClonedGraph> copies;
  for (int i = 0; i < replicas; ++i) copies.push_back(base);
  ClonedGraph assigned(proto);
  assigned = base;
  StreamView v{s, 0};
  StreamView w = v;
  launch_on(base, w);
  for (auto &c : copies) c.launch(v.s);
  ScratchBuffer a(scratch);
  ScratchBuffer b = a;
  std::vector<ScratchBuffer> many(3, a);
  b = many[1];
  return cudaStreamSynchronize(s) == cudaSuccess ? 0 : 1;
}
