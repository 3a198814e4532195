// llama.cpp-style CUDA graph cache: capture each step, try cudaGraphExecUpdate
// on the existing exec, re-instantiate only when the update fails; the exec is
// destroyed in the destructor.
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CUDA_CHECK(x)                                                              \
  do {                                                                             \
    cudaError_t err_ = (x);                                                        \
    if (err_ != cudaSuccess) {                                                     \
      std::fprintf(stderr, "CUDA error %s at %s:%d\n", cudaGetErrorString(err_), __FILE__, __LINE__); \
      std::abort();                                                                \
    }                                                                              \
  } while (0)

__global__ void add_kernel(float *x, const float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] += y[i];
}
__global__ void scale_kernel(float *x, float s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= s;
}

struct ggml_cuda_graph {
  ~ggml_cuda_graph() {
    if (instance != nullptr) CUDA_CHECK(cudaGraphExecDestroy(instance));
    if (graph != nullptr) CUDA_CHECK(cudaGraphDestroy(graph));
  }
  cudaGraph_t graph = nullptr;
  cudaGraphExec_t instance = nullptr;
  size_t num_nodes = 0;
  bool disable_due_to_failed_graph_capture = false;
  int number_consecutive_updates = 0;
  std::vector<int> prev_sizes;
};

struct ggml_backend_cuda_context {
  cudaStream_t stream = nullptr;
  ggml_cuda_graph cuda_graph;
  ~ggml_backend_cuda_context() {
    if (stream) CUDA_CHECK(cudaStreamDestroy(stream));
  }
};

static void evaluate(ggml_backend_cuda_context &ctx, float *x, const float *y, int n, int layers) {
  for (int l = 0; l < layers; ++l) {
    add_kernel<<<(n + 255) / 256, 256, 0, ctx.stream>>>(x, y, n);
    scale_kernel<<<(n + 255) / 256, 256, 0, ctx.stream>>>(x, 0.5f, n);
  }
}

static void update_cuda_graph_executable(ggml_backend_cuda_context &ctx) {
  cudaGraphExecUpdateResultInfo result_info;
  cudaError_t stat = cudaGraphExecUpdate(ctx.cuda_graph.instance, ctx.cuda_graph.graph, &result_info);
  if (stat == cudaErrorGraphExecUpdateFailure) {
    // The graph topology changed: the exec is rebuilt from the new graph.
    (void)cudaGetLastError();
    CUDA_CHECK(cudaGraphExecDestroy(ctx.cuda_graph.instance));
    ctx.cuda_graph.instance = nullptr;
    CUDA_CHECK(cudaGraphInstantiate(&ctx.cuda_graph.instance, ctx.cuda_graph.graph, 0));
  } else {
    CUDA_CHECK(stat);
  }
}

static void graph_compute(ggml_backend_cuda_context &ctx, float *x, const float *y, int n, int layers) {
  bool use_cuda_graph = !ctx.cuda_graph.disable_due_to_failed_graph_capture;
  if (!use_cuda_graph) {
    evaluate(ctx, x, y, n, layers);
    return;
  }
  if (ctx.cuda_graph.graph != nullptr) {
    CUDA_CHECK(cudaGraphDestroy(ctx.cuda_graph.graph));
    ctx.cuda_graph.graph = nullptr;
  }
  CUDA_CHECK(cudaStreamBeginCapture(ctx.stream, cudaStreamCaptureModeRelaxed));
  evaluate(ctx, x, y, n, layers);
  cudaError_t stat = cudaStreamEndCapture(ctx.stream, &ctx.cuda_graph.graph);
  if (stat == cudaErrorStreamCaptureInvalidated) {
    ctx.cuda_graph.disable_due_to_failed_graph_capture = true;
    ctx.cuda_graph.graph = nullptr;
    evaluate(ctx, x, y, n, layers);
    return;
  }
  CUDA_CHECK(stat);
  if (ctx.cuda_graph.instance == nullptr) {
    CUDA_CHECK(cudaGraphInstantiate(&ctx.cuda_graph.instance, ctx.cuda_graph.graph, 0));
  } else {
    update_cuda_graph_executable(ctx);
  }
  CUDA_CHECK(cudaGraphLaunch(ctx.cuda_graph.instance, ctx.stream));
}

int main() {
  ggml_backend_cuda_context ctx;
  CUDA_CHECK(cudaStreamCreateWithFlags(&ctx.stream, cudaStreamNonBlocking));
  const int n = 1 << 16;
  float *x, *y;
  CUDA_CHECK(cudaMalloc(&x, n * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&y, n * sizeof(float)));
  CUDA_CHECK(cudaMemsetAsync(x, 0, n * sizeof(float), ctx.stream));
  CUDA_CHECK(cudaMemsetAsync(y, 0, n * sizeof(float), ctx.stream));
  for (int tok = 0; tok < 8; ++tok) graph_compute(ctx, x, y, n, 1 + (tok % 3 == 0));
  CUDA_CHECK(cudaStreamSynchronize(ctx.stream));
  CUDA_CHECK(cudaFree(y));
  CUDA_CHECK(cudaFree(x));
  return 0;
}
