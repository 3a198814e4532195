// Move-only RAII owners for a graph exec and a device buffer: the move
// constructor steals and nulls, the move assignment releases its own handle
// first, and swap-based assignment. Kept in containers and returned from
// factories. All correct.
#include <cuda_runtime.h>
#include <cstddef>
#include <utility>
#include <vector>

class GraphExec {
 public:
  GraphExec() = default;
  explicit GraphExec(cudaGraph_t g) {
    if (cudaGraphInstantiate(&exec_, g, 0) != cudaSuccess) exec_ = nullptr;
  }
  ~GraphExec() {
    if (exec_) cudaGraphExecDestroy(exec_);
  }
  GraphExec(const GraphExec &) = delete;
  GraphExec &operator=(const GraphExec &) = delete;
  GraphExec(GraphExec &&o) noexcept : exec_(o.exec_) { o.exec_ = nullptr; }
  GraphExec &operator=(GraphExec &&o) noexcept {
    if (this != &o) {
      if (exec_) cudaGraphExecDestroy(exec_);
      exec_ = o.exec_;
      o.exec_ = nullptr;
    }
    return *this;
  }
  explicit operator bool() const { return exec_ != nullptr; }
  cudaError_t launch(cudaStream_t s) const { return cudaGraphLaunch(exec_, s); }

 private:
  cudaGraphExec_t exec_ = nullptr;
};

class DeviceArray {
 public:
  DeviceArray() = default;
  explicit DeviceArray(size_t n) : n_(n) {
    if (cudaMalloc(&p_, n * sizeof(float)) != cudaSuccess) {
      p_ = nullptr;
      n_ = 0;
    }
  }
  ~DeviceArray() { cudaFree(p_); }
  DeviceArray(const DeviceArray &) = delete;
  DeviceArray &operator=(const DeviceArray &) = delete;
  DeviceArray(DeviceArray &&o) noexcept { swap(o); }
  DeviceArray &operator=(DeviceArray &&o) noexcept {
    DeviceArray tmp(std::move(o));
    swap(tmp);
    return *this;
  }
  void swap(DeviceArray &o) noexcept {
    std::swap(p_, o.p_);
    std::swap(n_, o.n_);
  }
  float *data() const { return p_; }
  size_t size() const { return n_; }

 private:
  float *p_ = nullptr;
  size_t n_ = 0;
};

__global__ void bump(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] += 1.f;
}

static GraphExec make_exec(cudaStream_t s, float *x, int n) {
  cudaGraph_t g = nullptr;
  if (cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal) != cudaSuccess) return GraphExec();
  bump<<<(n + 255) / 256, 256, 0, s>>>(x, n);
  if (cudaStreamEndCapture(s, &g) != cudaSuccess) return GraphExec();
  GraphExec e(g);
  cudaGraphDestroy(g);
  return e;
}

int build_layers(cudaStream_t s, int layers, int n) {
  std::vector<DeviceArray> acts;
  std::vector<GraphExec> execs;
  for (int l = 0; l < layers; ++l) {
    acts.emplace_back((size_t)n);
    if (!acts.back().data()) return 1;
    GraphExec e = make_exec(s, acts.back().data(), n);
    if (!e) return 2;
    execs.push_back(std::move(e));
  }
  DeviceArray grown((size_t)n * 2);
  acts[0] = std::move(grown);
  execs[0] = make_exec(s, acts[0].data(), n * 2);
  for (auto &e : execs) e.launch(s);
  return cudaStreamSynchronize(s) == cudaSuccess ? 0 : 3;
}
