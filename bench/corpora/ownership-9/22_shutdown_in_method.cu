// Shutdown and rebuild methods of an async copy engine and a graph runner. The
// use after release is inside one method: shutdown() destroys the member
// stream and then synchronizes it; rebuild() destroys the exec and launches it
// on the path where re-instantiation is skipped. The fixed twins order the
// calls correctly or reset the member.
#include <cuda_runtime.h>
#include <cstddef>

class CopyEngine {
 public:
  CopyEngine() {
    cudaStreamCreateWithFlags(&d2h_, cudaStreamNonBlocking);
    cudaEventCreateWithFlags(&drained_, cudaEventDisableTiming);
  }
  ~CopyEngine() { shutdown(); }
  CopyEngine(const CopyEngine &) = delete;
  CopyEngine &operator=(const CopyEngine &) = delete;

  void enqueue(void *dst, const void *src, size_t n) {
    if (d2h_) cudaMemcpyAsync(dst, src, n, cudaMemcpyDeviceToHost, d2h_);
  }

  void shutdown() {
    if (!d2h_) return;
    cudaEventRecord(drained_, d2h_);
    cudaStreamDestroy(d2h_);
    cudaStreamSynchronize(d2h_); // EXPECT: cudagraph-use-after-dealloc
    cudaEventDestroy(drained_);
    d2h_ = nullptr;
    drained_ = nullptr;
  }

 private:
  cudaStream_t d2h_ = nullptr;
  cudaEvent_t drained_ = nullptr;
};

class SafeCopyEngine {
 public:
  SafeCopyEngine() {
    cudaStreamCreateWithFlags(&d2h_, cudaStreamNonBlocking);
    cudaEventCreateWithFlags(&drained_, cudaEventDisableTiming);
  }
  ~SafeCopyEngine() { shutdown(); }
  SafeCopyEngine(const SafeCopyEngine &) = delete;
  SafeCopyEngine &operator=(const SafeCopyEngine &) = delete;

  void enqueue(void *dst, const void *src, size_t n) {
    if (d2h_) cudaMemcpyAsync(dst, src, n, cudaMemcpyDeviceToHost, d2h_);
  }

  void shutdown() {
    if (!d2h_) return;
    cudaEventRecord(drained_, d2h_);
    cudaStreamSynchronize(d2h_);
    cudaStreamDestroy(d2h_);
    cudaEventSynchronize(drained_);
    cudaEventDestroy(drained_);
    d2h_ = nullptr;
    drained_ = nullptr;
  }

 private:
  cudaStream_t d2h_ = nullptr;
  cudaEvent_t drained_ = nullptr;
};

class Rebuilder {
 public:
  explicit Rebuilder(cudaStream_t s) : stream_(s) {}
  ~Rebuilder() {
    if (exec_) cudaGraphExecDestroy(exec_);
  }
  Rebuilder(const Rebuilder &) = delete;
  Rebuilder &operator=(const Rebuilder &) = delete;

  cudaError_t set(cudaGraph_t g) {
    if (exec_) cudaGraphExecDestroy(exec_);
    exec_ = nullptr;
    return cudaGraphInstantiate(&exec_, g, 0);
  }

  // Drops the exec when the graph topology changed and instantiates the new
  // graph when there is no exec. The destroy leaves exec_ set, so the
  // `!exec_` test skips the re-instantiation and the destroyed exec is launched.
  cudaError_t rebuild(cudaGraph_t next, bool topology_changed) {
    if (topology_changed && exec_) cudaGraphExecDestroy(exec_);
    if (!exec_ && next) {
      cudaError_t st = cudaGraphInstantiate(&exec_, next, 0);
      if (st != cudaSuccess) return st;
    }
    return cudaGraphLaunch(exec_, stream_); // EXPECT: cudagraph-use-after-dealloc
  }

  cudaError_t rebuild_fixed(cudaGraph_t next, bool topology_changed) {
    if (topology_changed && exec_) {
      cudaGraphExecDestroy(exec_);
      exec_ = nullptr;
    }
    if (!exec_ && next) {
      cudaError_t st = cudaGraphInstantiate(&exec_, next, 0);
      if (st != cudaSuccess) return st;
    }
    if (!exec_) return cudaErrorInvalidResourceHandle;
    return cudaGraphLaunch(exec_, stream_);
  }

 private:
  cudaStream_t stream_;
  cudaGraphExec_t exec_ = nullptr;
};
