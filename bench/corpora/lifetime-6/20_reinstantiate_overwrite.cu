// Hurried "re-capture every N steps" code: re-instantiation over live execs.
#include <cuda_runtime.h>
#include <cstdio>

extern "C" cudaGraph_t recapture(cudaStream_t s, int step);  // other TU

#define RECAPTURE_EVERY 16
#define INSTANTIATE_OR_DIE(pe, g)                                  \
  do {                                                             \
    if (cudaGraphInstantiate((pe), (g), 0) != cudaSuccess) {       \
      std::fprintf(stderr, "instantiate failed\n");               \
      std::exit(1);                                                \
    }                                                              \
  } while (0)

// BUG: every RECAPTURE_EVERY steps a new exec overwrites the live one.
void train(cudaStream_t s, int steps) {
  cudaGraph_t g = recapture(s, 0);
  cudaGraphExec_t e = nullptr;
  INSTANTIATE_OR_DIE(&e, g);
  cudaGraphDestroy(g);
  for (int step = 1; step < steps; ++step) {
    if (step % RECAPTURE_EVERY == 0) {
      g = recapture(s, step);
      INSTANTIATE_OR_DIE(&e, g); // EXPECT: cudagraph-unpaired-instantiate
      cudaGraphDestroy(g);
    }
    cudaGraphLaunch(e, s);
  }
  cudaGraphExecDestroy(e);
}

// Correct: destroys before re-instantiating.
void train_fixed(cudaStream_t s, int steps) {
  cudaGraph_t g = recapture(s, 0);
  cudaGraphExec_t e = nullptr;
  INSTANTIATE_OR_DIE(&e, g);
  cudaGraphDestroy(g);
  for (int step = 1; step < steps; ++step) {
    if (step % RECAPTURE_EVERY == 0) {
      cudaGraphExecDestroy(e);
      g = recapture(s, step);
      INSTANTIATE_OR_DIE(&e, g);
      cudaGraphDestroy(g);
    }
    cudaGraphLaunch(e, s);
  }
  cudaGraphExecDestroy(e);
}

// BUG: straight-line overwrite; the first exec is lost.
int two_phase(cudaStream_t s) {
  cudaGraph_t g1 = recapture(s, 1);
  cudaGraph_t g2 = recapture(s, 2);
  cudaGraphExec_t e = nullptr;
  if (cudaGraphInstantiate(&e, g1, 0) != cudaSuccess) return -1;
  cudaGraphLaunch(e, s);
  if (cudaGraphInstantiate(&e, g2, 0) != cudaSuccess) return -1; // EXPECT: cudagraph-unpaired-instantiate
  cudaGraphLaunch(e, s);
  cudaGraphExecDestroy(e);
  cudaGraphDestroy(g1);
  cudaGraphDestroy(g2);
  return 0;
}

// Correct: swap in a freshly built exec only after destroying the old one.
int two_phase_fixed(cudaStream_t s) {
  cudaGraph_t g1 = recapture(s, 1);
  cudaGraph_t g2 = recapture(s, 2);
  cudaGraphExec_t cur = nullptr, next = nullptr;
  if (cudaGraphInstantiate(&cur, g1, 0) != cudaSuccess) return -1;
  cudaGraphLaunch(cur, s);
  if (cudaGraphInstantiate(&next, g2, 0) == cudaSuccess) {
    cudaGraphExecDestroy(cur);
    cur = next;
  }
  cudaGraphLaunch(cur, s);
  cudaGraphExecDestroy(cur);
  cudaGraphDestroy(g1);
  cudaGraphDestroy(g2);
  return 0;
}

int main() {
  cudaStream_t s;
  cudaStreamCreate(&s);
  train(s, 64);
  train_fixed(s, 64);
  two_phase(s);
  two_phase_fixed(s);
  cudaStreamDestroy(s);
  return 0;
}
