// PLANTED(BUGGY): unpaired-instantiate line 30
// Solver keeps one exec; on topology change cudaGraphExecUpdate fails; BUGGY: old exec overwritten.
#include <cuda_runtime.h>

__global__ void relax(float *u, int n, int it) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i > 0 && i < n - 1) u[i] = 0.5f * (u[i - 1] + u[i + 1]) + 0.0f * it; }

struct Solver { cudaStream_t s; cudaGraphExec_t exec; float *u; int n; };

static cudaGraph_t record(Solver *sv, int sweeps) {
  cudaGraph_t g = NULL;
  if (cudaStreamBeginCapture(sv->s, cudaStreamCaptureModeGlobal) != cudaSuccess) return NULL;
  for (int k = 0; k < sweeps; ++k) relax<<<(sv->n + 255) / 256, 256, 0, sv->s>>>(sv->u, sv->n, k);
  if (cudaStreamEndCapture(sv->s, &g) != cudaSuccess) return NULL;
  return g;
}

int solve(float *u, int n) {
  Solver sv; sv.u = u; sv.n = n;
  cudaGraphExec_t exec = NULL;
  if (cudaStreamCreate(&sv.s) != cudaSuccess) return -1;
  int rc = 0;
  for (int sweeps = 1; sweeps <= 8 && rc == 0; sweeps *= 2) {
    cudaGraph_t g = record(&sv, sweeps);
    if (!g) { rc = -1; break; }
    cudaGraphExecUpdateResultInfo info;
    if (exec == NULL || cudaGraphExecUpdate(exec, g, &info) != cudaSuccess) {
#ifndef BUGGY
      if (exec) cudaGraphExecDestroy(exec);
#endif
      if (cudaGraphInstantiate(&exec, g, 0) != cudaSuccess) /*BUGLINE*/ { exec = NULL; rc = -1; }
    }
    cudaGraphDestroy(g);
    if (rc == 0) rc = cudaGraphLaunch(exec, sv.s) == cudaSuccess ? 0 : -1;
  }
  cudaStreamSynchronize(sv.s);
  if (exec) cudaGraphExecDestroy(exec);
  cudaStreamDestroy(sv.s);
  return rc;
}

int main(void) {
  float *u; int n = 1 << 14;
  if (cudaMalloc((void **)&u, n * sizeof(float)) != cudaSuccess) return 1;
  int rc = solve(u, n);
  cudaFree(u);
  return rc ? 1 : 0;
}
