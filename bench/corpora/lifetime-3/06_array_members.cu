// Fixed set of per-bucket graphs held in std::array members.
// CORRECT: all execs live in the array and are destroyed in the destructor.
#include <cuda_runtime.h>
#include <array>
#include <cstddef>

class BucketedDecoder {
public:
  static constexpr std::size_t kBuckets = 4;

  bool init(const std::array<cudaGraph_t, kBuckets> &graphs) {
    for (std::size_t i = 0; i < kBuckets; ++i) {
      if (cudaGraphInstantiate(&execs_[i], graphs[i], 0) != cudaSuccess) {
        for (std::size_t j = 0; j < i; ++j) {
          cudaGraphExecDestroy(execs_[j]);
          execs_[j] = nullptr;
        }
        return false;
      }
    }
    ready_ = true;
    return true;
  }

  bool replace(std::size_t bucket, cudaGraph_t g) {
    if (bucket >= kBuckets) return false;
    cudaGraphExec_t e = nullptr;
    if (cudaGraphInstantiate(&e, g, 0) != cudaSuccess) return false;
    std::swap(e, execs_.at(bucket));
    if (e) cudaGraphExecDestroy(e);
    ready_ = true;
    return true;
  }

  cudaError_t run(std::size_t tokens, cudaStream_t s) const {
    std::size_t b = tokens <= 1 ? 0 : tokens <= 8 ? 1 : tokens <= 64 ? 2 : 3;
    return cudaGraphLaunch(execs_[b], s);
  }

  ~BucketedDecoder() {
    if (!ready_) return;
    for (cudaGraphExec_t &e : execs_) {
      if (e) cudaGraphExecDestroy(e);
      e = nullptr;
    }
  }

private:
  std::array<cudaGraphExec_t, kBuckets> execs_{};
  bool ready_ = false;
};

struct Slots {
  std::array<cudaGraphExec_t, 2> ping_pong{};
};

bool fill(Slots &s, cudaGraph_t a, cudaGraph_t b) {
  if (cudaGraphInstantiate(&s.ping_pong[0], a, 0) != cudaSuccess) return false;
  if (cudaGraphInstantiate(&s.ping_pong[1], b, 0) != cudaSuccess) {
    cudaGraphExecDestroy(s.ping_pong[0]);
    s.ping_pong[0] = nullptr;
    return false;
  }
  return true;
}
