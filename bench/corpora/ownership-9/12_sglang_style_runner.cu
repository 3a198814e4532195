// Graph runner in the style of SGLang's CudaGraphRunner: one exec per captured
// batch size (kept in vectors), a memory pool shared by the captures, a capture
// stream, input/output static buffers, and many server flags. capture() is run
// at start-up and again when the server is asked to re-capture after a LoRA
// adapter or max-running-requests change.
#include <cuda_runtime.h>
#include <cstdio>
#include <vector>

__global__ void embed(const int *ids, float *h, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) h[i] = (float)ids[i];
}
__global__ void layer(float *h, int n, int l) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) h[i] = h[i] * 0.9f + (float)l;
}
__global__ void lm_head(const float *h, float *logits, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) logits[i] = h[i];
}

struct ServerArgs {
  bool disable_cuda_graph = false;
  bool disable_cuda_graph_padding = false;
  bool enable_torch_compile = false;
  bool enable_dp_attention = false;
  bool enable_two_batch_overlap = false;
  bool enable_prefill_graph = false;
  bool debug_tensor_dump = false;
  int cuda_graph_max_bs = 160;
  int num_layers = 4;
  int hidden = 4096;
};

class CudaGraphRunner {
 public:
  explicit CudaGraphRunner(const ServerArgs &args) : args_(args) {
    for (int bs = 1; bs <= args_.cuda_graph_max_bs; bs = bs < 8 ? bs * 2 : bs + 8) batch_sizes_.push_back(bs);
    size_t max_tokens = (size_t)args_.cuda_graph_max_bs;
    cudaMalloc(&input_ids_, max_tokens * sizeof(int));
    cudaMalloc(&hidden_, max_tokens * args_.hidden * sizeof(float));
    cudaMalloc(&logits_, max_tokens * args_.hidden * sizeof(float));
    cudaMemPoolProps props = {};
    props.allocType = cudaMemAllocationTypePinned;
    props.location.type = cudaMemLocationTypeDevice;
    props.location.id = 0;
    cudaMemPoolCreate(&graph_pool_, &props);
  }

  ~CudaGraphRunner() {
    release_graphs();
    if (prefill_graph_) cudaGraphDestroy(prefill_graph_);
    if (capture_stream_) cudaStreamDestroy(capture_stream_);
    cudaMemPoolDestroy(graph_pool_);
    cudaFree(logits_);
    cudaFree(hidden_);
    cudaFree(input_ids_);
  }

  CudaGraphRunner(const CudaGraphRunner &) = delete;
  CudaGraphRunner &operator=(const CudaGraphRunner &) = delete;

  bool can_run(int bs) const {
    if (args_.disable_cuda_graph) return false;
    if (args_.disable_cuda_graph_padding) {
      for (int b : batch_sizes_)
        if (b == bs) return true;
      return false;
    }
    return bs <= args_.cuda_graph_max_bs;
  }

  cudaError_t capture() {
    release_graphs();
    cudaError_t st = cudaStreamCreateWithFlags(&capture_stream_, cudaStreamNonBlocking); // EXPECT: cudagraph-handle-leak
    if (st != cudaSuccess) return st;
    for (int bs : batch_sizes_) {
      if (args_.enable_dp_attention && bs % 2) continue;
      cudaGraphExec_t exec = nullptr;
      st = capture_one(bs, &exec);
      if (st != cudaSuccess) {
        std::fprintf(stderr, "capture bs=%d failed: %s\n", bs, cudaGetErrorString(st));
        return st;
      }
      execs_.push_back(exec);
      captured_bs_.push_back(bs);
    }
    return cudaSuccess;
  }

  // Optional whole-prefill graph for short prompts; the graph is kept so that
  // its kernel nodes can be updated in place.
  cudaError_t capture_prefill(int tokens) {
    if (!args_.enable_prefill_graph) return cudaSuccess;
    if (prefill_graph_) {
      cudaGraphDestroy(prefill_graph_);
      prefill_graph_ = nullptr;
    }
    cudaError_t st = cudaStreamBeginCapture(capture_stream_, cudaStreamCaptureModeThreadLocal);
    if (st != cudaSuccess) return st;
    forward(tokens, capture_stream_);
    st = cudaStreamEndCapture(capture_stream_, &prefill_graph_);
    if (st != cudaSuccess) return st;
    return cudaGraphInstantiate(&prefill_exec_, prefill_graph_, 0); // EXPECT: cudagraph-unpaired-instantiate
  }

  cudaError_t replay(int bs, cudaStream_t s) {
    int idx = -1;
    for (size_t i = 0; i < captured_bs_.size(); ++i) {
      if (captured_bs_[i] >= bs) {
        idx = (int)i;
        break;
      }
    }
    if (idx < 0) {
      forward(bs, s);
      return cudaGetLastError();
    }
    if (args_.debug_tensor_dump) std::printf("replay bs=%d as %d\n", bs, captured_bs_[idx]);
    return cudaGraphLaunch(execs_[idx], s);
  }

  cudaError_t replay_prefill(cudaStream_t s) {
    if (!prefill_exec_) return cudaErrorInvalidValue;
    return cudaGraphLaunch(prefill_exec_, s);
  }

 private:
  void forward(int bs, cudaStream_t s) {
    int n = bs * args_.hidden;
    embed<<<(bs + 127) / 128, 128, 0, s>>>(input_ids_, hidden_, bs);
    for (int l = 0; l < args_.num_layers; ++l) layer<<<(n + 255) / 256, 256, 0, s>>>(hidden_, n, l);
    lm_head<<<(n + 255) / 256, 256, 0, s>>>(hidden_, logits_, n);
  }

  cudaError_t capture_one(int bs, cudaGraphExec_t *out) {
    cudaGraph_t g = nullptr;
    cudaError_t st = cudaStreamBeginCapture(capture_stream_, cudaStreamCaptureModeThreadLocal);
    if (st != cudaSuccess) return st;
    forward(bs, capture_stream_);
    if (args_.enable_two_batch_overlap) forward(bs, capture_stream_);
    st = cudaStreamEndCapture(capture_stream_, &g);
    if (st != cudaSuccess) return st;
    st = cudaGraphInstantiate(out, g, 0);
    cudaGraphDestroy(g);
    return st;
  }

  void release_graphs() {
    for (cudaGraphExec_t e : execs_) cudaGraphExecDestroy(e);
    execs_.clear();
    captured_bs_.clear();
  }

  ServerArgs args_;
  std::vector<int> batch_sizes_;
  std::vector<int> captured_bs_;
  std::vector<cudaGraphExec_t> execs_;
  cudaStream_t capture_stream_ = nullptr;
  cudaMemPool_t graph_pool_ = nullptr;
  cudaGraph_t prefill_graph_ = nullptr;
  cudaGraphExec_t prefill_exec_ = nullptr;
  int *input_ids_ = nullptr;
  float *hidden_ = nullptr;
  float *logits_ = nullptr;
};

int serve(const ServerArgs &args, const int *batch_trace, int steps, bool recapture_midway) {
  CudaGraphRunner runner(args);
  cudaStream_t s;
  if (cudaStreamCreate(&s) != cudaSuccess) return 1;
  int rc = 0;
  if (!args.disable_cuda_graph && runner.capture() != cudaSuccess) rc = 2;
  if (rc == 0 && runner.capture_prefill(512) != cudaSuccess) rc = 3;
  for (int i = 0; rc == 0 && i < steps; ++i) {
    if (recapture_midway && i == steps / 2 && runner.capture() != cudaSuccess) rc = 4;
    if (rc == 0 && runner.can_run(batch_trace[i])) runner.replay(batch_trace[i], s);
  }
  if (rc == 0 && args.enable_prefill_graph) runner.replay_prefill(s);
  cudaStreamSynchronize(s);
  cudaStreamDestroy(s);
  return rc;
}
