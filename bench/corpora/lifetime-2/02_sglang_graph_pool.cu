// SGLang-style graph pool: execs captured per bucket live in a vector.
#include <cuda_runtime.h>
#include <vector>
#include <cstdint>

__global__ void forward_kernel(const int64_t* ids, float* logits, int bs) {}

struct ForwardBatch {
  int64_t* input_ids;
  float* logits;
  int bs;
};

class GraphPool {
 public:
  ~GraphPool() { release(); }

  void release() {
    for (cudaGraphExec_t e : execs_) cudaGraphExecDestroy(e);
    execs_.clear();
  }

  // Correct: push_back hands the exec to the pool.
  void capture(cudaStream_t s, const ForwardBatch& fb) {
    cudaGraph_t g;
    cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
    forward_kernel<<<fb.bs, 256, 0, s>>>(fb.input_ids, fb.logits, fb.bs);
    cudaStreamEndCapture(s, &g);
    cudaGraphExec_t e;
    cudaGraphInstantiate(&e, g, 0);
    cudaGraphDestroy(g);
    execs_.push_back(e);
  }

  // Buggy: recapture loop keeps a single local handle and overwrites it each round.
  void profile_buckets(cudaStream_t s, const std::vector<ForwardBatch>& buckets) {
    cudaGraphExec_t probe = nullptr;
    for (const ForwardBatch& fb : buckets) {
      cudaGraph_t g;
      cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
      forward_kernel<<<fb.bs, 256, 0, s>>>(fb.input_ids, fb.logits, fb.bs);
      cudaStreamEndCapture(s, &g);
      cudaGraphInstantiate(&probe, g, 0);  // EXPECT: cudagraph-unpaired-instantiate
      cudaGraphDestroy(g);
      cudaGraphLaunch(probe, s);
      cudaStreamSynchronize(s);
    }
    if (probe) cudaGraphExecDestroy(probe);
  }

  // Correct: same loop, destroyed each round.
  void profile_buckets_fixed(cudaStream_t s, const std::vector<ForwardBatch>& buckets) {
    for (const ForwardBatch& fb : buckets) {
      cudaGraph_t g;
      cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
      forward_kernel<<<fb.bs, 256, 0, s>>>(fb.input_ids, fb.logits, fb.bs);
      cudaStreamEndCapture(s, &g);
      cudaGraphExec_t probe;
      cudaGraphInstantiate(&probe, g, 0);
      cudaGraphDestroy(g);
      cudaGraphLaunch(probe, s);
      cudaStreamSynchronize(s);
      cudaGraphExecDestroy(probe);
    }
  }

  // Buggy: on a sync failure the function bails out before the exec reaches the pool.
  bool capture_checked(cudaStream_t s, const ForwardBatch& fb) {
    cudaGraph_t g;
    if (cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal) != cudaSuccess) return false;
    forward_kernel<<<fb.bs, 256, 0, s>>>(fb.input_ids, fb.logits, fb.bs);
    if (cudaStreamEndCapture(s, &g) != cudaSuccess) return false;
    cudaGraphExec_t e;
    if (cudaGraphInstantiate(&e, g, 0) != cudaSuccess) {  // EXPECT: cudagraph-unpaired-instantiate
      cudaGraphDestroy(g);
      return false;
    }
    cudaGraphDestroy(g);
    if (cudaGraphLaunch(e, s) != cudaSuccess) return false;
    if (cudaStreamSynchronize(s) != cudaSuccess) return false;
    execs_.push_back(e);
    return true;
  }

  cudaGraphExec_t at(size_t i) const { return execs_[i]; }

 private:
  std::vector<cudaGraphExec_t> execs_;
};
