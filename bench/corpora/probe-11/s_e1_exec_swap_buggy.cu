#define BUGGY
// PLANTED: cudagraph-use-after-dealloc line 76
// Speculative-decoding runner: the draft model's step is a CUDA graph that is
// rebuilt when the number of speculative tokens changes.
#include <cuda_runtime.h>
#include <cstdio>
#include <optional>

#define SPEC_RETURN_ON_ERR(x)                                                  \
  do {                                                                         \
    cudaError_t st__ = (x);                                                    \
    if (st__ != cudaSuccess) return st__;                                      \
  } while (0)

struct DraftBuffers {
  int *tokens;
  float *logits;
  int vocab;
};

struct GraphEntry {
  cudaGraphExec_t exec = nullptr;
  int num_spec = 0;
};

__global__ void draft_step(const int *tokens, float *logits, int vocab, int k) {
  int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v < vocab) logits[v] = 0.01f * float(tokens[0] + v * k);
}

static cudaError_t capture_draft(const DraftBuffers &b, int k, cudaStream_t s,
                                 cudaGraphExec_t *out) {
  cudaGraph_t g = nullptr;
  SPEC_RETURN_ON_ERR(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal));
  for (int i = 0; i < k; ++i)
    draft_step<<<(b.vocab + 255) / 256, 256, 0, s>>>(b.tokens, b.logits, b.vocab, i + 1);
  SPEC_RETURN_ON_ERR(cudaStreamEndCapture(s, &g));
  cudaError_t st = cudaGraphInstantiate(out, g, 0);
  cudaGraphDestroy(g);
  return st;
}

class DraftRunner {
 public:
  explicit DraftRunner(DraftBuffers bufs) : bufs_(bufs) {}
  ~DraftRunner() {
    if (entry_ && entry_->exec) cudaGraphExecDestroy(entry_->exec);
  }

  cudaError_t step(int num_spec, cudaStream_t s) {
    if (!entry_ || entry_->num_spec != num_spec) {
      SPEC_RETURN_ON_ERR(rebuild(num_spec, s));
    }
    return cudaGraphLaunch(entry_->exec, s);
  }

 private:
  cudaError_t rebuild(int num_spec, cudaStream_t s) {
    cudaGraphExec_t fresh = nullptr;
    SPEC_RETURN_ON_ERR(capture_draft(bufs_, num_spec, s, &fresh));
    if (!entry_) {
      entry_ = GraphEntry{fresh, num_spec};
      return cudaSuccess;
    }
    GraphEntry &e = *entry_;
    cudaGraphExec_t old = e.exec;
    // Wait for in-flight launches of the old exec before destroying it.
    cudaError_t st = cudaStreamSynchronize(s);
    if (st != cudaSuccess) {
      cudaGraphExecDestroy(fresh);
      return st;
    }
    cudaGraphExecDestroy(old);
#ifdef BUGGY
    e.num_spec = num_spec;
    // warm the new graph once so the first real step is not slower
    st = cudaGraphLaunch(e.exec, s);  // EXPECT: cudagraph-use-after-dealloc
    e.exec = fresh;
#else
    e.exec = fresh;
    e.num_spec = num_spec;
    // warm the new graph once so the first real step is not slower
    st = cudaGraphLaunch(e.exec, s);
#endif
    return st;
  }

  DraftBuffers bufs_;
  std::optional<GraphEntry> entry_;
};

int speculate(DraftBuffers bufs, cudaStream_t s, const int *schedule, int n) {
  DraftRunner runner(bufs);
  for (int i = 0; i < n; ++i) {
    if (runner.step(schedule[i], s) != cudaSuccess) return 1;
  }
  return cudaStreamSynchronize(s) == cudaSuccess ? 0 : 1;
}
