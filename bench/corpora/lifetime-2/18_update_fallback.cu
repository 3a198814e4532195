// Update-in-place with fallback to re-instantiation (the common CUDA graph update idiom).
#include <cuda_runtime.h>

__global__ void step(float* x, float dt, int n) {}

struct Sim {
  cudaStream_t s;
  float* x;
  int n;
  cudaGraphExec_t exec = nullptr;
};

static cudaGraph_t capture_step(Sim& sim, float dt) {
  cudaGraph_t g;
  cudaStreamBeginCapture(sim.s, cudaStreamCaptureModeThreadLocal);
  step<<<(sim.n + 255) / 256, 256, 0, sim.s>>>(sim.x, dt, sim.n);
  cudaStreamEndCapture(sim.s, &g);
  return g;
}

// Correct: update, else destroy and re-instantiate.
void advance(Sim& sim, float dt) {
  cudaGraph_t g = capture_step(sim, dt);
  if (sim.exec == nullptr) {
    cudaGraphInstantiate(&sim.exec, g, 0);
  } else {
    cudaGraphExecUpdateResultInfo info;
    if (cudaGraphExecUpdate(sim.exec, g, &info) != cudaSuccess) {
      cudaGraphExecDestroy(sim.exec);
      cudaGraphInstantiate(&sim.exec, g, 0);
    }
  }
  cudaGraphDestroy(g);
  cudaGraphLaunch(sim.exec, sim.s);
}

// Correct: local exec, update loop, fallback destroys first.
void run_local(Sim& sim, const float* dts, int steps) {
  cudaGraphExec_t exec = nullptr;
  for (int i = 0; i < steps; ++i) {
    cudaGraph_t g = capture_step(sim, dts[i]);
    if (exec) {
      cudaGraphExecUpdateResultInfo info;
      if (cudaGraphExecUpdate(exec, g, &info) != cudaSuccess) {
        cudaGraphExecDestroy(exec);
        exec = nullptr;
      }
    }
    if (!exec) cudaGraphInstantiate(&exec, g, 0);
    cudaGraphDestroy(g);
    cudaGraphLaunch(exec, sim.s);
  }
  if (exec) cudaGraphExecDestroy(exec);
}

// Buggy: fallback re-instantiates without destroying the exec that failed to update.
void run_local_leaky(Sim& sim, const float* dts, int steps) {
  cudaGraph_t g0 = capture_step(sim, dts[0]);
  cudaGraphExec_t exec;
  if (cudaGraphInstantiate(&exec, g0, 0) != cudaSuccess) {
    cudaGraphDestroy(g0);
    return;
  }
  cudaGraphDestroy(g0);
  for (int i = 1; i < steps; ++i) {
    cudaGraph_t g = capture_step(sim, dts[i]);
    cudaGraphExecUpdateResultInfo info;
    if (cudaGraphExecUpdate(exec, g, &info) != cudaSuccess) {
      cudaGraphInstantiate(&exec, g, 0);  // EXPECT: cudagraph-unpaired-instantiate
    }
    cudaGraphDestroy(g);
    cudaGraphLaunch(exec, sim.s);
  }
  cudaGraphExecDestroy(exec);
}

// Buggy: update succeeded path is fine, but the function instantiates a fresh exec
// for a "verification" replay and forgets it.
void advance_verified(Sim& sim, float dt) {
  cudaGraph_t g = capture_step(sim, dt);
  cudaGraphExecUpdateResultInfo info;
  if (sim.exec && cudaGraphExecUpdate(sim.exec, g, &info) == cudaSuccess) {
    cudaGraphExec_t check;
    cudaGraphInstantiate(&check, g, 0);  // EXPECT: cudagraph-unpaired-instantiate
    cudaGraphLaunch(check, sim.s);
  } else {
    if (sim.exec) cudaGraphExecDestroy(sim.exec);
    cudaGraphInstantiate(&sim.exec, g, 0);
  }
  cudaGraphDestroy(g);
  cudaGraphLaunch(sim.exec, sim.s);
}
