// RAII capture guard: the constructor begins a capture on the stream it is
// given, the destructor ends it and keeps the graph; eager verification runs
// after the guard's scope. Models an inference runtime's graph recorder.
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>

#define CHECK(x)                                                                    \
  do {                                                                              \
    cudaError_t e_ = (x);                                                           \
    if (e_ != cudaSuccess) {                                                        \
      std::fprintf(stderr, "%s failed: %s\n", #x, cudaGetErrorString(e_));          \
      std::exit(1);                                                                 \
    }                                                                               \
  } while (0)

__global__ void layer(float *x, int n, float w) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = x[i] * w + 1.f;
}

class ScopedCapture {
 public:
  ScopedCapture(cudaStream_t s, cudaGraph_t *out) : stream_(s), out_(out) {
    CHECK(cudaStreamBeginCapture(stream_, cudaStreamCaptureModeThreadLocal));
  }
  ~ScopedCapture() {
    cudaError_t st = cudaStreamEndCapture(stream_, out_);
    if (st != cudaSuccess) *out_ = nullptr;
  }
  ScopedCapture(const ScopedCapture &) = delete;
  ScopedCapture &operator=(const ScopedCapture &) = delete;

 private:
  cudaStream_t stream_;
  cudaGraph_t *out_;
};

static void forward(cudaStream_t s, float *x, int n) {
  for (int l = 0; l < 4; ++l) layer<<<(n + 255) / 256, 256, 0, s>>>(x, n, 0.5f + l);
}

int main() {
  const int n = 1 << 16;
  cudaStream_t s;
  CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  float *x, *host;
  CHECK(cudaMalloc(&x, n * sizeof(float)));
  CHECK(cudaMallocHost(&host, n * sizeof(float)));
  CHECK(cudaMemsetAsync(x, 0, n * sizeof(float), s));
  CHECK(cudaStreamSynchronize(s));

  cudaGraph_t graph = nullptr;
  {
    ScopedCapture cap(s, &graph);
    forward(s, x, n);
  }  // capture ends here
  if (graph == nullptr) {
    std::fprintf(stderr, "capture failed\n");
    cudaFreeHost(host);
    cudaFree(x);
    cudaStreamDestroy(s);
    return 1;
  }

  // Eager reference run, outside any capture.
  CHECK(cudaStreamSynchronize(s));
  CHECK(cudaMemcpy(host, x, n * sizeof(float), cudaMemcpyDeviceToHost));
  float ref = host[0];

  cudaGraphExec_t exec;
  CHECK(cudaGraphInstantiate(&exec, graph, 0));
  CHECK(cudaGraphDestroy(graph));
  CHECK(cudaMemsetAsync(x, 0, n * sizeof(float), s));
  CHECK(cudaGraphLaunch(exec, s));
  CHECK(cudaStreamSynchronize(s));
  CHECK(cudaMemcpy(host, x, n * sizeof(float), cudaMemcpyDeviceToHost));
  std::printf("ref %f graph %f\n", ref, host[0]);

  CHECK(cudaGraphExecDestroy(exec));
  CHECK(cudaFreeHost(host));
  CHECK(cudaFree(x));
  CHECK(cudaStreamDestroy(s));
  return 0;
}
