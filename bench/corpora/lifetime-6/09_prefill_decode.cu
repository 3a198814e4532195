// LLM server: graphs for prefill and decode at several batch sizes.
#include <cuda_runtime.h>
#include <cstdio>

constexpr int kBatchSizes[] = {1, 2, 4, 8};
constexpr int kNumBs = sizeof(kBatchSizes) / sizeof(kBatchSizes[0]);

struct GraphSet {
  cudaGraphExec_t prefill[kNumBs];
  cudaGraphExec_t decode[kNumBs];
};

extern cudaGraph_t capture_prefill(int bs);  // other TU
extern cudaGraph_t capture_decode(int bs);   // other TU

// BUG: on a decode failure only the prefill exec of the current batch size
// is destroyed; earlier batch sizes (both kinds) are leaked.
bool build_all(GraphSet* out) {
  cudaGraphExec_t prefill[kNumBs] = {};
  cudaGraphExec_t decode[kNumBs] = {};
  for (int i = 0; i < kNumBs; ++i) {
    cudaGraph_t gp = capture_prefill(kBatchSizes[i]);
    if (cudaGraphInstantiate(&prefill[i], gp, 0) != cudaSuccess) { // EXPECT: cudagraph-unpaired-instantiate
      cudaGraphDestroy(gp);
      return false;
    }
    cudaGraphDestroy(gp);
    cudaGraph_t gd = capture_decode(kBatchSizes[i]);
    if (cudaGraphInstantiate(&decode[i], gd, 0) != cudaSuccess) { // EXPECT: cudagraph-unpaired-instantiate
      cudaGraphExecDestroy(prefill[i]);
      cudaGraphDestroy(gd);
      return false;
    }
    cudaGraphDestroy(gd);
  }
  for (int i = 0; i < kNumBs; ++i) {
    out->prefill[i] = prefill[i];
    out->decode[i] = decode[i];
  }
  return true;
}

// Correct: same job, unwinds everything built so far.
bool build_all_fixed(GraphSet* out) {
  int built = 0;
  cudaGraphExec_t prefill[kNumBs] = {};
  cudaGraphExec_t decode[kNumBs] = {};
  for (; built < kNumBs; ++built) {
    const int bs = kBatchSizes[built];
    cudaGraph_t gp = capture_prefill(bs);
    cudaGraph_t gd = capture_decode(bs);
    bool ok = cudaGraphInstantiate(&prefill[built], gp, 0) == cudaSuccess;
    if (ok && cudaGraphInstantiate(&decode[built], gd, 0) != cudaSuccess) {
      cudaGraphExecDestroy(prefill[built]);
      ok = false;
    }
    cudaGraphDestroy(gp);
    cudaGraphDestroy(gd);
    if (!ok) break;
  }
  if (built != kNumBs) {
    for (int j = 0; j < built; ++j) {
      cudaGraphExecDestroy(prefill[j]);
      cudaGraphExecDestroy(decode[j]);
    }
    std::fprintf(stderr, "graph build failed at bs=%d\n", kBatchSizes[built]);
    return false;
  }
  for (int j = 0; j < kNumBs; ++j) {
    out->prefill[j] = prefill[j];
    out->decode[j] = decode[j];
  }
  return true;
}

void destroy_all(GraphSet* gs) {
  for (int i = 0; i < kNumBs; ++i) {
    cudaGraphExecDestroy(gs->prefill[i]);
    cudaGraphExecDestroy(gs->decode[i]);
  }
}

int main() {
  GraphSet a{}, b{};
  if (build_all(&a)) destroy_all(&a);
  if (build_all_fixed(&b)) destroy_all(&b);
  return 0;
}
