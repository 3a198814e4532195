// ML framework backend: move-only handle classes (std::exchange / swap),
// a graph exec owner, and a factory returning owners by value.
#include <cuda_runtime.h>
#include <cstdio>
#include <utility>
#include <vector>

__global__ void add_bias(float *y, const float *b, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] += b[i % 128];
}

class Stream {
 public:
  Stream() = default;
  explicit Stream(unsigned flags) { cudaStreamCreateWithFlags(&s_, flags); }
  ~Stream() { reset(); }
  Stream(const Stream &) = delete;
  Stream &operator=(const Stream &) = delete;
  Stream(Stream &&o) noexcept : s_(std::exchange(o.s_, nullptr)) {}
  Stream &operator=(Stream &&o) noexcept {
    if (this != &o) {
      reset();
      s_ = std::exchange(o.s_, nullptr);
    }
    return *this;
  }
  void reset() {
    if (s_ != nullptr) {
      cudaStreamDestroy(s_);
      s_ = nullptr;
    }
  }
  cudaStream_t get() const { return s_; }

 private:
  cudaStream_t s_ = nullptr;
};

class GraphExec {
 public:
  GraphExec() = default;
  explicit GraphExec(cudaGraphExec_t e) : e_(e) {}
  ~GraphExec() {
    if (e_) cudaGraphExecDestroy(e_);
  }
  GraphExec(GraphExec &&o) noexcept { swap(o); }
  GraphExec &operator=(GraphExec &&o) noexcept {
    GraphExec tmp(std::move(o));
    swap(tmp);
    return *this;
  }
  GraphExec(const GraphExec &) = delete;
  GraphExec &operator=(const GraphExec &) = delete;
  void swap(GraphExec &o) noexcept { std::swap(e_, o.e_); }
  explicit operator bool() const { return e_ != nullptr; }
  cudaGraphExec_t get() const { return e_; }

 private:
  cudaGraphExec_t e_ = nullptr;
};

static GraphExec capture_bias(cudaStream_t s, float *y, const float *b, int n) {
  cudaGraph_t g = nullptr;
  if (cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal) != cudaSuccess) return GraphExec();
  add_bias<<<(n + 255) / 256, 256, 0, s>>>(y, b, n);
  cudaError_t st = cudaStreamEndCapture(s, &g);
  if (st != cudaSuccess) return GraphExec();
  cudaGraphExec_t e = nullptr;
  st = cudaGraphInstantiate(&e, g, 0);
  cudaGraphDestroy(g);
  if (st != cudaSuccess) return GraphExec();
  return GraphExec(e);
}

int main() {
  const int n = 4096;
  float *y = nullptr, *b = nullptr;
  if (cudaMalloc(&y, n * sizeof(float)) != cudaSuccess) return 1;
  if (cudaMalloc(&b, 128 * sizeof(float)) != cudaSuccess) {
    cudaFree(y);
    return 1;
  }
  cudaMemset(y, 0, n * sizeof(float));
  cudaMemset(b, 0, 128 * sizeof(float));

  std::vector<Stream> streams;
  for (int i = 0; i < 3; ++i) streams.emplace_back(cudaStreamNonBlocking);
  Stream main_stream = std::move(streams.back());
  streams.pop_back();

  GraphExec exec = capture_bias(main_stream.get(), y, b, n);
  GraphExec other;
  other = std::move(exec);
  if (other) {
    for (int it = 0; it < 10; ++it) cudaGraphLaunch(other.get(), main_stream.get());
  }
  cudaStreamSynchronize(main_stream.get());
  for (auto &s : streams) cudaStreamSynchronize(s.get());
  cudaFree(b);
  cudaFree(y);
  std::printf("done\n");
  return 0;
}
