// A runner whose member exec is (re)instantiated in loops.
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CHECK_CUDA(call)                                                       \
  do {                                                                         \
    cudaError_t e__ = call;                                                    \
    if (e__ != cudaSuccess) {                                                  \
      printf("CUDA failure %s:%d '%s'\n", __FILE__, __LINE__,                  \
             cudaGetErrorString(e__));                                         \
      exit(1);                                                                 \
    }                                                                          \
  } while (0)

class SamplerRunner {
public:
  explicit SamplerRunner(cudaStream_t s) : stream_(s) {}
  ~SamplerRunner() {
    if (exec_)
      cudaGraphExecDestroy(exec_);
    for (int i = 0; i < kBuckets; ++i)
      if (bucket_execs_[i])
        cudaGraphExecDestroy(bucket_execs_[i]);
  }

  // Buggy: every iteration after the first instantiates over the exec made
  // by the previous iteration.
  void warmup(const std::vector<cudaGraph_t> &graphs) {
    for (cudaGraph_t g : graphs) {
      CHECK_CUDA(cudaGraphInstantiate(&exec_, g, 0)); // EXPECT: cudagraph-unpaired-instantiate
      CHECK_CUDA(cudaGraphLaunch(exec_, stream_));
    }
    CHECK_CUDA(cudaStreamSynchronize(stream_));
  }

  // Correct.
  void warmup_ok(const std::vector<cudaGraph_t> &graphs) {
    for (cudaGraph_t g : graphs) {
      if (exec_) {
        CHECK_CUDA(cudaGraphExecDestroy(exec_));
        exec_ = nullptr;
      }
      CHECK_CUDA(cudaGraphInstantiate(&exec_, g, 0));
      CHECK_CUDA(cudaGraphLaunch(exec_, stream_));
    }
    CHECK_CUDA(cudaStreamSynchronize(stream_));
  }

  // Correct: one slot per bucket.
  void build_buckets(cudaGraph_t const *graphs) {
    for (int i = 0; i < kBuckets; ++i)
      CHECK_CUDA(cudaGraphInstantiate(&bucket_execs_[i], graphs[i], 0));
  }

  // Correct: the member is replaced through a local after destroying.
  void swap_in(cudaGraph_t g) {
    cudaGraphExec_t fresh;
    CHECK_CUDA(cudaGraphInstantiate(&fresh, g, 0));
    if (exec_)
      cudaGraphExecDestroy(exec_);
    exec_ = fresh;
  }

private:
  static constexpr int kBuckets = 8;
  cudaStream_t stream_;
  cudaGraphExec_t exec_ = nullptr;
  cudaGraphExec_t bucket_execs_[kBuckets] = {};
};
