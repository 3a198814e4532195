// PLANTED: cudagraph-unpaired-instantiate line 71
// Header-style CRTP helper from an inference runtime: a derived model class
// supplies enqueue(); the base captures it once per input shape and replays the
// exec. (Only the template lives in this translation unit.)
#include <cuda_runtime.h>
#include <cstdint>
#include <cstdio>

#define RT_CHECK(expr)                                                         \
  do {                                                                         \
    cudaError_t status_ = (expr);                                              \
    if (status_ != cudaSuccess) {                                              \
      std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__,                  \
                   cudaGetErrorString(status_));                               \
      return status_;                                                          \
    }                                                                          \
  } while (0)

namespace rt {

template <class Derived>
class GraphedModule {
 public:
  GraphedModule() = default;
  GraphedModule(const GraphedModule &) = delete;
  GraphedModule &operator=(const GraphedModule &) = delete;
  ~GraphedModule() {
    if (exec_) cudaGraphExecDestroy(exec_);
  }

  // Eager path: used for warm-up and for shapes we do not graph.
  cudaError_t forward_eager(cudaStream_t s) {
    return static_cast<Derived *>(this)->enqueue(s);
  }

  cudaError_t forward(cudaStream_t s, int64_t shape_sig) {
    if (exec_ == nullptr || shape_sig != captured_sig_) {
      RT_CHECK(recapture(s, shape_sig));
    }
    return cudaGraphLaunch(exec_, s);
  }

  bool graphed() const { return exec_ != nullptr; }

 protected:
  cudaError_t recapture(cudaStream_t s, int64_t shape_sig) {
    cudaGraph_t graph = nullptr;
    RT_CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal));
    cudaError_t enq = static_cast<Derived *>(this)->enqueue(s);
    cudaError_t end = cudaStreamEndCapture(s, &graph);
    if (enq != cudaSuccess || end != cudaSuccess) {
      if (graph) cudaGraphDestroy(graph);
      return enq != cudaSuccess ? enq : end;
    }

    if (exec_ != nullptr) {
      cudaGraphExecUpdateResultInfo info;
      if (cudaGraphExecUpdate(exec_, graph, &info) == cudaSuccess) {
        cudaGraphDestroy(graph);
        captured_sig_ = shape_sig;
        return cudaSuccess;
      }
      (void)cudaGetLastError();  // clear the update failure
#ifdef BUGGY
      // topology changed: fall through and instantiate a fresh exec
#else
      cudaGraphExecDestroy(exec_);
      exec_ = nullptr;
#endif
    }
    cudaError_t st = cudaGraphInstantiate(&exec_, graph, 0);  // PLANTED (buggy variant): cudagraph-unpaired-instantiate
    cudaGraphDestroy(graph);
    if (st != cudaSuccess) {
      exec_ = nullptr;
      return st;
    }
    captured_sig_ = shape_sig;
    return cudaSuccess;
  }

 private:
  cudaGraphExec_t exec_ = nullptr;
  int64_t captured_sig_ = -1;
};

}  // namespace rt
