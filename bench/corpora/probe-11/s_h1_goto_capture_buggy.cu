#define BUGGY
// PLANTED: cudagraph-capture-without-destroy line 56
/*
 * lbm_graph.c -- lattice-Boltzmann solver: one time step (collide, stream,
 * boundary) is captured into a CUDA graph and replayed. C style, goto cleanup.
 */
#include <cuda_runtime.h>
#include <stdio.h>

#define LBM_TRY(call, label)                                                   \
  do {                                                                         \
    err = (call);                                                              \
    if (err != cudaSuccess) {                                                  \
      fprintf(stderr, "lbm: %s failed: %s\n", #call, cudaGetErrorString(err)); \
      goto label;                                                              \
    }                                                                          \
  } while (0)

typedef struct {
  float *f_in;
  float *f_out;
  int nx, ny;
  float omega;
} lbm_grid;

__global__ void lbm_collide(float *f, int n, float omega) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) f[i] = f[i] * (1.f - omega) + omega * 0.111f;
}
__global__ void lbm_stream(const float *src, float *dst, int nx, int ny) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < nx * ny) dst[(i + 1) % (nx * ny)] = src[i];
}
__global__ void lbm_bounce_back(float *f, int nx, int ny) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  if (x < nx) { f[x] = f[x + nx]; f[(ny - 1) * nx + x] = f[(ny - 2) * nx + x]; }
}

static void enqueue_step(const lbm_grid *g, cudaStream_t s) {
  int n = g->nx * g->ny;
  lbm_collide<<<(n + 255) / 256, 256, 0, s>>>(g->f_in, n, g->omega);
  lbm_stream<<<(n + 255) / 256, 256, 0, s>>>(g->f_in, g->f_out, g->nx, g->ny);
  lbm_bounce_back<<<(g->nx + 127) / 128, 128, 0, s>>>(g->f_out, g->nx, g->ny);
  /* swap happens on the host side between replays via two graphs */
}

cudaError_t lbm_run(lbm_grid *g, int steps) {
  cudaError_t err = cudaSuccess;
  cudaStream_t s = NULL;
  cudaGraph_t graph = NULL;
  cudaGraphExec_t exec = NULL;
  int t;

  LBM_TRY(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), out);
  LBM_TRY(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal), out_stream);
  enqueue_step(g, s);
  LBM_TRY(cudaStreamEndCapture(s, &graph), out_stream);  // EXPECT: cudagraph-capture-without-destroy
#ifdef BUGGY
  LBM_TRY(cudaGraphInstantiate(&exec, graph, 0), out_stream);
#else
  LBM_TRY(cudaGraphInstantiate(&exec, graph, 0), out_graph);
#endif

  for (t = 0; t < steps; ++t) {
    LBM_TRY(cudaGraphLaunch(exec, s), out_exec);
    if ((t & 1023) == 1023) LBM_TRY(cudaStreamSynchronize(s), out_exec);
  }
  LBM_TRY(cudaStreamSynchronize(s), out_exec);

out_exec:
  cudaGraphExecDestroy(exec);
out_graph:
  cudaGraphDestroy(graph);
out_stream:
  cudaStreamDestroy(s);
out:
  return err;
}

int lbm_main(int nx, int ny, int steps) {
  lbm_grid g;
  size_t bytes = (size_t)nx * ny * sizeof(float);
  g.nx = nx; g.ny = ny; g.omega = 1.7f;
  if (cudaMalloc((void **)&g.f_in, bytes) != cudaSuccess) return 1;
  if (cudaMalloc((void **)&g.f_out, bytes) != cudaSuccess) { cudaFree(g.f_in); return 1; }
  cudaError_t err = lbm_run(&g, steps);
  cudaFree(g.f_out);
  cudaFree(g.f_in);
  return err == cudaSuccess ? 0 : 1;
}
