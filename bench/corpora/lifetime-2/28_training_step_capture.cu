// Training-loop whole-step capture (optimizer + fwd/bwd), with AMP skip logic.
#include <cuda_runtime.h>
#include <stdexcept>
#include <cstdio>

__global__ void fwd_bwd(float* params, float* grads, int n) {}
__global__ void adam_step(float* params, const float* grads, float lr, int n) {}
__global__ void check_inf(const float* grads, int* found_inf, int n) {}

#define CHECK_OR_THROW(call)                                           \
  do {                                                                 \
    cudaError_t _st = (call);                                          \
    if (_st != cudaSuccess) throw std::runtime_error(cudaGetErrorString(_st)); \
  } while (0)

struct TrainState {
  float* params;
  float* grads;
  int* found_inf;
  int n;
  cudaStream_t stream;
};

static cudaGraph_t capture_step(TrainState& st, float lr) {
  cudaGraph_t g;
  CHECK_OR_THROW(cudaStreamBeginCapture(st.stream, cudaStreamCaptureModeGlobal));
  fwd_bwd<<<st.n / 256, 256, 0, st.stream>>>(st.params, st.grads, st.n);
  check_inf<<<st.n / 256, 256, 0, st.stream>>>(st.grads, st.found_inf, st.n);
  adam_step<<<st.n / 256, 256, 0, st.stream>>>(st.params, st.grads, lr, st.n);
  CHECK_OR_THROW(cudaStreamEndCapture(st.stream, &g));
  return g;
}

// Correct: whole-run exec, destroyed after the epoch loop; throw propagates.
void train(TrainState& st, int steps, float lr) {
  cudaGraph_t g = capture_step(st, lr);
  cudaGraphExec_t e;
  CHECK_OR_THROW(cudaGraphInstantiate(&e, g, 0));
  cudaGraphDestroy(g);
  for (int i = 0; i < steps; ++i) CHECK_OR_THROW(cudaGraphLaunch(e, st.stream));
  CHECK_OR_THROW(cudaStreamSynchronize(st.stream));
  cudaGraphExecDestroy(e);
}

// Buggy: the LR-schedule change re-captures and re-instantiates over the live exec.
void train_with_schedule(TrainState& st, int steps, const float* lrs) {
  cudaGraph_t g = capture_step(st, lrs[0]);
  cudaGraphExec_t e;
  CHECK_OR_THROW(cudaGraphInstantiate(&e, g, 0));
  cudaGraphDestroy(g);
  for (int i = 0; i < steps; ++i) {
    if (i > 0 && lrs[i] != lrs[i - 1]) {
      cudaGraph_t g2 = capture_step(st, lrs[i]);
      CHECK_OR_THROW(cudaGraphInstantiate(&e, g2, 0));  // EXPECT: cudagraph-unpaired-instantiate
      cudaGraphDestroy(g2);
    }
    CHECK_OR_THROW(cudaGraphLaunch(e, st.stream));
  }
  cudaGraphExecDestroy(e);
}

// Buggy: overflow detection breaks out with `return` and leaks the exec.
int train_amp(TrainState& st, int steps, float lr) {
  cudaGraph_t g = capture_step(st, lr);
  cudaGraphExec_t e;
  CHECK_OR_THROW(cudaGraphInstantiate(&e, g, 0));  // EXPECT: cudagraph-unpaired-instantiate
  cudaGraphDestroy(g);
  for (int i = 0; i < steps; ++i) {
    CHECK_OR_THROW(cudaGraphLaunch(e, st.stream));
    int inf = 0;
    CHECK_OR_THROW(cudaMemcpyAsync(&inf, st.found_inf, sizeof(int), cudaMemcpyDeviceToHost, st.stream));
    CHECK_OR_THROW(cudaStreamSynchronize(st.stream));
    if (inf) {
      std::fprintf(stderr, "overflow at step %d, rescaling\n", i);
      return i;
    }
  }
  cudaGraphExecDestroy(e);
  return steps;
}

// Correct: overflow path destroys before returning.
int train_amp_fixed(TrainState& st, int steps, float lr) {
  cudaGraph_t g = capture_step(st, lr);
  cudaGraphExec_t e;
  CHECK_OR_THROW(cudaGraphInstantiate(&e, g, 0));
  cudaGraphDestroy(g);
  int done = steps;
  for (int i = 0; i < steps; ++i) {
    CHECK_OR_THROW(cudaGraphLaunch(e, st.stream));
    int inf = 0;
    CHECK_OR_THROW(cudaMemcpyAsync(&inf, st.found_inf, sizeof(int), cudaMemcpyDeviceToHost, st.stream));
    CHECK_OR_THROW(cudaStreamSynchronize(st.stream));
    if (inf) {
      done = i;
      break;
    }
  }
  cudaGraphExecDestroy(e);
  return done;
}
