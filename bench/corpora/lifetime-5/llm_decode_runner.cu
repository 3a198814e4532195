// Decode-step CUDA graph runner for an autoregressive LLM server.
// One graph is captured per padded batch-size bucket; graphs are cached in an
// unordered_map and released in the destructor.
#include <cuda_runtime.h>
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <unordered_map>
#include <vector>

namespace serve {

struct DecodeShape {
  int batch = 0;
  int max_seq = 0;
  int hidden = 0;
  bool operator==(const DecodeShape& o) const {
    return batch == o.batch && max_seq == o.max_seq && hidden == o.hidden;
  }
};

__global__ void embed_kernel(const int* tokens, float* h, int n, int hidden) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n * hidden) h[i] = static_cast<float>(tokens[i / hidden] % 97) * 0.01f;
}

__global__ void attn_kernel(float* h, const float* kv, int n, int hidden, int seq) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n * hidden) h[i] += kv[i % (hidden * seq)] * 0.5f;
}

__global__ void lm_head_kernel(const float* h, int* next, int n, int hidden) {
  int b = blockIdx.x * blockDim.x + threadIdx.x;
  if (b < n) next[b] = static_cast<int>(h[b * hidden]) & 0xffff;
}

[[noreturn]] static void fatal(const char* what, cudaError_t e) {
  std::fprintf(stderr, "decode-runner: %s: %s\n", what, cudaGetErrorString(e));
  std::abort();
}

static int pad_batch(int bs) {
  static const int buckets[] = {1, 2, 4, 8, 16, 32, 64, 128};
  for (int b : buckets)
    if (bs <= b) return b;
  return -1;
}

class DecodeGraphRunner {
 public:
  DecodeGraphRunner(int hidden, int max_seq, cudaStream_t s)
      : hidden_(hidden), max_seq_(max_seq), stream_(s) {
    cudaMalloc(&tokens_, 128 * sizeof(int));
    cudaMalloc(&hidden_buf_, 128 * hidden * sizeof(float));
    cudaMalloc(&kv_, hidden * max_seq * sizeof(float));
    cudaMalloc(&next_, 128 * sizeof(int));
  }

  ~DecodeGraphRunner() {
    for (auto& kv : execs_) cudaGraphExecDestroy(kv.second);
    execs_.clear();
    cudaFree(tokens_);
    cudaFree(hidden_buf_);
    cudaFree(kv_);
    cudaFree(next_);
  }

  DecodeGraphRunner(const DecodeGraphRunner&) = delete;
  DecodeGraphRunner& operator=(const DecodeGraphRunner&) = delete;

  cudaError_t step(int batch) {
    int bucket = pad_batch(batch);
    if (bucket < 0) return cudaErrorInvalidValue;
    auto it = execs_.find(bucket);
    if (it == execs_.end()) {
      cudaError_t err = capture_bucket(bucket);
      if (err != cudaSuccess) return err;
      it = execs_.find(bucket);
    }
    return cudaGraphLaunch(it->second, stream_);
  }

  // Captures and caches the graph for one bucket. Correct: exec goes into the map.
  cudaError_t capture_bucket(int bucket) {
    cudaGraph_t graph = nullptr;
    cudaError_t err = record(bucket, &graph);
    if (err != cudaSuccess) return err;
    cudaGraphExec_t exec = nullptr;
    err = cudaGraphInstantiate(&exec, graph, 0);
    cudaGraphDestroy(graph);
    if (err != cudaSuccess) return err;
    execs_[bucket] = exec;
    return cudaSuccess;
  }

  // Warm-up: run every kernel once eagerly, then once through a throwaway graph.
  cudaError_t warm_up(int bucket) {
    cudaGraph_t graph = nullptr;
    cudaError_t err = record(bucket, &graph);
    if (err != cudaSuccess) return err;
    cudaGraphExec_t tmp = nullptr;
    err = cudaGraphInstantiate(&tmp, graph, 0);  // EXPECT: cudagraph-unpaired-instantiate
    cudaGraphDestroy(graph);
    if (err != cudaSuccess) return err;
    err = cudaGraphLaunch(tmp, stream_);
    if (err != cudaSuccess) return err;  // tmp leaks here
    err = cudaStreamSynchronize(stream_);
    cudaGraphExecDestroy(tmp);
    return err;
  }

  // Shape change: the KV layout changed, so every cached graph must be rebuilt.
  cudaError_t on_shape_change(const DecodeShape& shape) {
    if (shape == shape_) return cudaSuccess;
    shape_ = shape;
    std::vector<int> buckets;
    for (auto& kv : execs_) {
      buckets.push_back(kv.first);
      cudaGraphExecDestroy(kv.second);
    }
    execs_.clear();
    for (int b : buckets) {
      cudaError_t err = capture_bucket(b);
      if (err != cudaSuccess) return err;
    }
    return cudaSuccess;
  }

  // Re-capture of the largest bucket with a longer sequence; the first
  // instantiation is for the short prompt and is replaced for long prompts.
  cudaError_t capture_long_context(int bucket, bool long_prompt) {
    cudaGraph_t graph = nullptr;
    cudaError_t err = record(bucket, &graph);
    if (err != cudaSuccess) return err;
    cudaGraphExec_t exec = nullptr;
    err = cudaGraphInstantiate(&exec, graph, 0);
    if (err != cudaSuccess) {
      cudaGraphDestroy(graph);
      return err;
    }
    if (long_prompt) {
      cudaGraphDestroy(graph);
      max_seq_ *= 2;
      err = record(bucket, &graph);
      if (err != cudaSuccess) return err;
      err = cudaGraphInstantiate(&exec, graph, 0);  // EXPECT: cudagraph-unpaired-instantiate
      if (err != cudaSuccess) {
        cudaGraphDestroy(graph);
        return err;
      }
    }
    cudaGraphDestroy(graph);
    auto old = execs_.find(bucket);
    if (old != execs_.end()) cudaGraphExecDestroy(old->second);
    execs_[bucket] = exec;
    return cudaSuccess;
  }

  // Validation at start-up: instantiate and discard immediately. Legal.
  void validate_or_die(int bucket) {
    cudaGraph_t graph = nullptr;
    cudaError_t err = record(bucket, &graph);
    if (err != cudaSuccess) fatal("record", err);
    cudaGraphExec_t probe = nullptr;
    err = cudaGraphInstantiate(&probe, graph, 0);
    if (err != cudaSuccess) fatal("instantiate", err);
    cudaGraphExecDestroy(probe);
    cudaGraphDestroy(graph);
  }

 private:
  cudaError_t record(int bucket, cudaGraph_t* out) {
    cudaError_t err = cudaStreamBeginCapture(stream_, cudaStreamCaptureModeThreadLocal);
    if (err != cudaSuccess) return err;
    int threads = 256;
    int blocks = (bucket * hidden_ + threads - 1) / threads;
    embed_kernel<<<blocks, threads, 0, stream_>>>(tokens_, hidden_buf_, bucket, hidden_);
    attn_kernel<<<blocks, threads, 0, stream_>>>(hidden_buf_, kv_, bucket, hidden_, max_seq_);
    lm_head_kernel<<<(bucket + 127) / 128, 128, 0, stream_>>>(hidden_buf_, next_, bucket, hidden_);
    return cudaStreamEndCapture(stream_, out);
  }

  int hidden_;
  int max_seq_;
  cudaStream_t stream_;
  DecodeShape shape_;
  int* tokens_ = nullptr;
  float* hidden_buf_ = nullptr;
  float* kv_ = nullptr;
  int* next_ = nullptr;
  std::unordered_map<int, cudaGraphExec_t> execs_;
};

}  // namespace serve

int run_decode_demo() {
  cudaStream_t s;
  cudaStreamCreate(&s);
  {
    serve::DecodeGraphRunner runner(1024, 512, s);
    runner.validate_or_die(8);
    if (runner.warm_up(8) != cudaSuccess) return 1;
    for (int bs : {1, 3, 7, 8, 20}) {
      if (runner.step(bs) != cudaSuccess) return 2;
    }
    runner.on_shape_change(serve::DecodeShape{8, 1024, 1024});
    runner.capture_long_context(32, true);
    cudaStreamSynchronize(s);
  }
  cudaStreamDestroy(s);
  return 0;
}
