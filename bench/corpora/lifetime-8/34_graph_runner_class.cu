// A graph runner class: the capture is begun in begin() and ended in end() on the
// member stream; graph and exec live in members and are released by the
// destructor. Correct.
#include <cuda_runtime.h>

class GraphRunner {
 public:
  GraphRunner() { cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking); }
  ~GraphRunner() {
    if (exec_) cudaGraphExecDestroy(exec_);
    if (graph_) cudaGraphDestroy(graph_);
    cudaStreamDestroy(stream_);
  }
  GraphRunner(const GraphRunner &) = delete;
  GraphRunner &operator=(const GraphRunner &) = delete;

  cudaStream_t stream() const { return stream_; }

  cudaError_t begin() { return cudaStreamBeginCapture(stream_, cudaStreamCaptureModeThreadLocal); }

  cudaError_t end() {
    cudaGraph_t g = nullptr;
    cudaError_t st = cudaStreamEndCapture(stream_, &g);
    if (st != cudaSuccess) return st;
    if (exec_) {
      cudaGraphExecUpdateResultInfo info;
      if (cudaGraphExecUpdate(exec_, g, &info) == cudaSuccess) {
        if (graph_) cudaGraphDestroy(graph_);
        graph_ = g;
        return cudaSuccess;
      }
      cudaGraphExecDestroy(exec_);
      exec_ = nullptr;
    }
    st = cudaGraphInstantiate(&exec_, g, 0);
    if (st != cudaSuccess) {
      exec_ = nullptr;
      cudaGraphDestroy(g);
      return st;
    }
    if (graph_) cudaGraphDestroy(graph_);
    graph_ = g;
    return cudaSuccess;
  }

  cudaError_t replay() { return cudaGraphLaunch(exec_, stream_); }

 private:
  cudaStream_t stream_ = nullptr;
  cudaGraph_t graph_ = nullptr;
  cudaGraphExec_t exec_ = nullptr;
};

__global__ void tick(int *c) { atomicAdd(c, 1); }

cudaError_t count_replays(int *d_counter, int reps) {
  GraphRunner r;
  cudaError_t st = r.begin();
  if (st != cudaSuccess) return st;
  tick<<<1, 32, 0, r.stream()>>>(d_counter);
  st = r.end();
  if (st != cudaSuccess) return st;
  for (int i = 0; i < reps; ++i) r.replay();
  return cudaStreamSynchronize(r.stream());
}
