// A training framework's CUDAGraph object (the torch.cuda.CUDAGraph shape):
// capture_begin()/capture_end() split across methods, a private memory pool
// shared between graphs by id, replay(), reset(), and a side stream with fork/
// join events for the optimizer. Options: debug_path keeps the graph for
// dumping, share_pool reuses another graph's pool, warmup_iters runs eagerly.
// Correct throughout: capture_begin() calls reset(), the pool is created once
// (tested on the member), and the destructor releases everything.
#include <cuda_runtime.h>
#include <cstdio>
#include <map>
#include <string>

__global__ void fwd(float *act, const float *w, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) act[i] = act[i] * w[i];
}
__global__ void bwd(float *grad, const float *act, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) grad[i] = act[i] * 2.f;
}
__global__ void sgd(float *w, const float *grad, float lr, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) w[i] -= lr * grad[i];
}

struct GraphOptions {
  bool debug_path = false;
  bool share_pool = false;
  bool overlap_optimizer = true;
  int warmup_iters = 3;
  int device = 0;
};

class TrainGraph {
 public:
  TrainGraph(cudaStream_t capture_stream, const GraphOptions &opts)
      : stream_(capture_stream), opts_(opts) {
    if (opts_.overlap_optimizer) {
      cudaStreamCreateWithFlags(&side_, cudaStreamNonBlocking);
      cudaEventCreateWithFlags(&fork_, cudaEventDisableTiming);
      cudaEventCreateWithFlags(&join_, cudaEventDisableTiming);
    }
  }

  ~TrainGraph() {
    reset();
    if (own_pool_ && pool_) cudaMemPoolDestroy(pool_);
    if (opts_.overlap_optimizer) {
      cudaEventDestroy(join_);
      cudaEventDestroy(fork_);
      cudaStreamDestroy(side_);
    }
  }

  TrainGraph(const TrainGraph &) = delete;
  TrainGraph &operator=(const TrainGraph &) = delete;

  void use_pool_of(const TrainGraph &other) {
    if (own_pool_ && pool_) cudaMemPoolDestroy(pool_);
    pool_ = other.pool_;
    own_pool_ = false;
  }

  cudaError_t capture_begin() {
    reset();
    if (!pool_) {
      cudaMemPoolProps props = {};
      props.allocType = cudaMemAllocationTypePinned;
      props.location.type = cudaMemLocationTypeDevice;
      props.location.id = opts_.device;
      cudaError_t st = cudaMemPoolCreate(&pool_, &props);
      if (st != cudaSuccess) return st;
      own_pool_ = true;
    }
    capturing_ = true;
    return cudaStreamBeginCapture(stream_, cudaStreamCaptureModeThreadLocal);
  }

  cudaError_t capture_end() {
    if (!capturing_) return cudaErrorIllegalState;
    capturing_ = false;
    cudaError_t st = cudaStreamEndCapture(stream_, &graph_);
    if (st != cudaSuccess) return st;
    st = cudaGraphInstantiateWithFlags(&exec_, graph_, cudaGraphInstantiateFlagAutoFreeOnLaunch);
    if (st != cudaSuccess) return st;
    if (!opts_.debug_path) {
      cudaGraphDestroy(graph_);
      graph_ = nullptr;
    }
    return cudaSuccess;
  }

  cudaError_t replay() {
    if (!exec_) return cudaErrorInvalidResourceHandle;
    return cudaGraphLaunch(exec_, stream_);
  }

  cudaError_t debug_dump(const std::string &path) {
    if (!graph_) return cudaErrorInvalidValue;
    return cudaGraphDebugDotPrint(graph_, path.c_str(), 0);
  }

  void reset() {
    if (exec_) cudaGraphExecDestroy(exec_);
    if (graph_) cudaGraphDestroy(graph_);
    exec_ = nullptr;
    graph_ = nullptr;
  }

  void step_body(float *w, float *act, float *grad, int n) {
    int blocks = (n + 255) / 256;
    fwd<<<blocks, 256, 0, stream_>>>(act, w, n);
    bwd<<<blocks, 256, 0, stream_>>>(grad, act, n);
    if (opts_.overlap_optimizer) {
      cudaEventRecord(fork_, stream_);
      cudaStreamWaitEvent(side_, fork_, 0);
      sgd<<<blocks, 256, 0, side_>>>(w, grad, 0.01f, n);
      cudaEventRecord(join_, side_);
      cudaStreamWaitEvent(stream_, join_, 0);
    } else {
      sgd<<<blocks, 256, 0, stream_>>>(w, grad, 0.01f, n);
    }
  }

  cudaMemPool_t pool() const { return pool_; }

 private:
  cudaStream_t stream_;
  GraphOptions opts_;
  cudaStream_t side_ = nullptr;
  cudaEvent_t fork_ = nullptr;
  cudaEvent_t join_ = nullptr;
  cudaMemPool_t pool_ = nullptr;
  bool own_pool_ = false;
  bool capturing_ = false;
  cudaGraph_t graph_ = nullptr;
  cudaGraphExec_t exec_ = nullptr;
};

int train(cudaStream_t s, float *w, float *act, float *grad, int n, int steps, const GraphOptions &opts) {
  TrainGraph g(s, opts);
  TrainGraph eval_graph(s, opts);
  for (int i = 0; i < opts.warmup_iters; ++i) g.step_body(w, act, grad, n);
  if (cudaStreamSynchronize(s) != cudaSuccess) return 1;
  if (g.capture_begin() != cudaSuccess) return 2;
  g.step_body(w, act, grad, n);
  if (g.capture_end() != cudaSuccess) return 3;
  if (opts.share_pool) eval_graph.use_pool_of(g);
  if (eval_graph.capture_begin() != cudaSuccess) return 4;
  fwd<<<(n + 255) / 256, 256, 0, s>>>(act, w, n);
  if (eval_graph.capture_end() != cudaSuccess) return 5;
  if (opts.debug_path) g.debug_dump("/tmp/train_graph.dot");
  std::map<int, int> losses;
  for (int i = 0; i < steps; ++i) {
    if (g.replay() != cudaSuccess) return 6;
    if (i % 100 == 0) {
      eval_graph.replay();
      losses[i] = i;
    }
  }
  if (cudaStreamSynchronize(s) != cudaSuccess) return 7;
  std::printf("%zu evals\n", losses.size());
  return 0;
}
