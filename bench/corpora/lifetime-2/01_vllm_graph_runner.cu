// vLLM-style decode graph runner: one graph per padded batch size.
#include <cuda_runtime.h>
#include <cstdio>
#include <map>
#include <vector>
#include <algorithm>

__global__ void decode_step(float* hidden, const int* tokens, int bs) {}

struct DecodeBuffers {
  float* hidden = nullptr;
  int* tokens = nullptr;
};

static const int kCaptureSizes[] = {1, 2, 4, 8, 16, 32, 64, 128};

class CUDAGraphRunner {
 public:
  explicit CUDAGraphRunner(cudaStream_t s) : stream_(s) {}
  ~CUDAGraphRunner() {
    for (auto& kv : graphs_) cudaGraphExecDestroy(kv.second);
  }

  // Correct: every exec ends up in graphs_.
  cudaError_t capture_all(DecodeBuffers& buf) {
    for (int bs : kCaptureSizes) {
      cudaGraph_t graph;
      cudaError_t err = cudaStreamBeginCapture(stream_, cudaStreamCaptureModeThreadLocal);
      if (err != cudaSuccess) return err;
      decode_step<<<bs, 128, 0, stream_>>>(buf.hidden, buf.tokens, bs);
      err = cudaStreamEndCapture(stream_, &graph);
      if (err != cudaSuccess) return err;
      cudaGraphExec_t exec;
      err = cudaGraphInstantiate(&exec, graph, 0);
      cudaGraphDestroy(graph);
      if (err != cudaSuccess) return err;
      graphs_[bs] = exec;
    }
    return cudaSuccess;
  }

  // Buggy: a warm-up exec is instantiated to time one replay and never destroyed.
  float warmup_latency_ms(DecodeBuffers& buf, int bs) {
    cudaGraph_t graph;
    cudaStreamBeginCapture(stream_, cudaStreamCaptureModeThreadLocal);
    decode_step<<<bs, 128, 0, stream_>>>(buf.hidden, buf.tokens, bs);
    cudaStreamEndCapture(stream_, &graph);
    cudaGraphExec_t exec;
    cudaGraphInstantiate(&exec, graph, 0);  // EXPECT: cudagraph-unpaired-instantiate
    cudaGraphDestroy(graph);
    cudaEvent_t a, b;
    cudaEventCreate(&a);
    cudaEventCreate(&b);
    cudaEventRecord(a, stream_);
    cudaGraphLaunch(exec, stream_);
    cudaEventRecord(b, stream_);
    cudaEventSynchronize(b);
    float ms = 0.f;
    cudaEventElapsedTime(&ms, a, b);
    cudaEventDestroy(a);
    cudaEventDestroy(b);
    return ms;
  }

  // Buggy: sizes above max_bs are skipped with `continue` after instantiation.
  void capture_up_to(DecodeBuffers& buf, int max_bs) {
    for (int bs : kCaptureSizes) {
      cudaGraph_t graph;
      cudaStreamBeginCapture(stream_, cudaStreamCaptureModeThreadLocal);
      decode_step<<<bs, 128, 0, stream_>>>(buf.hidden, buf.tokens, bs);
      cudaStreamEndCapture(stream_, &graph);
      cudaGraphExec_t exec;
      cudaGraphInstantiate(&exec, graph, 0);  // EXPECT: cudagraph-unpaired-instantiate
      cudaGraphDestroy(graph);
      if (bs > max_bs) continue;
      graphs_[bs] = exec;
    }
  }

  // Correct: replays an existing exec, no instantiation.
  bool replay(int num_tokens) {
    auto it = graphs_.lower_bound(num_tokens);
    if (it == graphs_.end()) return false;
    return cudaGraphLaunch(it->second, stream_) == cudaSuccess;
  }

  // Correct: skip check happens before instantiating.
  void capture_up_to_fixed(DecodeBuffers& buf, int max_bs) {
    for (int bs : kCaptureSizes) {
      if (bs > max_bs) continue;
      cudaGraph_t graph;
      cudaStreamBeginCapture(stream_, cudaStreamCaptureModeThreadLocal);
      decode_step<<<bs, 128, 0, stream_>>>(buf.hidden, buf.tokens, bs);
      cudaStreamEndCapture(stream_, &graph);
      cudaGraphExec_t exec;
      if (cudaGraphInstantiate(&exec, graph, 0) != cudaSuccess) {
        cudaGraphDestroy(graph);
        continue;
      }
      cudaGraphDestroy(graph);
      graphs_.emplace(bs, exec);
    }
  }

 private:
  cudaStream_t stream_;
  std::map<int, cudaGraphExec_t> graphs_;
};

int pad_batch(int n) {
  for (int bs : kCaptureSizes)
    if (bs >= n) return bs;
  return -1;
}
