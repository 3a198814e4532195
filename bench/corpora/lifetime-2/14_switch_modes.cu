// Compilation-mode switch (full graph / piecewise / eager) in a model executor.
#include <cuda_runtime.h>

enum class CudaGraphMode { NONE, PIECEWISE, FULL, FULL_DECODE_ONLY };

__global__ void layer(float* h, int l, int bs) {}

struct Model {
  float* hidden;
  int num_layers;
};

static cudaGraph_t capture_layers(cudaStream_t s, const Model& m, int bs, int first, int last) {
  cudaGraph_t g;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal);
  for (int l = first; l < last; ++l) layer<<<bs, 256, 0, s>>>(m.hidden, l, bs);
  cudaStreamEndCapture(s, &g);
  return g;
}

// Buggy: the FULL_DECODE_ONLY case returns early for prefill without destroying.
int execute(CudaGraphMode mode, cudaStream_t s, const Model& m, int bs, bool is_prefill) {
  cudaGraphExec_t exec = nullptr;
  switch (mode) {
    case CudaGraphMode::NONE:
      for (int l = 0; l < m.num_layers; ++l) layer<<<bs, 256, 0, s>>>(m.hidden, l, bs);
      return 0;
    case CudaGraphMode::FULL: {
      cudaGraph_t g = capture_layers(s, m, bs, 0, m.num_layers);
      cudaGraphInstantiate(&exec, g, 0);
      cudaGraphDestroy(g);
      break;
    }
    case CudaGraphMode::FULL_DECODE_ONLY: {
      cudaGraph_t g = capture_layers(s, m, bs, 0, m.num_layers);
      cudaGraphInstantiate(&exec, g, 0);  // EXPECT: cudagraph-unpaired-instantiate
      cudaGraphDestroy(g);
      if (is_prefill) {
        for (int l = 0; l < m.num_layers; ++l) layer<<<bs, 256, 0, s>>>(m.hidden, l, bs);
        return 1;
      }
      break;
    }
    case CudaGraphMode::PIECEWISE:
      return 2;
  }
  cudaGraphLaunch(exec, s);
  cudaGraphExecDestroy(exec);
  return 0;
}

// Correct: each case owns its exec and destroys it.
int execute_fixed(CudaGraphMode mode, cudaStream_t s, const Model& m, int bs) {
  switch (mode) {
    case CudaGraphMode::FULL:
    case CudaGraphMode::FULL_DECODE_ONLY: {
      cudaGraph_t g = capture_layers(s, m, bs, 0, m.num_layers);
      cudaGraphExec_t exec;
      cudaError_t err = cudaGraphInstantiate(&exec, g, 0);
      cudaGraphDestroy(g);
      if (err != cudaSuccess) return -1;
      cudaGraphLaunch(exec, s);
      cudaGraphExecDestroy(exec);
      return 0;
    }
    case CudaGraphMode::PIECEWISE: {
      int half = m.num_layers / 2;
      cudaGraph_t g1 = capture_layers(s, m, bs, 0, half);
      cudaGraph_t g2 = capture_layers(s, m, bs, half, m.num_layers);
      cudaGraphExec_t e1, e2;
      cudaGraphInstantiate(&e1, g1, 0);
      cudaGraphInstantiate(&e2, g2, 0);
      cudaGraphDestroy(g1);
      cudaGraphDestroy(g2);
      cudaGraphLaunch(e1, s);
      cudaGraphLaunch(e2, s);
      cudaGraphExecDestroy(e1);
      cudaGraphExecDestroy(e2);
      return 0;
    }
    default:
      return 1;
  }
}

// Buggy: piecewise, the second piece's exec is never destroyed (fallthrough mistake).
int execute_piecewise(cudaStream_t s, const Model& m, int bs, int pieces) {
  cudaGraphExec_t first = nullptr, rest = nullptr;
  switch (pieces) {
    case 2: {
      cudaGraph_t g = capture_layers(s, m, bs, m.num_layers / 2, m.num_layers);
      cudaGraphInstantiate(&rest, g, 0);  // EXPECT: cudagraph-unpaired-instantiate
      cudaGraphDestroy(g);
    }
      [[fallthrough]];
    case 1: {
      cudaGraph_t g = capture_layers(s, m, bs, 0, pieces == 2 ? m.num_layers / 2 : m.num_layers);
      cudaGraphInstantiate(&first, g, 0);
      cudaGraphDestroy(g);
      break;
    }
    default:
      return -1;
  }
  cudaGraphLaunch(first, s);
  if (rest) cudaGraphLaunch(rest, s);
  cudaGraphExecDestroy(first);
  return 0;
}
