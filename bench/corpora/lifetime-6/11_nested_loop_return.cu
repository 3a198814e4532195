// Benchmark sweep: early returns from inside nested loops.
#include <cuda_runtime.h>
#include <cstdio>
#include <vector>

struct Case { int layers; int micro; };

static cudaGraph_t capture_layer(cudaStream_t s, float* x, int layer, int mb) {
  cudaGraph_t g = nullptr;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  cudaMemsetAsync(x, layer ^ mb, 512, s);
  cudaStreamEndCapture(s, &g);
  return g;
}

// BUG: a failing launch returns from two loops deep without destroying.
int sweep(cudaStream_t s, float* x, const std::vector<Case>& cases) {
  for (const auto& c : cases) {
    for (int l = 0; l < c.layers; ++l) {
      for (int mb = 0; mb < c.micro; ++mb) {
        cudaGraph_t g = capture_layer(s, x, l, mb);
        cudaGraphExec_t e;
        if (cudaGraphInstantiate(&e, g, 0) != cudaSuccess) { // EXPECT: cudagraph-unpaired-instantiate
          cudaGraphDestroy(g);
          return -1;
        }
        cudaGraphDestroy(g);
        if (cudaGraphLaunch(e, s) != cudaSuccess) {
          std::fprintf(stderr, "launch failed l=%d mb=%d\n", l, mb);
          return -2;
        }
        cudaGraphExecDestroy(e);
      }
    }
  }
  return 0;
}

// Correct: the early return from the nested loop destroys first; `continue`
// paths also destroy.
int sweep_fixed(cudaStream_t s, float* x, const std::vector<Case>& cases) {
  for (const auto& c : cases) {
    for (int l = 0; l < c.layers; ++l) {
      for (int mb = 0; mb < c.micro; ++mb) {
        cudaGraph_t g = capture_layer(s, x, l, mb);
        cudaGraphExec_t e;
        cudaError_t err = cudaGraphInstantiate(&e, g, 0);
        cudaGraphDestroy(g);
        if (err != cudaSuccess) return -1;
        if (mb % 2) {
          cudaGraphExecDestroy(e);
          continue;
        }
        err = cudaGraphLaunch(e, s);
        cudaGraphExecDestroy(e);
        if (err != cudaSuccess) return -2;
      }
    }
  }
  return 0;
}

// BUG: the exec is only destroyed when the inner loop finishes normally;
// the early return on a failed sync skips it.
int timed(cudaStream_t s, float* x, int reps) {
  cudaGraph_t g = capture_layer(s, x, 0, 0);
  cudaGraphExec_t e = nullptr;
  if (cudaGraphInstantiate(&e, g, 0) != cudaSuccess) return -1; // EXPECT: cudagraph-unpaired-instantiate
  cudaGraphDestroy(g);
  int done = 0;
  for (int outer = 0; outer < 3; ++outer) {
    for (int r = 0; r < reps; ++r) {
      cudaGraphLaunch(e, s);
      if (cudaStreamSynchronize(s) != cudaSuccess) return done;
      ++done;
    }
  }
  cudaGraphExecDestroy(e);
  return done;
}

int main() {
  cudaStream_t s;
  cudaStreamCreate(&s);
  float* x;
  cudaMalloc(&x, 4096);
  std::vector<Case> cases = {{2, 2}, {4, 1}};
  sweep(s, x, cases);
  sweep_fixed(s, x, cases);
  timed(s, x, 5);
  cudaFree(x);
  cudaStreamDestroy(s);
  return 0;
}
