// Speculative decoding: draft and target graphs, per-step replay, EAGLE-style.
#include <cuda_runtime.h>
#include <vector>

__global__ void draft_forward(const int* tok, float* logits, int bs, int k) {}
__global__ void target_verify(const int* tok, float* logits, int bs, int k) {}

struct SpecBuffers {
  int* tokens;
  float* draft_logits;
  float* target_logits;
};

class SpecDecodeRunner {
 public:
  SpecDecodeRunner(cudaStream_t s, int num_spec) : s_(s), k_(num_spec) {}
  ~SpecDecodeRunner() {
    for (auto e : draft_) cudaGraphExecDestroy(e);
    for (auto e : target_) cudaGraphExecDestroy(e);
  }

  // Correct: both graphs per batch size stored into member vectors.
  void capture(const SpecBuffers& b, const std::vector<int>& sizes) {
    for (int bs : sizes) {
      cudaGraph_t gd, gt;
      cudaStreamBeginCapture(s_, cudaStreamCaptureModeThreadLocal);
      draft_forward<<<bs, 128, 0, s_>>>(b.tokens, b.draft_logits, bs, k_);
      cudaStreamEndCapture(s_, &gd);
      cudaStreamBeginCapture(s_, cudaStreamCaptureModeThreadLocal);
      target_verify<<<bs, 128, 0, s_>>>(b.tokens, b.target_logits, bs, k_);
      cudaStreamEndCapture(s_, &gt);
      cudaGraphExec_t ed, et;
      cudaGraphInstantiate(&ed, gd, 0);
      cudaGraphInstantiate(&et, gt, 0);
      cudaGraphDestroy(gd);
      cudaGraphDestroy(gt);
      draft_.push_back(ed);
      target_.push_back(et);
    }
  }

  // Buggy: draft exec built, but if the target capture fails the draft exec is abandoned.
  bool capture_one(const SpecBuffers& b, int bs) {
    cudaGraph_t gd, gt;
    cudaStreamBeginCapture(s_, cudaStreamCaptureModeThreadLocal);
    draft_forward<<<bs, 128, 0, s_>>>(b.tokens, b.draft_logits, bs, k_);
    cudaStreamEndCapture(s_, &gd);
    cudaGraphExec_t ed;
    if (cudaGraphInstantiate(&ed, gd, 0) != cudaSuccess) return false;  // EXPECT: cudagraph-unpaired-instantiate
    cudaGraphDestroy(gd);
    if (cudaStreamBeginCapture(s_, cudaStreamCaptureModeThreadLocal) != cudaSuccess) return false;
    target_verify<<<bs, 128, 0, s_>>>(b.tokens, b.target_logits, bs, k_);
    if (cudaStreamEndCapture(s_, &gt) != cudaSuccess) return false;
    cudaGraphExec_t et;
    if (cudaGraphInstantiate(&et, gt, 0) != cudaSuccess) {
      cudaGraphDestroy(gt);
      cudaGraphExecDestroy(ed);
      return false;
    }
    cudaGraphDestroy(gt);
    draft_.push_back(ed);
    target_.push_back(et);
    return true;
  }

  // Correct: the draft model's k-step loop replays one exec k times.
  void step(size_t idx) {
    for (int i = 0; i < k_; ++i) cudaGraphLaunch(draft_[idx], s_);
    cudaGraphLaunch(target_[idx], s_);
  }

 private:
  cudaStream_t s_;
  int k_;
  std::vector<cudaGraphExec_t> draft_, target_;
};

// Buggy: the accept-rate probe re-instantiates the target exec for each k.
float probe_accept_rate(cudaStream_t s, const SpecBuffers& b, int bs, int max_k) {
  cudaGraphExec_t et = nullptr;
  float best = 0.f;
  for (int k = 1; k <= max_k; ++k) {
    cudaGraph_t gt;
    cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal);
    target_verify<<<bs, 128, 0, s>>>(b.tokens, b.target_logits, bs, k);
    cudaStreamEndCapture(s, &gt);
    cudaGraphInstantiate(&et, gt, 0);  // EXPECT: cudagraph-unpaired-instantiate
    cudaGraphDestroy(gt);
    cudaGraphLaunch(et, s);
    best = best < k ? float(k) : best;
  }
  cudaGraphExecDestroy(et);
  return best;
}
