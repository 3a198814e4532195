/* C-style solver context with an init/free pair: init_ctx acquires every field
 * (unwinding with goto on failure), free_ctx releases every field and zeroes
 * the struct. Correct throughout. */
#include <cuda_runtime.h>
#include <stdio.h>
#include <string.h>

typedef struct {
  int n;
  cudaStream_t stream;
  cudaEvent_t t0, t1;
  double *d_x, *d_r, *d_p;
  double *h_norms;
  cudaGraph_t graph;
  cudaGraphExec_t exec;
} cg_ctx;

__global__ void cg_iter(double *x, double *r, double *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    x[i] += 0.1 * p[i];
    r[i] -= 0.1 * p[i];
  }
}

int init_ctx(cg_ctx *c, int n) {
  memset(c, 0, sizeof(*c));
  c->n = n;
  if (cudaStreamCreate(&c->stream) != cudaSuccess) goto fail;
  if (cudaEventCreate(&c->t0) != cudaSuccess) goto fail_stream;
  if (cudaEventCreate(&c->t1) != cudaSuccess) goto fail_t0;
  if (cudaMalloc((void **)&c->d_x, n * sizeof(double)) != cudaSuccess) goto fail_t1;
  if (cudaMalloc((void **)&c->d_r, n * sizeof(double)) != cudaSuccess) goto fail_x;
  if (cudaMalloc((void **)&c->d_p, n * sizeof(double)) != cudaSuccess) goto fail_r;
  if (cudaMallocHost((void **)&c->h_norms, 1024 * sizeof(double)) != cudaSuccess) goto fail_p;
  return 0;
fail_p:
  cudaFree(c->d_p);
fail_r:
  cudaFree(c->d_r);
fail_x:
  cudaFree(c->d_x);
fail_t1:
  cudaEventDestroy(c->t1);
fail_t0:
  cudaEventDestroy(c->t0);
fail_stream:
  cudaStreamDestroy(c->stream);
fail:
  memset(c, 0, sizeof(*c));
  return -1;
}

int ctx_build_graph(cg_ctx *c) {
  if (c->exec) return 0;
  if (cudaStreamBeginCapture(c->stream, cudaStreamCaptureModeGlobal) != cudaSuccess) return -1;
  cg_iter<<<(c->n + 255) / 256, 256, 0, c->stream>>>(c->d_x, c->d_r, c->d_p, c->n);
  if (cudaStreamEndCapture(c->stream, &c->graph) != cudaSuccess) return -1;
  if (cudaGraphInstantiate(&c->exec, c->graph, 0) != cudaSuccess) {
    cudaGraphDestroy(c->graph);
    c->graph = NULL;
    return -1;
  }
  return 0;
}

void free_ctx(cg_ctx *c) {
  if (c->exec) cudaGraphExecDestroy(c->exec);
  if (c->graph) cudaGraphDestroy(c->graph);
  cudaFreeHost(c->h_norms);
  cudaFree(c->d_p);
  cudaFree(c->d_r);
  cudaFree(c->d_x);
  cudaEventDestroy(c->t1);
  cudaEventDestroy(c->t0);
  cudaStreamDestroy(c->stream);
  memset(c, 0, sizeof(*c));
}

int solve(int n, int iters) {
  cg_ctx c;
  if (init_ctx(&c, n) != 0) return 1;
  if (ctx_build_graph(&c) != 0) {
    free_ctx(&c);
    return 2;
  }
  cudaEventRecord(c.t0, c.stream);
  for (int i = 0; i < iters; ++i) cudaGraphLaunch(c.exec, c.stream);
  cudaEventRecord(c.t1, c.stream);
  cudaEventSynchronize(c.t1);
  float ms = 0.f;
  cudaEventElapsedTime(&ms, c.t0, c.t1);
  printf("%d iterations in %.3f ms\n", iters, ms);
  free_ctx(&c);
  return 0;
}
